#include "engine/engine.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <ctime>
#include <set>
#include <tuple>
#include <utility>

#include "engine/capacity/throughput_controller.h"
#include "engine/clock.h"
#include "engine/expr/evaluate.h"
#include "engine/index/consistency_checker.h"
#include "engine/index/index_entry.h"
#include "engine/index/secondary_indexes.h"
#include "engine/keys/key_codec.h"
#include "engine/storage/catalog.h"
#include "engine/storage/store.h"
#include "engine/table/batch_requests.h"
#include "engine/table/item_locks.h"
#include "engine/table/item_requests.h"
#include "engine/table/query_requests.h"
#include "engine/table/query_scan.h"
#include "engine/table/read_metering.h"
#include "engine/table/schema.h"
#include "engine/table/write_path.h"
#include "engine/util/coding.h"
#include "engine/util/uuid.h"
#include "engine/value/attribute_value_validation.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {
namespace {

Status TableNotFound(std::string_view name) {
  return Status::ResourceNotFound("Requested resource not found: Table: " +
                                  std::string(name) + " not found");
}

// Data-plane calls (PutItem, GetItem, ...) on a missing or not-yet-ready
// table get DynamoDB's shorter message.
Status DataTableNotFound() {
  return Status::ResourceNotFound("Requested resource not found");
}

Status InUse(std::string_view what, std::string_view name) {
  return Status::ResourceInUse(
      "Attempt to change a resource which is still in use: Table is being " +
      std::string(what) + ": " + std::string(name));
}

std::string TableArn(const Scope& scope, std::string_view name) {
  return "arn:aws:dynamodb:" + scope.region + ":" + scope.account +
         ":table/" + std::string(name);
}

ProvisionedThroughputDescription ToDescription(
    const std::optional<ProvisionedThroughput>& t) {
  ProvisionedThroughputDescription d;
  if (t) {
    d.read_capacity_units = t->read_capacity_units;
    d.write_capacity_units = t->write_capacity_units;
  }
  return d;
}

// The throughput settings of a table as the controller needs them: the
// provisioned RCU / WCU of the table and each GSI (or on-demand), and the
// ids of its indexes (GSIs without an id yet are left out).
TableThroughputConfig ThroughputConfigOf(const TableInfo& t) {
  TableThroughputConfig c;
  c.table_id = t.id;
  c.table_name = t.desc.table_name;
  c.table_arn = t.desc.table_arn;
  c.billing_mode = t.desc.billing_mode;
  c.read_capacity_units = t.desc.provisioned_throughput.read_capacity_units;
  c.write_capacity_units = t.desc.provisioned_throughput.write_capacity_units;
  for (const auto& g : t.desc.global_secondary_indexes) {
    auto id = t.index_ids.find(g.def.index_name);
    if (id == t.index_ids.end()) continue;
    IndexThroughputConfig ic;
    ic.index_id = id->second;
    ic.index_name = g.def.index_name;
    ic.read_capacity_units = g.provisioned_throughput.read_capacity_units;
    ic.write_capacity_units = g.provisioned_throughput.write_capacity_units;
    c.global_secondary_indexes.push_back(std::move(ic));
  }
  for (const auto& l : t.desc.local_secondary_indexes) {
    auto id = t.index_ids.find(l.def.index_name);
    if (id != t.index_ids.end()) c.local_secondary_index_ids.push_back(id->second);
  }
  return c;
}

// The hash a storage key (item or index entry) starts with: id (4) | hash
// (8 BE); 0 for a shorter key (a range bound at the start of the ring).
uint64_t HashOfStorageKey(std::string_view key) {
  return key.size() >= 12 ? DecodeFixed64BE(key.data() + 4) : 0;
}

// What a read is expected to cost before it happens (the throttled units a
// refused read counts): one item's minimum.
double MinimumReadUnits(bool consistent_read) {
  return consistent_read ? 1.0 : 0.5;
}

// "Friday, October 9, 2026 at 12:21:34 AM Coordinated Universal Time", as
// DynamoDB's LimitExceededException prints times.
std::string UtcTime(int64_t micros) {
  static const char* const kDays[] = {"Sunday",   "Monday", "Tuesday",
                                      "Wednesday", "Thursday", "Friday",
                                      "Saturday"};
  static const char* const kMonths[] = {
      "January", "February", "March",     "April",   "May",      "June",
      "July",    "August",   "September", "October", "November", "December"};
  const time_t seconds = static_cast<time_t>(micros / 1'000'000);
  struct tm tm;
  gmtime_r(&seconds, &tm);
  const int hour12 = tm.tm_hour % 12 == 0 ? 12 : tm.tm_hour % 12;
  char buf[128];
  std::snprintf(buf, sizeof(buf),
                "%s, %s %d, %d at %d:%02d:%02d %s Coordinated Universal Time",
                kDays[tm.tm_wday], kMonths[tm.tm_mon], tm.tm_mday,
                tm.tm_year + 1900, hour12, tm.tm_min, tm.tm_sec,
                tm.tm_hour < 12 ? "AM" : "PM");
  return buf;
}

constexpr int64_t kMicrosPerDay = int64_t{86400} * 1'000'000;
constexpr int64_t kFreeDecreasesPerDay = 4;
constexpr int64_t kDecreaseIntervalMicros = int64_t{3600} * 1'000'000;

// DynamoDB's limit on provisioned-throughput decreases: 4 at any time in a
// UTC day, then one per 3,600 s. Updates `cur` for one more decrease at
// `now`, or returns LimitExceededException with DynamoDB's message.
Status CountDecrease(ProvisionedThroughputDescription* cur, int64_t now) {
  const bool same_day = cur->last_decrease_micros &&
                        *cur->last_decrease_micros / kMicrosPerDay ==
                            now / kMicrosPerDay;
  const int64_t today = same_day ? cur->number_of_decreases_today : 0;
  if (today >= kFreeDecreasesPerDay &&
      now < *cur->last_decrease_micros + kDecreaseIntervalMicros) {
    return Status(
        ErrorCode::kLimitExceeded,
        "Subscriber limit exceeded: Provisioned throughput decreases are "
        "limited within a given UTC day. After the first 4 decreases, each "
        "subsequent decrease in the same UTC day can be performed at most once "
        "every 3600 seconds. Number of decreases today: " +
            std::to_string(today) + ". Last decrease at " +
            UtcTime(*cur->last_decrease_micros) +
            ". Next decrease can be made at " +
            UtcTime(*cur->last_decrease_micros + kDecreaseIntervalMicros));
  }
  cur->number_of_decreases_today = today + 1;
  cur->last_decrease_micros = now;
  return Status::OK();
}

class EngineImpl final : public Engine {
 public:
  EngineImpl(const EngineOptions& options, Clock* clock,
             std::unique_ptr<Store> store, std::unique_ptr<Catalog> catalog,
             std::unique_ptr<SecondaryIndexes> indexes)
      : options_(options),
        clock_(clock),
        store_(std::move(store)),
        catalog_(std::move(catalog)),
        indexes_(std::move(indexes)),
        write_path_(store_.get(), &locks_, indexes_->writer()),
        throughput_(clock, options.capacity),
        throttling_(options.throttling) {
    write_path_.SetThroughput(&throughput_, &throttling_);
    StartThroughput();
  }

