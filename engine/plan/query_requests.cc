#include "engine/plan/query_requests.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/expr/evaluate.h"
#include "engine/expr/legacy.h"
#include "engine/expr/messages.h"
#include "engine/expr/request_expressions.h"
#include "engine/index/index_entry.h"
#include "engine/keys/key_codec.h"
#include "engine/plan/item_requests.h"
#include "engine/schema/schema.h"
#include "engine/util/base64.h"
#include "engine/value/attribute_value_validation.h"

namespace dynarock {

namespace {

// --- DynamoDB's messages, one place each -----------------------------------
//
// Sources (texts recorded against DynamoDB): mhart/dynalite's test/query.js
// and test/scan.js (start-key schema, boundary and range-predicate messages,
// "Conditions can be of length 1 or 2 only", the filter on key attributes,
// "Key attributes must be scalars", Segment / TotalSegments and the wrong
// segment); the DynamoDB Local error table (the AttributesToGet / Count
// conflict, "The query can return at most one row and cannot be
// restarted"); ExtendDB's parity tests verified against us-east-1 (Select
// with a projection, and the "1 validation error detected: " prefix that
// Query, but not Scan, puts on it); scylladb/scylladb#9272 (the wrong
// segment message of real DynamoDB).

std::string_view SelectName(Select s) {
  switch (s) {
    case Select::kAllAttributes:
      return "ALL_ATTRIBUTES";
    case Select::kAllProjectedAttributes:
      return "ALL_PROJECTED_ATTRIBUTES";
    case Select::kSpecificAttributes:
      return "SPECIFIC_ATTRIBUTES";
    case Select::kCount:
      return "COUNT";
  }
  return "";
}

// "Cannot specify the ProjectionExpression when choosing to get only the
// Count" (and ALL_ATTRIBUTES, ALL_PROJECTED_ATTRIBUTES; AttributesToGet).
Status CannotSpecifyWithSelect(std::string_view parameter, Select select,
                               bool is_query) {
  std::string what = select == Select::kCount ? std::string("only the Count")
                                              : std::string(SelectName(select));
  std::string m = is_query ? "1 validation error detected: " : "";
  m += "Cannot specify the " + std::string(parameter) +
       " when choosing to get " + what;
  return Status::Validation(std::move(m));
}

Status ProjectionRequiredForSpecificAttributes() {
  return Status::Validation(
      "Must specify the AttributesToGet or ProjectionExpression when choosing "
      "to get SPECIFIC_ATTRIBUTES");
}

Status AllProjectedNeedsIndex() {
  return Status::Validation(
      "ALL_PROJECTED_ATTRIBUTES can be used only when Querying using an "
      "IndexName");
}

Status KeyConditionsRequired() {
  return Status::Validation(
      "Either the KeyConditions or KeyConditionExpression parameter must be "
      "specified in the request.");
}

Status TotalSegmentsRequired() {
  return Status::Validation(
      "The TotalSegments parameter is required but was not present in the "
      "request when Segment parameter is present");
}

Status SegmentRequired() {
  return Status::Validation(
      "The Segment parameter is required but was not present in the request "
      "when parameter TotalSegments is present");
}

Status SegmentNotLessThanTotal(int64_t segment, int64_t total) {
  return Status::Validation(
      "The Segment parameter is zero-based and must be less than parameter "
      "TotalSegments: Segment: " +
      std::to_string(segment) +
      " is not less than TotalSegments: " + std::to_string(total));
}

Status IndexNotFound(std::string_view index) {
  return Status::Validation("The table does not have the specified index: " +
                            std::string(index));
}

// Index reads: dynalite's actions/query.js and scan.js (recorded against
// DynamoDB); the ALL_ATTRIBUTES text is also in getmoto/moto's
// aws_verified tests.
Status GsiConsistentRead() {
  return Status::Validation(
      "Consistent reads are not supported on global secondary indexes");
}

Status AllAttributesOnPartialGsi(std::string_view index) {
  return Status::Validation(
      "One or more parameter values were invalid: Select type ALL_ATTRIBUTES "
      "is not supported for global secondary index " +
      std::string(index) + " because its projection type is not ALL");
}

// DynamoDB's refusal of a GSI read whose ProjectionExpression or
// AttributesToGet names attributes the index does not project, quoted from
// the service in localstack/localstack#478; the names in request order as
// Java prints a list ("[a, b]"). Alternator's test_gsi_query_select_2 (run
// against DynamoDB) expects it.
Status GsiDoesNotProject(std::string_view index,
                         const std::vector<std::string_view>& names) {
  std::string m = "One or more parameter values were invalid: Global "
                  "secondary index " +
                  std::string(index) + " does not project [";
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0) m += ", ";
    m += names[i];
  }
  m += "]";
  return Status::Validation(std::move(m));
}

