// engine/requests.h
//
// Plain request and result structs for the engine's operations, one pair per
// DynamoDB operation. No JSON here: api/ fills these from DynamoDB JSON and
// renders the results back. Every request names the Scope it runs in.
//
// Every data-plane result carries what the request consumed, always filled
// (metering is always on): `consumed_capacity` in DynamoDB's units (the api
// shows it when ReturnConsumedCapacity asks), and `capacity_charges`, one
// per table touched, saying at which partitions the units were taken
// (engine/capacity/capacity_charge.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/capacity/capacity_charge.h"
#include "engine/capacity/consumed_capacity.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// Which set of tables a request sees, and how their ARNs read. DynamoDB Local
// (and `dynarock serve` without --shared-db) gives each access key id +
// region its own set of tables; `ns` is that key, empty for the shared set.
struct Scope {
  std::string ns;
  std::string region = "ddblocal";
  std::string account = "000000000000";
};

// ReturnValues. UPDATED_* only apply to UpdateItem.
enum class ReturnValues { kNone, kAllOld, kUpdatedOld, kAllNew, kUpdatedNew };

// ReturnItemCollectionMetrics: SIZE returns the item collection's size on
// writes to tables with local secondary indexes.
enum class ReturnItemCollectionMetrics { kNone, kSize };

// DynamoDB's ItemCollectionMetrics: the collection's partition key and an
// estimate of its size in GB (a lower and an upper bound).
struct ItemCollectionMetrics {
  Item item_collection_key;
  double size_estimate_lower_gb = 0;
  double size_estimate_upper_gb = 0;
};

// ReturnValuesOnConditionCheckFailure: ALL_OLD attaches the item as it was
// to the ConditionalCheckFailed status (Status::item()).
enum class ReturnValuesOnConditionCheckFailure { kNone, kAllOld };

// --- Expression parameters ----------------------------------------------
//
// Requests carry expressions as TEXT; the engine parses, resolves and
// evaluates them. An unset optional means the request did not carry the
// parameter; DynamoDB treats an empty map or string differently from an
// absent one ("ExpressionAttributeValues must not be empty").

// ExpressionAttributeNames: "#n" -> attribute name.
using ExpressionAttributeNames = std::map<std::string, std::string>;
// ExpressionAttributeValues: ":v" -> value.
using ExpressionAttributeValues = std::map<std::string, AttributeValue>;

// --- Legacy (non-expression) parameters ----------------------------------
//
// Older clients and SDK mappers still send these. The engine translates
// them into the same trees as the expressions (engine/expr/legacy.h), with
// DynamoDB's validation messages. Maps are vectors of (name, value) so that
// the first offending entry is the first in the caller's order.

// Comparison operators of Expected, KeyConditions, QueryFilter, ScanFilter.
enum class ComparisonOperator : uint8_t {
  kEq,
  kNe,
  kLe,
  kLt,
  kGe,
  kGt,
  kNotNull,
  kNull,
  kContains,
  kNotContains,
  kBeginsWith,
  kIn,
  kBetween,
};

// ConditionalOperator: how several Expected / filter conditions combine.
enum class ConditionalOperator : uint8_t { kAnd, kOr };

// One entry of Expected: either Value and/or Exists, or ComparisonOperator
// with AttributeValueList (or Value). Unset members were absent.
struct ExpectedAttributeValue {
  std::optional<AttributeValue> value;
  std::optional<bool> exists;
  std::optional<ComparisonOperator> comparison_operator;
  std::optional<std::vector<AttributeValue>> attribute_value_list;
};
using ExpectedConditions =
    std::vector<std::pair<std::string, ExpectedAttributeValue>>;

// One entry of KeyConditions, QueryFilter or ScanFilter (DynamoDB's
// "Condition" shape).
struct LegacyCondition {
  ComparisonOperator comparison_operator = ComparisonOperator::kEq;
  std::vector<AttributeValue> attribute_value_list;
};
using LegacyConditions = std::vector<std::pair<std::string, LegacyCondition>>;

// One entry of AttributeUpdates. DynamoDB's default action is PUT.
enum class AttributeAction : uint8_t { kPut, kAdd, kDelete };
struct AttributeValueUpdate {
  std::optional<AttributeValue> value;
  AttributeAction action = AttributeAction::kPut;
};
using AttributeUpdates =
    std::vector<std::pair<std::string, AttributeValueUpdate>>;