  ~EngineImpl() override {
    // The propagation thread first: nothing writes after it stops.
    indexes_->Stop();
    // Flush so that a reopened database does not need to replay the WAL;
    // the WAL alone already guarantees nothing is lost.
    if (!options_.in_memory) store_->Flush().ok();
  }

  Status WaitUntilIndexesCaughtUp() override;
  Status PropagateIndexes() override;
  Status SetIndexLag(const SetIndexLagRequest& req) override;
  IndexPropagationStats GetIndexPropagationStats() override;
  Status VerifyIndexes(const Scope& scope, const std::string& table_name) override;
  Result<TableThroughputStats> DescribeCapacity(const Scope& scope,
                                                const std::string& table_name,
                                                size_t hot_keys) override;
  void SetThrottling(bool on) override {
    throttling_.store(on, std::memory_order_relaxed);
  }
  bool throttling() const override {
    return throttling_.load(std::memory_order_relaxed);
  }

  Result<TableDescription> CreateTable(const CreateTableRequest& req) override;
  Result<TableDescription> DescribeTable(const DescribeTableRequest& req) override;
  Result<ListTablesResult> ListTables(const ListTablesRequest& req) override;
  Result<TableDescription> UpdateTable(const UpdateTableRequest& req) override;
  Result<TableDescription> DeleteTable(const DeleteTableRequest& req) override;
  Result<PutItemResult> PutItem(const PutItemRequest& req) override;
  Result<GetItemResult> GetItem(const GetItemRequest& req) override;
  Result<DeleteItemResult> DeleteItem(const DeleteItemRequest& req) override;
  Result<UpdateItemResult> UpdateItem(const UpdateItemRequest& req) override;
  Result<QueryResult> Query(const QueryRequest& req) override;
  Result<ScanResult> Scan(const ScanRequest& req) override;
  Result<BatchGetItemResult> BatchGetItem(const BatchGetItemRequest& req) override;
  Result<BatchWriteItemResult> BatchWriteItem(
      const BatchWriteItemRequest& req) override;

 private:
  // The table's status now; a table whose DELETING delay has passed is
  // removed from the catalog and reported as absent (nullptr).
  std::shared_ptr<const TableInfo> Live(const Scope& scope,
                                        std::string_view name,
                                        TableStatus* status);
  TableStatus StatusOf(const TableInfo& t, int64_t now) const;
  TableDescription Describe(const TableInfo& t, TableStatus status) const;
  // Registers every table of the catalog with the throughput controller,
  // with partition sizes seeded from the catalog's counters, then sets the
  // exact split-size counting. Runs once, from the constructor.
  void StartThroughput();
  // The exact sizes of the two halves of a partition being split.
  SplitSizes CountSplit(uint32_t table_id, uint32_t index_id, uint64_t begin,
                        uint64_t mid, uint64_t end) const;
  // Items and bytes of the table's (index_id 0) or GSI's keys whose hash is
  // in [begin, end) (end 0: the end of the ring).
  std::pair<int64_t, int64_t> CountRange(uint32_t id, bool gsi, uint64_t begin,
                                         uint64_t end) const;
  // With throttling on, refuses a read of `index` (null: the table) at
  // `hash` whose table or partition has no capacity left.
  Status CheckRead(const TableInfo& table, const IndexInfo* index,
                   uint64_t hash, bool consistent_read);
  // The table for a data-plane call: exists and is ACTIVE or UPDATING.
  Result<std::shared_ptr<const TableInfo>> DataTable(const Scope& scope,
                                                     std::string_view name);