constexpr std::string_view kStartKeyInvalid =
    "The provided starting key is invalid";

Status StartKeyInvalid() {
  return Status::Validation(std::string(kStartKeyInvalid));
}

Status StartKeyInvalidBecause(const Status& cause) {
  return Status::Validation(std::string(kStartKeyInvalid) + ": " +
                            cause.message());
}

Status StartKeyOutsideBoundaries() {
  return Status::Validation(
      "The provided starting key is outside query boundaries based on "
      "provided conditions");
}

// A Query on a table without a sort key has one item per partition, so an
// exclusive start key leaves nothing: DynamoDB refuses it, printing the key
// as Java does ("The provided exclusive start key is invalid:
// ExclusiveStartKey: {p=AttributeValue: {S:KPQ4X3JE19}}", quoted from the
// service in Alternator's test_query_no_sort_key_exclusive_start_key). A
// binary key is shown as base64 here; the service's form is not recorded.
Status StartKeyOnTableWithoutSortKey(const std::string& name,
                                     const AttributeValue& value) {
  std::string shown;
  switch (value.type()) {
    case AttrType::kS:
      shown = "S:" + value.s();
      break;
    case AttrType::kN:
      shown = "N:" + value.n().ToString();
      break;
    default:
      shown = "B:" + Base64Encode(value.b());
      break;
  }
  return Status::Validation(
      "The provided exclusive start key is invalid: ExclusiveStartKey: {" +
      name + "=AttributeValue: {" + shown + "}}");
}

Status StartKeyNotInRange() {
  return Status::Validation(
      "The provided starting key does not match the range key predicate");
}

Status StartKeyOnOtherPartitionWithRange() {
  return Status::Validation(
      "The query can return at most one row and cannot be restarted");
}

Status StartKeyInOtherSegment(int64_t total, int64_t segment) {
  return Status::Validation(
      std::string(kStartKeyInvalid) +
      ": Invalid ExclusiveStartKey. Please use ExclusiveStartKey with correct "
      "Segment. TotalSegments: " +
      std::to_string(total) + " Segment: " + std::to_string(segment));
}

Status FilterNamesKeyAttribute(bool legacy, std::string_view attribute) {
  return Status::Validation(
      std::string(legacy ? "QueryFilter" : "Filter Expression") +
      " can only contain non-primary key attributes: Primary key attribute: " +
      std::string(attribute));
}

Status KeyAttributeNotScalar(bool index_key, std::string_view attribute) {
  return Status::Validation(
      "Key attributes must be scalars; list random access '[]' and map "
      "lookup '.' are not allowed: " +
      std::string(index_key ? "IndexKey: " : "Key: ") + std::string(attribute));
}

// --- Helpers ----------------------------------------------------------------

template <typename T>
const T* OrNull(const std::optional<T>& o) {
  return o.has_value() ? &*o : nullptr;
}

Status CheckSelect(const ReadPageParameters& p, bool is_query) {
  const bool has_expression = p.projection_expression.has_value();
  const bool has_legacy = p.attributes_to_get.has_value();
  if (p.select.has_value() && *p.select != Select::kSpecificAttributes) {
    if (has_expression) {
      return CannotSpecifyWithSelect("ProjectionExpression", *p.select,
                                     is_query);
    }
    if (has_legacy) {
      return CannotSpecifyWithSelect("AttributesToGet", *p.select, is_query);
    }
  }
  if (p.select == Select::kSpecificAttributes && !has_expression &&
      !has_legacy) {
    return ProjectionRequiredForSpecificAttributes();
  }
  if (p.select == Select::kAllProjectedAttributes && !p.index_name) {
    return AllProjectedNeedsIndex();
  }
  return Status::OK();
}

