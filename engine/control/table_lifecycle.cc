#include "engine/control/table_lifecycle.h"

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <utility>

#include "engine/capacity/table_capacity.h"
#include "engine/capacity/throughput_settings.h"
#include "engine/clock.h"
#include "engine/index/gsi_update_plan.h"
#include "engine/index/index_descriptions.h"
#include "engine/index/vector_update_plan.h"
#include "engine/keys/key_codec.h"
#include "engine/schema/arns.h"
#include "engine/schema/schema.h"
#include "engine/stream/table_streams.h"
#include "engine/control/resource_policies.h"
#include "engine/control/table_tags.h"
#include "engine/util/uuid.h"
#include "engine/vector/vector_index_rules.h"

namespace dynarock {
namespace {

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

constexpr int64_t kTableClassUpdates = 2;
constexpr int64_t kTableClassWindowDays = 30;

// "No more than two table class updates on your table are allowed in a
// 30-day trailing period" (developer guide, Considerations when choosing a
// table class). Sets `summary` to `want` at `now`, or refuses when the two
// updates before it both fall within the 30 days before `now`, with the
// message docs/compatibility.md records from DynamoDB.
Status ChangeTableClass(std::optional<TableClassSummary>* summary, TableClass want,
                        int64_t now) {
  if (*summary && (*summary)->table_class == want) return Status::OK();
  std::optional<int64_t> last, previous;
  if (*summary) {
    last = (*summary)->last_update_micros;
    previous = (*summary)->previous_update_micros;
  }
  if (last && previous && *previous > now - kTableClassWindowDays * kMicrosPerDay) {
    return Status(ErrorCode::kLimitExceeded,
                  "Updates to TableClass are limited to " + std::to_string(kTableClassUpdates) +
                      " times in " + std::to_string(kTableClassWindowDays) + " day(s).");
  }
  *summary = TableClassSummary{want, now, last};
  return Status::OK();
}

bool HasGsiUpdates(const UpdateTableRequest& req) {
  return req.global_secondary_index_updates &&
         !req.global_secondary_index_updates->empty();
}

// DynamoDB's rules on what TableClass, WarmThroughput and OnDemandThroughput
// may be combined with in one UpdateTable (messages recorded from live
// tables; which rule wins when several break is not recorded).
Status CheckSettingsAlone(const UpdateTableRequest& req) {
  const bool others = req.billing_mode || req.provisioned_throughput ||
                      req.deletion_protection_enabled || req.stream_specification;
  if (req.table_class && (others || HasGsiUpdates(req) || req.on_demand_throughput ||
                          req.warm_throughput)) {
    return Status::Validation(
        "One or more parameter values were invalid: TableClass modification must "
        "be the only operation in the request");
  }
  if (req.warm_throughput) {
    if (HasGsiUpdates(req)) {
      for (const GlobalSecondaryIndexUpdate& u : *req.global_secondary_index_updates) {
        if (u.create) {
          return Status::Validation(
              "One or more parameter values were invalid: Create global secondary "
              "index cannot be specified when updating WarmThroughput");
        }
      }
    }
    if (others || req.on_demand_throughput) {
      return Status::Validation(
          "One or more parameter values were invalid: WarmThroughput must be the "
          "only operation in the request");
    }
  }
  if (req.on_demand_throughput &&
      (req.provisioned_throughput || req.deletion_protection_enabled ||
       req.stream_specification || HasGsiUpdates(req))) {
    return Status::Validation(
        "One or more parameter values were invalid: OnDemandThroughput can only be "
        "combined with BillingMode in an UpdateTable request");
  }
  return Status::OK();
}

}  // namespace

Status TableNotFound(std::string_view name) {
  return Status::ResourceNotFound("Requested resource not found: Table: " +
                                  std::string(name) + " not found");
}

// --- Status and lookups -----------------------------------------------------

TableStatus TableLifecycle::StatusOf(const TableInfo& t, int64_t now) const {
  if (t.deleting_since_micros) return TableStatus::kDeleting;
  if (now < t.desc.creation_date_time_micros + options_.create_delay_micros) {
    return TableStatus::kCreating;
  }
  if (t.updating_since_micros &&
      now < *t.updating_since_micros + options_.create_delay_micros) {
    return TableStatus::kUpdating;
  }
  return TableStatus::kActive;
}

bool TableLifecycle::Expired(const TableInfo& t, int64_t now) const {
  return t.deleting_since_micros &&
         now >= *t.deleting_since_micros + options_.delete_delay_micros;
}

std::shared_ptr<const TableInfo> TableLifecycle::Find(const Scope& scope,
                                                      std::string_view name,
                                                      TableStatus* status) {
  auto table = catalog_->Find(scope.ns, name);
  if (!table) return nullptr;
  const int64_t now = clock_->NowMicros();
  if (Expired(*table, now)) {
    WriteBatch batch;
    // The items went at DeleteTable; only the definition remains. Failure
    // to forget it now is retried at the next lookup.
    if (catalog_->Remove(*table, &batch).ok()) return nullptr;
  }
  *status = StatusOf(*table, now);
  return table;
}

Result<std::shared_ptr<const TableInfo>> TableLifecycle::FindOrNotFound(
    const Scope& scope, std::string_view name) {
  TableStatus status;
  auto table = Find(scope, name, &status);
  if (!table) return TableNotFound(name);
  return table;
}

Result<std::shared_ptr<const TableInfo>> TableLifecycle::ForData(
    const Scope& scope, std::string_view name) {
  TableStatus status;
  auto table = Find(scope, name, &status);
  DR_RETURN_IF_ERROR(indexes_->status());
  if (!table || status == TableStatus::kCreating ||
      status == TableStatus::kDeleting) {
    return DataTableNotFound();
  }
  return table;
}

TableDescription TableLifecycle::DescriptionOf(const TableInfo& t,
                                               TableStatus status) const {
  TableDescription d = t.desc;
  d.table_status = status;
  d.item_count = t.stats->item_count.load(std::memory_order_relaxed);
  d.table_size_bytes = t.stats->size_bytes.load(std::memory_order_relaxed);
  indexes_->Describe(t, &d);
  // A record from before settings were kept has no warm throughput: report
  // the default in force.
  const CapacityOptions& capacity = throughput_->options();
  const WarmUnits warm = EffectiveWarm(d.settings, d.billing_mode,
                                       d.provisioned_throughput, capacity);
  d.settings.warm_read_units_per_second = warm.read;
  d.settings.warm_write_units_per_second = warm.write;
  for (auto& g : d.global_secondary_indexes) {
    const WarmUnits gw = EffectiveWarm(g.settings, d.billing_mode,
                                       g.provisioned_throughput, capacity);
    g.settings.warm_read_units_per_second = gw.read;
    g.settings.warm_write_units_per_second = gw.write;
    if (status == TableStatus::kCreating) g.index_status = TableStatus::kCreating;
    if (status == TableStatus::kDeleting) g.index_status = TableStatus::kDeleting;
  }
  for (auto& v : d.vector_indexes) {
    if (status == TableStatus::kCreating) v.index_status = TableStatus::kCreating;
    if (status == TableStatus::kDeleting) v.index_status = TableStatus::kDeleting;
    // Created with the index set of an UpdateTable: ACTIVE once its
    // backfill is done (SecondaryIndexes::Describe says while it runs).
    if (v.index_status == TableStatus::kCreating && status != TableStatus::kCreating &&
        !v.backfilling.value_or(false)) {
      v.index_status = TableStatus::kActive;
    }
  }
  return d;
}

// --- Operations -------------------------------------------------------------

Status TableLifecycle::ApplyStream(const Scope& scope, const TableInfo& t,
                                   const StreamSpecification& spec,
                                   TableDescription* desc) {
  if (streams_ == nullptr) return Status::OK();
  StreamTable st;
  st.table_id = t.id;
  st.ns = t.ns;
  st.region = scope.region;
  st.desc = &t.desc;
  st.key = t.key;
  if (std::optional<TableThroughputStats> stats = throughput_->Describe(t.id, 0)) {
    for (const PartitionStats& p : stats->table.partitions) {
      st.partitions.emplace_back(p.begin, p.end);
    }
  }
  if (st.partitions.empty()) st.partitions.emplace_back(0, 0);
  return ApplyStreamSpecification(streams_, st, spec, desc);
}

Result<TableInfo> TableLifecycle::Define(const CreateTableRequest& req) const {
  const BillingMode billing = req.billing_mode.value_or(BillingMode::kProvisioned);
  const int64_t now = clock_->NowMicros();

  TableInfo info;
  info.ns = req.scope.ns;
  for (const Tag& t : req.tags) info.tags[t.key] = t.value;
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
  d.provisioned_throughput = ThroughputDescriptionOf(req.provisioned_throughput);
  d.deletion_protection_enabled = req.deletion_protection_enabled;
  if (req.table_class) d.table_class_summary = TableClassSummary{*req.table_class, {}};
  if (req.sse_specification && req.sse_specification->enabled) {
    d.sse_description = SseDescription{KmsKeyArn(req.scope, req.sse_specification->kms_master_key_id)};
  }
  const CapacityOptions& capacity = throughput_->options();
  DR_ASSIGN_OR_RETURN(
      d.settings,
      NewThroughputSettings({}, billing, req.provisioned_throughput,
                            req.on_demand_throughput, req.warm_throughput,
                            capacity, req.scope.region));
  for (const auto& gsi : req.global_secondary_indexes) {
    DR_ASSIGN_OR_RETURN(GlobalSecondaryIndexDescription g,
                        NewGsiDescription(d.table_arn, gsi, billing, capacity,
                                          req.scope.region));
    d.global_secondary_indexes.push_back(std::move(g));
  }
  for (const auto& lsi : req.local_secondary_indexes) {
    d.local_secondary_indexes.push_back(NewLsiDescription(d.table_arn, lsi));
  }
  for (const VectorIndexDef& def : req.vector_indexes) {
    VectorIndexDescription v;
    v.def = def;
    v.index_arn = IndexArn(d.table_arn, def.index_name);
    d.vector_indexes.push_back(std::move(v));
  }
  return info;
}

Result<TableDescription> TableLifecycle::Create(const CreateTableRequest& req) {
  DR_RETURN_IF_ERROR(ValidateCreateTable(req));
  DR_RETURN_IF_ERROR(vector::CheckCreateTableVectorIndexes(req));
  if (req.stream_specification) {
    DR_RETURN_IF_ERROR(CheckCreateStream(*req.stream_specification));
  }
  DR_RETURN_IF_ERROR(CheckNewTags(req.tags, {}));
  TableStatus status;
  if (Find(req.scope, req.table_name, &status)) {
    return Status::ResourceInUse("Table already exists: " + req.table_name);
  }
  DR_ASSIGN_OR_RETURN(TableInfo info, Define(req));
  const int64_t now = info.desc.creation_date_time_micros;
  DR_ASSIGN_OR_RETURN(auto created, catalog_->Create(std::move(info)));
  DR_RETURN_IF_ERROR(indexes_->TableCreated(*created));
  throughput_->RegisterTable(ThroughputConfigOf(*created));
  if (req.stream_specification && req.stream_specification->stream_enabled) {
    // The stream's descriptor first, then the table's record names it (a
    // crash between leaves a stream the next open disables).
    auto next = std::make_shared<TableInfo>(*created);
    DR_RETURN_IF_ERROR(
        ApplyStream(req.scope, *created, *req.stream_specification, &next->desc));
    WriteBatch batch;
    DR_RETURN_IF_ERROR(catalog_->Replace(next, &batch));
    created = next;
  }
  return DescriptionOf(*created, StatusOf(*created, now));
}

Result<TableDescription> TableLifecycle::PublishRestored(TableInfo info) {
  Result<std::shared_ptr<const TableInfo>> created = catalog_->Create(std::move(info));
  if (!created.ok()) {
    if (created.status().code() == ErrorCode::kResourceInUse) {
      return Status(ErrorCode::kTableAlreadyExists, created.status().message());
    }
    return created.status();
  }
  DR_RETURN_IF_ERROR(indexes_->TableCreated(**created));
  RegisterSeeded(**created, throughput_);
  return DescriptionOf(**created, StatusOf(**created, clock_->NowMicros()));
}

Result<TableDescription> TableLifecycle::Describe(
    const DescribeTableRequest& req) {
  TableStatus status;
  auto table = Find(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  return DescriptionOf(*table, status);
}

Result<ListTablesResult> TableLifecycle::List(const ListTablesRequest& req) {
  const size_t limit = static_cast<size_t>(std::clamp(req.limit.value_or(100), 1, 100));
  ListTablesResult result;
  const int64_t now = clock_->NowMicros();
  for (const auto& table : catalog_->List(req.scope.ns)) {
    const std::string& name = table->desc.table_name;
    if (req.exclusive_start_table_name &&
        name <= *req.exclusive_start_table_name) {
      continue;
    }
    if (Expired(*table, now)) continue;  // gone; Find forgets it next time
    if (result.table_names.size() == limit) {
      result.last_evaluated_table_name = result.table_names.back();
      break;
    }
    result.table_names.push_back(name);
  }
  return result;
}
namespace {

// The checks of an UpdateTable request that need no table, which DynamoDB
// makes before it looks the table up (mhart/dynalite
// validations/updateTable.js, test/updateTable.js): something to change,
// PROVISIONED with its throughput, the units' bounds, the index actions.
Status CheckUpdateRequest(const UpdateTableRequest& req) {
  if (!req.billing_mode && !req.provisioned_throughput &&
      !req.deletion_protection_enabled && !req.stream_specification &&
      !req.table_class && !req.on_demand_throughput && !req.warm_throughput &&
      !req.sse_specification &&
      (!req.global_secondary_index_updates ||
       req.global_secondary_index_updates->empty()) &&
      !req.vector_index_updates) {
    return Status::Validation(
        "At least one of ProvisionedThroughput, BillingMode, UpdateStreamEnabled, "
        "GlobalSecondaryIndexUpdates or SSESpecification or ReplicaUpdates is required");
  }
  if (req.billing_mode == BillingMode::kProvisioned && !req.provisioned_throughput) {
    return Status::Validation(
        "One or more parameter values were invalid: ProvisionedThroughput must "
        "be specified when BillingMode is PROVISIONED");
  }
  if (req.provisioned_throughput) {
    DR_RETURN_IF_ERROR(CheckThroughputBounds(*req.provisioned_throughput));
  }
  if (req.global_secondary_index_updates) {
    DR_RETURN_IF_ERROR(CheckGsiUpdateActions(*req.global_secondary_index_updates));
  }
  if (req.vector_index_updates) {
    DR_RETURN_IF_ERROR(CheckVectorUpdateActions(*req.vector_index_updates));
  }
  return Status::OK();
}

}  // namespace

Result<TableDescription> TableLifecycle::Update(const UpdateTableRequest& req) {
  DR_RETURN_IF_ERROR(CheckUpdateRequest(req));
  TableStatus status;
  auto table = Find(req.scope, req.table_name, &status);
  if (!table) return TableNotFound(req.table_name);
  if (status == TableStatus::kCreating) return InUse("created", req.table_name);
  if (status == TableStatus::kDeleting) return InUse("deleted", req.table_name);
  if (status == TableStatus::kUpdating) return InUse("updated", req.table_name);
  DR_RETURN_IF_ERROR(CheckSettingsAlone(req));

  auto next = std::make_shared<TableInfo>(*table);
  TableDescription& d = next->desc;
  const int64_t now = clock_->NowMicros();
  const CapacityOptions& capacity = throughput_->options();
  const WarmUnits warm_before = EffectiveWarm(
      d.settings, d.billing_mode, d.provisioned_throughput, capacity);
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
  if (req.table_class) {
    DR_RETURN_IF_ERROR(ChangeTableClass(&d.table_class_summary, *req.table_class, now));
  }
  if (req.sse_specification) {
    if (req.sse_specification->enabled) {
      d.sse_description =
          SseDescription{KmsKeyArn(req.scope, req.sse_specification->kms_master_key_id)};
    } else {
      d.sse_description.reset();
    }
  }
  if (changes_capacity) {
    FollowCapacity(warm_before, d.billing_mode, d.provisioned_throughput, capacity,
                   &d.settings);
  }
  DR_RETURN_IF_ERROR(UpdateThroughputSettings(
      {}, d.billing_mode, d.provisioned_throughput, req.on_demand_throughput,
      req.warm_throughput, capacity, req.scope.region, &d.settings));
  if (req.stream_specification) {
    DR_RETURN_IF_ERROR(CheckUpdateStream(d, *req.stream_specification));
  }
  GsiChanges gsi_changes;
  DR_RETURN_IF_ERROR(indexes_->PlanGsiUpdates(req, *table, now, capacity,
                                              next.get(), &gsi_changes));
  if (req.stream_specification) {
    // Every check passed: the stream changes, then the table's record.
    DR_RETURN_IF_ERROR(ApplyStream(req.scope, *table, *req.stream_specification, &d));
  }
  if (changes_capacity || gsi_changes.changes_index_set()) {
    next->updating_since_micros = now;
  }
  WriteBatch batch;
  DR_RETURN_IF_ERROR(indexes_->Publish(*table, next, gsi_changes, &batch));
  // Re-rate the buckets (and add or drop GSIs) on the published version.
  auto published = catalog_->Find(req.scope.ns, req.table_name);
  throughput_->UpdateTable(ThroughputConfigOf(published ? *published : *next));
  TableDescription out = DescriptionOf(*next, StatusOf(*next, now));
  if (gsi_changes.deleted && gsi_changes.deleted->vector) {
    // The response still shows the deleted vector index, DELETING.
    for (const VectorIndexDescription& v : table->desc.vector_indexes) {
      if (v.def.index_name != gsi_changes.deleted->name) continue;
      out.vector_indexes.push_back(v);
      out.vector_indexes.back().index_status = TableStatus::kDeleting;
    }
  }
  return out;
}

Result<TableDescription> TableLifecycle::Delete(const DeleteTableRequest& req) {
  TableStatus status;
  auto table = Find(req.scope, req.table_name, &status);
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
  // Its resource-based policies (the table's and its streams') go too.
  RemoveResourcePolicies(table->id, &batch);
  TableDescription before = DescriptionOf(*table, TableStatus::kDeleting);
  // The index entries and GSI log records go in the same batch.
  DR_RETURN_IF_ERROR(indexes_->PublishTableDeletion(*table, next, &batch));
  Catalog::ApplyStats(*table, -items, -bytes);
  throughput_->RemoveTable(table->id);
  // The stream stays readable for its retention, as DynamoDB's does.
  if (streams_ != nullptr) DR_RETURN_IF_ERROR(streams_->Disable(table->id));
  return before;
}

}  // namespace dynarock
