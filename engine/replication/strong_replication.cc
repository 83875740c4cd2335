#include "engine/replication/strong_replication.h"

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <utility>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/util/coding.h"
#include "engine/util/crash_points.h"

namespace dynarock {
namespace {

constexpr char kStrongPrefix = 'S';
constexpr uint8_t kStrongVersion = 1;
// In-flight marks kept before the expired ones are swept.
constexpr size_t kSweepInFlightAt = 65'536;

std::string StrongKey(uint32_t id) {
  std::string key(1, kStrongPrefix);
  PutFixed32BE(&key, id);
  return key;
}

// DynamoDB's MRSC Regions: the US, EU and AP Region sets of the developer
// guide, and the five of the 2026-09-24 announcement, which also lets a
// global table span them ("any three-Region configuration across the 15
// supported AWS Regions").
constexpr std::array<std::string_view, 15> kStrongRegions = {
    "us-east-1",      "us-east-2",      "us-west-2",      "eu-west-1",  "eu-west-2",
    "eu-west-3",      "eu-central-1",   "ap-northeast-1", "ap-northeast-2",
    "ap-northeast-3", "ca-central-1",   "eu-north-1",     "eu-south-2", "ap-south-1",
    "ap-southeast-1"};

constexpr char kThreeRegions[] =
    "A multi-Region strongly consistent global table must be deployed in exactly three "
    "Regions: three replicas, or two replicas and one witness";

Status Refused(std::string message) { return Status::Validation(std::move(message)); }

}  // namespace

std::string StrongReplication::EncodeRecord(const std::string& witness) {
  std::string value;
  RecordWriter w(&value);
  w.Byte(kStrongVersion);
  w.String(witness);
  return value;
}

Status StrongReplication::Persist(uint32_t table_id, const std::string& witness) {
  WriteBatch batch;
  batch.Put(Cf::kMeta, StrongKey(table_id), EncodeRecord(witness));
  DR_RETURN_IF_ERROR(store_->Write(&batch));
  witness_[table_id] = witness;
  return Status::OK();
}

bool IsStrongConsistencyRegion(std::string_view region) {
  return std::find(kStrongRegions.begin(), kStrongRegions.end(), region) !=
         kStrongRegions.end();
}

Result<std::unique_ptr<StrongReplication>> StrongReplication::Open(Store* store,
                                                                   const Clock* clock,
                                                                   const Catalog* catalog,
                                                                   const Replicator* replicator) {
  std::unique_ptr<StrongReplication> s(new StrongReplication(store, clock, catalog, replicator));
  auto it = store->NewIterator(Cf::kMeta, std::string(1, kStrongPrefix),
                               std::string(1, kStrongPrefix + 1));
  MutexLock lock(&s->mu_);
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    if (it->key().size() != 5) return Status::Corruption("bad strong consistency key");
    RecordReader r(it->value());
    if (r.Byte() != kStrongVersion) return Status::Corruption("bad strong consistency record");
    std::string witness = r.String();
    if (!r.ok) return Status::Corruption("truncated strong consistency record");
    s->witness_[DecodeFixed32BE(it->key().data() + 1)] = std::move(witness);
  }
  DR_RETURN_IF_ERROR(it->status());
  return s;
}

Status StrongReplication::SetGlobalTables(GlobalTables* globals) {
  MutexLock lock(&mu_);
  globals_ = globals;
  DR_RETURN_IF_ERROR(RefreshLocked());
  globals_->SetStrong([this](uint32_t id) { return IsStrong(id); });
  return globals_->Republish();
}

bool StrongReplication::IsStrong(uint32_t table_id) const {
  return GroupOf(table_id) != nullptr;
}

std::shared_ptr<const StrongReplication::Group> StrongReplication::GroupOf(
    uint32_t table_id) const {
  if (count_.load(std::memory_order_acquire) == 0) return nullptr;
  MutexLock lock(&groups_mu_);
  auto it = groups_.find(table_id);
  return it == groups_.end() ? nullptr : it->second;
}

std::string StrongReplication::RegionOf(const Group& g, uint32_t table_id) {
  for (const ReplicationTarget& m : g.members) {
    if (m.table_id == table_id) return m.region;
  }
  return std::string();
}