// Start-key values: malformed ones were found by the api already.
Status CheckStartKeyValues(const ReadPageParameters& p) {
  if (!p.exclusive_start_key) return Status::OK();
  for (const auto& [name, value] : *p.exclusive_start_key) {
    Status s = ValidateAttributeValue(value);
    if (!s.ok()) return InvalidStartKeyValue(s);
  }
  return Status::OK();
}

Select EffectiveSelect(const ReadPageParameters& p) {
  if (p.select) return *p.select;
  if (p.projection_expression || p.attributes_to_get) {
    return Select::kSpecificAttributes;
  }
  // An index read returns what the index holds unless asked otherwise.
  if (p.index_name) return Select::kAllProjectedAttributes;
  return Select::kAllAttributes;
}

void CollectPaths(const expr::Operand& o, std::vector<const expr::Path*>* out) {
  if (o.kind == expr::Operand::Kind::kPath) out->push_back(&o.path);
  for (const expr::Operand& a : o.args) CollectPaths(a, out);
}

void CollectPaths(const expr::Condition& c,
                  std::vector<const expr::Path*>* out) {
  for (const expr::Operand& o : c.operands) CollectPaths(o, out);
  for (const expr::Condition& child : c.children) CollectPaths(child, out);
}

bool NamedTop(const std::vector<const expr::Path*>& paths,
              std::string_view name, bool nested_only) {
  for (const expr::Path* p : paths) {
    if (p->top() == name && (!nested_only || p->elements.size() > 1)) {
      return true;
    }
  }
  return false;
}

std::vector<std::string> TableKeyNames(const TableInfo& table) {
  std::vector<std::string> names = {table.key.hash_name};
  if (table.key.range_name) names.push_back(*table.key.range_name);
  return names;
}

// Key attributes of the table's indexes that are not table keys, GSIs
// first, each once.
std::vector<std::string> IndexKeyNames(const TableInfo& table) {
  const std::vector<std::string> table_keys = TableKeyNames(table);
  std::vector<std::string> out;
  auto add = [&](const std::vector<KeySchemaElement>& schema) {
    for (const KeySchemaElement& e : schema) {
      const std::string& n = e.attribute_name;
      bool seen = false;
      for (const std::string& k : table_keys) seen = seen || k == n;
      for (const std::string& k : out) seen = seen || k == n;
      if (!seen) out.push_back(n);
    }
  };
  for (const auto& g : table.desc.global_secondary_indexes) add(g.def.key_schema);
  for (const auto& l : table.desc.local_secondary_indexes) add(l.def.key_schema);
  return out;
}

// DynamoDB refuses paths that reach inside a key attribute ("a.b", "a[0]").
Status CheckKeyPaths(const TableInfo& table,
                     const std::vector<const expr::Path*>& paths,
                     bool check_table_keys) {
  if (check_table_keys) {
    for (const std::string& k : TableKeyNames(table)) {
      if (NamedTop(paths, k, true)) return KeyAttributeNotScalar(false, k);
    }
  }
  for (const std::string& k : IndexKeyNames(table)) {
    if (NamedTop(paths, k, true)) return KeyAttributeNotScalar(true, k);
  }
  return Status::OK();
}

std::vector<const expr::Path*> ProjectionPaths(const PreparedRead& prepared) {
  std::vector<const expr::Path*> out;
  if (prepared.projection) {
    for (const expr::Path& p : prepared.projection->paths) out.push_back(&p);
  }
  return out;
}

std::vector<const expr::Path*> FilterPaths(const PreparedRead& prepared) {
  std::vector<const expr::Path*> out;
  if (prepared.filter) CollectPaths(prepared.filter->root, &out);
  return out;
}