  const EngineOptions options_;
  Clock* const clock_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<Catalog> catalog_;
  std::unique_ptr<SecondaryIndexes> indexes_;
  ItemLocks locks_;
  WritePath write_path_;
  ThroughputController throughput_;
  std::atomic<bool> throttling_;
};

TableStatus EngineImpl::StatusOf(const TableInfo& t, int64_t now) const {
  if (t.deleting_since_micros) return TableStatus::kDeleting;
  if (now < t.desc.creation_date_time_micros + options_.table_create_delay_micros) {
    return TableStatus::kCreating;
  }
  if (t.updating_since_micros &&
      now < *t.updating_since_micros + options_.table_create_delay_micros) {
    return TableStatus::kUpdating;
  }
  return TableStatus::kActive;
}

std::shared_ptr<const TableInfo> EngineImpl::Live(const Scope& scope,
                                                  std::string_view name,
                                                  TableStatus* status) {
  // Deterministic propagation moves with the calls (and the clock).
  indexes_->Pump();
  auto table = catalog_->Find(scope.ns, name);
  if (!table) return nullptr;
  const int64_t now = clock_->NowMicros();
  if (table->deleting_since_micros &&
      now >= *table->deleting_since_micros + options_.table_delete_delay_micros) {
    WriteBatch batch;
    // The items went at DeleteTable; only the definition remains. Failure
    // to forget it now is retried at the next lookup.
    if (catalog_->Remove(*table, &batch).ok()) return nullptr;
  }
  *status = StatusOf(*table, now);
  return table;
}

TableDescription EngineImpl::Describe(const TableInfo& t,
                                      TableStatus status) const {
  TableDescription d = t.desc;
  d.table_status = status;
  d.item_count = t.stats->item_count.load(std::memory_order_relaxed);
  d.table_size_bytes = t.stats->size_bytes.load(std::memory_order_relaxed);
  indexes_->Describe(t, &d);
  for (auto& g : d.global_secondary_indexes) {
    if (status == TableStatus::kCreating) g.index_status = TableStatus::kCreating;
    if (status == TableStatus::kDeleting) g.index_status = TableStatus::kDeleting;
  }
  return d;
}

Result<std::shared_ptr<const TableInfo>> EngineImpl::DataTable(
    const Scope& scope, std::string_view name) {
  TableStatus status;
  auto table = Live(scope, name, &status);
  // A failed GSI propagation is reported by every data-plane call.
  DR_RETURN_IF_ERROR(indexes_->status());
  if (!table || status == TableStatus::kCreating ||
      status == TableStatus::kDeleting) {
    return DataTableNotFound();
  }
  return table;
}

// --- Tables -------------------------------------------------------------

Result<TableDescription> EngineImpl::CreateTable(const CreateTableRequest& req) {
  DR_RETURN_IF_ERROR(ValidateCreateTable(req));
  TableStatus status;
  if (Live(req.scope, req.table_name, &status)) {
    return Status::ResourceInUse("Table already exists: " + req.table_name);
  }
  const BillingMode billing = req.billing_mode.value_or(BillingMode::kProvisioned);
  const int64_t now = clock_->NowMicros();

  TableInfo info;
  info.ns = req.scope.ns;
  info.key = ResolveKeyDef(req.key_schema, req.attribute_definitions);
  TableDescription& d = info.desc;
  d.table_name = req.table_name;
  d.table_arn = TableArn(req.scope, req.table_name);
  d.table_id = NewUuid();
  d.key_schema = req.key_schema;
  d.attribute_definitions = req.attribute_definitions;
  d.creation_date_time_micros = now;
  d.billing_mode = billing;
  if (billing == BillingMode::kPayPerRequest) {
    d.last_update_to_pay_per_request_micros = now;
  }
  d.provisioned_throughput = ToDescription(req.provisioned_throughput);
  d.deletion_protection_enabled = req.deletion_protection_enabled;
  for (const auto& gsi : req.global_secondary_indexes) {
    GlobalSecondaryIndexDescription g;
    g.def = gsi;
    g.index_arn = d.table_arn + "/index/" + gsi.index_name;
    g.index_status = TableStatus::kActive;
    g.provisioned_throughput = ToDescription(gsi.provisioned_throughput);
    d.global_secondary_indexes.push_back(std::move(g));
  }
  for (const auto& lsi : req.local_secondary_indexes) {
    LocalSecondaryIndexDescription l;
    l.def = lsi;
    l.index_arn = d.table_arn + "/index/" + lsi.index_name;
    d.local_secondary_indexes.push_back(std::move(l));
  }
  DR_ASSIGN_OR_RETURN(auto created, catalog_->Create(std::move(info)));
  indexes_->TableCreated(*created);
  throughput_.RegisterTable(ThroughputConfigOf(*created));
  return Describe(*created, StatusOf(*created, now));
}

Result<TableDescription> EngineImpl::DescribeTable(
    const DescribeTableRequest& req) {
  TableStatus status;
  auto table = Live(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  return Describe(*table, status);
}

Result<ListTablesResult> EngineImpl::ListTables(const ListTablesRequest& req) {
  const size_t limit = static_cast<size_t>(std::clamp(req.limit.value_or(100), 1, 100));
  ListTablesResult result;
  const int64_t now = clock_->NowMicros();
  for (const auto& table : catalog_->List(req.scope.ns)) {
    const std::string& name = table->desc.table_name;
    if (req.exclusive_start_table_name &&
        name <= *req.exclusive_start_table_name) {
      continue;
    }
    if (table->deleting_since_micros &&
        now >= *table->deleting_since_micros + options_.table_delete_delay_micros) {
      continue;  // gone; Live() forgets it on its next lookup
    }
    if (result.table_names.size() == limit) {
      result.last_evaluated_table_name = result.table_names.back();
      break;
    }
    result.table_names.push_back(name);
  }
  return result;
}

Result<TableDescription> EngineImpl::UpdateTable(const UpdateTableRequest& req) {
  TableStatus status;
  auto table = Live(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  if (status == TableStatus::kCreating) return InUse("created", req.table_name);
  if (status == TableStatus::kDeleting) return InUse("deleted", req.table_name);
  if (status == TableStatus::kUpdating) return InUse("updated", req.table_name);
  if (!req.billing_mode && !req.provisioned_throughput &&
      !req.deletion_protection_enabled &&
      (!req.global_secondary_index_updates ||
       req.global_secondary_index_updates->empty())) {
    return Status::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
  }

  auto next = std::make_shared<TableInfo>(*table);
  TableDescription& d = next->desc;
  const int64_t now = clock_->NowMicros();
  const BillingMode mode = req.billing_mode.value_or(d.billing_mode);
  bool changes_capacity = false;
  if (mode == BillingMode::kPayPerRequest) {
    if (req.provisioned_throughput) {
      return Status::Validation(
          "One or more parameter values were invalid: Neither ReadCapacityUnits "
          "nor WriteCapacityUnits can be specified when BillingMode is PAY_PER_REQUEST");
    }
    if (d.billing_mode != BillingMode::kPayPerRequest) {
      d.billing_mode = BillingMode::kPayPerRequest;
      d.last_update_to_pay_per_request_micros = now;
      d.provisioned_throughput.read_capacity_units = 0;
      d.provisioned_throughput.write_capacity_units = 0;
      changes_capacity = true;
    }
  } else {
    if (d.billing_mode == BillingMode::kPayPerRequest && !req.provisioned_throughput) {
      return Status::Validation(
          "One or more parameter values were invalid: ProvisionedThroughput must "
          "be specified when BillingMode is PROVISIONED");
    }
    if (req.provisioned_throughput) {
      auto& cur = d.provisioned_throughput;
      const auto& want = *req.provisioned_throughput;
      if (d.billing_mode == BillingMode::kProvisioned &&
          cur.read_capacity_units == want.read_capacity_units &&
          cur.write_capacity_units == want.write_capacity_units) {
        return Status::Validation(
            "The provisioned throughput for the table will not change. The requested "
            "value equals the current value. Current ReadCapacityUnits provisioned for "
            "the table: " + std::to_string(cur.read_capacity_units) +
            ". Requested ReadCapacityUnits: " + std::to_string(want.read_capacity_units) +
            ". Current WriteCapacityUnits provisioned for the table: " +
            std::to_string(cur.write_capacity_units) +
            ". Requested WriteCapacityUnits: " + std::to_string(want.write_capacity_units) +
            ". Refer to the Amazon DynamoDB Developer Guide for current limits and how "
            "to request higher limits.");
      }
      if (want.read_capacity_units > cur.read_capacity_units ||
          want.write_capacity_units > cur.write_capacity_units) {
        cur.last_increase_micros = now;
      }
      if (want.read_capacity_units < cur.read_capacity_units ||
          want.write_capacity_units < cur.write_capacity_units) {
        DR_RETURN_IF_ERROR(CountDecrease(&cur, now));
      }
      cur.read_capacity_units = want.read_capacity_units;
      cur.write_capacity_units = want.write_capacity_units;
      d.billing_mode = BillingMode::kProvisioned;
      changes_capacity = true;
    }
  }
  if (req.deletion_protection_enabled) {
    d.deletion_protection_enabled = *req.deletion_protection_enabled;
  }
  GsiChanges gsi_changes;
  DR_RETURN_IF_ERROR(indexes_->PlanGsiUpdates(req, *table, now, next.get(), &gsi_changes));
  if (changes_capacity || gsi_changes.changes_index_set()) {
    next->updating_since_micros = now;
  }
  WriteBatch batch;
  DR_RETURN_IF_ERROR(indexes_->Publish(*table, next, gsi_changes, &batch));
  // Re-rate the buckets (and add or drop GSIs) on the published version.
  auto published = catalog_->Find(req.scope.ns, req.table_name);
  throughput_.UpdateTable(ThroughputConfigOf(published ? *published : *next));
  return Describe(*next, StatusOf(*next, now));
}

Result<TableDescription> EngineImpl::DeleteTable(const DeleteTableRequest& req) {
  TableStatus status;
  auto table = Live(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  if (status == TableStatus::kCreating) return InUse("created", req.table_name);
  if (status == TableStatus::kDeleting) return InUse("deleted", req.table_name);
  if (table->desc.deletion_protection_enabled) {
    return Status::Validation(
        "Resource cannot be deleted as it is currently protected against deletion. "
        "Disable deletion protection first.");
  }
  auto next = std::make_shared<TableInfo>(*table);
  const int64_t now = clock_->NowMicros();
  next->deleting_since_micros = now;
  // The items go now, in the same batch that marks the table DELETING; the
  // definition stays until the delete delay passes, as DynamoDB shows it.
  WriteBatch batch;
  batch.DeleteRange(Cf::kItems, keys::TablePrefix(table->id),
                    keys::TableEnd(table->id));
  const int64_t items = table->stats->item_count.load();
  const int64_t bytes = table->stats->size_bytes.load();
  Catalog::AddStats(table->id, -items, -bytes, &batch);
  TableDescription before = Describe(*table, TableStatus::kDeleting);
  // The index entries and GSI log records go in the same batch.
  DR_RETURN_IF_ERROR(indexes_->PublishTableDeletion(*table, next, &batch));
  Catalog::ApplyStats(*table, -items, -bytes);
  throughput_.RemoveTable(table->id);
  return before;
}

// --- Secondary-index extensions ------------------------------------------

Status EngineImpl::WaitUntilIndexesCaughtUp() {
  return indexes_->WaitUntilCaughtUp();
}

Status EngineImpl::PropagateIndexes() { return indexes_->PropagateDue(); }

Status EngineImpl::SetIndexLag(const SetIndexLagRequest& req) {
  TableStatus status;
  auto table = Live(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  return indexes_->SetLag(*table, req.index_name, req.lag_micros);
}

IndexPropagationStats EngineImpl::GetIndexPropagationStats() {
  return indexes_->Stats();
}

Status EngineImpl::VerifyIndexes(const Scope& scope, const std::string& table_name) {
  TableStatus status;
  auto table = Live(scope, table_name, &status);
  if (!table) return TableNotFound(table_name);
  DR_ASSIGN_OR_RETURN(std::vector<IndexDifference> diffs,
                      CheckTableIndexes(*store_, *table));
  std::string report;
  for (const IndexDifference& d : diffs) report += d.ToString();
  // The recount: every write moves the counters in the batch that writes
  // its item, so on a quiet table they equal a count of what is stored.
  int64_t items = 0;
  int64_t bytes = 0;
  auto it = store_->NewIterator(Cf::kItems, keys::TablePrefix(table->id),
                                keys::TableEnd(table->id));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    DR_ASSIGN_OR_RETURN(int64_t size, EncodedItemSize(it->value()));
    ++items;
    bytes += size;
  }
  DR_RETURN_IF_ERROR(it->status());
  const int64_t counted_items = table->stats->item_count.load();
  const int64_t counted_bytes = table->stats->size_bytes.load();
  if (items != counted_items || bytes != counted_bytes) {
    report += "table " + table_name + ": stored " + std::to_string(items) +
              " items of " + std::to_string(bytes) + " bytes; counters say " +
              std::to_string(counted_items) + " items of " +
              std::to_string(counted_bytes) + " bytes\n";
  }
  if (report.empty()) return Status::OK();
  return Status::Internal(report);
}

// --- Capacity extensions ---------------------------------------------------

void EngineImpl::StartThroughput() {
  // No scan at startup: each table's partitions are seeded from the
  // catalog's live item count and bytes, spread over the partitions in
  // proportion to their hash ranges (partition hashes are uniform), and
  // split by halving while they are past the split size. Exact counts come
  // with the first real split (CountSplit). GSIs have no persisted size
  // counters: their partitions start empty and count the writes from here.
  const long double kRing = 18446744073709551616.0L;  // 2^64
  for (const auto& table : catalog_->All()) {
    if (table->deleting_since_micros) continue;
    throughput_.RegisterTable(ThroughputConfigOf(*table));
    const int64_t items = table->stats->item_count.load();
    const int64_t bytes = table->stats->size_bytes.load();
    if (items == 0 && bytes == 0) continue;
    std::optional<TableThroughputStats> stats = throughput_.Describe(table->id, 0);
    if (!stats) continue;
    int64_t items_done = 0, bytes_done = 0;
    for (const PartitionStats& p : stats->table.partitions) {
      const long double end =
          p.end == 0 ? kRing : static_cast<long double>(p.end);
      const long double upto = end / kRing;
      const int64_t items_upto = p.end == 0 ? items
          : static_cast<int64_t>(static_cast<long double>(items) * upto);
      const int64_t bytes_upto = p.end == 0 ? bytes
          : static_cast<int64_t>(static_cast<long double>(bytes) * upto);
      throughput_.RecordWrite(table->id, 0, p.begin, items_upto - items_done,
                              bytes_upto - bytes_done);
      items_done = items_upto;
      bytes_done = bytes_upto;
    }
    // A RecordWrite splits once; halve what is still past the split size.
    for (bool split = true; split;) {
      split = false;
      stats = throughput_.Describe(table->id, 0);
      for (const PartitionStats& p : stats->table.partitions) {
        if (p.bytes <= throughput_.options().split_size_bytes) continue;
        throughput_.RecordWrite(table->id, 0, p.begin, 0, 0);
        split = true;
      }
    }
  }
  throughput_.SetSplitSizeFn([this](uint32_t table_id, uint32_t index_id,
                                    uint64_t begin, uint64_t mid,
                                    uint64_t end) {
    return CountSplit(table_id, index_id, begin, mid, end);
  });
}

std::pair<int64_t, int64_t> EngineImpl::CountRange(uint32_t id, bool gsi,
                                                   uint64_t begin,
                                                   uint64_t end) const {
  std::string lower, upper;
  PutFixed32BE(&lower, id);
  PutFixed64BE(&lower, begin);
  if (end == 0) {
    upper = keys::TableEnd(id);
  } else {
    PutFixed32BE(&upper, id);
    PutFixed64BE(&upper, end);
  }
  int64_t items = 0, bytes = 0;
  auto it = store_->NewIterator(gsi ? Cf::kIndexes : Cf::kItems, lower, upper);
  for (it->Seek(lower); it->Valid(); it->Next()) {
    Result<Item> item = DecodeItem(it->value());
    if (!item.ok()) continue;  // counted by the consistency checker, not here
    ++items;
    // Base items at their DynamoDB size; GSI entries as IndexEntry::size
    // counts them (what the write path records).
    bytes += ItemSize(*item) + (gsi ? kIndexEntryOverheadBytes : 0);
  }
  return {items, bytes};
}

SplitSizes EngineImpl::CountSplit(uint32_t table_id, uint32_t index_id,
                                  uint64_t begin, uint64_t mid,
                                  uint64_t end) const {
  // index_id 0 is the table; any other is a GSI (LSIs have no partitions).
  const uint32_t id = index_id == 0 ? table_id : index_id;
  const bool gsi = index_id != 0;
  SplitSizes sizes;
  std::tie(sizes.left_items, sizes.left_bytes) = CountRange(id, gsi, begin, mid);
  std::tie(sizes.right_items, sizes.right_bytes) = CountRange(id, gsi, mid, end);
  return sizes;
}

Status EngineImpl::CheckRead(const TableInfo& table, const IndexInfo* index,
                             uint64_t hash, bool consistent_read) {
  if (!throttling()) return Status::OK();
  return throughput_.CheckRead(table.id, index ? index->id : 0, hash,
                               MinimumReadUnits(consistent_read));
}

Result<TableThroughputStats> EngineImpl::DescribeCapacity(
    const Scope& scope, const std::string& table_name, size_t hot_keys) {
  TableStatus status;
  auto table = Live(scope, table_name, &status);
  if (!table) return TableNotFound(table_name);
  std::optional<TableThroughputStats> stats =
      throughput_.Describe(table->id, hot_keys);
  if (!stats) return TableNotFound(table_name);
  return std::move(*stats);
}

// ReturnItemCollectionMetrics = SIZE: reported for tables with LSIs only, as
// DynamoDB does, with the size counted after the write.
Result<std::optional<ItemCollectionMetrics>> CollectionMetrics(
    const IndexWriter& writer, const TableInfo& table, ReturnItemCollectionMetrics what,
    const AttributeValue& pk) {
  if (what != ReturnItemCollectionMetrics::kSize || !table.has_lsi()) {
    return std::optional<ItemCollectionMetrics>();
  }
  DR_ASSIGN_OR_RETURN(int64_t bytes, writer.ItemCollectionSize(table.id, pk));
  ItemCollectionMetrics m;
  m.item_collection_key[table.key.hash_name] = pk;
  const double gb = static_cast<double>(bytes) / static_cast<double>(int64_t{1} << 30);
  m.size_estimate_lower_gb = static_cast<double>(static_cast<int64_t>(gb));
  m.size_estimate_upper_gb = m.size_estimate_lower_gb + 1;
  return std::optional<ItemCollectionMetrics>(std::move(m));
}

// --- Items --------------------------------------------------------------

Result<PutItemResult> EngineImpl::PutItem(const PutItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PreparePutItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfItem(table->key, req.item));
  DR_RETURN_IF_ERROR(CheckIndexKeys(*table, req.item));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  Metering metering;
  DR_ASSIGN_OR_RETURN(
      std::optional<Item> old,
      write_path_.Apply(
          *table, key,
          [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(write, stored));
        return Result<ItemChange>(ItemChange{req.item, false});
      },
          &metering));
  PutItemResult result;
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
  DR_ASSIGN_OR_RETURN(result.item_collection_metrics,
                      CollectionMetrics(*indexes_->writer(), *table,
                                        req.return_item_collection_metrics, *pk.hash));
  return result;
}

Result<GetItemResult> EngineImpl::GetItem(const GetItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const std::optional<expr::ProjectionExpression> projection,
                      PrepareGetItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  DR_RETURN_IF_ERROR(
      CheckRead(*table, nullptr, HashOfStorageKey(key), req.consistent_read));
  GetItemResult result;
  DR_ASSIGN_OR_RETURN(result.item, ReadItem(*store_, key));
  // Metered on the whole item: the projection does not reduce the cost.
  Metering metering = MeterItemRead(*table, key, result.item ? ItemSize(*result.item) : 0,
                                    req.consistent_read);
  throughput_.ChargeRead(metering.charge);
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  if (result.item && projection) {
    result.item = expr::ProjectItem(*result.item, *projection);
  }
  return result;
}

Result<DeleteItemResult> EngineImpl::DeleteItem(const DeleteItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareDeleteItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  Metering metering;
  DR_ASSIGN_OR_RETURN(
      std::optional<Item> old,
      write_path_.Apply(
          *table, key,
          [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(write, stored));
        return Result<ItemChange>(ItemChange{std::nullopt, false});
      },
          &metering));
  DeleteItemResult result;
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  if (req.return_values == ReturnValues::kAllOld) result.attributes = std::move(old);
  DR_ASSIGN_OR_RETURN(result.item_collection_metrics,
                      CollectionMetrics(*indexes_->writer(), *table,
                                        req.return_item_collection_metrics, *pk.hash));
  return result;
}

Result<UpdateItemResult> EngineImpl::UpdateItem(const UpdateItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedWrite write, PrepareUpdateItem(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, req.key));
  if (write.update) DR_RETURN_IF_ERROR(CheckKeyNotUpdated(*write.update, table->key));
  const std::string key = keys::ItemKey(table->id, *pk.hash, pk.range);
  std::optional<Item> new_item;
  Metering metering;
  DR_ASSIGN_OR_RETURN(
      std::optional<Item> old,
      write_path_.Apply(
          *table, key,
          [&](const std::optional<Item>& stored) -> Result<ItemChange> {
        DR_RETURN_IF_ERROR(CheckCondition(write, stored));
        DR_ASSIGN_OR_RETURN(new_item, UpdatedItem(write, req.key, stored));
        // An item that results is written even when nothing changed: an
        // update that leaves only the key still creates or keeps it.
        if (!new_item) return ItemChange{std::nullopt, /*unchanged=*/true};
        return ItemChange{new_item, false};
      },
          &metering));
  UpdateItemResult result;
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  result.attributes = UpdateReturnValues(req.return_values, write, old, new_item);
  DR_ASSIGN_OR_RETURN(result.item_collection_metrics,
                      CollectionMetrics(*indexes_->writer(), *table,
                                        req.return_item_collection_metrics, *pk.hash));
  return result;
}