Status StrongReplication::RefreshLocked() {
  std::map<uint32_t, std::shared_ptr<const TableInfo>> tables;
  for (const auto& t : catalog_->All()) tables[t->id] = t;
  WriteBatch batch;
  std::map<uint32_t, std::shared_ptr<const Group>> groups;
  for (auto it = witness_.begin(); it != witness_.end();) {
    const uint32_t id = it->first;
    if (groups.count(id) > 0) {
      ++it;
      continue;
    }
    auto t = tables.find(id);
    std::vector<ReplicationTarget> members;
    if (t != tables.end() && globals_ != nullptr) members = globals_->Group(*t->second);
    if (members.size() < 2) {
      // Its global table dissolved, or is being (the replicas that leave an
      // MRSC global table leave one Region), or the table was deleted: a
      // plain table.
      batch.Delete(Cf::kMeta, StrongKey(id));
      it = witness_.erase(it);
      continue;
    }
    // Members without a record (a crash cut the creation short) get it.
    for (const ReplicationTarget& m : members) {
      if (witness_.count(m.table_id) == 0) {
        batch.Put(Cf::kMeta, StrongKey(m.table_id), EncodeRecord(it->second));
        witness_[m.table_id] = it->second;
      }
    }
    std::sort(members.begin(), members.end(),
              [](const ReplicationTarget& a, const ReplicationTarget& b) {
                return a.table_id < b.table_id;
              });
    auto g = std::make_shared<Group>();
    g->id = members.front().table_id;
    g->witness = it->second;
    g->members = std::move(members);
    for (const ReplicationTarget& m : g->members) groups[m.table_id] = g;
    ++it;
  }
  {
    MutexLock ids(&groups_mu_);
    groups_ = std::move(groups);
    count_.store(groups_.size(), std::memory_order_release);
  }
  if (batch.empty()) return Status::OK();
  return store_->Write(&batch);
}

Status StrongReplication::Refresh() {
  MutexLock lock(&mu_);
  return RefreshLocked();
}

bool StrongReplication::Handles(const UpdateTableRequest& req) const {
  if (req.witness_updates) return true;
  if (req.multi_region_consistency == MultiRegionConsistency::kStrong) return true;
  if (!req.replica_updates && !req.multi_region_consistency) return false;
  std::shared_ptr<const TableInfo> t = catalog_->Find(req.scope.ns, req.table_name);
  return t && IsStrong(t->id);
}

Status StrongReplication::UpdateReplicas(const UpdateTableRequest& req) {
  MutexLock lock(&mu_);
  std::shared_ptr<const TableInfo> table = catalog_->Find(req.scope.ns, req.table_name);
  if (!table) return TableNotFound(req.table_name);
  if (std::shared_ptr<const Group> g = GroupOf(table->id)) return Remove(req, *table, *g);
  return Create(req, *table);
}