// IndexName: the index read (null without one), or DynamoDB's message for
// a missing index (also before a Scan's start key is looked at: dynalite's
// "unknown index and bad ExclusiveStartKey" scan tests, recorded against
// DynamoDB) and for a strongly consistent GSI read.
Result<const IndexInfo*> FindReadIndex(const TableInfo& table,
                                       const ReadPageParameters& p) {
  if (!p.index_name) return static_cast<const IndexInfo*>(nullptr);
  const IndexInfo* index = table.FindIndex(*p.index_name);
  if (index == nullptr) return IndexNotFound(*p.index_name);
  if (index->global && p.consistent_read) return GsiConsistentRead();
  return index;
}

// The attributes an index read's start key holds: the table key, then the
// index key attributes it does not share.
size_t IndexStartKeySize(const TableInfo& table, const IndexInfo& index) {
  return IndexKeyAttributes(index, table.key).size();
}

// The table key part of an index read's start key, as a Key parameter.
Item TableKeyPart(const TableInfo& table, const Item& start) {
  Item key;
  for (const std::string& name : TableKeyNames(table)) {
    auto it = start.find(name);
    if (it != start.end()) key.emplace(name, it->second);
  }
  return key;
}

bool Projected(const IndexInfo& index, const KeyDef& table_key,
               std::string_view name) {
  if (index.projection.type == ProjectionType::kAll) return true;
  for (const std::string& k : IndexKeyAttributes(index, table_key)) {
    if (k == name) return true;
  }
  for (const std::string& a : index.projection.non_key_attributes) {
    if (a == name) return true;
  }
  return false;
}

// How an index read gets attributes its index does not project: a GSI
// cannot (ALL_ATTRIBUTES is refused, and so is a projection naming them; a
// filter naming them finds them absent, as the GSI holds no more); an LSI
// reads each item from the table, as DynamoDB does.
Status PlanIndexAttributes(const TableInfo& table, const IndexInfo& index,
                           const PreparedRead& prepared, PageRequest* page) {
  if (index.projection.type == ProjectionType::kAll) return Status::OK();
  bool needs_table = prepared.select == Select::kAllAttributes;
  if (prepared.select != Select::kCount) {
    std::vector<std::string_view> unprojected;
    for (const expr::Path* path : ProjectionPaths(prepared)) {
      if (Projected(index, table.key, path->top())) continue;
      needs_table = true;
      if (std::find(unprojected.begin(), unprojected.end(), path->top()) ==
          unprojected.end()) {
        unprojected.push_back(path->top());
      }
    }
    if (index.global && !unprojected.empty()) {
      return GsiDoesNotProject(index.name, unprojected);
    }
  }
  for (const expr::Path* path : FilterPaths(prepared)) {
    needs_table = needs_table || !Projected(index, table.key, path->top());
  }
  if (!needs_table) return Status::OK();
  if (index.global) {
    if (prepared.select == Select::kAllAttributes) {
      return AllAttributesOnPartialGsi(index.name);
    }
    return Status::OK();
  }
  page->fetch_table_key = &table.key;
  page->fetch_table_id = table.id;
  return Status::OK();
}

// One key attribute of a Query's start key: present, of the schema's type.
Status CheckStartKeyAttribute(const Item& start, const std::string& name,
                              AttrType type) {
  auto it = start.find(name);
  if (it == start.end()) return StartKeyInvalid();
  if (it->second.type() != type) return KeyElementMismatch();
  return Status::OK();
}

// Expressions shared by Query and Scan, after the key condition (DynamoDB
// resolves KeyConditionExpression, FilterExpression, ProjectionExpression
// in that order with one set of placeholders).
Status ResolveFilterAndProjection(const ReadPageParameters& p,
                                  expr::RequestExpressions& exprs,
                                  PreparedRead* out) {
  if (p.filter_expression) {
    DR_ASSIGN_OR_RETURN(out->filter,
                        exprs.Condition(*p.filter_expression,
                                        expr::ExpressionKind::kFilter));
  }
  if (p.projection_expression) {
    DR_ASSIGN_OR_RETURN(
        out->projection,
        PrepareProjection(p.projection_expression, std::nullopt, exprs));
  }
  return Status::OK();
}