// --- Query, Scan ----------------------------------------------------------

Result<QueryResult> EngineImpl::Query(const QueryRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareQuery(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(const PageRequest page_request,
                      PlanQuery(*table, req, prepared));
  DR_RETURN_IF_ERROR(indexes_->CheckReadable(*table, page_request.index));
  // The queried partition key's hash starts the range.
  DR_RETURN_IF_ERROR(CheckRead(*table, page_request.index,
                               HashOfStorageKey(page_request.range.lower),
                               req.read.consistent_read));
  DR_ASSIGN_OR_RETURN(Page page, ReadPage(*store_, page_request));
  Metering metering = MeterPage(*table, page_request, page, PageKind::kQuery,
                                req.read.consistent_read);
  throughput_.ChargeRead(metering.charge);
  QueryResult result =
      FinishPage(*table, prepared, std::move(page), page_request.index);
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  return result;
}

Result<ScanResult> EngineImpl::Scan(const ScanRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedRead prepared, PrepareScan(req));
  DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, req.table_name));
  DR_ASSIGN_OR_RETURN(const PageRequest page_request,
                      PlanScan(*table, req, prepared));
  DR_RETURN_IF_ERROR(indexes_->CheckReadable(*table, page_request.index));
  // Checked at the partition where the page starts.
  DR_RETURN_IF_ERROR(CheckRead(
      *table, page_request.index,
      HashOfStorageKey(page_request.exclusive_start ? *page_request.exclusive_start
                                                    : page_request.range.lower),
      req.read.consistent_read));
  DR_ASSIGN_OR_RETURN(Page page, ReadPage(*store_, page_request));
  Metering metering = MeterPage(*table, page_request, page, PageKind::kScan,
                                req.read.consistent_read);
  throughput_.ChargeRead(metering.charge);
  ScanResult result =
      FinishPage(*table, prepared, std::move(page), page_request.index);
  result.consumed_capacity = std::move(metering.consumed);
  result.capacity_charges.push_back(std::move(metering.charge));
  return result;
}

