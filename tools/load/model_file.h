// tools/load/model_file.h
//
// Reads the files `dynarock load` accepts into a LoadPlan, detecting the
// format from the content:
//   - NoSQL Workbench data models (ModelName / ModelMetadata / DataModel;
//     versions 1.0, 2.0 and 3.0; items in TableData or in TableFacets, whose
//     items all belong to the facet's table);
//   - BatchWriteItem request bodies ({"<Table>": [{"PutRequest": {"Item":
//     ...}}]}, optionally wrapped in "RequestItems"), such as the developer
//     guide's sample data; these carry no key schema, so only the guide's
//     four sample tables (ProductCatalog, Forum, Thread, Reply) are known;
//   - dynamodb-spec-generator specs (tableDefinition + records in plain
//     JSON), such as the HR / order-entry example.
//
// Only the file's structure is checked here; items are checked by
// item_check.h so that every bad item can be reported at once.
// Stateless functions; thread-safe.

#ifndef DYNAROCK_TOOLS_LOAD_MODEL_FILE_H_
#define DYNAROCK_TOOLS_LOAD_MODEL_FILE_H_

#include <string>
#include <string_view>

#include "api/json_codec.h"
#include "engine/status.h"
#include "tools/load/load_plan.h"

namespace dynarock::tools::load {

// "NoSQL Workbench model", "BatchWriteItem request", "spec".
std::string_view FileFormatName(FileFormat format);

// Parses `text`, the content of the file named `source`. Table definitions
// become CreateTable requests:
//   - Workbench: KeyAttributes -> KeySchema; the key attributes of the
//     table and of every GSI -> AttributeDefinitions; GSI projections as
//     given; BillingMode PROVISIONED with ProvisionedCapacitySettings'
//     throughput for the table and each GSI (the model has no per-index
//     figure); PAY_PER_REQUEST when the model names no billing mode
//     (versions 1.0 and 2.0 never do). Auto scaling is ignored.
//   - spec: tableDefinition as is, except that GSI key attributes missing
//     from AttributeDefinitions are added (typed from the records, else S)
//     and ProvisionedThroughput is dropped when BillingMode is
//     PAY_PER_REQUEST; DynamoDB would reject the published file otherwise.
//     Records are plain JSON: strings become S, numbers N, booleans BOOL,
//     null NULL, arrays L and objects M.
// Errors (kValidation, message starting with `source`): not JSON, not one
// of the formats, a member missing or of the wrong JSON type, an attribute
// defined with two types, an unknown table in a BatchWriteItem file.
Result<LoadPlan> ParseModelFile(std::string_view source, std::string_view text);

// Reads and parses the file at `path`. Errors: as ParseModelFile, and
// kIOError when the file cannot be read.
Result<LoadPlan> ReadModelFile(const std::string& path);

// Plain JSON -> DynamoDB JSON, as described for spec records above.
api::Json PlainToAttributeValue(const api::Json& plain);

}  // namespace dynarock::tools::load

#endif  // DYNAROCK_TOOLS_LOAD_MODEL_FILE_H_
