// engine/types.h
//
// The DynamoDB data model as plain C++ values: AttributeValue (the ten types),
// Item, key schemas, index and table definitions, TableDescription. These are
// what the engine's operations take and return; api/ converts them to and
// from DynamoDB JSON. Value types; thread-compatible.

#ifndef DYNAROCK_ENGINE_TYPES_H_
#define DYNAROCK_ENGINE_TYPES_H_

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "engine/value/number.h"

namespace dynarock {

// The ten DynamoDB types. Values are written to disk (item codec, catalog);
// never renumber.
enum class AttrType : uint8_t {
  kS = 1,
  kN = 2,
  kB = 3,
  kBool = 4,
  kNull = 5,
  kL = 6,
  kM = 7,
  kSS = 8,
  kNS = 9,
  kBS = 10,
};

// "S", "N", "B", "BOOL", "NULL", "L", "M", "SS", "NS", "BS".
std::string_view AttrTypeName(AttrType type);
// The inverse of AttrTypeName; nullopt for anything else.
std::optional<AttrType> AttrTypeFromName(std::string_view name);

class AttributeValue {
 public:
  using List = std::vector<AttributeValue>;
  using Map = std::map<std::string, AttributeValue, std::less<>>;

  AttributeValue() : type_(AttrType::kNull) {}

  static AttributeValue S(std::string s);
  static AttributeValue N(Number n);
  static AttributeValue B(std::string bytes);  // raw bytes, not base64
  static AttributeValue Bool(bool b);
  static AttributeValue Null();
  static AttributeValue L(List list);
  static AttributeValue M(Map map);
  // Sets keep the members in the order given; Validate() rejects duplicates.
  static AttributeValue SS(std::vector<std::string> members);
  static AttributeValue NS(std::vector<Number> members);
  static AttributeValue BS(std::vector<std::string> members);

  AttrType type() const { return type_; }
  bool is_scalar_key_type() const {
    return type_ == AttrType::kS || type_ == AttrType::kN ||
           type_ == AttrType::kB;
  }

  // Accessors; REQUIRES: the matching type.
  // S and B share string storage; SS and BS share string-set storage.
  const std::string& s() const { return std::get<std::string>(v_); }
  const std::string& b() const { return std::get<std::string>(v_); }
  const Number& n() const { return std::get<Number>(v_); }
  bool boolean() const { return std::get<bool>(v_); }
  const List& l() const { return std::get<List>(v_); }
  List& mutable_l() { return std::get<List>(v_); }
  const Map& m() const { return std::get<Map>(v_); }
  Map& mutable_m() { return std::get<Map>(v_); }
  const std::vector<std::string>& ss() const {
    return std::get<std::vector<std::string>>(v_);
  }
  const std::vector<std::string>& bs() const {
    return std::get<std::vector<std::string>>(v_);
  }
  const std::vector<Number>& ns() const {
    return std::get<std::vector<Number>>(v_);
  }

  // Deep equality, as DynamoDB compares values (sets compare as sets).
  bool operator==(const AttributeValue& other) const;
  bool operator!=(const AttributeValue& other) const {
    return !(*this == other);
  }

 private:
  template <typename T>
  AttributeValue(AttrType type, T&& v)
      : type_(type), v_(std::forward<T>(v)) {}