// --- Batches ----------------------------------------------------------------

Result<BatchGetItemResult> EngineImpl::BatchGetItem(
    const BatchGetItemRequest& req) {
  DR_ASSIGN_OR_RETURN(const PreparedBatchGet projections,
                      PrepareBatchGetItem(req));
  // Every table and every key is checked before anything is read.
  std::vector<std::shared_ptr<const TableInfo>> tables;
  std::vector<std::vector<std::string>> storage_keys;
  for (const auto& [name, t] : req.request_items) {
    DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, name));
    std::vector<std::string>& keys = storage_keys.emplace_back();
    for (const Item& key : t.keys) {
      DR_ASSIGN_OR_RETURN(PrimaryKey pk, KeyOfKeyParameter(table->key, key));
      keys.push_back(keys::ItemKey(table->id, *pk.hash, pk.range));
    }
    tables.push_back(std::move(table));
  }
  BatchGetItemResult result;
  int64_t response_bytes = 0;
  bool full = false;
  // Throttled keys go back as UnprocessedKeys; the call fails only when
  // every key was throttled.
  Status first_throttle;
  size_t keys_read = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, t] = req.request_items[i];
    std::vector<Item>& items =
        result.responses.emplace_back(name, std::vector<Item>()).second;
    KeysAndAttributes unprocessed;
    // Each key read is rounded on its own, found or not.
    Metering metering;
    metering.consumed.table_name = name;
    metering.charge.table_id = tables[i]->id;
    for (size_t k = 0; k < t.keys.size(); ++k) {
      if (!full) {
        const std::string& storage_key = storage_keys[i][k];
        Status admitted = CheckRead(*tables[i], nullptr,
                                    HashOfStorageKey(storage_key),
                                    t.consistent_read);
        if (!admitted.ok()) {
          if (first_throttle.ok()) first_throttle = std::move(admitted);
          unprocessed.keys.push_back(t.keys[k]);
          continue;
        }
        DR_ASSIGN_OR_RETURN(std::optional<Item> item,
                            ReadItem(*store_, storage_key));
        const int64_t read_bytes = item ? ItemSize(*item) : 0;
        if (!item) {
          Metering key_metering =
              MeterItemRead(*tables[i], storage_key, 0, t.consistent_read);
          throughput_.ChargeRead(key_metering.charge);
          metering.Merge(key_metering);
          ++keys_read;
          continue;
        }
        if (projections[i]) *item = expr::ProjectItem(*item, *projections[i]);
        const int64_t size = ItemSize(*item);
        if (response_bytes + size <= kMaxBatchGetResponseBytes) {
          response_bytes += size;
          items.push_back(std::move(*item));
          // Charged key by key, so the next keys' checks see it.
          Metering key_metering = MeterItemRead(*tables[i], storage_key,
                                                read_bytes, t.consistent_read);
          throughput_.ChargeRead(key_metering.charge);
          metering.Merge(key_metering);
          ++keys_read;
          continue;
        }
        full = true;
      }
      unprocessed.keys.push_back(t.keys[k]);
    }
    result.consumed_capacity.push_back(std::move(metering.consumed));
    result.capacity_charges.push_back(std::move(metering.charge));
    if (!unprocessed.keys.empty()) {
      unprocessed.projection_expression = t.projection_expression;
      unprocessed.attributes_to_get = t.attributes_to_get;
      unprocessed.expression_attribute_names = t.expression_attribute_names;
      unprocessed.consistent_read = t.consistent_read;
      result.unprocessed_keys.emplace_back(name, std::move(unprocessed));
    }
  }
  if (keys_read == 0 && !first_throttle.ok()) return first_throttle;
  return result;
}