Status StrongReplication::Create(const UpdateTableRequest& req,
                                                   const TableInfo& table) {
  size_t creates = 0;
  std::set<std::string> regions{req.scope.region};
  if (req.replica_updates) {
    for (const ReplicationGroupUpdate& u : *req.replica_updates) {
      if (u.action != ReplicationGroupUpdate::Action::kCreate) {
        return Refused(
            "A multi-Region strongly consistent global table is created with Create actions "
            "only");
      }
      ++creates;
      regions.insert(u.region_name);
    }
  }
  if (req.multi_region_consistency != MultiRegionConsistency::kStrong) {
    return Refused(
        "GlobalTableWitnessUpdates is only valid for a multi-Region strongly consistent "
        "global table (MultiRegionConsistency STRONG)");
  }
  if (creates == 0) {
    return Refused(
        "MultiRegionConsistency is only valid when ReplicaUpdates creates a global table "
        "(one or more Create actions)");
  }
  size_t witnesses = 0;
  std::string witness;
  if (req.witness_updates) {
    for (const WitnessUpdate& w : *req.witness_updates) {
      if (w.action != WitnessUpdate::Action::kCreate) {
        return Refused("There is no witness to delete: '" + req.table_name +
                       "' is not a multi-Region strongly consistent global table");
      }
      ++witnesses;
      witness = w.region_name;
    }
  }
  if (witnesses > 1) return Refused("You can configure one witness per MRSC global table");
  if (creates + witnesses != 2) return Refused(kThreeRegions);
  if (witnesses == 1) {
    if (regions.count(witness) > 0) {
      return Refused("The witness must be in a different Region than the replicas: " +
                     witness);
    }
    regions.insert(witness);
  }
  if (regions.size() != 3) return Refused(kThreeRegions);
  for (const std::string& r : regions) {
    if (!IsStrongConsistencyRegion(r)) {
      return Refused("Multi-Region strong consistency is not available in Region " + r);
    }
  }
  if (globals_->Group(table).size() > 0) {
    return Refused("The consistency mode of a global table cannot be changed: '" +
                   req.table_name + "' is already a global table");
  }
  if (table.has_lsi()) {
    return Refused(
        "Local secondary indexes are not supported for multi-Region strongly consistent "
        "global tables");
  }
  if (table.ttl.enabled) {
    return Refused(
        "Time to Live is not supported for multi-Region strongly consistent global tables");
  }
  {
    auto it = store_->NewIterator(Cf::kItems, keys::TablePrefix(table.id),
                                  keys::TableEnd(table.id));
    it->SeekToFirst();
    DR_RETURN_IF_ERROR(it->status());
    if (it->Valid()) {
      return Refused(
          "The table must be empty to become a multi-Region strongly consistent global "
          "table: converting a table with existing items is not supported");
    }
  }
  // The source's record first: whatever of the creation a crash lets
  // happen, the next open finds a group with a strong member and makes
  // the others strong too (RefreshLocked); a creation that made no
  // replica leaves a plain table.
  DR_RETURN_IF_ERROR(Persist(table.id, witness));
  // The mode stays in the request: GlobalTables leaves the stream of a
  // strongly consistent group as it is.
  UpdateTableRequest replicas = req;
  replicas.witness_updates.reset();
  Status created = globals_->UpdateReplicas(replicas).status();
  if (created.ok()) created = CrashPoint("strong_replicas_created");
  if (!created.ok()) {
    // The replicas made before the error stay, strong.
    DR_RETURN_IF_ERROR(RefreshLocked());
    DR_RETURN_IF_ERROR(globals_->Republish());
    return created;
  }
  DR_RETURN_IF_ERROR(RefreshLocked());
  // The members leave the replication log: their writes reach every
  // replica in their own batch from now on.
  return globals_->Republish();
}

Status StrongReplication::Remove(const UpdateTableRequest& req,
                                                   const TableInfo& table, const Group& g) {
  if (req.multi_region_consistency) {
    return Refused("The consistency mode of a global table cannot be changed: '" +
                   req.table_name + "' is already a global table");
  }
  size_t deletes = 0;
  if (req.replica_updates) {
    for (const ReplicationGroupUpdate& u : *req.replica_updates) {
      if (u.action == ReplicationGroupUpdate::Action::kCreate) {
        return Refused(
            "You cannot add replicas to a multi-Region strongly consistent global table");
      }
      if (u.action == ReplicationGroupUpdate::Action::kDelete) ++deletes;
    }
  }
  size_t witness_deletes = 0;
  if (req.witness_updates) {
    for (const WitnessUpdate& w : *req.witness_updates) {
      if (w.action == WitnessUpdate::Action::kCreate) {
        return Refused("The witness must be added when the MRSC global table is created");
      }
      if (w.region_name != g.witness) {
        return Refused("The global table has no witness in Region " + w.region_name);
      }
      ++witness_deletes;
    }
  }
  const bool has_witness = !g.witness.empty();
  if (deletes > 0 || witness_deletes > 0) {
    const bool whole = has_witness ? (deletes == 1 && witness_deletes == 1)
                                   : (deletes == 2 && witness_deletes == 0);
    if (!whole) {
      return Refused(
          "You cannot delete a single replica or the witness of a multi-Region strongly "
          "consistent global table: delete two replicas, or one replica and the witness, "
          "to make the remaining replica a single-Region table");
    }
  }
  UpdateTableRequest replicas = req;
  replicas.witness_updates.reset();
  if (replicas.replica_updates && !replicas.replica_updates->empty()) {
    DR_RETURN_IF_ERROR(globals_->UpdateReplicas(replicas).status());
  }
  (void)table;
  return RefreshLocked();
}

Status StrongReplication::CheckDelete(const TableInfo& table) const {
  if (!IsStrong(table.id)) return Status::OK();
  return Refused(
      "You cannot delete a single replica of a multi-Region strongly consistent global "
      "table: use UpdateTable's ReplicaUpdates to delete two replicas, or one replica and "
      "the witness");
}

Status StrongReplication::RefuseFeature(const TableInfo& table, std::string_view message) const {
  if (!IsStrong(table.id)) return Status::OK();
  return Refused(std::string(message));
}

