// engine/plan/query_requests.h
//
// Query and Scan requests, checked and planned in DynamoDB's order of
// checks, in three steps around the table lookup:
//
//   Prepare{Query,Scan}   everything that needs no table: Select and the
//                         projection, the mix of expression and legacy
//                         parameters, the legacy filter, the start key's
//                         values, Segment / TotalSegments; the expressions
//                         parsed and resolved with one Resolver.
//   Plan{Query,Scan}      against the table: IndexName, the key condition
//                         bound to the key schema, the start key (schema,
//                         partition, sort-key condition, segment), which
//                         attributes the filter and projection may name;
//                         gives the PageRequest to read (query_scan.h).
//   FinishPage            the page read -> what the client gets: items
//                         projected (none for COUNT), Count, ScannedCount,
//                         LastEvaluatedKey = key attributes of the last
//                         item read.
//
// Every error is kValidation with DynamoDB's message. Stateless functions;
// thread-safe. A PageRequest from Plan*() points into the PreparedRead it
// was planned from, which must outlive it.

#ifndef DYNAROCK_ENGINE_PLAN_QUERY_REQUESTS_H_
#define DYNAROCK_ENGINE_PLAN_QUERY_REQUESTS_H_

#include <optional>

#include "engine/expr/ast.h"
#include "engine/expr/key_condition.h"
#include "engine/requests/legacy_parameters.h"
#include "engine/requests/query_scan_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/pages/query_scan.h"
#include "engine/types.h"

namespace dynarock {

// A Query's or Scan's expressions and legacy parameters, checked.
struct PreparedRead {
  // Select, with its default filled in (ALL_ATTRIBUTES, or
  // SPECIFIC_ATTRIBUTES when there is a projection).
  Select select = Select::kAllAttributes;
  // FilterExpression or QueryFilter / ScanFilter, resolved.
  std::optional<expr::ConditionExpression> filter;
  // The filter came from QueryFilter / ScanFilter (messages name it).
  bool legacy_filter = false;
  std::optional<expr::ProjectionExpression> projection;
  // Query: the KeyConditionExpression analyzed, or the KeyConditions
  // validated (exactly one of the two).
  std::optional<expr::KeyCondition> key_condition;
  std::optional<LegacyConditions> key_conditions;
};

// The first checks of Prepare*() alone: Select against the projection
// parameters, then the mix of expression and legacy parameters. They read
// only which members are set, so the api can report them before it decodes
// any AttributeValue, as DynamoDB does.
Status CheckParameterUse(const QueryRequest& req);
Status CheckParameterUse(const ScanRequest& req);

// Two checks of Prepare*() that DynamoDB makes before it reads the start
// key's values, for the api to run between its decoding steps (Query: the
// filter's values, CheckLegacyFilter, CheckAttributesToGet, the start key;
// Scan: CheckAttributesToGet, the filter's values, CheckLegacyFilter, the
// start key). Prepare*() runs them again, in the same order.
// CheckLegacyFilter: QueryFilter / ScanFilter with ConditionalOperator
// (argument counts, types, BETWEEN's bounds); CheckAttributesToGet: its
// names, then "Duplicate value in attribute name: a".
Status CheckLegacyFilter(const ReadPageParameters& p);
Status CheckAttributesToGet(const ReadPageParameters& p);

// "The provided starting key is invalid: <cause>": an ExclusiveStartKey
// value that is malformed (found by the api's decoder) or invalid (found
// here). Number errors and some set errors are reported bare, as DynamoDB
// does.
Status InvalidStartKeyValue(const Status& cause);

// Step 1. Errors: kValidation.
Result<PreparedRead> PrepareQuery(const QueryRequest& req);
Result<PreparedRead> PrepareScan(const ScanRequest& req);

// Step 2. Errors: kValidation ("The table does not have the specified
// index: x", start-key and key-condition messages, ...).
Result<PageRequest> PlanQuery(const TableInfo& table, const QueryRequest& req,
                              const PreparedRead& prepared);
Result<PageRequest> PlanScan(const TableInfo& table, const ScanRequest& req,
                             const PreparedRead& prepared);

// Step 3. `index` is the PageRequest's (null for the table): an index
// read's LastEvaluatedKey holds the index key and the table key.
ReadPageResult FinishPage(const TableInfo& table, const PreparedRead& prepared,
                          Page page, const IndexInfo* index = nullptr);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_PLAN_QUERY_REQUESTS_H_