Result<BatchWriteItemResult> EngineImpl::BatchWriteItem(
    const BatchWriteItemRequest& req) {
  DR_RETURN_IF_ERROR(PrepareBatchWriteItem(req));
  std::vector<std::shared_ptr<const TableInfo>> tables;
  for (const auto& [name, writes] : req.request_items) {
    DR_ASSIGN_OR_RETURN(auto table, DataTable(req.scope, name));
    tables.push_back(std::move(table));
  }
  std::vector<WritePath::ItemWrite> item_writes;
  std::set<std::string> seen;  // storage keys carry the table id
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    for (const WriteRequest& w : req.request_items[i].second) {
      DR_ASSIGN_OR_RETURN(std::string key, StorageKeyOfWrite(*tables[i], w));
      if (!seen.insert(key).second) return DuplicateItemKeys();
      std::optional<Item> new_item = w.put_item;
      item_writes.push_back(
          {tables[i].get(), std::move(key),
           [new_item = std::move(new_item)](const std::optional<Item>&)
               -> Result<ItemChange> {
             return Result<ItemChange>(ItemChange{new_item, false});
           }});
    }
  }
  std::vector<Metering> metering;
  // With throttling on, the refused requests are left out and come back as
  // UnprocessedItems; the call fails only when every request was refused.
  std::vector<bool> throttled;
  DR_RETURN_IF_ERROR(
      write_path_.ApplyMany(item_writes, &metering, &throttled).status());
  // One Metering per request, in request order: summed per table over the
  // requests applied.
  BatchWriteItemResult result;
  size_t next = 0;
  for (size_t i = 0; i < req.request_items.size(); ++i) {
    const auto& [name, writes] = req.request_items[i];
    Metering table_metering;
    table_metering.consumed.table_name = name;
    table_metering.charge.table_id = tables[i]->id;
    std::vector<WriteRequest> unprocessed;
    for (size_t w = 0; w < writes.size(); ++w, ++next) {
      if (throttled[next]) {
        unprocessed.push_back(writes[w]);
        continue;
      }
      table_metering.Merge(metering[next]);
    }
    result.consumed_capacity.push_back(std::move(table_metering.consumed));
    result.capacity_charges.push_back(std::move(table_metering.charge));
    if (!unprocessed.empty()) {
      result.unprocessed_items.emplace_back(name, std::move(unprocessed));
    }
  }
  return result;
}

}  // namespace