  AttrType type_;
  std::variant<std::monostate, bool, std::string, Number, List, Map,
               std::vector<std::string>, std::vector<Number>>
      v_;
};

// An item: attribute name -> value, ordered by name.
struct Item : AttributeValue::Map {
  using AttributeValue::Map::Map;
  Item() = default;
  explicit Item(AttributeValue::Map m) : AttributeValue::Map(std::move(m)) {}
};

// --- Table and index definitions ---------------------------------------

enum class KeyType : uint8_t { kHash = 1, kRange = 2 };  // persisted

struct KeySchemaElement {
  std::string attribute_name;
  KeyType key_type = KeyType::kHash;
  bool operator==(const KeySchemaElement&) const = default;
};

struct AttributeDefinition {
  std::string attribute_name;
  AttrType attribute_type = AttrType::kS;  // S, N or B
  bool operator==(const AttributeDefinition&) const = default;
};

// One key attribute: its name and its defined type (S, N or B).
struct KeyAttribute {
  std::string name;
  AttrType type = AttrType::kS;
  bool operator==(const KeyAttribute&) const = default;
};

// A GSI key has at most this many partition-key and sort-key
// attributes each (multi-attribute keys; tables and LSIs have one of each).
inline constexpr size_t kMaxKeyAttributesPerKind = 4;

// The resolved primary key of a table or index: partition key name and type,
// and optionally sort key name and type. A GSI may have a multi-attribute
// key (up to four partition-key and four sort-key attributes): the first of
// each kind is in hash_* / range_*, the others, in KeySchema order, in
// extra_hash / extra_range, so single-attribute keys (every table and LSI)
// read exactly as before.
struct KeyDef {
  std::string hash_name;
  AttrType hash_type = AttrType::kS;
  std::optional<std::string> range_name;
  AttrType range_type = AttrType::kS;
  std::vector<KeyAttribute> extra_hash;
  std::vector<KeyAttribute> extra_range;
  bool operator==(const KeyDef&) const = default;

