#include "engine/stream/table_streams.h"

namespace dynarock {

Status CheckCreateStream(const StreamSpecification& spec) {
  if (spec.stream_enabled && !spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: You must specify a "
        "StreamViewType when enabling a stream");
  }
  return Status::OK();
}

Status CheckUpdateStream(const TableDescription& current,
                         const StreamSpecification& spec) {
  DR_RETURN_IF_ERROR(CheckCreateStream(spec));
  const bool enabled =
      current.stream_specification && current.stream_specification->stream_enabled;
  if (spec.stream_enabled && enabled) {
    return Status::Validation("Table already has an enabled stream: TableName: " +
                              current.table_name);
  }
  if (!spec.stream_enabled && !enabled) {
    return Status::Validation("Table has no stream to disable: TableName: " +
                              current.table_name);
  }
  return Status::OK();
}

Status ApplyStreamSpecification(StreamLog* log, const StreamTable& table,
                                const StreamSpecification& spec,
                                TableDescription* desc) {
  if (!spec.stream_enabled) {
    DR_RETURN_IF_ERROR(log->Disable(table.table_id));
    if (desc->stream_specification) {
      desc->stream_specification = StreamSpecification{false, std::nullopt};
    }
    return Status::OK();
  }
  DR_ASSIGN_OR_RETURN(
      StreamInfo s,
      log->Enable(table.table_id, table.ns, table.desc->table_name,
                  table.desc->table_arn, table.region, *spec.stream_view_type,
                  table.desc->key_schema, table.key, table.partitions));
  desc->stream_specification = spec;
  desc->latest_stream_arn = s.arn;
  desc->latest_stream_label = s.label;
  return Status::OK();
}

}  // namespace dynarock
