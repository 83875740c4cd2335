// engine/stream/stream_record.h
//
// A DynamoDB Streams record as the engine stores it: the change of one item
// (INSERT, MODIFY or REMOVE), with the key and the images its stream's
// StreamViewType asks for, its creation time on the engine clock, its size
// and, for changes the service made (TTL), a user identity. The sequence
// number is not in the record: it is the record's key in the streams
// column family (engine/stream/stream_log.h), assigned at commit.
//
// Also: the text forms of sequence numbers (21 decimal digits, so that
// text order is numeric order) and of event ids. Pure functions.

#ifndef DYNAROCK_ENGINE_STREAM_STREAM_RECORD_H_
#define DYNAROCK_ENGINE_STREAM_STREAM_RECORD_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/requests/stream_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

struct StoredStreamRecord {
  StreamEventName event_name = StreamEventName::kInsert;
  int64_t created_micros = 0;
  Item keys;
  std::optional<Item> new_image;
  std::optional<Item> old_image;
  int64_t size_bytes = 0;
  std::optional<StreamUserIdentity> user_identity;
};

// One side of an item change as the write path holds it: the item, its
// stored encoding (EncodeItem's bytes) and its ItemSize. The record copies
// the encoding instead of encoding the item again (a NEW_AND_OLD_IMAGES
// record is about three times the item). `item` null: no item on this side.
struct ItemImage {
  const Item* item = nullptr;
  std::string_view encoded;  // views the caller's bytes
  int64_t size = 0;
};

// The encoded record of one item's change, or nullopt when the change
// writes no record: nothing before and after, or the same item before and
// after (DynamoDB writes no record for a put or update that changes
// nothing). `key` names the table's key attributes.
std::optional<std::string> EncodeChangeRecord(
    StreamViewType view, const KeyDef& key, const ItemImage& before,
    const ItemImage& after, int64_t now_micros,
    const std::optional<StreamUserIdentity>& user_identity);

void EncodeStreamRecord(const StoredStreamRecord& record, std::string* out);
// Errors: kCorruption.
Result<StoredStreamRecord> DecodeStreamRecord(std::string_view bytes);
// The creation time alone (for trimming); false when malformed.
bool StreamRecordCreatedMicros(std::string_view bytes, int64_t* micros);

// "000000000000000000042": 21 digits.
std::string SequenceNumberText(uint64_t seq);
// The inverse; nullopt unless 1..40 decimal digits that fit in 64 bits.
std::optional<uint64_t> ParseSequenceNumber(std::string_view text);
// A 32-hex-digit id, the same every time the record is read.
std::string StreamEventId(uint32_t stream_id, uint64_t seq);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STREAM_STREAM_RECORD_H_
