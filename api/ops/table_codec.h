// api/ops/table_codec.h
//
// The pieces of a table's definition that operations other than the table
// operations take or answer (RestoreTableFromBackup's overrides, a backup's
// source table): input shapes, their decoding, and DescribeTable's
// rendering. Defined in api/ops/table_ops.cc (shapes, decoding) and
// api/ops/table_codec.cc (rendering), the one place that knows each.

#ifndef DYNAROCK_API_OPS_TABLE_CODEC_H_
#define DYNAROCK_API_OPS_TABLE_CODEC_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "api/json_codec.h"
#include "api/validate.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock::api::ops {

// CreateTable's GlobalSecondaryIndexes / LocalSecondaryIndexes element
// lists and its ProvisionedThroughput structure.
const Shape& GlobalSecondaryIndexListShape();
const Shape& LocalSecondaryIndexListShape();
const Shape& ProvisionedThroughputShape();
// The OnDemandThroughput structure {MaxReadRequestUnits, MaxWriteRequestUnits}.
const Shape& OnDemandThroughputShape();
// ImportTable's TableCreationParameters structure (CreateTable's members
// and constraints that DynamoDB's model gives it).
const Shape& TableCreationParametersShape();

// A validated index list, as CreateTable decodes it (an empty list and a
// Projection without ProjectionType get DynamoDB's messages).
// `member` names the list in the empty-list message.
Result<std::vector<GlobalSecondaryIndexDef>> DecodeGlobalSecondaryIndexes(
    const Json& list, std::string_view member);
Result<std::vector<LocalSecondaryIndexDef>> DecodeLocalSecondaryIndexes(
    const Json& list, std::string_view member);
// {ReadCapacityUnits, WriteCapacityUnits} of a validated structure.
ProvisionedThroughput DecodeProvisionedThroughput(const Json& throughput);
// The members of a validated OnDemandThroughput structure.
OnDemandThroughput DecodeOnDemandThroughputStructure(const Json& throughput);

// A CreateTable request body, checked (shape, DynamoDB's messages) and
// decoded; the scope is the caller's to set. ImportTable's
// TableCreationParameters are decoded with it.
Result<CreateTableRequest> DecodeCreateTableRequest(const Json& request);

// DescribeTable's TableDescription, and the pieces a backup's
// SourceTableDetails reuse.
Json TableDescriptionJson(const TableDescription& d);
Json KeySchemaJson(const std::vector<KeySchemaElement>& schema);
Json ProjectionJson(const Projection& p);
// Epoch seconds with a fraction, as DynamoDB renders times.
Json SecondsJson(int64_t micros);

// SSESpecification (CreateTable, UpdateTable, the restores' override):
// its shape, and the decoded value (nullopt when `sse` is null). Enabled
// true: a KMS key; false or absent: the AWS owned key. Errors: kValidation
// (SSEType AES256; a KMSMasterKeyId without SSEType KMS).
const Shape& SseSpecificationShape();
Result<std::optional<SseSpecification>> DecodeSseSpecification(const Json* sse);

}  // namespace dynarock::api::ops

#endif  // DYNAROCK_API_OPS_TABLE_CODEC_H_
