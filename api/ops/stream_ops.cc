// The DynamoDB Streams API: ListStreams, DescribeStream, GetShardIterator,
// GetRecords. Served on DynamoDB's endpoint under the streams client's own
// X-Amz-Target prefix, "DynamoDBStreams_20120810." (boto3's
// "dynamodbstreams" client and @aws-sdk/client-dynamodb-streams sign with
// service "dynamodb", which the server does not check).

#include <optional>
#include <string>
#include <utility>

#include "api/ops/fields.h"
#include "api/ops/ops.h"
#include "api/validate.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

Member StreamArnMember(std::string_view name, bool required) {
  return Member{.name = name, .shape = &kStringShape, .required = required,
                .min_length = 37, .max_length = 1024};
}

Member ShardIdMember(std::string_view name, bool required) {
  return Member{.name = name, .shape = &kStringShape, .required = required,
                .min_length = 28, .max_length = 65};
}

const Shape kListStreamsInput{
    .kind = Kind::kStructure,
    .members = {
        CreateTableNameMember("TableName", /*required=*/false),
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 100},
        StreamArnMember("ExclusiveStartStreamArn", /*required=*/false),
    }};

const Shape kShardFilterShape{
    .kind = Kind::kStructure,
    .java_class = "com.amazonaws.dynamodb.v20120810.ShardFilter",
    .members = {
        // Required in practice: DynamoDB refuses a ShardFilter without a
        // Type (Alternator's test_stream_shard_filtering_missing_type).
        Member{.name = "Type", .shape = &kStringShape, .required = true,
               .enum_values = {"CHILD_SHARDS"}},
        ShardIdMember("ShardId", /*required=*/false),
    }};

const Shape kDescribeStreamInput{
    .kind = Kind::kStructure,
    .members = {
        StreamArnMember("StreamArn", /*required=*/true),
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 100},
        ShardIdMember("ExclusiveStartShardId", /*required=*/false),
        Member{.name = "ShardFilter", .shape = &kShardFilterShape},
    }};

const Shape kGetShardIteratorInput{
    .kind = Kind::kStructure,
    .members = {
        StreamArnMember("StreamArn", /*required=*/true),
        ShardIdMember("ShardId", /*required=*/true),
        Member{.name = "ShardIteratorType", .shape = &kStringShape, .required = true,
               .enum_values = {"TRIM_HORIZON", "LATEST", "AT_SEQUENCE_NUMBER",
                               "AFTER_SEQUENCE_NUMBER"}},
        Member{.name = "SequenceNumber", .shape = &kStringShape, .min_length = 21,
               .max_length = 40},
    }};

const Shape kGetRecordsInput{
    .kind = Kind::kStructure,
    .members = {
        Member{.name = "ShardIterator", .shape = &kStringShape, .required = true,
               .min_length = 1, .max_length = 2048},
        Member{.name = "Limit", .shape = &kIntegerShape, .min_value = 1,
               .max_value = 1000},
    }};

const Shape kDescribeStreamStatsInput{
    .kind = Kind::kStructure,
    .members = {CreateTableNameMember("TableName", /*required=*/false)}};

std::optional<int> OptionalLimit(const Json& request) {
  if (std::optional<int64_t> limit = OptionalInt(request, "Limit")) {
    return static_cast<int>(*limit);
  }
  return std::nullopt;
}

Json EncodeKeySchema(const std::vector<KeySchemaElement>& ks) {
  Json out = Json::array();
  for (const KeySchemaElement& e : ks) {
    out.push_back({{"AttributeName", e.attribute_name},
                   {"KeyType", e.key_type == KeyType::kHash ? "HASH" : "RANGE"}});
  }
  return out;
}

Json EncodeRecord(const StreamRecord& r) {
  Json dynamodb = {
      // Whole seconds, as DynamoDB Streams reports them.
      {"ApproximateCreationDateTime", r.approximate_creation_micros / 1'000'000},
      {"Keys", EncodeItem(r.keys)},
      {"SequenceNumber", r.sequence_number},
      {"SizeBytes", r.size_bytes},
      {"StreamViewType", StreamViewTypeName(r.stream_view_type)},
  };
  if (r.new_image) dynamodb["NewImage"] = EncodeItem(*r.new_image);
  if (r.old_image) dynamodb["OldImage"] = EncodeItem(*r.old_image);
  Json out = {
      {"eventID", r.event_id},
      {"eventName", StreamEventNameOf(r.event_name)},
      {"eventVersion", "1.1"},
      {"eventSource", "aws:dynamodb"},
      {"awsRegion", r.aws_region},
      {"dynamodb", std::move(dynamodb)},
  };
  if (r.user_identity) {
    out["userIdentity"] = {{"Type", r.user_identity->type},
                           {"PrincipalId", r.user_identity->principal_id}};
  }
  return out;
}

}  // namespace

Result<Json> ListStreams(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kListStreamsInput));
  ListStreamsRequest req;
  req.scope = ctx.scope;
  req.table_name = OptionalString(request, "TableName");
  req.limit = OptionalLimit(request);
  req.exclusive_start_stream_arn = OptionalString(request, "ExclusiveStartStreamArn");
  DR_ASSIGN_OR_RETURN(ListStreamsResult result, ctx.engine->ListStreams(req));
  Json streams = Json::array();
  for (const StreamSummary& s : result.streams) {
    streams.push_back({{"StreamArn", s.stream_arn},
                       {"TableName", s.table_name},
                       {"StreamLabel", s.stream_label}});
  }
  Json out = {{"Streams", std::move(streams)}};
  if (result.last_evaluated_stream_arn) {
    out["LastEvaluatedStreamArn"] = *result.last_evaluated_stream_arn;
  }
  return out;
}