  bool multi_attribute() const {
    return !extra_hash.empty() || !extra_range.empty();
  }
  size_t hash_count() const { return 1 + extra_hash.size(); }
  size_t range_count() const {
    return range_name ? 1 + extra_range.size() : 0;
  }
  // The i-th partition-key (sort-key) attribute's name and type, in
  // KeySchema order. REQUIRES: i < hash_count() (range_count()).
  const std::string& hash_name_at(size_t i) const {
    return i == 0 ? hash_name : extra_hash[i - 1].name;
  }
  AttrType hash_type_at(size_t i) const {
    return i == 0 ? hash_type : extra_hash[i - 1].type;
  }
  const std::string& range_name_at(size_t i) const {
    return i == 0 ? *range_name : extra_range[i - 1].name;
  }
  AttrType range_type_at(size_t i) const {
    return i == 0 ? range_type : extra_range[i - 1].type;
  }
  // Every partition-key attribute's type, in KeySchema order (what decodes
  // the partition key of a storage key).
  std::vector<AttrType> hash_types() const;
};

enum class ProjectionType : uint8_t { kAll = 1, kKeysOnly = 2, kInclude = 3 };  // persisted

struct Projection {
  ProjectionType type = ProjectionType::kAll;
  std::vector<std::string> non_key_attributes;  // kInclude only
  // Requests only: the request named no ProjectionType (`type` is then
  // kAll). CreateTable and UpdateTable refuse it in DynamoDB's order of
  // checks ("Unknown ProjectionType: null"); never stored.
  bool type_absent = false;
  bool operator==(const Projection&) const = default;
};

enum class BillingMode : uint8_t { kProvisioned = 1, kPayPerRequest = 2 };  // persisted

struct ProvisionedThroughput {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  bool operator==(const ProvisionedThroughput&) const = default;
};

// What DynamoDB reports for a table's or GSI's throughput.
struct ProvisionedThroughputDescription {
  int64_t read_capacity_units = 0;
  int64_t write_capacity_units = 0;
  int64_t number_of_decreases_today = 0;
  std::optional<int64_t> last_increase_micros;
  std::optional<int64_t> last_decrease_micros;
};

// A table's storage class (TableClass). Persisted in the catalog; never
// renumber.
enum class TableClass : uint8_t { kStandard = 1, kStandardInfrequentAccess = 2 };
// "STANDARD", "STANDARD_INFREQUENT_ACCESS".
std::string_view TableClassName(TableClass table_class);
std::optional<TableClass> TableClassFromName(std::string_view name);

// What contributor insights track for a table or GSI
// (ContributorInsightsMode): every request's keys, or only throttled ones.
enum class ContributorInsightsMode : uint8_t { kAccessedAndThrottledKeys, kThrottledKeys };

// What DescribeTable reports as TableClassSummary: DynamoDB shows it once a
// class was given (CreateTable or UpdateTable); LastUpdateDateTime only after
// UpdateTable changed it.
struct TableClassSummary {
  TableClass table_class = TableClass::kStandard;
  std::optional<int64_t> last_update_micros;
  // The update before the last one: DynamoDB allows no more than two table
  // class updates in a 30-day trailing period. Not in DescribeTable.
  std::optional<int64_t> previous_update_micros;
  bool operator==(const TableClassSummary&) const = default;
};

// OnDemandThroughput as a request gives it (CreateTable, UpdateTable, a GSI
// Create or Update): each member unset when absent; -1 removes a maximum
// (UpdateTable only).
struct OnDemandThroughput {
  std::optional<int64_t> max_read_request_units;
  std::optional<int64_t> max_write_request_units;
  bool operator==(const OnDemandThroughput&) const = default;
};

// WarmThroughput as a request gives it; each member unset when absent.
struct WarmThroughput {
  std::optional<int64_t> read_units_per_second;
  std::optional<int64_t> write_units_per_second;
  bool operator==(const WarmThroughput&) const = default;
};

// The throughput settings in force on an on-demand table or GSI: its
// OnDemandThroughput maxima (0 = no maximum) and its warm throughput (0 =
// not recorded: the engine's default for on-demand, the provisioned units
// otherwise; see engine/control/table_lifecycle.h).
struct ThroughputSettings {
  int64_t max_read_request_units = 0;
  int64_t max_write_request_units = 0;
  int64_t warm_read_units_per_second = 0;
  int64_t warm_write_units_per_second = 0;
  bool operator==(const ThroughputSettings&) const = default;
};

enum class TableStatus { kCreating, kUpdating, kDeleting, kActive };
std::string_view TableStatusName(TableStatus status);

struct GlobalSecondaryIndexDef {
  std::string index_name;
  std::vector<KeySchemaElement> key_schema;
  Projection projection;
  std::optional<ProvisionedThroughput> provisioned_throughput;  // provisioned tables
  // As requested (CreateTable, a GSI Create); what is in force is the
  // description's `settings`.
  std::optional<OnDemandThroughput> on_demand_throughput;
  std::optional<WarmThroughput> warm_throughput;
};

struct LocalSecondaryIndexDef {
  std::string index_name;
  std::vector<KeySchemaElement> key_schema;
  Projection projection;
};

struct GlobalSecondaryIndexDescription {
  GlobalSecondaryIndexDef def;
  std::string index_arn;
  TableStatus index_status = TableStatus::kActive;
  bool backfilling = false;
  ProvisionedThroughputDescription provisioned_throughput;
  ThroughputSettings settings;
  int64_t index_size_bytes = 0;
  int64_t item_count = 0;
};

struct LocalSecondaryIndexDescription {
  LocalSecondaryIndexDef def;
  std::string index_arn;
  int64_t index_size_bytes = 0;
  int64_t item_count = 0;
};

// --- Vector indexes (SearchVectors; docs/vector-search.md) ----------------

// How a vector index compares vectors (DistanceFunction). Persisted in the
// catalog; never renumber.
enum class VectorDistanceFunction : uint8_t { kCosine = 1, kEuclidean = 2, kDotProduct = 3 };
// "COSINE", "EUCLIDEAN", "DOT_PRODUCT".
std::string_view VectorDistanceFunctionName(VectorDistanceFunction f);
std::optional<VectorDistanceFunction> VectorDistanceFunctionFromName(std::string_view name);

// The role of an attribute in a vector index's SearchSchema: HASH
// partitions the index (a search names one value), INLINE_FILTER may be
// tested for equality during a search. Persisted; never renumber.
enum class SearchSchemaElementType : uint8_t { kHash = 1, kInlineFilter = 2 };
// "HASH", "INLINE_FILTER".
std::string_view SearchSchemaElementTypeName(SearchSchemaElementType t);
std::optional<SearchSchemaElementType> SearchSchemaElementTypeFromName(std::string_view name);

struct SearchSchemaElement {
  std::string attribute_name;
  SearchSchemaElementType type = SearchSchemaElementType::kHash;
  bool operator==(const SearchSchemaElement&) const = default;
};

// A vector index as CreateTable's VectorIndexes (and UpdateTable's
// CreateVectorIndexAction) declare it.
struct VectorIndexDef {
  std::string index_name;
  std::string vector_attribute;  // VectorAttribute.AttributeName
  int64_t dimensions = 0;
  VectorDistanceFunction distance_function = VectorDistanceFunction::kCosine;
  std::vector<SearchSchemaElement> search_schema;
  Projection projection;
  bool operator==(const VectorIndexDef&) const = default;
};

struct VectorIndexDescription {
  VectorIndexDef def;
  std::string index_arn;
  TableStatus index_status = TableStatus::kActive;
  // Reported only for an index added by UpdateTable (absent for one
  // created with its table), as DynamoDB does.
  std::optional<bool> backfilling;
  int64_t index_size_bytes = 0;
  int64_t item_count = 0;
};

// --- DynamoDB Streams ---------------------------------------------------

// What a stream record carries of the item (StreamViewType). Persisted in
// the catalog and stream descriptors; never renumber.
enum class StreamViewType : uint8_t {
  kKeysOnly = 1,
  kNewImage = 2,
  kOldImage = 3,
  kNewAndOldImages = 4,
};
// "KEYS_ONLY", "NEW_IMAGE", "OLD_IMAGE", "NEW_AND_OLD_IMAGES".
std::string_view StreamViewTypeName(StreamViewType type);
std::optional<StreamViewType> StreamViewTypeFromName(std::string_view name);

// A table's StreamSpecification as CreateTable / UpdateTable take it and
// DescribeTable reports it.
struct StreamSpecification {
  bool stream_enabled = false;
  std::optional<StreamViewType> stream_view_type;
  bool operator==(const StreamSpecification&) const = default;
};

// Who made a change, on a stream record: unset for a client's write; TTL
// deletions are {Type: "Service", PrincipalId: "dynamodb.amazonaws.com"}.
struct StreamUserIdentity {
  std::string type;
  std::string principal_id;
  bool operator==(const StreamUserIdentity&) const = default;
};

// A resource tag (TagResource, CreateTable's Tags).
struct Tag {
  std::string key;
  std::string value;
  bool operator==(const Tag&) const = default;
};

// SSESpecification. Enabled: a KMS key, `kms_master_key_id` (a key id,
// alias or ARN) or, without it, the AWS managed key alias/aws/dynamodb;
// not enabled: the AWS owned key, DynamoDB's default.
struct SseSpecification {
  bool enabled = false;
  std::optional<std::string> kms_master_key_id;
};

// A table encrypted with a KMS key: the key's ARN (KMSMasterKeyArn).
struct SseDescription {
  std::string kms_master_key_arn;
  bool operator==(const SseDescription&) const = default;
};

// --- Global tables (version 2019.11.21; docs/global-tables.md) -------------

// A replica's state (ReplicaStatus). CREATING until its table exists and
// the items it was created over are copied, DELETING while it goes.
enum class ReplicaStatus : uint8_t { kCreating, kActive, kUpdating, kDeleting };
// "CREATING", "ACTIVE", "UPDATING", "DELETING".
std::string_view ReplicaStatusName(ReplicaStatus s);

// A global table's consistency mode: multi-Region eventual (MREC) or strong
// (MRSC) consistency.
enum class MultiRegionConsistency { kEventual, kStrong };

// One entry of a table's GlobalTableWitnesses: the Region that holds a
// multi-Region strongly consistent global table's witness.
struct WitnessDescription {
  std::string region_name;
  std::string witness_status = "ACTIVE";
  bool operator==(const WitnessDescription&) const = default;
};

// A replica's own read settings, where they differ from its global
// table's (ReplicaUpdates' ProvisionedThroughputOverride {ReadCapacityUnits}
// and OnDemandThroughputOverride {MaxReadRequestUnits}), of its table or of
// one of its GSIs. Unset: the read setting synchronized across replicas.
struct ReadOverride {
  std::optional<int64_t> read_capacity_units;
  std::optional<int64_t> max_read_request_units;
  bool empty() const { return !read_capacity_units && !max_read_request_units; }
  bool operator==(const ReadOverride&) const = default;
};

// A replica GSI's read override (ReplicaGlobalSecondaryIndex in a request,
// ReplicaGlobalSecondaryIndexDescription in Replicas).
struct ReplicaIndexOverride {
  std::string index_name;
  ReadOverride read;
  bool operator==(const ReplicaIndexOverride&) const = default;
};

// One entry of a table's Replicas: another Region's table of the group.
struct ReplicaDescription {
  std::string region_name;
  ReplicaStatus replica_status = ReplicaStatus::kActive;
  std::optional<std::string> kms_master_key_id;
  std::optional<TableClassSummary> replica_table_class_summary;
  // The replica's read overrides in force (ProvisionedThroughputOverride,
  // OnDemandThroughputOverride, GlobalSecondaryIndexes: the GSIs with one).
  ReadOverride read_override;
  std::vector<ReplicaIndexOverride> global_secondary_indexes;
  bool operator==(const ReplicaDescription&) const = default;
};

struct TableDescription {
  std::string table_name;
  std::string table_arn;
  std::string table_id;  // a UUID
  std::vector<KeySchemaElement> key_schema;
  std::vector<AttributeDefinition> attribute_definitions;
  TableStatus table_status = TableStatus::kActive;
  int64_t creation_date_time_micros = 0;
  BillingMode billing_mode = BillingMode::kProvisioned;
  // Set when billing_mode was ever switched to PAY_PER_REQUEST.
  std::optional<int64_t> last_update_to_pay_per_request_micros;
  ProvisionedThroughputDescription provisioned_throughput;
  int64_t item_count = 0;
  int64_t table_size_bytes = 0;
  std::vector<GlobalSecondaryIndexDescription> global_secondary_indexes;
  std::vector<LocalSecondaryIndexDescription> local_secondary_indexes;
  std::vector<VectorIndexDescription> vector_indexes;
  bool deletion_protection_enabled = false;
  std::optional<TableClassSummary> table_class_summary;
  // Server-side encryption with a KMS key (SSEDescription: Status ENABLED,
  // SSEType KMS); absent for the default, the AWS owned key.
  std::optional<SseDescription> sse_description;
  ThroughputSettings settings;
  // Set once a stream was ever specified; StreamEnabled false after it is
  // disabled. The latest stream's ARN and label stay after a disable.
  std::optional<StreamSpecification> stream_specification;
  std::string latest_stream_arn;
  std::string latest_stream_label;
  // The table's replicas in the other Regions of its global table (filled
  // at describe time, never persisted in the table record); empty for a
  // table that is not global. GlobalTableVersion is "2019.11.21" when set.
  std::vector<ReplicaDescription> replicas;
  std::string global_table_version;
  // A global table's consistency mode (set with `replicas`), and its
  // witness, if it has one (multi-Region strong consistency only).
  std::optional<MultiRegionConsistency> multi_region_consistency;
  std::vector<WitnessDescription> global_table_witnesses;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TYPES_H_
