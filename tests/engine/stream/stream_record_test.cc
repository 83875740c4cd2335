#include "engine/stream/stream_record.h"

#include <gtest/gtest.h>

#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"
#include "tests/testutil/status_matchers.h"

namespace dynarock {
namespace {

KeyDef Key() {
  KeyDef k;
  k.hash_name = "pk";
  k.range_name = "sk";
  k.range_type = AttrType::kN;
  return k;
}

Item MakeItem(const char* v) {
  Item item;
  item["pk"] = AttributeValue::S("a");
  item["sk"] = AttributeValue::N(*Number::Parse("1"));
  item["v"] = AttributeValue::S(v);
  return item;
}

// EncodeChangeRecord as the write path calls it: each side's item with its
// stored encoding and size.
std::optional<std::string> Record(StreamViewType view, const KeyDef& key,
                                  const std::optional<Item>& before,
                                  const std::optional<Item>& after, int64_t now,
                                  const std::optional<StreamUserIdentity>& who) {
  std::string before_bytes, after_bytes;
  if (before) EncodeItem(*before, &before_bytes);
  if (after) EncodeItem(*after, &after_bytes);
  return EncodeChangeRecord(
      view, key,
      ItemImage{before ? &*before : nullptr, before_bytes, before ? ItemSize(*before) : 0},
      ItemImage{after ? &*after : nullptr, after_bytes, after ? ItemSize(*after) : 0},
      now, who);
}

StoredStreamRecord Decode(const std::optional<std::string>& bytes) {
  EXPECT_TRUE(bytes.has_value());
  Result<StoredStreamRecord> r = DecodeStreamRecord(*bytes);
  EXPECT_OK(r.status());
  return std::move(r).value();
}

TEST(StreamRecordTest, EventNameFollowsTheChange) {
  const Item a = MakeItem("1"), b = MakeItem("2");
  const auto view = StreamViewType::kNewAndOldImages;
  EXPECT_EQ(Decode(Record(view, Key(), std::nullopt, a, 5, {})).event_name,
            StreamEventName::kInsert);
  EXPECT_EQ(Decode(Record(view, Key(), a, b, 5, {})).event_name,
            StreamEventName::kModify);
  EXPECT_EQ(Decode(Record(view, Key(), a, std::nullopt, 5, {})).event_name,
            StreamEventName::kRemove);
}

TEST(StreamRecordTest, NoRecordWhenNothingChanged) {
  const Item a = MakeItem("1");
  EXPECT_FALSE(Record(StreamViewType::kKeysOnly, Key(), a, a, 5, {}));
  EXPECT_FALSE(Record(StreamViewType::kKeysOnly, Key(), std::nullopt,
                                  std::nullopt, 5, {}));
}

TEST(StreamRecordTest, SameItemWithSetMembersInAnotherOrderWritesNoRecord) {
  Item a = MakeItem("1"), b = MakeItem("1");
  a["tags"] = AttributeValue::SS({"x", "y"});
  b["tags"] = AttributeValue::SS({"y", "x"});
  std::string a_bytes, b_bytes;
  EncodeItem(a, &a_bytes);
  EncodeItem(b, &b_bytes);
  // Only the item comparison can tell these apart from a change.
  ASSERT_NE(a_bytes, b_bytes);
  EXPECT_FALSE(Record(StreamViewType::kNewAndOldImages, Key(), a, b, 5, {}));
}

TEST(StreamRecordTest, SameSizedChangeWritesARecord) {
  const Item a = MakeItem("1"), b = MakeItem("2");
  ASSERT_EQ(ItemSize(a), ItemSize(b));
  StoredStreamRecord r =
      Decode(Record(StreamViewType::kNewAndOldImages, Key(), a, b, 5, {}));
  EXPECT_EQ(r.event_name, StreamEventName::kModify);
  EXPECT_EQ(r.old_image, a);
  EXPECT_EQ(r.new_image, b);
  EXPECT_EQ(r.size_bytes, ItemSize(r.keys) + ItemSize(a) + ItemSize(b));
}

TEST(StreamRecordTest, ImagesAreTheGivenEncodings) {
  // The record copies the caller's bytes: an image decodes to the item those
  // bytes hold, whatever `item` points at.
  const Item a = MakeItem("1"), b = MakeItem("2"), stored = MakeItem("3");
  std::string stored_bytes, b_bytes;
  EncodeItem(stored, &stored_bytes);
  EncodeItem(b, &b_bytes);
  StoredStreamRecord r = Decode(EncodeChangeRecord(
      StreamViewType::kNewAndOldImages, Key(),
      ItemImage{&a, stored_bytes, ItemSize(stored)},
      ItemImage{&b, b_bytes, ItemSize(b)}, 5, {}));
  EXPECT_EQ(r.old_image, stored);
  EXPECT_EQ(r.new_image, b);
}

TEST(StreamRecordTest, ImagesPerViewType) {
  const Item a = MakeItem("1"), b = MakeItem("2");
  Item keys;
  keys["pk"] = a.at("pk");
  keys["sk"] = a.at("sk");
  StoredStreamRecord r = Decode(Record(StreamViewType::kKeysOnly, Key(), a, b, 5, {}));
  EXPECT_EQ(r.keys, keys);
  EXPECT_FALSE(r.new_image);
  EXPECT_FALSE(r.old_image);
  r = Decode(Record(StreamViewType::kNewImage, Key(), a, b, 5, {}));
  EXPECT_EQ(r.new_image, b);
  EXPECT_FALSE(r.old_image);
  r = Decode(Record(StreamViewType::kOldImage, Key(), a, b, 5, {}));
  EXPECT_FALSE(r.new_image);
  EXPECT_EQ(r.old_image, a);
  r = Decode(Record(StreamViewType::kNewAndOldImages, Key(), a, b, 5, {}));
  EXPECT_EQ(r.new_image, b);
  EXPECT_EQ(r.old_image, a);
  EXPECT_EQ(r.created_micros, 5);
  EXPECT_GT(r.size_bytes, 0);
  int64_t created = 0;
  ASSERT_TRUE(StreamRecordCreatedMicros(
      *Record(StreamViewType::kKeysOnly, Key(), a, b, 77, {}), &created));
  EXPECT_EQ(created, 77);
}

TEST(StreamRecordTest, UserIdentityRoundTrips) {
  const StreamUserIdentity ttl{"Service", "dynamodb.amazonaws.com"};
  StoredStreamRecord r = Decode(Record(
      StreamViewType::kOldImage, Key(), MakeItem("1"), std::nullopt, 5, ttl));
  EXPECT_EQ(r.user_identity, ttl);
  EXPECT_FALSE(Decode(Record(StreamViewType::kOldImage, Key(), MakeItem("1"),
                                         std::nullopt, 5, {}))
                   .user_identity);
}

TEST(StreamRecordTest, MalformedRecordsAreCorruption) {
  EXPECT_FALSE(DecodeStreamRecord("").ok());
  EXPECT_FALSE(DecodeStreamRecord("\x01\x09xx").ok());
  std::string good = *Record(StreamViewType::kNewImage, Key(), std::nullopt,
                                         MakeItem("1"), 5, {});
  for (size_t n = 0; n < good.size(); ++n) {
    EXPECT_FALSE(DecodeStreamRecord(good.substr(0, n)).ok()) << n;
  }
}

TEST(StreamRecordTest, SequenceNumbersSortAsText) {
  EXPECT_EQ(SequenceNumberText(42), "000000000000000000042");
  EXPECT_LT(SequenceNumberText(9), SequenceNumberText(10));
  EXPECT_EQ(ParseSequenceNumber("000000000000000000042"), 42u);
  EXPECT_EQ(ParseSequenceNumber(SequenceNumberText(UINT64_MAX)), UINT64_MAX);
  EXPECT_FALSE(ParseSequenceNumber("99999999999999999999999"));
  EXPECT_FALSE(ParseSequenceNumber("12a"));
  EXPECT_FALSE(ParseSequenceNumber(""));
  EXPECT_EQ(StreamEventId(1, 2), StreamEventId(1, 2));
  EXPECT_NE(StreamEventId(1, 2), StreamEventId(1, 3));
  EXPECT_EQ(StreamEventId(1, 2).size(), 32u);
}

}  // namespace
}  // namespace dynarock