Result<Json> DescribeStream(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeStreamInput));
  DescribeStreamRequest req;
  req.scope = ctx.scope;
  req.stream_arn = StringOr(request, "StreamArn");
  req.limit = OptionalLimit(request);
  req.exclusive_start_shard_id = OptionalString(request, "ExclusiveStartShardId");
  if (const Json* filter = Field(request, "ShardFilter")) {
    if (std::optional<std::string> type = OptionalString(*filter, "Type")) {
      std::optional<std::string> shard = OptionalString(*filter, "ShardId");
      if (!shard) {
        return Status::Validation(
            "ShardFilter of type CHILD_SHARDS requires a ShardId");
      }
      req.child_shards_of = std::move(shard);
    }
  }
  DR_ASSIGN_OR_RETURN(StreamDescription d, ctx.engine->DescribeStream(req));
  Json shards = Json::array();
  for (const ShardDescription& s : d.shards) {
    Json range = {{"StartingSequenceNumber", s.starting_sequence_number}};
    if (s.ending_sequence_number) {
      range["EndingSequenceNumber"] = *s.ending_sequence_number;
    }
    Json shard = {{"ShardId", s.shard_id}, {"SequenceNumberRange", std::move(range)}};
    if (s.parent_shard_id) shard["ParentShardId"] = *s.parent_shard_id;
    shards.push_back(std::move(shard));
  }
  Json out = {
      {"StreamArn", d.stream_arn},
      {"StreamLabel", d.stream_label},
      {"StreamStatus", StreamStatusName(d.stream_status)},
      {"StreamViewType", StreamViewTypeName(d.stream_view_type)},
      {"CreationRequestDateTime",
       static_cast<double>(d.creation_request_date_time_micros) / 1e6},
      {"TableName", d.table_name},
      {"KeySchema", EncodeKeySchema(d.key_schema)},
      {"Shards", std::move(shards)},
  };
  if (d.last_evaluated_shard_id) out["LastEvaluatedShardId"] = *d.last_evaluated_shard_id;
  return Json{{"StreamDescription", std::move(out)}};
}

Result<Json> GetShardIterator(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kGetShardIteratorInput));
  GetShardIteratorRequest req;
  req.scope = ctx.scope;
  req.stream_arn = StringOr(request, "StreamArn");
  req.shard_id = StringOr(request, "ShardId");
  const std::string type = StringOr(request, "ShardIteratorType");
  req.type = type == "LATEST"               ? ShardIteratorType::kLatest
             : type == "AT_SEQUENCE_NUMBER" ? ShardIteratorType::kAtSequenceNumber
             : type == "AFTER_SEQUENCE_NUMBER"
                 ? ShardIteratorType::kAfterSequenceNumber
                 : ShardIteratorType::kTrimHorizon;
  req.sequence_number = OptionalString(request, "SequenceNumber");
  DR_ASSIGN_OR_RETURN(std::string iterator, ctx.engine->GetShardIterator(req));
  return Json{{"ShardIterator", std::move(iterator)}};
}

Result<Json> GetRecords(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kGetRecordsInput));
  GetRecordsRequest req;
  req.scope = ctx.scope;
  req.shard_iterator = StringOr(request, "ShardIterator");
  req.limit = OptionalLimit(request);
  DR_ASSIGN_OR_RETURN(GetRecordsResult result, ctx.engine->GetRecords(req));
  Json records = Json::array();
  for (const StreamRecord& r : result.records) records.push_back(EncodeRecord(r));
  Json out = {{"Records", std::move(records)}};
  if (result.next_shard_iterator) out["NextShardIterator"] = *result.next_shard_iterator;
  return out;
}

Result<Json> DescribeStreamStats(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kDescribeStreamStatsInput));
  DR_ASSIGN_OR_RETURN(StreamStorageStats stats,
                      ctx.engine->DescribeStreamStats(
                          ctx.scope, OptionalString(request, "TableName").value_or("")));
  Json streams = Json::array();
  for (const StreamStats& s : stats.streams) {
    Json shards = Json::array();
    for (const ShardStats& sh : s.shards) {
      Json shard = {
          {"ShardId", sh.shard_id},
          {"Open", sh.open},
          {"Records", sh.records},
          {"Bytes", sh.bytes},
          {"GetRecordsCalls", sh.get_records_calls},
          {"ThrottledCalls", sh.throttled_calls},
          {"RecordsRead", sh.records_read},
          {"UnreadRecords", sh.unread_records},
          {"OldestUnreadAgeSeconds",
           static_cast<double>(sh.oldest_unread_age_micros) / 1e6},
      };
      if (!sh.parent_shard_id.empty()) shard["ParentShardId"] = sh.parent_shard_id;
      shards.push_back(std::move(shard));
    }
    streams.push_back({{"StreamArn", s.stream_arn},
                       {"TableName", s.table_name},
                       {"StreamStatus", StreamStatusName(s.stream_status)},
                       {"Records", s.records},
                       {"Bytes", s.bytes},
                       {"Shards", std::move(shards)}});
  }
  return Json{{"StorageBytes", stats.storage_bytes}, {"Streams", std::move(streams)}};
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kStreamOperationsRows[] = {
    Operation{"DynamoDBStreams_20120810.DescribeStream", &DescribeStream},
    Operation{"DynamoDBStreams_20120810.GetRecords", &GetRecords},
    Operation{"DynamoDBStreams_20120810.GetShardIterator", &GetShardIterator},
    Operation{"DynamoDBStreams_20120810.ListStreams", &ListStreams},
    Operation{"DynamoRock_20251121.DescribeStreamStats", &DescribeStreamStats},
};
const std::span<const Operation> kStreamOperations = kStreamOperationsRows;

}  // namespace dynarock::api::ops
