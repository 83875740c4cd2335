#include "engine/data/write_path.h"

#include <algorithm>
#include <cassert>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/keys/key_codec.h"
#include "engine/storage/lagging_replica.h"
#include "engine/stream/stream_record.h"
#include "engine/value/encoded_item.h"
#include "engine/value/item_codec.h"
#include "engine/value/item_size.h"

namespace dynarock {

Result<std::optional<ItemCollectionMetrics>> CollectionMetrics(
    const IndexWriter& writer, const TableInfo& table,
    ReturnItemCollectionMetrics what, const AttributeValue& pk) {
  if (what != ReturnItemCollectionMetrics::kSize || !table.has_lsi()) {
    return std::optional<ItemCollectionMetrics>();
  }
  DR_ASSIGN_OR_RETURN(int64_t bytes, writer.ItemCollectionSize(table.id, pk));
  ItemCollectionMetrics m;
  m.item_collection_key[table.key.hash_name] = pk;
  const double gb =
      static_cast<double>(bytes) / static_cast<double>(int64_t{1} << 30);
  m.size_estimate_lower_gb = static_cast<double>(static_cast<int64_t>(gb));
  m.size_estimate_upper_gb = m.size_estimate_lower_gb + 1;
  return std::optional<ItemCollectionMetrics>(std::move(m));
}

Status TransactionConflict() {
  return Status(ErrorCode::kTransactionConflict,
                "Transaction is ongoing for the item");
}

Result<std::optional<Item>> ReadItem(const StoreReader& store,
                                     const std::string& item_key) {
  DR_ASSIGN_OR_RETURN(auto bytes, store.Get(Cf::kItems, item_key));
  if (!bytes) return std::optional<Item>();
  DR_ASSIGN_OR_RETURN(Item item, DecodeItem(*bytes));
  return std::optional<Item>(std::move(item));
}

Result<WritePath::Before> WritePath::ReadBefore(const TableInfo& table,
                                                const std::string& item_key,
                                                IndexWriter::Txn* txn,
                                                bool mutation_reads_old) {
  Before before;
  if (streams_ != nullptr && table.desc.stream_specification &&
      table.desc.stream_specification->stream_enabled) {
    before.stream_view = streams_->ActiveViewType(table.id);
  }
  // Only the old item's existence and size matter (billing, counters)
  // unless the mutation, the stream record or the index changes read it.
  // Items of tables whose writes always read the old item are not
  // remembered (what was is forgotten), which saves the memory.
  before.rememberable =
      !before.stream_view.has_value() &&
      !(indexes_ != nullptr && indexes_->HasIndexes(*txn, table.id));
  const bool size_only = before.rememberable && !mutation_reads_old;
  // Read before the item is, so that a bulk change after it shows.
  before.generation = store_->ItemsBulkGeneration();
  std::optional<ItemSizeCache::Known> known;
  if (size_only) known = known_.Find(item_key, before.generation);
  if (known) {
    before.size = known->size;
    before.exists = known->exists;
    return before;
  }
  DR_ASSIGN_OR_RETURN(before.bytes, store_->Get(Cf::kItems, item_key));
  if (before.bytes) {
    // Decoding is most of what reading the old item costs beyond the Get:
    // skipped when only its size and existence matter.
    if (!size_only) {
      DR_ASSIGN_OR_RETURN(Item decoded, DecodeItem(*before.bytes));
      before.item = std::move(decoded);
      before.size = ItemSize(*before.item);
    } else {
      DR_ASSIGN_OR_RETURN(before.size, EncodedItemSize(*before.bytes));
    }
  }
  // Under the item's lock, what was read is the item's state until this
  // write (or the next) commits.
  if (before.rememberable) {
    known_.Remember(item_key, {before.bytes.has_value(), before.size}, before.generation);
  }
  before.exists = before.bytes.has_value();
  return before;
}

Result<std::optional<Item>> WritePath::Stage(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation,
                                             IndexWriter::Txn* txn,
                                             WriteBatch* batch,
                                             std::vector<StatsDelta>* stats,
                                             Metering* metering,
                                             std::vector<PendingStreamRecord>* records,
                                             const std::optional<StreamUserIdentity>& user_identity,
                                             bool mutation_reads_old,
                                             const ReplicatedChange* replicated) {
  DR_ASSIGN_OR_RETURN(Before before, ReadBefore(table, item_key, txn, mutation_reads_old));
  // The base table's part comes first; the index parts follow it.
  Metering m;
  m.consumed.table_name = table.desc.table_name;
  m.charge.table_id = table.id;
  auto meter_base = [&](int64_t bytes) {
    m.consumed.table.write_units = WriteUnits(bytes);
    m.charge.parts.push_back(PartOfStorageKey(0, item_key, table.key.hash_type,
                                              0, m.consumed.table.write_units));
  };
  Result<ItemChange> changed = mutation(before.item);
  if (!changed.ok()) {
    // DynamoDB charges a refused conditional write the item it read.
    if (changed.status().code() == ErrorCode::kConditionalCheckFailed) {
      meter_base(before.size);
      *metering = std::move(m);
    }
    return changed.status();
  }
  const ItemChange change = std::move(changed).value();
  const Item* new_item = change.NewItem();
  if (change.unchanged || (new_item == nullptr && !before.exists)) {
    // A replicated delete of an item this table does not hold still leaves
    // its version (a tombstone), so that an older write cannot bring it back.
    if (!change.unchanged && replicated != nullptr) {
      for (ChangeHook* hook : hooks_) {
        DR_RETURN_IF_ERROR(hook->StageTombstone(table, item_key, *replicated, batch));
      }
    }
    // Nothing to write (or nothing to delete): still one read item's worth.
    meter_base(before.size);
    *metering = std::move(m);
    return std::move(before.item);
  }

  const int64_t new_size = new_item != nullptr ? ItemSize(*new_item) : 0;
  meter_base(std::max(before.size, new_size));
  std::vector<PartitionSizeDelta> gsi_sizes;
  if (indexes_ != nullptr) {
    DR_RETURN_IF_ERROR(indexes_->Stage(txn, table.id, before.item, new_item,
                                       before.size, new_size, batch, &m,
                                       &gsi_sizes));
  }
  Status after = StageAfter(table, item_key, before, new_item, new_size,
                            std::move(gsi_sizes), m, batch, stats, records, user_identity,
                            replicated);
  if (!after.ok()) return after;
  *metering = std::move(m);
  return std::move(before.item);
}

Status WritePath::StageAfter(const TableInfo& table, const std::string& item_key,
                             const Before& before, const Item* new_item, int64_t new_size,
                             std::vector<PartitionSizeDelta> gsi_sizes, const Metering& m,
                             WriteBatch* batch, std::vector<StatsDelta>* stats,
                             std::vector<PendingStreamRecord>* records,
                             const std::optional<StreamUserIdentity>& user_identity,
                             const ReplicatedChange* replicated) {
  std::string value;
  if (new_item != nullptr) {
    EncodeItem(*new_item, &value);
    batch->Put(Cf::kItems, item_key, value);
  } else {
    batch->Delete(Cf::kItems, item_key);
  }
  // Point-in-time recovery's record of the change, and the global table's
  // replication log and item version, in the same batch.
  for (ChangeHook* hook : hooks_) {
    DR_RETURN_IF_ERROR(hook->Stage(table, item_key, new_item != nullptr ? &value : nullptr,
                                   replicated, batch));
  }
  if (before.stream_view) {
    const ItemImage old_image{before.item ? &*before.item : nullptr,
                              before.bytes ? std::string_view(*before.bytes)
                                           : std::string_view(),
                              before.size};
    const ItemImage new_image{new_item, value, new_size};
    std::optional<std::string> record =
        EncodeChangeRecord(*before.stream_view, table.key, old_image, new_image,
                           streams_->clock()->NowMicros(), user_identity);
    if (record) {
      records->push_back({table.id, m.charge.parts.front().hash, std::move(*record)});
    }
  }
  const int64_t item_delta = (new_item != nullptr ? 1 : 0) - (before.exists ? 1 : 0);
  Catalog::AddStats(table.id, item_delta, new_size - before.size, batch);
  // The base part (first) carries the item's partition hash.
  stats->push_back({&table, item_delta, new_size - before.size,
                    m.charge.parts.front().hash, std::move(gsi_sizes), item_key,
                    {new_item != nullptr, new_size}, before.generation,
                    before.rememberable});
  return Status::OK();
}

Status WritePath::Commit(WriteBatch* batch,
                         const std::vector<PendingStreamRecord>& records) {
  if (replica_ != nullptr) replica_->BeforeWrite();
  if (streams_ == nullptr || records.empty()) return store_->Write(batch);
  return streams_->Write(batch, records);
}

Status WritePath::Admit(const CapacityCharge& charge) {
  return throughput_->AdmitWrite(charge);
}

void WritePath::ChargeUnthrottled(const CapacityCharge& charge) {
  if (throughput_ != nullptr) throughput_->Charge(charge);
}

void WritePath::Committed(const std::vector<StatsDelta>& stats) {
  for (const StatsDelta& d : stats) {
    if (d.remember) {
      known_.Remember(d.item_key, d.after, d.generation);
    } else {
      known_.Forget(d.item_key);
    }
    Catalog::ApplyStats(*d.table, d.items, d.bytes);
    if (throughput_ == nullptr) continue;
    if (d.items != 0 || d.bytes != 0) {
      throughput_->RecordWrite(d.table->id, 0, d.hash, d.items, d.bytes);
    }
    for (const PartitionSizeDelta& g : d.gsi_sizes) {
      throughput_->RecordWrite(d.table->id, g.index_id, g.hash, g.items,
                               g.bytes);
    }
  }
}

void WritePath::NotCommitted(const std::vector<StatsDelta>& stats) {
  // Store::Write applies nothing of a failed batch; forgetting costs little
  // and holds even if a failure ever left part of one behind.
  for (const StatsDelta& d : stats) known_.Forget(d.item_key);
}

Result<std::optional<Item>> WritePath::Apply(const TableInfo& table,
                                             const std::string& item_key,
                                             const ItemMutation& mutation,
                                             Metering* metering,
                                             const std::optional<StreamUserIdentity>& user_identity) {
  return ApplyOne(table, item_key, mutation, metering, /*charged=*/true,
                  user_identity);
}

Status WritePath::Put(const TableInfo& table, const std::string& item_key,
                      const Item& new_item, Metering* metering) {
  return ApplyOne(
             table, item_key,
             [&new_item](const std::optional<Item>&) -> Result<ItemChange> {
               return ItemChange::Borrowed(new_item);
             },
             metering, /*charged=*/true, std::nullopt, /*mutation_reads_old=*/false)
      .status();
}

Result<std::optional<Item>> WritePath::ApplyAsService(
    const TableInfo& table, const std::string& item_key,
    const ItemMutation& mutation) {
  return ApplyOne(table, item_key, mutation, nullptr, /*charged=*/false,
                  StreamUserIdentity{"Service", "dynamodb.amazonaws.com"});
}

Result<std::optional<Item>> WritePath::ApplyReplicated(const TableInfo& table,
                                                       const std::string& item_key,
                                                       const ItemMutation& mutation,
                                                       const ReplicatedChange& replicated,
                                                       Metering* metering) {
  return ApplyOne(table, item_key, mutation, metering, /*charged=*/true, std::nullopt,
                  /*mutation_reads_old=*/true, &replicated);
}

Result<std::optional<Item>> WritePath::ApplyOne(
    const TableInfo& table, const std::string& item_key,
    const ItemMutation& mutation, Metering* metering, bool charged,
    const std::optional<StreamUserIdentity>& user_identity, bool mutation_reads_old,
    const ReplicatedChange* replicated) {
  // A member of a strongly consistent global table writes every replica
  // (a replicated apply is MREC's, never one of those).
  if (sync_ != nullptr && replicated == nullptr && sync_->Active()) {
    DR_ASSIGN_OR_RETURN(std::vector<std::shared_ptr<const TableInfo>> replicas,
                        sync_->Replicas(table));
    if (!replicas.empty()) return ApplyStrong(table, item_key, mutation, metering, replicas);
  }
  std::lock_guard<std::mutex> lock(locks_->For(item_key));
  if (locks_->IsMarked(item_key)) return TransactionConflict();
  std::vector<PendingStreamRecord> records;
  IndexWriter::Txn txn(indexes_);
  WriteBatch batch;
  std::vector<StatsDelta> stats;
  // Always metered, whether or not the caller wants it: once staged, the
  // charge is complete, and this is the admission point. Staged straight
  // into the caller's Metering (no copy per write on the hot path).
  Metering local;
  Metering& staged = metering != nullptr ? *metering : local;
  staged = Metering();
  Result<std::optional<Item>> old_item =
      Stage(table, item_key, mutation, &txn, &batch, &stats, &staged, &records,
            user_identity, mutation_reads_old, replicated);
  // Errors other than a failed condition cost nothing.
  if (!old_item.ok() && staged.charge.parts.empty()) return old_item;
  const bool throttle = charged && throttling();
  // A throttle wins over a failed condition (DynamoDB refuses a throttled
  // request before it evaluates anything); an admitted failed condition
  // keeps its units consumed.
  if (throttle) DR_RETURN_IF_ERROR(Admit(staged.charge));
  // A replicated change's log record goes with it, applied or not.
  if (replicated != nullptr && old_item.ok()) batch.Delete(Cf::kMeta, replicated->log_key);
  if (old_item.ok() && !batch.empty()) {
    if (Status s = Commit(&batch, records); !s.ok()) {
      NotCommitted(stats);
      return s;
    }
    txn.Committed();
    Committed(stats);
  }
  if (charged && !throttle) ChargeUnthrottled(staged.charge);
  return old_item;
}

namespace {

// The item-lock stripes of a set of writes, each locked once, in address
// order (a total order every writer shares), unlocked in reverse.
class LockedStripes {
 public:
  LockedStripes(ItemLocks* locks, const std::vector<WritePath::ItemWrite>& writes) {
    for (const WritePath::ItemWrite& w : writes) stripes_.push_back(&locks->For(w.item_key));
    std::sort(stripes_.begin(), stripes_.end());
    stripes_.erase(std::unique(stripes_.begin(), stripes_.end()), stripes_.end());
    for (std::mutex* m : stripes_) m->lock();
  }
  ~LockedStripes() {
    for (auto it = stripes_.rbegin(); it != stripes_.rend(); ++it) (*it)->unlock();
  }
  LockedStripes(const LockedStripes&) = delete;
  LockedStripes& operator=(const LockedStripes&) = delete;

