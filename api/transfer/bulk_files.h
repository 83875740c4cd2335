// api/transfer/bulk_files.h
//
// The files of bulk put items (StartBulkPutItems): the records of its input
// objects and the reports it writes.
//
// Input records. DYNAMODB_JSON: JSON Lines, one record per line, a PutItem
// of the target table: {"Item":{...}} with, optionally, the item's own
// "ConditionExpression" and its "ExpressionAttributeNames" /
// "ExpressionAttributeValues" (DynamoDB's per-item condition expressions;
// every other member makes the record fail). ION: `$ion_1_0 {Item:{...}}`
// records of items (api/transfer/ion_text.h), without conditions. A record
// that is not one reaches the visitor as an error, to be counted; the
// object goes on.
//
// Reports: JSON Lines, one object per failed record: {"ObjectKey",
// "RecordNumber", "OutputType": "ERROR" | "CONDITION_CHECK_FAILURE",
// "ErrorCode", "ErrorMessage", "Item", "ExistingItem"} (the last two when
// known, in DynamoDB JSON). DynamoDB does not publish its report layout;
// this one is dynarock's (docs/bulk-put-items.md).
//
// Stateless functions; thread-safe.

#ifndef DYNAROCK_API_TRANSFER_BULK_FILES_H_
#define DYNAROCK_API_TRANSFER_BULK_FILES_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "api/transfer/input_stream.h"
#include "engine/transfer/transfer_files.h"

namespace dynarock::api {

// A reader of the records of one object's stream, as `format` says:
// DYNAMODB_JSON a line at a time (memory: api/transfer/input_stream.h's
// buffers and the longest line); ION from the object's whole decompressed
// text, read here (its records may span lines). Errors (ION): those of
// InputStream::Read.
Result<std::unique_ptr<BulkObjectReader>> NewBulkObjectReader(std::unique_ptr<InputStream> in,
                                                              BulkInputFormat format);

// Each record of one (decompressed) object's text, as `format` says.
// Returns what `visit` returned when it is not OK.
Status VisitBulkRecords(std::string_view text, BulkInputFormat format,
                        const BulkRecordVisitor& visit);

// The report lines of `entries`.
std::string BulkReportText(const std::vector<BulkReportEntry>& entries);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_TRANSFER_BULK_FILES_H_
