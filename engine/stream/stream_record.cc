#include "engine/stream/stream_record.h"

#include <xxhash.h>

#include <cstdio>
#include <utility>

#include "engine/util/coding.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

// Record format (values in the streams column family; append only):
//   version(1) event(1) created(signed varint) size(varint) flags(1)
//   keys(length-prefixed item) [new image] [old image] [identity type,
//   principal], flags bit 0: new image, bit 1: old image, bit 2: identity.
constexpr uint8_t kRecordVersion = 1;
constexpr uint8_t kHasNew = 1;
constexpr uint8_t kHasOld = 2;
constexpr uint8_t kHasIdentity = 4;

void PutItem(RecordWriter& w, const Item& item) {
  std::string bytes;
  EncodeItem(item, &bytes);
  w.String(bytes);
}

Result<Item> GetItem(std::string_view* in) {
  std::string_view bytes;
  if (!GetLengthPrefixed(in, &bytes)) {
    return Status::Corruption("truncated stream record");
  }
  return DecodeItem(bytes);
}

Item KeysOf(const KeyDef& key, const Item& item) {
  Item keys;
  auto copy = [&](const std::string& name) {
    auto it = item.find(name);
    if (it != item.end()) keys.emplace(it->first, it->second);
  };
  copy(key.hash_name);
  if (key.range_name) copy(*key.range_name);
  return keys;
}

}  // namespace

std::optional<std::string> EncodeChangeRecord(
    StreamViewType view, const KeyDef& key, const ItemImage& before,
    const ItemImage& after, int64_t now_micros,
    const std::optional<StreamUserIdentity>& user_identity) {
  const Item* old_item = before.item;
  const Item* new_item = after.item;
  if (old_item == nullptr && new_item == nullptr) return std::nullopt;
  // Equal items have equal sizes, so only same-sized images are compared;
  // equal bytes are equal items, and otherwise the items decide (a set's
  // members may be stored in another order).
  if (old_item != nullptr && new_item != nullptr && before.size == after.size &&
      (before.encoded == after.encoded || *old_item == *new_item)) {
    return std::nullopt;
  }
  const StreamEventName event = old_item == nullptr   ? StreamEventName::kInsert
                                : new_item == nullptr ? StreamEventName::kRemove
                                                      : StreamEventName::kModify;
  const Item key_item = KeysOf(key, new_item != nullptr ? *new_item : *old_item);
  std::string keys;
  EncodeItem(key_item, &keys);
  const bool with_new = new_item != nullptr &&
                        (view == StreamViewType::kNewImage ||
                         view == StreamViewType::kNewAndOldImages);
  const bool with_old = old_item != nullptr &&
                        (view == StreamViewType::kOldImage ||
                         view == StreamViewType::kNewAndOldImages);
  int64_t size = ItemSize(key_item);
  if (with_new) size += after.size;
  if (with_old) size += before.size;
  std::string out;
  RecordWriter w(&out);
  // Header (at most 23 bytes), three length prefixes (at most 5 each), the
  // images, the identity: one allocation.
  out.reserve(48 + keys.size() + (with_new ? after.encoded.size() : 0) +
              (with_old ? before.encoded.size() : 0) +
              (user_identity ? user_identity->type.size() +
                                   user_identity->principal_id.size()
                             : 0));
  w.Byte(kRecordVersion);
  w.Byte(event);
  w.Signed(now_micros);
  w.Varint(static_cast<uint64_t>(size));
  w.Byte((with_new ? kHasNew : 0) |
         (with_old ? kHasOld : 0) |
         (user_identity ? kHasIdentity : 0));
  w.String(keys);
  if (with_new) w.String(after.encoded);
  if (with_old) w.String(before.encoded);
  if (user_identity) {
    w.String(user_identity->type);
    w.String(user_identity->principal_id);
  }
  return out;
}

void EncodeStreamRecord(const StoredStreamRecord& r, std::string* out) {
  RecordWriter w(out);
  w.Byte(kRecordVersion);
  w.Byte(r.event_name);
  w.Signed(r.created_micros);
  w.Varint(static_cast<uint64_t>(r.size_bytes));
  w.Byte((r.new_image ? kHasNew : 0) |
         (r.old_image ? kHasOld : 0) |
         (r.user_identity ? kHasIdentity : 0));
  PutItem(w, r.keys);
  if (r.new_image) PutItem(w, *r.new_image);
  if (r.old_image) PutItem(w, *r.old_image);
  if (r.user_identity) {
    w.String(r.user_identity->type);
    w.String(r.user_identity->principal_id);
  }
}

Result<StoredStreamRecord> DecodeStreamRecord(std::string_view in) {
  const Status corrupt = Status::Corruption("malformed stream record");
  if (in.size() < 3 || static_cast<uint8_t>(in[0]) != kRecordVersion) {
    return corrupt;
  }
  StoredStreamRecord r;
  const uint8_t event = static_cast<uint8_t>(in[1]);
  if (event < 1 || event > 3) return corrupt;
  r.event_name = static_cast<StreamEventName>(event);
  in.remove_prefix(2);
  uint64_t size = 0;
  if (!GetSignedVarint64(&in, &r.created_micros) || !GetVarint64(&in, &size) ||
      in.empty()) {
    return corrupt;
  }
  r.size_bytes = static_cast<int64_t>(size);
  const uint8_t flags = static_cast<uint8_t>(in[0]);
  in.remove_prefix(1);
  DR_ASSIGN_OR_RETURN(r.keys, GetItem(&in));
  if (flags & kHasNew) {
    DR_ASSIGN_OR_RETURN(Item item, GetItem(&in));
    r.new_image = std::move(item);
  }
  if (flags & kHasOld) {
    DR_ASSIGN_OR_RETURN(Item item, GetItem(&in));
    r.old_image = std::move(item);
  }
  if (flags & kHasIdentity) {
    std::string_view type, principal;
    if (!GetLengthPrefixed(&in, &type) || !GetLengthPrefixed(&in, &principal)) {
      return corrupt;
    }
    r.user_identity = StreamUserIdentity{std::string(type), std::string(principal)};
  }
  return r;
}

bool StreamRecordCreatedMicros(std::string_view in, int64_t* micros) {
  if (in.size() < 3 || static_cast<uint8_t>(in[0]) != kRecordVersion) {
    return false;
  }
  in.remove_prefix(2);
  return GetSignedVarint64(&in, micros);
}

std::string SequenceNumberText(uint64_t seq) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%021llu",
                static_cast<unsigned long long>(seq));
  return buf;
}

std::optional<uint64_t> ParseSequenceNumber(std::string_view text) {
  if (text.empty() || text.size() > 40) return std::nullopt;
  uint64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (v > (UINT64_MAX - digit) / 10) return std::nullopt;
    v = v * 10 + digit;
  }
  return v;
}

std::string StreamEventId(uint32_t stream_id, uint64_t seq) {
  std::string key;
  PutFixed32BE(&key, stream_id);
  PutFixed64BE(&key, seq);
  char buf[40];
  std::snprintf(buf, sizeof(buf), "%016llx%016llx",
                static_cast<unsigned long long>(XXH64(key.data(), key.size(), 1)),
                static_cast<unsigned long long>(XXH64(key.data(), key.size(), 2)));
  return buf;
}

}  // namespace dynarock