void StrongReplication::Describe(const TableInfo& table, TableDescription* desc) const {
  std::shared_ptr<const Group> g = GroupOf(table.id);
  if (!g) {
    // A 2019.11.21 global table's mode; the legacy version has none.
    if (desc->global_table_version == "2019.11.21") {
      desc->multi_region_consistency = MultiRegionConsistency::kEventual;
    }
    return;
  }
  desc->multi_region_consistency = MultiRegionConsistency::kStrong;
  if (!g->witness.empty()) desc->global_table_witnesses.push_back({g->witness, "ACTIVE"});
}

Status StrongReplication::CheckMajority(const Group& g, const std::string& region,
                                        std::string_view name) const {
  std::vector<std::string> regions;
  for (const ReplicationTarget& m : g.members) regions.push_back(m.region);
  if (!g.witness.empty()) regions.push_back(g.witness);
  const std::vector<RegionPartition> cuts = replicator_->Partitions();
  if (cuts.empty()) return Status::OK();
  size_t reachable = 0;
  for (const std::string& r : regions) {
    const bool cut = std::any_of(cuts.begin(), cuts.end(), [&](const RegionPartition& p) {
      return (p.a == region && p.b == r) || (p.b == region && p.a == r);
    });
    if (!cut) ++reachable;
  }
  if (2 * reachable > regions.size()) return Status::OK();
  return Status(ErrorCode::kServiceUnavailable,
                "Region " + region + " cannot reach a majority of the Regions of the "
                "multi-Region strongly consistent global table '" + std::string(name) +
                "': writes and strongly consistent reads are refused until it does");
}

Result<std::vector<std::shared_ptr<const TableInfo>>> StrongReplication::Replicas(
    const TableInfo& table) {
  std::vector<std::shared_ptr<const TableInfo>> out;
  std::shared_ptr<const Group> g = GroupOf(table.id);
  if (!g) return out;
  DR_RETURN_IF_ERROR(CheckMajority(*g, RegionOf(*g, table.id), table.desc.table_name));
  for (const ReplicationTarget& m : g->members) {
    if (m.table_id == table.id) continue;
    std::shared_ptr<const TableInfo> t = catalog_->Find(m.ns, m.table_name);
    if (t && t->id == m.table_id) out.push_back(std::move(t));
  }
  return out;
}

std::string StrongReplication::InFlightKey(const Group& g, std::string_view item_key) const {
  std::string key;
  PutFixed32BE(&key, g.id);
  key.append(item_key.substr(std::min<size_t>(4, item_key.size())));
  return key;
}

Status StrongReplication::CheckConflict(const TableInfo& table, std::string_view item_key) {
  std::shared_ptr<const Group> g = GroupOf(table.id);
  if (!g) return Status::OK();
  const std::string key = InFlightKey(*g, item_key);
  const std::string region = RegionOf(*g, table.id);
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&flight_mu_);
  auto it = in_flight_.find(key);
  if (it == in_flight_.end() || it->second.region == region || it->second.until_micros <= now) {
    return Status::OK();
  }
  return Status(ErrorCode::kReplicatedWriteConflict,
                "The request was rejected because one or more items in the request are being "
                "modified by a request in another Region.");
}

void StrongReplication::Written(const TableInfo& table, std::string_view item_key) {
  std::shared_ptr<const Group> g = GroupOf(table.id);
  if (!g) return;
  int64_t window = 0;
  for (const ReplicationTarget& m : g->members) {
    if (m.table_id != table.id) {
      window = std::max(window, replicator_->SetLagOf(m.table_id).value_or(0));
    }
  }
  const std::string key = InFlightKey(*g, item_key);
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&flight_mu_);
  if (window <= 0) {
    in_flight_.erase(key);
    return;
  }
  if (in_flight_.size() >= kSweepInFlightAt) {
    std::erase_if(in_flight_, [now](const auto& e) { return e.second.until_micros <= now; });
  }
  in_flight_[key] = InFlight{RegionOf(*g, table.id), now + window};
}

Status StrongReplication::CheckStrongRead(const TableInfo& table) const {
  std::shared_ptr<const Group> g = GroupOf(table.id);
  if (!g) return Status::OK();
  return CheckMajority(*g, RegionOf(*g, table.id), table.desc.table_name);
}

}  // namespace dynarock