// Whether the page returns every entry it reads unchanged: nothing filters
// or projects them and no item replaces an entry (an LSI fetch). Then the
// entries need not be decoded (ReadPageParameters::encoded_items).
bool ReturnsEntriesAsRead(const PreparedRead& prepared, const PageRequest& page) {
  return (prepared.select == Select::kAllAttributes ||
          prepared.select == Select::kAllProjectedAttributes) &&
         !prepared.filter && !prepared.projection && page.filter == nullptr &&
         page.fetch_table_key == nullptr;
}

// Whether the page's items are not needed at all: Select COUNT with
// nothing that looks into them (PageRequest::count_only).
bool CountsOnly(const PreparedRead& prepared, const PageRequest& page) {
  return prepared.select == Select::kCount && !prepared.filter &&
         page.filter == nullptr && page.fetch_table_key == nullptr;
}

}  // namespace

Status InvalidStartKeyValue(const Status& cause) {
  // DynamoDB reports number errors, an empty number set and duplicate set
  // members without the start-key prefix (dynalite test/query.js: "invalid
  // values in ExclusiveStartKey without provided message").
  static constexpr std::string_view kBare[] = {
      "The parameter cannot be converted to a numeric value",
      "Number overflow",
      "Number underflow",
      "Attempting to store more than 38 significant digits",
      "Input collection contains duplicates",
      "One or more parameter values were invalid: Input collection",
      "One or more parameter values were invalid: An number set",
  };
  for (std::string_view bare : kBare) {
    if (std::string_view(cause.message()).starts_with(bare)) return cause;
  }
  return StartKeyInvalidBecause(cause);
}

Status CheckLegacyFilter(const ReadPageParameters& p) {
  return expr::TranslateFilter(p.legacy_filter, p.conditional_operator).status();
}

Status CheckAttributesToGet(const ReadPageParameters& p) {
  if (!p.attributes_to_get) return Status::OK();
  return expr::TranslateAttributesToGet(*p.attributes_to_get).status();
}

Status CheckParameterUse(const QueryRequest& req) {
  const ReadPageParameters& p = req.read;
  DR_RETURN_IF_ERROR(CheckSelect(p, /*is_query=*/true));
  // DynamoDB lets KeyConditions go with the other expressions; it counts as
  // a legacy parameter only beside KeyConditionExpression.
  const bool key_conditions_conflict =
      req.key_conditions.has_value() && req.key_condition_expression.has_value();
  return expr::CheckExpressionParameters(
      {{"ProjectionExpression", p.projection_expression.has_value()},
       {"FilterExpression", p.filter_expression.has_value()},
       {"KeyConditionExpression", req.key_condition_expression.has_value()}},
      {{"AttributesToGet", p.attributes_to_get.has_value()},
       {"QueryFilter", p.legacy_filter.has_value()},
       {"ConditionalOperator", p.conditional_operator.has_value()},
       {"KeyConditions", key_conditions_conflict}},
      p.expression_attribute_names.has_value(),
      p.expression_attribute_values.has_value());
}

Status CheckParameterUse(const ScanRequest& req) {
  const ReadPageParameters& p = req.read;
  DR_RETURN_IF_ERROR(CheckSelect(p, /*is_query=*/false));
  return expr::CheckExpressionParameters(
      {{"ProjectionExpression", p.projection_expression.has_value()},
       {"FilterExpression", p.filter_expression.has_value()}},
      {{"AttributesToGet", p.attributes_to_get.has_value()},
       {"ScanFilter", p.legacy_filter.has_value()},
       {"ConditionalOperator", p.conditional_operator.has_value()}},
      p.expression_attribute_names.has_value(),
      p.expression_attribute_values.has_value());
}

