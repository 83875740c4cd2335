#include "engine/keys/key_codec.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "tests/testutil/status_matchers.h"

namespace dynarock::keys {
namespace {

AttributeValue Num(const char* text) {
  auto n = Number::Parse(text);
  EXPECT_TRUE(n.ok()) << text;
  return AttributeValue::N(n.ok() ? n.value() : Number());
}

std::string Enc(const AttributeValue& v) {
  std::string out;
  AppendOrdered(v, &out);
  return out;
}

TEST(KeyCodecTest, NumbersOrderNumerically) {
  // Ascending by value: negatives (larger magnitude first), zero, fractions.
  const char* ascending[] = {"-1E+125", "-100", "-99.5", "-10", "-1.23", "-1.2",
                             "-1", "-0.5", "-1E-130", "0", "1E-130", "0.001",
                             "0.5", "1", "1.2", "1.23", "2", "10", "99.5",
                             "100", "123456789012345678901234567890", "9.9E+125"};
  for (size_t i = 0; i + 1 < std::size(ascending); ++i) {
    EXPECT_LT(Enc(Num(ascending[i])), Enc(Num(ascending[i + 1])))
        << ascending[i] << " vs " << ascending[i + 1];
  }
}

TEST(KeyCodecTest, EqualNumbersEncodeAlike) {
  EXPECT_EQ(Enc(Num("1")), Enc(Num("1.0")));
  EXPECT_EQ(Enc(Num("100")), Enc(Num("1E2")));
  EXPECT_EQ(Enc(Num("0")), Enc(Num("-0.000")));
}

TEST(KeyCodecTest, StringsOrderAsUnsignedBytes) {
  std::vector<std::string> values = {"", "a", std::string("a\0", 2),
                                     std::string("a\0b", 3), "ab", "b",
                                     "\x7f", "\x80", "\xff", "\xff\xff"};
  for (size_t i = 0; i + 1 < values.size(); ++i) {
    EXPECT_LT(Enc(AttributeValue::S(values[i])), Enc(AttributeValue::S(values[i + 1])))
        << i;
  }
}

TEST(KeyCodecTest, RoundTripsEveryKeyType) {
  std::vector<AttributeValue> values = {
      AttributeValue::S("hello"), AttributeValue::S(std::string("\0\0x\0", 4)),
      AttributeValue::B(std::string("\x00\xff\x01", 3)), Num("-12.5"),
      Num("0"), Num("98765432109876543210987654321098765432"), Num("1E-130")};
  for (const auto& v : values) {
    std::string buf = Enc(v);
    buf += "trailing";
    std::string_view in = buf;
    ASSERT_OK_AND_ASSIGN(AttributeValue back, DecodeOrdered(v.type(), &in));
    EXPECT_EQ(back, v);
    EXPECT_EQ(in, "trailing");
  }
}

TEST(KeyCodecTest, DecodeRejectsGarbage) {
  for (std::string bad : {std::string(""), std::string("abc"), std::string("\x03", 1),
                          std::string("\x03\x80\x00\x0b\x00", 5)}) {
    std::string_view in = bad;
    EXPECT_THAT(DecodeOrdered(AttrType::kN, &in), StatusIs(ErrorCode::kCorruption, ::testing::_));
  }
  std::string unterminated = "abc";
  std::string_view in = unterminated;
  EXPECT_THAT(DecodeOrdered(AttrType::kS, &in), StatusIs(ErrorCode::kCorruption, ::testing::_));
}

TEST(KeyCodecTest, ItemsOfOnePartitionAreContiguousAndSortedBySortKey) {
  const AttributeValue pk = AttributeValue::S("CUSTOMER#1");
  std::vector<std::string> keys;
  for (const char* sk : {"ORDER#2", "ORDER#10", "A", "ORDER#1"}) {
    AttributeValue s = AttributeValue::S(sk);
    keys.push_back(ItemKey(7, pk, &s));
  }
  // Same prefix: table id + hash + partition key.
  const std::string prefix = keys[0].substr(0, 12);
  for (const auto& k : keys) EXPECT_EQ(k.substr(0, 12), prefix);
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  EXPECT_EQ(sorted[0], keys[2]);  // "A"
  EXPECT_EQ(sorted[1], keys[3]);  // "ORDER#1"
  EXPECT_EQ(sorted[2], keys[1]);  // "ORDER#10"
  EXPECT_EQ(sorted[3], keys[0]);  // "ORDER#2"
}

TEST(KeyCodecTest, TablesAreDisjointRanges) {
  AttributeValue pk = AttributeValue::S("x");
  const std::string k = ItemKey(5, pk, nullptr);
  EXPECT_GE(k, TablePrefix(5));
  EXPECT_LT(k, TableEnd(5));
  EXPECT_LT(k, TablePrefix(6));
  EXPECT_GT(k, TableEnd(4));
}

TEST(KeyCodecTest, PartitionHashIgnoresNumberSpelling) {
  EXPECT_EQ(PartitionHash(Num("1")), PartitionHash(Num("1.00")));
  EXPECT_NE(PartitionHash(Num("1")), PartitionHash(AttributeValue::S("1")));
}

TEST(KeyCodecTest, HashOfKeyReadsTheHashAnItemKeyCarries) {
  const AttributeValue pk = AttributeValue::S("order#1");
  const AttributeValue sk = Num("7");
  EXPECT_EQ(HashOfKey(ItemKey(5, pk, &sk)), PartitionHash(pk));
  EXPECT_EQ(HashOfKey(ItemKey(5, pk, nullptr)), PartitionHash(pk));
  // A bound at the start of a table's ring has no hash.
  EXPECT_EQ(HashOfKey(TablePrefix(5)), 0u);
  EXPECT_EQ(ItemKey(5, pk, nullptr).substr(kHashedPrefixSize), Enc(pk));
}

TEST(KeyCodecTest, HashRangesHoldExactlyTheKeysOfTheirHashes) {
  const AttributeValue pk = AttributeValue::S("a");
  const uint64_t h = PartitionHash(pk);
  const std::string key = ItemKey(9, pk, nullptr);
  // [h, h + 1) holds the key; [0, h) and [h + 1, end of ring) do not.
  EXPECT_LE(HashRangeStart(9, h), key);
  EXPECT_LT(key, HashRangeEnd(9, h + 1));
  EXPECT_LT(HashRangeEnd(9, h), key);
  EXPECT_GT(HashRangeStart(9, h + 1), key);
  // End 0 is the end of the ring: the table's end, after every hash.
  EXPECT_EQ(HashRangeEnd(9, 0), TableEnd(9));
  EXPECT_LT(ItemKey(9, pk, nullptr), HashRangeEnd(9, 0));
  EXPECT_EQ(HashRangeStart(9, 0).substr(0, 4), TablePrefix(9));
  EXPECT_EQ(HashOfKey(HashRangeStart(9, h)), h);
}

TEST(PrefixSuccessorTest, IncrementsPastTrailingFfBytes) {
  EXPECT_EQ(PrefixSuccessor("ab"), "ac");
  EXPECT_EQ(PrefixSuccessor(std::string("a\xff\xff", 3)), "b");
  EXPECT_EQ(PrefixSuccessor(std::string("\xff", 1)), "");
}

TEST(KeyCodecTest, MultiAttributePartitionHashesTheValuesTogether) {
  const AttributeValue a = AttributeValue::S("a");
  const AttributeValue one = Num("1");
  const AttributeValue one_again = Num("1.0");
  const AttributeValue* single[] = {&a};
  // One value: the same hash and prefix as a one-attribute key.
  EXPECT_EQ(PartitionHash(single), PartitionHash(a));
  EXPECT_EQ(PartitionPrefix(9, single), ItemKey(9, a, nullptr));
  const AttributeValue* a1[] = {&a, &one};
  const AttributeValue* a1b[] = {&a, &one_again};
  const AttributeValue* one_a[] = {&one, &a};
  EXPECT_EQ(PartitionHash(a1), PartitionHash(a1b));  // equal numbers
  EXPECT_NE(PartitionHash(a1), PartitionHash(one_a));  // order matters
  EXPECT_NE(PartitionHash(a1), PartitionHash(a));
  const std::string prefix = PartitionPrefix(9, a1);
  EXPECT_EQ(HashOfKey(prefix), PartitionHash(a1));
  EXPECT_EQ(prefix.substr(kHashedPrefixSize), Enc(a) + Enc(one));
}

TEST(KeyCodecTest, ConcatenatedOrderedValuesSortAttributeByAttribute) {
  // (S, N) tuples: the first attribute decides, then the second, each by
  // its own type; "a" < "ab" even though "a" + N(9) vs "ab" + N(1).
  const std::vector<std::pair<std::string, const char*>> sorted = {
      {"a", "-5"}, {"a", "2"}, {"a", "10"}, {"ab", "-1"}, {"ab", "1"}, {"b", "0"}};
  std::vector<std::string> encoded;
  for (const auto& [s, n] : sorted) encoded.push_back(Enc(AttributeValue::S(s)) + Enc(Num(n)));
  EXPECT_TRUE(std::is_sorted(encoded.begin(), encoded.end()));
}

}  // namespace
}  // namespace dynarock::keys