 private:
  std::vector<std::mutex*> stripes_;
};

}  // namespace

void WritePath::StagedBatch::Reset(IndexWriter* indexes) {
  stats.clear();
  records.clear();
  batch.reset();
  txn.reset();
  txn.emplace(indexes);
  batch.emplace();
}

Result<size_t> WritePath::SkipHeldItems(const std::vector<ItemWrite>& writes,
                                        std::vector<bool>* throttled,
                                        std::vector<bool>* skipped) {
  size_t conflicts = 0;
  for (size_t i = 0; i < writes.size(); ++i) {
    if (!locks_->IsMarked(writes[i].item_key)) continue;
    if (throttled == nullptr) return TransactionConflict();
    (*skipped)[i] = true;
    (*throttled)[i] = true;
    ++conflicts;
  }
  if (conflicts == writes.size() && !writes.empty()) return TransactionConflict();
  return conflicts;
}

Status WritePath::StageAll(const std::vector<ItemWrite>& writes,
                           const std::vector<bool>& skipped, const ApplyManyOptions& options,
                           bool throttle, StagedBatch* sb,
                           std::vector<std::optional<Item>>* old_items,
                           std::vector<Metering>* staged) {
  staged->reserve(writes.size());
  for (size_t i = 0; i < writes.size(); ++i) {
    const ItemWrite& w = writes[i];
    Metering m;
    if (skipped[i]) {
      staged->push_back(std::move(m));
      continue;
    }
    Result<std::optional<Item>> old_item =
        Stage(*w.table, w.item_key, w.mutation, &*sb->txn, &*sb->batch, &sb->stats, &m,
              &sb->records, std::nullopt);
    if (options.unit_factor != 1) m.Scale(options.unit_factor);
    const bool charged = old_item.ok() || !m.charge.parts.empty();
    if (charged) staged->push_back(std::move(m));
    if (!old_item.ok()) {
      // A failed condition is charged like Apply's (the throttle first).
      if (charged) {
        if (throttle) {
          DR_RETURN_IF_ERROR(Admit(staged->back().charge));
        } else {
          ChargeUnthrottled(staged->back().charge);
        }
      }
      return old_item.status();
    }
    (*old_items)[i] = std::move(old_item).value();
  }
  return Status::OK();
}

Result<size_t> WritePath::AdmitStaged(const std::vector<ItemWrite>& writes,
                                      const std::vector<bool>& skipped,
                                      const std::vector<Metering>& staged,
                                      std::vector<bool>* throttled) {
  Status first_throttle;
  size_t admitted = 0;
  for (size_t i = 0; i < writes.size(); ++i) {
    if (skipped[i]) continue;
    Status s = Admit(staged[i].charge);
    if (s.ok()) {
      ++admitted;
      continue;
    }
    if (throttled == nullptr) return s;
    (*throttled)[i] = true;
    if (first_throttle.ok()) first_throttle = std::move(s);
  }
  if (admitted == 0 && !writes.empty()) {
    return first_throttle.ok() ? TransactionConflict() : first_throttle;
  }
  return admitted;
}

Status WritePath::Restage(const std::vector<ItemWrite>& writes,
                          const std::vector<bool>& throttled, StagedBatch* sb,
                          std::vector<std::optional<Item>>* old_items) {
  sb->Reset(indexes_);
  for (size_t i = 0; i < writes.size(); ++i) {
    if (throttled[i]) {
      (*old_items)[i].reset();
      continue;
    }
    const ItemWrite& w = writes[i];
    Metering unused;
    DR_ASSIGN_OR_RETURN((*old_items)[i],
                        Stage(*w.table, w.item_key, w.mutation, &*sb->txn, &*sb->batch,
                              &sb->stats, &unused, &sb->records, std::nullopt));
  }
  return Status::OK();
}

namespace {

// The key of the item at `item_key` in the table `table_id`.
std::string ItemKeyIn(uint32_t table_id, std::string_view item_key) {
  std::string key = keys::TablePrefix(table_id);
  key.append(item_key.substr(std::min(item_key.size(), key.size())));
  return key;
}

// A replica's copy of the change its source's mutation decided (`decided`,
// set by the source's write, staged first).
ItemMutation CopyOf(const std::optional<ItemChange>* decided) {
  return [decided](const std::optional<Item>&) -> Result<ItemChange> {
    if (!decided->has_value()) return Status::Internal("a replica staged before its source");
    const ItemChange& d = **decided;
    ItemChange c;
    c.unchanged = d.unchanged;
    c.borrowed_new_item = d.NewItem();
    return c;
  };
}

}  // namespace

Result<std::optional<Item>> WritePath::ApplyStrong(
    const TableInfo& table, const std::string& item_key, const ItemMutation& mutation,
    Metering* metering, const std::vector<std::shared_ptr<const TableInfo>>& replicas) {
  std::optional<ItemChange> decided;
  std::vector<ItemWrite> writes;
  writes.reserve(1 + replicas.size());
  writes.push_back({&table, item_key,
                    [&](const std::optional<Item>& old_item) -> Result<ItemChange> {
                      DR_RETURN_IF_ERROR(sync_->CheckConflict(table, item_key));
                      DR_ASSIGN_OR_RETURN(decided, mutation(old_item));
                      return *decided;
                    }});
  for (const auto& r : replicas) writes.push_back({r.get(), ItemKeyIn(r->id, item_key), CopyOf(&decided)});
  std::vector<Metering> meterings;
  Result<std::vector<std::optional<Item>>> old_items =
      ApplyManyLocal(writes, &meterings, nullptr, ApplyManyOptions());
  if (metering != nullptr) *metering = meterings.empty() ? Metering() : std::move(meterings[0]);
  if (!old_items.ok()) return old_items.status();
  sync_->Written(table, item_key);
  return std::move((*old_items)[0]);
}

Result<std::optional<std::vector<std::optional<Item>>>> WritePath::ApplyManyStrong(
    const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
    std::vector<bool>* throttled, const ApplyManyOptions& options) {
  std::vector<std::vector<std::shared_ptr<const TableInfo>>> replicas(writes.size());
  bool any = false;
  for (size_t i = 0; i < writes.size(); ++i) {
    DR_ASSIGN_OR_RETURN(replicas[i], sync_->Replicas(*writes[i].table));
    any = any || !replicas[i].empty();
  }
  using Out = std::optional<std::vector<std::optional<Item>>>;
  if (!any) return Out();
  // Each write, then its replicas' copies; all or nothing (a throttle of
  // any copy would leave the replicas apart).
  std::vector<std::optional<ItemChange>> decided(writes.size());
  std::vector<ItemWrite> all;
  std::vector<size_t> position(writes.size());
  for (size_t i = 0; i < writes.size(); ++i) {
    position[i] = all.size();
    const ItemWrite& w = writes[i];
    if (replicas[i].empty()) {
      all.push_back(w);
      continue;
    }
    std::optional<ItemChange>* d = &decided[i];
    all.push_back({w.table, w.item_key,
                   [this, d, &w](const std::optional<Item>& old_item) -> Result<ItemChange> {
                     DR_RETURN_IF_ERROR(sync_->CheckConflict(*w.table, w.item_key));
                     DR_ASSIGN_OR_RETURN(*d, w.mutation(old_item));
                     return **d;
                   }});
    for (const auto& r : replicas[i]) {
      all.push_back({r.get(), ItemKeyIn(r->id, w.item_key), CopyOf(d)});
    }
  }
  std::vector<Metering> meterings;
  Result<std::vector<std::optional<Item>>> old_items =
      ApplyManyLocal(all, &meterings, nullptr, options);
  if (metering != nullptr) {
    metering->clear();
    for (size_t i = 0; i < writes.size() && position[i] < meterings.size(); ++i) {
      metering->push_back(std::move(meterings[position[i]]));
    }
  }
  if (!old_items.ok()) return old_items.status();
  if (throttled != nullptr) throttled->assign(writes.size(), false);
  std::vector<std::optional<Item>> out(writes.size());
  for (size_t i = 0; i < writes.size(); ++i) {
    out[i] = std::move((*old_items)[position[i]]);
    if (!replicas[i].empty()) sync_->Written(*writes[i].table, writes[i].item_key);
  }
  return Out(std::move(out));
}

Result<std::vector<std::optional<Item>>> WritePath::ApplyMany(
    const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
    std::vector<bool>* throttled, const ApplyManyOptions& options) {
  if (sync_ != nullptr && !options.transactional && sync_->Active()) {
    DR_ASSIGN_OR_RETURN(std::optional<std::vector<std::optional<Item>>> strong,
                        ApplyManyStrong(writes, metering, throttled, options));
    if (strong) return std::move(*strong);
  }
  return ApplyManyLocal(writes, metering, throttled, options);
}

Result<std::vector<std::optional<Item>>> WritePath::ApplyManyLocal(
    const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
    std::vector<bool>* throttled, const ApplyManyOptions& options) {
  if (metering != nullptr) metering->clear();
  if (throttled != nullptr) throttled->assign(writes.size(), false);
  LockedStripes locked(locks_, writes);
  if (options.transactional) return ApplyTransactional(writes, metering, options);

  // Items a transaction holds are refused before anything is read.
  std::vector<bool> skipped(writes.size(), false);
  DR_ASSIGN_OR_RETURN(const size_t conflicts, SkipHeldItems(writes, throttled, &skipped));
  const bool throttle = throttling();
  StagedBatch sb(indexes_);
  std::vector<std::optional<Item>> old_items(writes.size());
  std::vector<Metering> staged;
  // The metering is the caller's whatever happens from here.
  struct GiveMetering {
    std::vector<Metering>* out;
    std::vector<Metering>* staged;
    ~GiveMetering() {
      if (out != nullptr) *out = std::move(*staged);
    }
  } give{metering, &staged};
  DR_RETURN_IF_ERROR(StageAll(writes, skipped, options, throttle, &sb, &old_items, &staged));
  // Every write is staged and metered: the admission point.
  size_t admitted = writes.size() - conflicts;
  if (throttle) {
    Result<size_t> admission = AdmitStaged(writes, skipped, staged, throttled);
    if (!admission.ok()) {
      // A single refusal with nowhere to report it answers alone.
      if (throttled == nullptr) give.out = nullptr;
      return admission.status();
    }
    admitted = *admission;
  }
  // A throttled write was staged: restage the admitted writes alone.
  // Conflicted writes were never staged.
  if (admitted + conflicts < writes.size()) {
    Status restaged = Restage(writes, *throttled, &sb, &old_items);
    if (!restaged.ok()) {
      give.out = nullptr;
      return restaged;
    }
  }
  if (!sb.batch->empty()) {
    Status written = Commit(&*sb.batch, sb.records);
    if (!written.ok()) {
      NotCommitted(sb.stats);
      return written;
    }
    sb.txn->Committed();
    Committed(sb.stats);
  }
  if (!throttle) {
    for (const Metering& m : staged) ChargeUnthrottled(m.charge);
  }
  return old_items;
}

Result<std::vector<std::optional<Item>>> WritePath::ApplyTransactional(
    const std::vector<ItemWrite>& writes, std::vector<Metering>* metering,
    const ApplyManyOptions& options) {
  assert(options.statuses != nullptr);
  std::vector<Status>& statuses = *options.statuses;
  statuses.assign(writes.size(), Status::OK());
  IndexWriter::Txn txn(indexes_);
  WriteBatch batch;
  std::vector<StatsDelta> stats;
  std::vector<PendingStreamRecord> records;
  std::vector<std::optional<Item>> old_items(writes.size());
  std::vector<Metering> staged(writes.size());
  Status first_failure;
  // Every write is staged (its condition evaluated against the item as
  // stored), so that every failing action is reported, not only the first.
  for (size_t i = 0; i < writes.size(); ++i) {
    const ItemWrite& w = writes[i];
    Result<std::optional<Item>> old_item =
        Stage(*w.table, w.item_key, w.mutation, &txn, &batch, &stats, &staged[i],
              &records, std::nullopt);
    if (options.unit_factor != 1) staged[i].Scale(options.unit_factor);
    if (!old_item.ok()) {
      statuses[i] = old_item.status();
      if (first_failure.ok()) first_failure = old_item.status();
      continue;
    }
    old_items[i] = std::move(old_item).value();
  }
  auto finish = [&](Status s) -> Result<std::vector<std::optional<Item>>> {
    if (metering != nullptr) *metering = std::move(staged);
    return s;
  };
  if (!first_failure.ok()) return finish(first_failure);
  const bool throttle = throttling();
  if (throttle) {
    // One request: admitted when every bucket any write touches is positive,
    // then charged whole (into debt if need be), as DynamoDB admits a 4 MB
    // transaction on a new table (docs/compatibility.md, "Admission"). Every
    // write is checked so that each throttled action is reported.
    for (size_t i = 0; i < writes.size(); ++i) {
      Status s = throughput_->CheckWrite(staged[i].charge);
      if (s.ok()) continue;
      statuses[i] = s;
      if (first_failure.ok()) first_failure = std::move(s);
    }
    if (!first_failure.ok()) return finish(first_failure);
    for (const Metering& m : staged) throughput_->Charge(m.charge);
  }
  if (!batch.empty()) {
    if (Status s = Commit(&batch, records); !s.ok()) {
      NotCommitted(stats);
      return s;
    }
    txn.Committed();
    Committed(stats);
  }
  if (!throttle) {
    for (const Metering& m : staged) ChargeUnthrottled(m.charge);
  }
  if (metering != nullptr) *metering = std::move(staged);
  return old_items;
}

}  // namespace dynarock