Result<PreparedRead> PrepareQuery(const QueryRequest& req) {
  const ReadPageParameters& p = req.read;
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  PreparedRead out;
  out.select = EffectiveSelect(p);
  DR_ASSIGN_OR_RETURN(out.filter,
                      expr::TranslateFilter(p.legacy_filter, p.conditional_operator));
  out.legacy_filter = out.filter.has_value();
  if (p.attributes_to_get) {
    DR_ASSIGN_OR_RETURN(out.projection,
                        expr::TranslateAttributesToGet(*p.attributes_to_get));
  }
  DR_RETURN_IF_ERROR(CheckStartKeyValues(p));
  if (!req.key_conditions && !req.key_condition_expression) {
    return KeyConditionsRequired();
  }
  expr::RequestExpressions exprs(OrNull(p.expression_attribute_names),
                                 OrNull(p.expression_attribute_values));
  DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
  std::optional<expr::ConditionExpression> key_condition;
  if (req.key_condition_expression) {
    DR_ASSIGN_OR_RETURN(key_condition,
                        exprs.Condition(*req.key_condition_expression,
                                        expr::ExpressionKind::kKeyCondition));
  }
  DR_RETURN_IF_ERROR(ResolveFilterAndProjection(p, exprs, &out));
  DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
  if (key_condition) {
    DR_ASSIGN_OR_RETURN(out.key_condition,
                        expr::AnalyzeKeyCondition(*key_condition));
  } else {
    DR_RETURN_IF_ERROR(expr::ValidateLegacyConditions(*req.key_conditions));
    // Up to 8 for a multi-attribute GSI key; BindKeyConditions refuses more
    // than 2 on any other key with the same message.
    const size_t n = req.key_conditions->size();
    if (n < 1 || n > expr::kMaxKeyConditionTerms) return expr::msg::KeyConditionCount();
    out.key_conditions = req.key_conditions;
  }
  return out;
}

Result<PreparedRead> PrepareScan(const ScanRequest& req) {
  const ReadPageParameters& p = req.read;
  DR_RETURN_IF_ERROR(CheckParameterUse(req));
  PreparedRead out;
  out.select = EffectiveSelect(p);
  if (p.attributes_to_get) {
    DR_ASSIGN_OR_RETURN(out.projection,
                        expr::TranslateAttributesToGet(*p.attributes_to_get));
  }
  DR_ASSIGN_OR_RETURN(out.filter,
                      expr::TranslateFilter(p.legacy_filter, p.conditional_operator));
  out.legacy_filter = out.filter.has_value();
  DR_RETURN_IF_ERROR(CheckStartKeyValues(p));
  if (req.segment && !req.total_segments) return TotalSegmentsRequired();
  if (req.total_segments) {
    if (!req.segment) return SegmentRequired();
    if (*req.segment >= *req.total_segments) {
      return SegmentNotLessThanTotal(*req.segment, *req.total_segments);
    }
  }
  expr::RequestExpressions exprs(OrNull(p.expression_attribute_names),
                                 OrNull(p.expression_attribute_values));
  DR_RETURN_IF_ERROR(exprs.CheckAttributeMaps());
  DR_RETURN_IF_ERROR(ResolveFilterAndProjection(p, exprs, &out));
  DR_RETURN_IF_ERROR(exprs.CheckAllUsed());
  return out;
}

