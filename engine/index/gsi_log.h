// engine/index/gsi_log.h
//
// The GSI log: durable records of the index changes that base writes owe to
// their global secondary indexes. A base write puts its records in the SAME
// WriteBatch as the item, so an item change and its pending index changes
// are committed together or not at all; the propagator (propagator.h)
// applies them to the indexes column family later and deletes each record
// in the batch that applies it. After a crash the log is simply read again:
// no index change is lost, and none is applied twice.
//
// Record key (gsi_log column family):  index_id (4 BE) | seq (8 BE)
// Record value:                        version (1) | time_micros (signed
//                                      varint) | flags (1) | [delete key]
//                                      | [put key | put value]
//                                      | [deleted size (varint)]
//                                      | [overwritten size (signed varint)]
//
// Version 1 records have no sizes; version 2 adds them, present when the
// flags say so (a version 2 reader reads both).
//
// Keys sort by index, then by sequence: the records of one index are one
// range, applied in order. Sequence numbers come from one engine-wide
// counter and are assigned under the item's lock, so the records of one item
// are in the order its writes committed. Records of different items touch
// different entries (the entry key ends with the item's primary key), so
// their relative order does not matter. A key change is one record holding
// the delete of the old entry and the put of the new one.
//
// These bytes are on disk: never change the meaning of a field.

#ifndef DYNAROCK_ENGINE_INDEX_GSI_LOG_H_
#define DYNAROCK_ENGINE_INDEX_GSI_LOG_H_

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "engine/util/mutex.h"

namespace dynarock {

struct GsiLogRecord {
  // When the base write happened (the engine clock); the record is due at
  // time_micros + the index's lag.
  int64_t time_micros = 0;
  // The entry to remove (the item's old entry), if any.
  std::optional<std::string> delete_key;
  // The entry to write (the item's new entry), if any.
  std::optional<std::string> put_key;
  std::string put_value;
  // Whether the writer knew the entries this record replaces
  // (IndexWriter::Stage sets it when the index will hold exactly the
  // entries of the item's previous state when the record applies: no
  // backfill running, a well-formed previous item). The propagator then
  // counts the index's bytes with these sizes instead of reading the
  // entries: the size (IndexEntry::size) of the entry at delete_key, and of
  // the entry at put_key before the put (-1: none there).
  bool sizes_known = false;
  int64_t deleted_size = 0;
  int64_t overwritten_size = -1;
};

std::string GsiLogKey(uint32_t index_id, uint64_t seq);
// Splits a key written by GsiLogKey. Errors: kCorruption.
Status ParseGsiLogKey(std::string_view key, uint32_t* index_id, uint64_t* seq);

void EncodeGsiLogRecord(const GsiLogRecord& record, std::string* out);
// Errors: kCorruption.
Result<GsiLogRecord> DecodeGsiLogRecord(std::string_view bytes);

// Hands out log sequence numbers with their timestamps, and knows which of
// them may still be uncommitted: the propagator may only move its scan
// floor past a sequence number once the write holding it has committed (or
// given up), since a later number can commit first.
//
// Thread-safe.
class SequenceTracker {
 public:
  struct Ticket {
    uint64_t seq = 0;
    int64_t time_micros = 0;
  };

  // Starts numbering after `last_used` (the largest sequence in the log).
  void Reset(uint64_t last_used);

  // A new sequence number and its time: `now_micros`, raised if needed so
  // that times never decrease as sequence numbers increase. The number is
  // in flight until Release.
  Ticket Reserve(int64_t now_micros);
  // The write holding `seq` committed or failed.
  void Release(uint64_t seq);

  // Every sequence number below the watermark is settled: its records, if
  // any were committed, are visible to an iterator created after this call.
  uint64_t Watermark() const;
  // The next sequence number to be handed out: every write reserved before
  // this call holds a lower one.
  uint64_t Next() const;

 private:
  mutable Mutex mu_;
  uint64_t next_ GUARDED_BY(mu_) = 1;
  int64_t last_time_ GUARDED_BY(mu_) = 0;
  std::multiset<uint64_t> in_flight_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_GSI_LOG_H_
