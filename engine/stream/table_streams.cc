#include "engine/stream/table_streams.h"

namespace dynarock {

Status CheckCreateStream(const StreamSpecification& spec) {
  if (spec.stream_enabled && !spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: If stream is being enabled then "
        "UpdateViewType is required");
  }
  return Status::OK();
}

Status CheckUpdateStream(const TableDescription& current,
                         const StreamSpecification& spec) {
  DR_RETURN_IF_ERROR(CheckCreateStream(spec));
  if (!spec.stream_enabled && spec.stream_view_type) {
    return Status::Validation(
        "One or more parameter values were invalid: If stream is being disabled, then "
        "UpdateViewType must not be specified");
  }
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
    // As DynamoDB: a table whose stream is disabled shows no
    // StreamSpecification (LatestStreamArn and Label stay).
    desc->stream_specification.reset();
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