// --- Tables -----------------------------------------------------------

struct CreateTableRequest {
  Scope scope;
  std::string table_name;
  std::vector<AttributeDefinition> attribute_definitions;
  std::vector<KeySchemaElement> key_schema;
  std::vector<LocalSecondaryIndexDef> local_secondary_indexes;
  std::vector<GlobalSecondaryIndexDef> global_secondary_indexes;
  // Unset means PROVISIONED, as in DynamoDB.
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  bool deletion_protection_enabled = false;
  std::optional<StreamSpecification> stream_specification;
  std::vector<Tag> tags;
  std::optional<TableClass> table_class;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
};

struct DescribeTableRequest {
  Scope scope;
  std::string table_name;
};

struct ListTablesRequest {
  Scope scope;
  std::optional<int> limit;  // 1..100; unset = 100
  std::optional<std::string> exclusive_start_table_name;
};

struct ListTablesResult {
  std::vector<std::string> table_names;
  std::optional<std::string> last_evaluated_table_name;
};

// One entry of UpdateTable's GlobalSecondaryIndexUpdates. DynamoDB wants
// exactly one action per entry; the engine reports none or several.
struct GlobalSecondaryIndexUpdate {
  // At least one of the three settings; the engine reports DynamoDB's
  // message for a missing one.
  struct UpdateAction {
    std::string index_name;
    std::optional<ProvisionedThroughput> provisioned_throughput;
    std::optional<OnDemandThroughput> on_demand_throughput;
    std::optional<WarmThroughput> warm_throughput;
  };
  struct DeleteAction {
    std::string index_name;
  };
  std::optional<GlobalSecondaryIndexDef> create;
  std::optional<UpdateAction> update;
  std::optional<DeleteAction> del;
};

struct UpdateTableRequest {
  Scope scope;
  std::string table_name;
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  std::optional<bool> deletion_protection_enabled;
  // AttributeDefinitions accompany an index Create: the new key attributes.
  std::vector<AttributeDefinition> attribute_definitions;
  // Unset when the request has no GlobalSecondaryIndexUpdates member (an
  // empty list is an error of its own).
  std::optional<std::vector<GlobalSecondaryIndexUpdate>> global_secondary_index_updates;
  std::optional<StreamSpecification> stream_specification;
  std::optional<TableClass> table_class;
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
};

struct DeleteTableRequest {
  Scope scope;
  std::string table_name;
};

// --- Items ------------------------------------------------------------

