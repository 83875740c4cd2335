// engine/requests/query_scan_requests.h
//
// Query and Scan: the parameters they share (one page of at most Limit
// items and 1 MB), and the page they return.
//
// Every result carries what the request consumed, always filled (metering
// is always on): `consumed_capacity` in DynamoDB's units (the api shows it
// when ReturnConsumedCapacity asks), and `capacity_charges`, one per table
// touched, saying at which partitions the units were taken
// (engine/capacity/capacity_charge.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_QUERY_SCAN_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_QUERY_SCAN_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/consumed_capacity.h"
#include "engine/requests/expression_parameters.h"
#include "engine/requests/legacy_parameters.h"
#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// Select: what a Query or Scan returns. Unset means ALL_ATTRIBUTES, or
// SPECIFIC_ATTRIBUTES when the request carries a projection.
enum class Select : uint8_t {
  kAllAttributes,
  kAllProjectedAttributes,
  kSpecificAttributes,
  kCount,
};

// The parameters Query and Scan share. Both read one page: at most `limit`
// items and at most 1 MB of item data (both counted before the filter),
// resuming strictly after `exclusive_start_key`.
struct ReadPageParameters {
  std::optional<std::string> index_name;
  // FilterExpression, or the legacy QueryFilter / ScanFilter (+
  // ConditionalOperator): applied to the items read.
  std::optional<std::string> filter_expression;
  std::optional<LegacyConditions> legacy_filter;
  std::optional<ConditionalOperator> conditional_operator;
  // Which attributes to return: ProjectionExpression or AttributesToGet.
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<Select> select;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  // Reads are always strongly consistent in dynarock; accepted as given.
  bool consistent_read = false;
  std::optional<int64_t> limit;  // >= 1 (the api's shape check)
  // The LastEvaluatedKey of the previous page.
  std::optional<Item> exclusive_start_key;
  // Return the items as their stored encodings (ReadPageResult::
  // encoded_items; decode with DecodeItem, engine/value/item_codec.h, or
  // walk with engine/value/encoded_item.h) instead of Items, when the page
  // returns whole entries as read: no filter, no projection, Select
  // ALL_ATTRIBUTES (or ALL_PROJECTED_ATTRIBUTES of an index) and no item
  // fetched from the table for an LSI read. Otherwise ignored. Saves
  // building an Item per item read; everything else in the result is the
  // same either way.
  bool encoded_items = false;
};

// Query: the items of one item collection (partition key), narrowed by a
// sort-key condition, in sort-key order (reversed when !scan_index_forward).
struct QueryRequest {
  Scope scope;
  std::string table_name;
  ReadPageParameters read;
  // KeyConditionExpression, or the legacy KeyConditions.
  std::optional<std::string> key_condition_expression;
  std::optional<LegacyConditions> key_conditions;
  bool scan_index_forward = true;
  // Set only by PartiQL's planner (engine/partiql): the filter may name key
  // attributes, since DynamoDB's PartiQL filters a SELECT's items by every
  // condition its key condition could not take (`sk IN [..]`, `sk <> v`, a
  // second range). The Query API refuses such a filter ("Filter Expression
  // can only contain non-primary key attributes"); api/ never sets this.
  bool filter_may_name_key_attributes = false;
};

// Scan: the whole table in hash order, or one segment of it.
struct ScanRequest {
  Scope scope;
  std::string table_name;
  ReadPageParameters read;
  // Parallel scan: segment `segment` of `total_segments` (both or neither).
  std::optional<int64_t> segment;
  std::optional<int64_t> total_segments;
};

// One page of a Query or Scan.
struct ReadPageResult {
  // The items read that passed the filter, projected; empty for COUNT.
  std::vector<Item> items;
  // Instead of `items` when the request asked for encoded_items and the
  // page qualified (then `items` is empty): the items in read order, as
  // EncodeItem wrote them. Count is their number.
  std::vector<std::string> encoded_items;
  // Select = COUNT: Items is not returned at all.
  bool count_only = false;
  int64_t count = 0;          // items that passed the filter
  int64_t scanned_count = 0;  // items read
  // Set when the page stopped early (Limit or 1 MB): the key attributes of
  // the last item read. Pass it as exclusive_start_key for the next page.
  std::optional<Item> last_evaluated_key;
  // The sizes of every item read (before the filter and projection),
  // rounded once; an index read is listed under its index, with the table
  // part 0 unless an LSI read fetched items from the table.
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};
using QueryResult = ReadPageResult;
using ScanResult = ReadPageResult;

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_QUERY_SCAN_REQUESTS_H_