Result<std::unique_ptr<Engine>> Engine::Open(const EngineOptions& options) {
  Clock* clock = options.clock ? options.clock : RealClock::Default();
  StoreOptions store_options;
  store_options.path = options.path;
  store_options.in_memory = options.in_memory;
  store_options.sync_writes = options.sync_writes;
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(store_options));
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Catalog> catalog, Catalog::Load(store.get()));
  SecondaryIndexOptions index_options;
  index_options.gsi_lag_micros = options.gsi_lag_micros;
  index_options.deterministic =
      options.gsi_propagation == GsiPropagation::kDeterministic ||
      (options.gsi_propagation == GsiPropagation::kAuto &&
       dynamic_cast<SimulatedClock*>(clock) != nullptr);
  index_options.backfill_chunk_items = options.gsi_backfill_chunk_items;
  index_options.item_collection_size_limit_bytes =
      options.item_collection_size_limit_bytes;
  DR_ASSIGN_OR_RETURN(
      std::unique_ptr<SecondaryIndexes> indexes,
      SecondaryIndexes::Open(store.get(), catalog.get(), clock, index_options));
  return std::unique_ptr<Engine>(new EngineImpl(options, clock, std::move(store),
                                                std::move(catalog), std::move(indexes)));
}

}  // namespace dynarock