// The condition members shared by PutItem, UpdateItem and DeleteItem: a
// ConditionExpression, or the legacy Expected (+ ConditionalOperator). The
// condition is evaluated against the item as stored, under the item's lock;
// when it is false nothing is written and the call fails with
// kConditionalCheckFailed.
struct WriteCondition {
  std::optional<std::string> condition_expression;
  std::optional<ExpectedConditions> expected;
  std::optional<ConditionalOperator> conditional_operator;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct PutItemRequest {
  Scope scope;
  std::string table_name;
  Item item;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct PutItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

struct GetItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  bool consistent_read = false;
  // Which attributes to return: a ProjectionExpression, or the legacy
  // AttributesToGet; all of them when neither is set.
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  // Return the item as its stored encoding (GetItemResult::encoded_item;
  // decode with DecodeItem, engine/value/item_codec.h, or walk with
  // engine/value/encoded_item.h) instead of an Item, when the whole item is
  // returned (no projection). Otherwise ignored. Saves building the Item;
  // everything else in the result is the same either way.
  bool encoded_item = false;
};

struct GetItemResult {
  std::optional<Item> item;
  // Instead of `item` when the request asked for encoded_item and returns
  // the whole item (then `item` is nullopt): the item as EncodeItem wrote
  // it; nullopt when there is no item.
  std::optional<std::string> encoded_item;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

struct DeleteItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  ReturnValues return_values = ReturnValues::kNone;  // NONE or ALL_OLD
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct DeleteItemResult {
  std::optional<Item> attributes;  // the old item, for ALL_OLD
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// UpdateItem: an UpdateExpression, or the legacy AttributeUpdates, applied
// to the item with `key`; a missing item is created from the key first
// (upsert). With neither, the item is written with what it has (only its
// key when it was missing).
struct UpdateItemRequest {
  Scope scope;
  std::string table_name;
  Item key;
  std::optional<std::string> update_expression;
  std::optional<AttributeUpdates> attribute_updates;
  WriteCondition condition;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnValues return_values = ReturnValues::kNone;  // any of the five
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct UpdateItemResult {
  // ALL_OLD / ALL_NEW: the whole item before / after; UPDATED_OLD /
  // UPDATED_NEW: only the updated paths. Unset when there is nothing to
  // return (no old item, or none of the paths present).
  std::optional<Item> attributes;
  // SIZE on a table with local secondary indexes.
  std::optional<ItemCollectionMetrics> item_collection_metrics;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// --- Query and Scan -------------------------------------------------------

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

// --- Batches --------------------------------------------------------------

// The keys BatchGetItem reads from one table, and how (DynamoDB's
// KeysAndAttributes).
struct KeysAndAttributes {
  std::vector<Item> keys;
  std::optional<std::string> projection_expression;
  std::optional<std::vector<std::string>> attributes_to_get;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  bool consistent_read = false;
};

// Tables in the order given; each table once (a JSON object's keys).
struct BatchGetItemRequest {
  Scope scope;
  std::vector<std::pair<std::string, KeysAndAttributes>> request_items;
};

struct BatchGetItemResult {
  // Every requested table, with the items found (projected), in request
  // order; missing items are simply absent.
  std::vector<std::pair<std::string, std::vector<Item>>> responses;
  // Keys not read because the response reached 16 MB, with each table's
  // projection and ConsistentRead, ready to be sent again.
  std::vector<std::pair<std::string, KeysAndAttributes>> unprocessed_keys;
  // One per table, in request order: each key read (found or not) rounded
  // on its own; unprocessed keys cost nothing.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One request of BatchWriteItem: exactly one of PutRequest (the item) and
// DeleteRequest (the key).
struct WriteRequest {
  std::optional<Item> put_item;
  std::optional<Item> delete_key;
};

struct BatchWriteItemRequest {
  Scope scope;
  std::vector<std::pair<std::string, std::vector<WriteRequest>>> request_items;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct BatchWriteItemResult {
  // Requests not applied because their table, index or partition was
  // throttled (throttling on), grouped by table in request order: retry them.
  std::vector<std::pair<std::string, std::vector<WriteRequest>>>
      unprocessed_items;
  // One per table, in request order: each request rounded on its own.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
  // ReturnItemCollectionMetrics = SIZE: per table with LSIs (request order),
  // the collections the applied requests wrote, each once, after the write.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>
      item_collection_metrics;
};

// --- Tags --------------------------------------------------------------------

// TagResource: adds or overwrites `tags` on the table the ARN names.
struct TagResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::vector<Tag> tags;
};

// UntagResource: removes the keys present (absent keys are ignored).
struct UntagResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::vector<std::string> tag_keys;
};

struct ListTagsOfResourceRequest {
  Scope scope;
  std::string resource_arn;
  std::optional<std::string> next_token;
};

// The table's tags in key order, one page; next_token when more follow.
struct ListTagsOfResourceResult {
  std::vector<Tag> tags;
  std::optional<std::string> next_token;
};

// --- Contributor insights ----------------------------------------------------

// UpdateContributorInsights: turns contributor insights on or off for a
// table (index_name empty) or one of its GSIs.
struct UpdateContributorInsightsRequest {
  Scope scope;
  std::string table_name;
  std::string index_name;  // empty: the table
  bool enable = false;
  // ContributorInsightsMode; an ENABLE without one tracks accessed and
  // throttled keys. Ignored by DISABLE (the setting keeps its mode).
  std::optional<ContributorInsightsMode> mode;
};

// ContributorInsightsStatus, as DynamoDB names it.
enum class ContributorInsightsStatus { kEnabling, kEnabled, kDisabling, kDisabled };

// What DescribeContributorInsights and UpdateContributorInsights answer.
struct ContributorInsightsDescription {
  std::string table_name;
  std::string index_name;  // empty: the table
  ContributorInsightsStatus status = ContributorInsightsStatus::kDisabled;
  // DynamoDB's CloudWatch rule names, while enabled:
  // "DynamoDBContributorInsights-{PKC,PKT,SKC,SKT}-<table>-<enabled ms>"
  // (SK* only with a sort key; the *C "most accessed" rules only in the
  // ACCESSED_AND_THROTTLED_KEYS mode).
  std::vector<std::string> rule_list;
  std::optional<int64_t> last_update_micros;  // engine clock; unset if never set
  // While enabled (and in UpdateContributorInsights's answer to an ENABLE).
  std::optional<ContributorInsightsMode> mode;
};

// ListContributorInsights: of one table (and its GSIs), or of every table
// of the scope; `max_results` per page (0: the default, 100).
struct ListContributorInsightsRequest {
  Scope scope;
  std::string table_name;  // empty: every table
  std::optional<std::string> next_token;
  int64_t max_results = 0;
};

struct ListContributorInsightsResult {
  std::vector<ContributorInsightsDescription> summaries;  // no rule lists
  std::optional<std::string> next_token;
};

// --- Transactions -----------------------------------------------------------

// One action of TransactWriteItems (exactly one of DynamoDB's Put, Update,
// Delete and ConditionCheck).
struct TransactWriteAction {
  enum class Kind : uint8_t { kConditionCheck, kPut, kDelete, kUpdate };
  Kind kind = Kind::kPut;
  std::string table_name;
  Item item;  // Put: the item
  Item key;   // Update, Delete, ConditionCheck: the key
  std::optional<std::string> update_expression;     // Update
  std::optional<std::string> condition_expression;  // required for ConditionCheck
  std::optional<ExpressionAttributeNames> expression_attribute_names;
  std::optional<ExpressionAttributeValues> expression_attribute_values;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

// TransactWriteItems: up to 100 actions on distinct items, applied all
// together or not at all.
struct TransactWriteItemsRequest {
  Scope scope;
  std::vector<TransactWriteAction> actions;
  // Makes the call idempotent for 10 minutes (engine/table/
  // idempotency_cache.h). Unset: none.
  std::optional<std::string> client_request_token;
  ReturnItemCollectionMetrics return_item_collection_metrics =
      ReturnItemCollectionMetrics::kNone;
};

struct TransactWriteItemsResult {
  // One per table, in order of first appearance: 2 x the units the same
  // plain writes would consume (ConditionCheck billed as a write). A
  // replayed request (same ClientRequestToken) reports the read units of
  // reading its items instead, and writes nothing.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
  // SIZE: per table with local secondary indexes, one entry per item
  // collection written, after the write.
  std::vector<std::pair<std::string, std::vector<ItemCollectionMetrics>>>
      item_collection_metrics;
  bool replayed = false;
};

// One Get of TransactGetItems.
struct TransactGetAction {
  std::string table_name;
  Item key;
  std::optional<std::string> projection_expression;
  std::optional<ExpressionAttributeNames> expression_attribute_names;
};

// TransactGetItems: up to 100 items read at one point in time.
struct TransactGetItemsRequest {
  Scope scope;
  std::vector<TransactGetAction> actions;
};

struct TransactGetItemsResult {
  // In action order; nullopt for a missing item.
  std::vector<std::optional<Item>> responses;
  // One per table, in order of first appearance: 2 x the strongly
  // consistent read units of each item (4 KB rounding, 1 unit at least).
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// --- PartiQL (engine/partiql/) ---------------------------------------------
//
// A statement is parsed and planned into one of the requests above (GetItem,
// Query, Scan, PutItem, UpdateItem, DeleteItem, TransactWriteItems,
// TransactGetItems) and runs exactly as that request would.

struct ExecuteStatementRequest {
  Scope scope;
  std::string statement;
  std::vector<AttributeValue> parameters;  // bound to `?` in order
  bool consistent_read = false;
  std::optional<int64_t> limit;
  // The decoded NextToken: where the previous page of a SELECT stopped.
  std::optional<Item> exclusive_start_key;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct ExecuteStatementResult {
  // SELECT: the page's items; UPDATE / DELETE with RETURNING: the item.
  std::vector<Item> items;
  // Set when a SELECT page stopped early (the NextToken).
  std::optional<Item> last_evaluated_key;
  ConsumedCapacity consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One statement of BatchExecuteStatement.
struct BatchStatement {
  std::string statement;
  std::vector<AttributeValue> parameters;
  bool consistent_read = false;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct BatchExecuteStatementRequest {
  Scope scope;
  std::vector<BatchStatement> statements;  // 1..25
};

// One statement's outcome: its table and item (a read that found one), or
// its error (the Status, whose item is the old item for ALL_OLD).
struct BatchStatementResponse {
  std::string table_name;
  std::optional<Item> item;
  Status error;
};

struct BatchExecuteStatementResult {
  std::vector<BatchStatementResponse> responses;  // in statement order
  // One per table, in order of first appearance.
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// One statement of ExecuteTransaction.
struct ParameterizedStatement {
  std::string statement;
  std::vector<AttributeValue> parameters;
  ReturnValuesOnConditionCheckFailure return_values_on_condition_check_failure =
      ReturnValuesOnConditionCheckFailure::kNone;
};

struct ExecuteTransactionRequest {
  Scope scope;
  std::vector<ParameterizedStatement> statements;  // 1..100
  std::optional<std::string> client_request_token;
};

struct ExecuteTransactionResult {
  // Reads only: one per statement, nullopt for a missing item.
  std::vector<std::optional<Item>> responses;
  bool reads = false;
  std::vector<ConsumedCapacity> consumed_capacity;
  std::vector<CapacityCharge> capacity_charges;
};

// --- Time to Live ------------------------------------------------------------

// UpdateTimeToLive's TimeToLiveSpecification, which its answer echoes.
struct TimeToLiveSpecification {
  bool enabled = false;
  std::string attribute_name;
};

struct UpdateTimeToLiveRequest {
  Scope scope;
  std::string table_name;
  TimeToLiveSpecification specification;
};

struct DescribeTimeToLiveRequest {
  Scope scope;
  std::string table_name;
};

// DescribeTimeToLive's TimeToLiveDescription: ENABLING / DISABLING (with
// the attribute) for EngineOptions::ttl_status_delay_micros after a change,
// then ENABLED (with the attribute) or DISABLED (without one).
enum class TimeToLiveStatus { kEnabled, kDisabled, kEnabling, kDisabling };
std::string_view TimeToLiveStatusName(TimeToLiveStatus status);
struct TimeToLiveDescription {
  TimeToLiveStatus status = TimeToLiveStatus::kDisabled;
  std::optional<std::string> attribute_name;
};

// A Time to Live sweep run now (dynarock extension): one table, or every
// table of the scope with TTL enabled when `table_name` is unset.
struct TimeToLiveSweepRequest {
  Scope scope;
  std::optional<std::string> table_name;
};

struct TimeToLiveSweepResult {
  int64_t scanned_items = 0;  // items read
  int64_t deleted_items = 0;  // expired items deleted
};

// --- Secondary-index extensions (dynarock only) ----------------------------

// Sets how long after a write its changes reach one GSI (0: as fast as
// possible; negative: back to EngineOptions::gsi_lag_micros). Runtime only,
// not persisted.
struct SetIndexLagRequest {
  Scope scope;
  std::string table_name;
  std::string index_name;
  int64_t lag_micros = 0;
};

// How GSI propagation is doing, over the most recent records applied when
// due (records forced by WaitUntilIndexesCaughtUp are not counted).
struct IndexPropagationStats {
  int64_t applied_records = 0;
  int64_t pending_records = 0;
  int64_t lag_p50_micros = 0;
  int64_t lag_p99_micros = 0;
  int64_t lag_max_micros = 0;
  int64_t samples = 0;
};

// --- DynamoDB Streams (DynamoDBStreams_20120810) ----------------------------

struct ListStreamsRequest {
  Scope scope;
  std::optional<std::string> table_name;
  std::optional<int> limit;  // 1..100; unset = 100
  std::optional<std::string> exclusive_start_stream_arn;
};

struct StreamSummary {
  std::string stream_arn;
  std::string table_name;
  std::string stream_label;
};

struct ListStreamsResult {
  std::vector<StreamSummary> streams;
  std::optional<std::string> last_evaluated_stream_arn;
};

enum class StreamStatus { kEnabling, kEnabled, kDisabling, kDisabled };
std::string_view StreamStatusName(StreamStatus status);

struct DescribeStreamRequest {
  Scope scope;
  std::string stream_arn;
  std::optional<int> limit;  // shards, 1..100; unset = 100
  std::optional<std::string> exclusive_start_shard_id;
  // ShardFilter {Type: CHILD_SHARDS, ShardId}: only that shard's children.
  std::optional<std::string> child_shards_of;
};

struct ShardDescription {
  std::string shard_id;
  std::optional<std::string> parent_shard_id;
  std::string starting_sequence_number;
  std::optional<std::string> ending_sequence_number;  // set once closed
};

struct StreamDescription {
  std::string stream_arn;
  std::string stream_label;
  StreamStatus stream_status = StreamStatus::kEnabled;
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
  int64_t creation_request_date_time_micros = 0;
  std::string table_name;
  std::vector<KeySchemaElement> key_schema;
  std::vector<ShardDescription> shards;  // oldest first: parents before children
  std::optional<std::string> last_evaluated_shard_id;
};

enum class ShardIteratorType {
  kTrimHorizon,
  kLatest,
  kAtSequenceNumber,
  kAfterSequenceNumber,
};

struct GetShardIteratorRequest {
  Scope scope;
  std::string stream_arn;
  std::string shard_id;
  ShardIteratorType type = ShardIteratorType::kTrimHorizon;
  std::optional<std::string> sequence_number;  // AT_/AFTER_SEQUENCE_NUMBER
};

struct GetRecordsRequest {
  Scope scope;
  std::string shard_iterator;
  std::optional<int> limit;  // 1..1000; unset = 1000
};

// Persisted in stream records; never renumber.
enum class StreamEventName : uint8_t { kInsert = 1, kModify = 2, kRemove = 3 };
std::string_view StreamEventNameOf(StreamEventName name);

// One stream record as GetRecords returns it.
struct StreamRecord {
  std::string event_id;
  StreamEventName event_name = StreamEventName::kInsert;
  std::string aws_region;
  int64_t approximate_creation_micros = 0;
  Item keys;
  std::optional<Item> new_image;
  std::optional<Item> old_image;
  std::string sequence_number;
  int64_t size_bytes = 0;
  StreamViewType stream_view_type = StreamViewType::kKeysOnly;
  std::optional<StreamUserIdentity> user_identity;
};

struct GetRecordsResult {
  std::vector<StreamRecord> records;
  // Absent once a closed shard has been read to its end.
  std::optional<std::string> next_shard_iterator;
};


// --- Backups and point-in-time recovery (engine/backup/) -------------------

// What a restore may change of the source's definition, as DynamoDB allows
// (RestoreTableFromBackup and RestoreTableToPointInTime's *Override members).
// An unset member keeps the source's setting.
struct RestoreOverrides {
  std::optional<BillingMode> billing_mode;
  std::optional<ProvisionedThroughput> provisioned_throughput;
  // The table's OnDemandThroughput maxima (on-demand restores only).
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<std::vector<GlobalSecondaryIndexDef>> global_secondary_indexes;
  std::optional<std::vector<LocalSecondaryIndexDef>> local_secondary_indexes;
};

struct CreateBackupRequest {
  Scope scope;
  std::string table_name;
  std::string backup_name;
};

enum class BackupStatus { kCreating, kDeleted, kAvailable };
std::string_view BackupStatusName(BackupStatus status);

// One on-demand backup: its BackupDetails, and the source table as it was
// when the backup was taken (SourceTableDetails and
// SourceTableFeatureDetails are rendered from `source`).
struct BackupDescription {
  std::string backup_arn;
  std::string backup_name;
  int64_t backup_size_bytes = 0;
  BackupStatus backup_status = BackupStatus::kAvailable;
  int64_t creation_micros = 0;
  // The source table's definition, with item_count and table_size_bytes as
  // backed up.
  TableDescription source;
  // The source's Time to Live setting when it was backed up.
  bool ttl_enabled = false;
  std::string ttl_attribute_name;
};

struct DescribeBackupRequest {
  Scope scope;
  std::string backup_arn;
};
using DeleteBackupRequest = DescribeBackupRequest;

struct ListBackupsRequest {
  Scope scope;
  std::optional<std::string> table_name;
  // Creation time bounds: lower inclusive, upper exclusive.
  std::optional<int64_t> time_range_lower_micros;
  std::optional<int64_t> time_range_upper_micros;
  // "USER", "SYSTEM", "AWS_BACKUP" or "ALL"; unset = USER.
  std::optional<std::string> backup_type;
  std::optional<int> limit;  // 1..100; unset = every backup
  std::optional<std::string> exclusive_start_backup_arn;
};

struct ListBackupsResult {
  // In creation order (then ARN).
  std::vector<BackupDescription> backups;
  std::optional<std::string> last_evaluated_backup_arn;
};

struct RestoreTableFromBackupRequest {
  Scope scope;
  std::string target_table_name;
  std::string backup_arn;
  RestoreOverrides overrides;
};

struct UpdateContinuousBackupsRequest {
  Scope scope;
  std::string table_name;
  bool point_in_time_recovery_enabled = false;
  std::optional<int64_t> recovery_period_in_days;  // 1..35; unset = 35
};

struct DescribeContinuousBackupsRequest {
  Scope scope;
  std::string table_name;
};

// DescribeContinuousBackups' ContinuousBackupsDescription.
struct ContinuousBackupsDescription {
  bool point_in_time_recovery_enabled = false;
  int64_t recovery_period_in_days = 35;
  // Set while enabled: the restore window on the engine clock.
  std::optional<int64_t> earliest_restorable_micros;
  std::optional<int64_t> latest_restorable_micros;
};

struct RestoreTableToPointInTimeRequest {
  Scope scope;
  std::string source_table_name;  // or the table named by source_table_arn
  std::optional<std::string> source_table_arn;
  std::string target_table_name;
  std::optional<int64_t> restore_micros;
  bool use_latest_restorable_time = false;
  RestoreOverrides overrides;
};

// --- Export to S3 (engine/transfer/, docs/export.md) -----------------------
// The "bucket" is a directory of the file system; what writes the files is
// the TransferFiles the engine was opened with (engine/transfer/transfer_files.h).

// Values are written to disk (the export record); never renumber.
enum class ExportStatus : uint8_t { kInProgress = 0, kCompleted = 1, kFailed = 2 };
enum class ExportFormat : uint8_t { kDynamoDbJson = 0, kIon = 1 };
enum class ExportType : uint8_t { kFullExport = 0, kIncrementalExport = 1 };
std::string_view ExportStatusName(ExportStatus status);
std::string_view ExportFormatName(ExportFormat format);
std::string_view ExportTypeName(ExportType type);

struct ExportTableToPointInTimeRequest {
  Scope scope;
  std::string table_arn;
  // Unset: now.
  std::optional<int64_t> export_micros;
  std::optional<std::string> client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::optional<std::string> s3_sse_algorithm;  // "AES256" or "KMS"
  std::optional<std::string> s3_sse_kms_key_id;
  ExportFormat export_format = ExportFormat::kDynamoDbJson;
  ExportType export_type = ExportType::kFullExport;
  // INCREMENTAL_EXPORT: the changes in (from, to]; `to` unset: now.
  std::optional<int64_t> incremental_from_micros;
  std::optional<int64_t> incremental_to_micros;
  // INCREMENTAL_EXPORT's ExportViewType: true NEW_AND_OLD_IMAGES, false NEW_IMAGE.
  bool incremental_old_images = true;
};

// DescribeExport's ExportDescription (ListExports shows arn, status, type).
struct ExportDescription {
  std::string export_arn;
  ExportStatus export_status = ExportStatus::kInProgress;
  int64_t start_micros = 0;
  std::optional<int64_t> end_micros;  // set once COMPLETED or FAILED
  // The key of manifest-summary.json in the bucket (S3Prefix included).
  std::string export_manifest;
  std::string table_arn;
  std::string table_id;
  int64_t export_micros = 0;
  std::string client_token;
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_prefix;
  std::string s3_sse_algorithm = "AES256";
  std::optional<std::string> s3_sse_kms_key_id;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
  ExportFormat export_format = ExportFormat::kDynamoDbJson;
  int64_t billed_size_bytes = 0;
  int64_t item_count = 0;
  ExportType export_type = ExportType::kFullExport;
  std::optional<int64_t> incremental_from_micros;
  std::optional<int64_t> incremental_to_micros;
  bool incremental_old_images = true;

  // "<ExportTime ms>-<8 hex>", the last part of the ARN: the export's
  // directory under <prefix>/AWSDynamoDB/.
  std::string ExportId() const;
};

struct DescribeExportRequest {
  Scope scope;
  std::string export_arn;
};

struct ListExportsRequest {
  Scope scope;
  std::optional<std::string> table_arn;
  std::optional<int64_t> max_results;  // 1..25; unset: 25
  std::optional<std::string> next_token;
};

struct ListExportsResult {
  std::vector<ExportDescription> exports;  // in start order
  std::optional<std::string> next_token;
};

// --- Import from S3 (engine/transfer/imports.h, docs/export.md) -------------

// Values are written to disk (the import record); never renumber.
enum class ImportStatus : uint8_t {
  kInProgress = 0,
  kCompleted = 1,
  kCancelling = 2,
  kCancelled = 3,
  kFailed = 4,
};
enum class InputFormat : uint8_t { kDynamoDbJson = 0, kIon = 1, kCsv = 2 };
enum class InputCompression : uint8_t { kNone = 0, kGzip = 1, kZstd = 2 };
std::string_view ImportStatusName(ImportStatus status);
std::string_view InputFormatName(InputFormat format);
std::string_view InputCompressionName(InputCompression compression);

// Where an import reads: every object of the bucket whose key starts with
// the prefix, in key order.
struct S3BucketSource {
  std::string s3_bucket;
  std::optional<std::string> s3_bucket_owner;
  std::optional<std::string> s3_key_prefix;
};

// InputFormatOptions.Csv.
struct CsvOptions {
  std::optional<std::string> delimiter;  // one character; unset: ","
  // The column names; unset: the first line of each file is the header.
  std::optional<std::vector<std::string>> header_list;
};

struct ImportTableRequest {
  Scope scope;
  std::optional<std::string> client_token;
  S3BucketSource source;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  CsvOptions csv;
  InputCompression compression = InputCompression::kNone;
  // TableCreationParameters: the table to create (no stream, tags, LSIs).
  CreateTableRequest table;
};

// DescribeImport's ImportTableDescription (ListImports shows a summary).
struct ImportTableDescription {
  std::string import_arn;
  ImportStatus import_status = ImportStatus::kInProgress;
  std::string table_arn;
  std::string table_id;
  std::string client_token;
  S3BucketSource source;
  int64_t error_count = 0;
  InputFormat input_format = InputFormat::kDynamoDbJson;
  CsvOptions csv;
  InputCompression compression = InputCompression::kNone;
  // The table as it will be created (TableCreationParameters).
  TableDescription table;
  int64_t start_micros = 0;
  std::optional<int64_t> end_micros;
  int64_t processed_size_bytes = 0;
  int64_t processed_item_count = 0;
  int64_t imported_item_count = 0;
  std::optional<std::string> failure_code;
  std::optional<std::string> failure_message;
};

struct DescribeImportRequest {
  Scope scope;
  std::string import_arn;
};

struct ListImportsRequest {
  Scope scope;
  std::optional<std::string> table_arn;
  std::optional<int64_t> page_size;  // 1..25; unset: 25
  std::optional<std::string> next_token;
};

struct ListImportsResult {
  std::vector<ImportTableDescription> imports;  // in start order
  std::optional<std::string> next_token;
};

// --- Database snapshots (dynarock extension, docs/backups.md) --------------

// A named snapshot of the whole database (every table of every namespace).
struct SnapshotInfo {
  std::string name;
  int64_t creation_micros = 0;
  int64_t size_bytes = 0;  // of its files
};

// One shard's retained records and its reads (Engine::DescribeStreamStats,
// `dynarock stats`). The lag is measured from the read position: the
// sequence number after the last record the furthest GetRecords caller was
// given on the shard (the shard's trim horizon when nobody read it yet).
struct ShardStats {
  std::string shard_id;
  std::string parent_shard_id;  // empty: none
  bool open = false;
  uint64_t records = 0;  // retained records
  uint64_t bytes = 0;    // their stored size (keys and values)
  uint64_t get_records_calls = 0;
  uint64_t throttled_calls = 0;  // refused: over 5 calls per second
  uint64_t records_read = 0;
  // Retained records at or after the read position, and the age on the
  // engine clock of the oldest of them (0 when none).
  uint64_t unread_records = 0;
  int64_t oldest_unread_age_micros = 0;
};

struct StreamStats {
  std::string stream_arn;
  std::string table_name;
  StreamStatus stream_status = StreamStatus::kEnabled;
  uint64_t records = 0;  // sums of the shards'
  uint64_t bytes = 0;
  std::vector<ShardStats> shards;  // oldest first
};

struct StreamStorageStats {
  // The bytes of every stream of the database on disk and in memtables
  // (RocksDB's `streams` column family): what retention bounds.
  uint64_t storage_bytes = 0;
  std::vector<StreamStats> streams;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_H_
