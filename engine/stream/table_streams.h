// engine/stream/table_streams.h
//
// A table's stream as CreateTable, UpdateTable, DeleteTable and
// DescribeTable see it: StreamSpecification's rules and messages, and the
// table description's StreamSpecification / LatestStreamArn /
// LatestStreamLabel kept in step with the StreamLog. The specification is
// part of the table's catalog record, so a restart keeps it.

#ifndef DYNAROCK_ENGINE_STREAM_TABLE_STREAMS_H_
#define DYNAROCK_ENGINE_STREAM_TABLE_STREAMS_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "engine/stream/stream_log.h"
#include "engine/types.h"

namespace dynarock {

// The table a stream change applies to.
struct StreamTable {
  uint32_t table_id = 0;
  std::string ns;
  std::string region;
  const TableDescription* desc = nullptr;  // not owned
  KeyDef key;
  // The table's partitions now: one shard each.
  std::vector<std::pair<uint64_t, uint64_t>> partitions;
};

// CreateTable's StreamSpecification: StreamEnabled true needs a
// StreamViewType. Errors: kValidation.
Status CheckCreateStream(const StreamSpecification& spec);
// UpdateTable's against the table's current stream: a view type with
// StreamEnabled false, enabling an enabled stream (whatever the view type)
// or disabling a table without one is refused with DynamoDB's messages
// (as observed on DynamoDB in 2026). Errors: kValidation.
Status CheckUpdateStream(const TableDescription& current,
                         const StreamSpecification& spec);

// Enables or disables the stream in `log` and sets `desc`'s stream
// members accordingly (the caller persists `desc` in the catalog record).
// REQUIRES: the Check function above passed.
Status ApplyStreamSpecification(StreamLog* log, const StreamTable& table,
                                const StreamSpecification& spec,
                                TableDescription* desc);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STREAM_TABLE_STREAMS_H_