Result<PageRequest> PlanQuery(const TableInfo& table, const QueryRequest& req,
                              const PreparedRead& prepared) {
  const ReadPageParameters& p = req.read;
  DR_ASSIGN_OR_RETURN(const IndexInfo* index, FindReadIndex(table, p));
  // The key the query runs on: the index's for an IndexName read.
  const KeyDef& key = index ? index->key : table.key;
  const Item* start = OrNull(p.exclusive_start_key);
  // DynamoDB checks the start key's schema one key attribute at a time,
  // partition key first, interleaved with the key condition's own checks.
  if (start != nullptr) {
    const size_t want = index ? IndexStartKeySize(table, *index)
                              : (key.range_name ? 2u : 1u);
    if (start->size() != want) return StartKeyInvalid();
    for (size_t i = 0; i < key.hash_count(); ++i) {
      DR_RETURN_IF_ERROR(
          CheckStartKeyAttribute(*start, key.hash_name_at(i), key.hash_type_at(i)));
    }
  }
  expr::KeyQuery q;
  if (prepared.key_condition) {
    DR_ASSIGN_OR_RETURN(q, expr::BindKeyCondition(*prepared.key_condition, key));
  } else {
    DR_ASSIGN_OR_RETURN(q, expr::BindKeyConditions(*prepared.key_conditions, key));
  }
  PageRequest page;
  if (start != nullptr) {
    for (size_t i = 0; i < key.range_count(); ++i) {
      DR_RETURN_IF_ERROR(
          CheckStartKeyAttribute(*start, key.range_name_at(i), key.range_type_at(i)));
    }
    // An index start key holds the table key too; it is checked as one.
    const Item table_part = index ? TableKeyPart(table, *start) : Item();
    Result<PrimaryKey> pk = KeyOfKeyParameter(table.key, index ? table_part : *start);
    if (!pk.ok()) return StartKeyInvalidBecause(pk.status());
    const AttributeValue& start_partition =
        index ? start->at(key.hash_name) : *pk->hash;
    // A multi-attribute key: every partition-key value is the partition.
    bool same_partition = start_partition == q.partition;
    for (size_t i = 0; i < q.extra_partition.size(); ++i) {
      same_partition = same_partition &&
                       start->at(key.hash_name_at(i + 1)) == q.extra_partition[i];
    }
    if (!q.sort) {
      if (!same_partition) return StartKeyOutsideBoundaries();
      if (index == nullptr && key.range_count() == 0) {
        return StartKeyOnTableWithoutSortKey(key.hash_name, *pk->hash);
      }
    } else {
      // The sort condition applies to the sort-key attribute after the
      // equal ones; the start key must match those too.
      bool in_range = true;
      for (size_t i = 0; i < q.sort_equal.size(); ++i) {
        in_range = in_range && start->at(key.range_name_at(i)) == q.sort_equal[i];
      }
      const AttributeValue* start_sort =
          !index ? pk->range : &start->at(q.sort->attribute);
      if (!in_range || !expr::MatchesSortCondition(*q.sort, *start_sort)) {
        return StartKeyNotInRange();
      }
      if (!same_partition) return StartKeyOnOtherPartitionWithRange();
    }
    page.exclusive_start = index ? IndexEntryKey(*index, table.key, *start)
                                 : keys::ItemKey(table.id, *pk->hash, pk->range);
  }
  const std::vector<const expr::Path*> filter_paths = FilterPaths(prepared);
  DR_RETURN_IF_ERROR(CheckKeyPaths(table, ProjectionPaths(prepared), true));
  // Every key attribute of the table or index queried (each attribute of a
  // multi-attribute key).
  std::vector<std::string> query_keys;
  for (size_t i = 0; i < key.hash_count(); ++i) query_keys.push_back(key.hash_name_at(i));
  for (size_t i = 0; i < key.range_count(); ++i) query_keys.push_back(key.range_name_at(i));
  for (const std::string& k : query_keys) {
    if (!req.filter_may_name_key_attributes && NamedTop(filter_paths, k, false)) {
      return FilterNamesKeyAttribute(prepared.legacy_filter, k);
    }
  }
  if (index) DR_RETURN_IF_ERROR(PlanIndexAttributes(table, *index, prepared, &page));
  DR_RETURN_IF_ERROR(CheckKeyPaths(table, filter_paths, false));

  const expr::KeyConditionTerm* sort = q.sort ? &*q.sort : nullptr;
  if (index && key.multi_attribute()) {
    std::vector<const AttributeValue*> partition = {&q.partition};
    for (const AttributeValue& v : q.extra_partition) partition.push_back(&v);
    std::vector<const AttributeValue*> sort_equal;
    for (const AttributeValue& v : q.sort_equal) sort_equal.push_back(&v);
    page.range = IndexQueryRange(index->id, partition, sort_equal, sort);
  } else {
    page.range = index ? IndexQueryRange(index->id, q.partition, sort)
                       : QueryRange(table.id, q.partition, sort);
  }
  page.cf = index ? Cf::kIndexes : Cf::kItems;
  page.index = index;
  page.forward = req.scan_index_forward;
  page.limit = p.limit;
  page.filter = prepared.filter ? &*prepared.filter : nullptr;
  page.encoded_items = p.encoded_items && ReturnsEntriesAsRead(prepared, page);
  page.count_only = CountsOnly(prepared, page);
  return page;
}

Result<PageRequest> PlanScan(const TableInfo& table, const ScanRequest& req,
                             const PreparedRead& prepared) {
  const ReadPageParameters& p = req.read;
  DR_ASSIGN_OR_RETURN(const IndexInfo* index, FindReadIndex(table, p));
  PageRequest page;
  const int64_t total = req.total_segments.value_or(1);
  const int64_t segment = req.segment.value_or(0);
  // A GSI has its own hash ring (its partition key's); an LSI shares the
  // table's.
  page.range = SegmentRange(index ? index->id : table.id, segment, total);
  if (index) {
    page.cf = Cf::kIndexes;
    page.index = index;
  }
  if (p.exclusive_start_key) {
    const Item& start = *p.exclusive_start_key;
    if (index) {
      if (start.size() != IndexStartKeySize(table, *index)) return StartKeyInvalid();
      const KeyDef& k = index->key;
      for (size_t i = 0; i < k.hash_count(); ++i) {
        DR_RETURN_IF_ERROR(
            CheckStartKeyAttribute(start, k.hash_name_at(i), k.hash_type_at(i)));
      }
      for (size_t i = 0; i < k.range_count(); ++i) {
        DR_RETURN_IF_ERROR(
            CheckStartKeyAttribute(start, k.range_name_at(i), k.range_type_at(i)));
      }
      DR_RETURN_IF_ERROR(PlanIndexAttributes(table, *index, prepared, &page));
    } else if (start.size() != (table.key.range_name ? 2u : 1u)) {
      return StartKeyInvalidBecause(KeyElementMismatch());
    }
    // `pk` points into the key it was given: keep that key alive (a
    // conditional with a temporary on one side would copy `start` too).
    const Item table_part = index ? TableKeyPart(table, start) : Item();
    Result<PrimaryKey> pk = KeyOfKeyParameter(table.key, index ? table_part : start);
    if (!pk.ok()) return StartKeyInvalidBecause(pk.status());
    std::string start_key = index ? IndexEntryKey(*index, table.key, start)
                                  : keys::ItemKey(table.id, *pk->hash, pk->range);
    if (total > 1 &&
        (start_key < page.range.lower || start_key >= page.range.upper)) {
      return StartKeyInOtherSegment(total, segment);
    }
    page.exclusive_start = std::move(start_key);
  }
  if (index && !p.exclusive_start_key) {
    DR_RETURN_IF_ERROR(PlanIndexAttributes(table, *index, prepared, &page));
  }
  DR_RETURN_IF_ERROR(CheckKeyPaths(table, ProjectionPaths(prepared), true));
  DR_RETURN_IF_ERROR(CheckKeyPaths(table, FilterPaths(prepared), true));
  page.forward = true;
  page.limit = p.limit;
  page.filter = prepared.filter ? &*prepared.filter : nullptr;
  page.encoded_items = p.encoded_items && ReturnsEntriesAsRead(prepared, page);
  page.count_only = CountsOnly(prepared, page);
  return page;
}

ReadPageResult FinishPage(const TableInfo& table, const PreparedRead& prepared,
                          Page page, const IndexInfo* index) {
  ReadPageResult out;
  // Without a filter every item read is returned, so Count is ScannedCount
  // (a count_only page keeps no item to count).
  out.count = prepared.select == Select::kCount && !prepared.filter
                  ? page.scanned_count
                  : static_cast<int64_t>(page.items.size() + page.encoded_items.size());
  out.scanned_count = page.scanned_count;
  out.count_only = prepared.select == Select::kCount;
  if (!out.count_only) {
    // An encoded page has neither projection nor filter
    // (ReturnsEntriesAsRead).
    out.encoded_items = std::move(page.encoded_items);
    if (prepared.projection) {
      out.items.reserve(page.items.size());
      for (const Item& item : page.items) {
        out.items.push_back(expr::ProjectItem(item, *prepared.projection));
      }
    } else {
      out.items = std::move(page.items);
    }
  }
  if (page.last_evaluated_item) {
    Item key;
    const Item& last = *page.last_evaluated_item;
    // An index read resumes from an entry: the index key and the table key.
    const std::vector<std::string> names =
        index ? IndexKeyAttributes(*index, table.key) : TableKeyNames(table);
    for (const std::string& name : names) {
      auto it = last.find(name);
      if (it != last.end()) key.emplace(name, it->second);
    }
    out.last_evaluated_key = std::move(key);
  }
  return out;
}

}  // namespace dynarock
