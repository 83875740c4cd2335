#include "engine/ttl/ttl_sweeper.h"

#include <xxhash.h>

#include <utility>

#include "engine/clock.h"
#include "engine/keys/key_codec.h"
#include "engine/value/item_codec.h"

namespace dynarock {
namespace {

// Seconds at or past 10^12 (the year 33658) never expire.
constexpr int kMaxExpiryExponent = 12;
constexpr int kMicrosDigits = 6;

}  // namespace

std::optional<int64_t> ExpiryMicros(const Item& item, const std::string& attribute) {
  auto it = item.find(attribute);
  if (it == item.end() || it->second.type() != AttrType::kN) return std::nullopt;
  const Number& n = it->second.n();
  if (n.negative() || n.exponent() > kMaxExpiryExponent) return std::nullopt;
  // n = 0.d1 d2 ... dk x 10^exponent; digit i (from 1) weighs
  // 10^(exponent - i) seconds = 10^(exponent - i + 6) micros.
  int64_t micros = 0;
  const std::string& digits = n.digits();
  for (size_t i = 0; i < digits.size(); ++i) {
    const int power = n.exponent() - static_cast<int>(i) - 1 + kMicrosDigits;
    if (power < 0) break;
    int64_t weight = digits[i] - '0';
    for (int p = 0; p < power; ++p) weight *= 10;
    micros += weight;
  }
  return micros;
}

bool IsExpired(int64_t expiry_micros, int64_t now_micros) {
  return expiry_micros < now_micros && expiry_micros >= now_micros - kTtlMaxAgeMicros;
}

int64_t DeletionDelayMicros(const std::string& item_key, int64_t spread_micros) {
  if (spread_micros <= 0) return 0;
  const uint64_t h = XXH3_64bits(item_key.data(), item_key.size());
  return static_cast<int64_t>(h % static_cast<uint64_t>(spread_micros));
}

namespace {

// Whether the item is due for deletion at `now`: expired, and its own
// delay after expiry has passed.
bool DueAt(const Item& item, const std::string& attribute,
           const std::string& item_key, int64_t spread_micros, int64_t now) {
  std::optional<int64_t> expiry = ExpiryMicros(item, attribute);
  if (!expiry || !IsExpired(*expiry, now)) return false;
  return now >= *expiry + DeletionDelayMicros(item_key, spread_micros);
}

}  // namespace

std::shared_ptr<const TableInfo> TtlSweeper::Current(const TableInfo& table) const {
  auto current = catalog_->Find(table.ns, table.desc.table_name);
  if (!current || current->id != table.id || !current->ttl.enabled ||
      current->deleting_since_micros) {
    return nullptr;
  }
  return current;
}

Result<bool> TtlSweeper::DeleteIfDue(const TableInfo& table,
                                     const std::string& item_key, int64_t now) {
  bool deleted = false;
  const std::string& attribute = table.ttl.attribute_name;
  const int64_t spread = options_.deletion_spread_micros;
  Status applied =
      write_path_
          ->ApplyAsService(
              table, item_key,
              [&](const std::optional<Item>& stored) -> Result<ItemChange> {
                // Checked again under the item's lock: an item rewritten
                // with a later expiry since the scan read it stays.
                if (!stored || !DueAt(*stored, attribute, item_key, spread, now)) {
                  return ItemChange{std::nullopt, /*unchanged=*/true};
                }
                deleted = true;
                return ItemChange{std::nullopt, false};
              })
          .status();
  // An item a transaction is writing is left for the next sweep.
  if (applied.code() == ErrorCode::kTransactionConflict) return false;
  DR_RETURN_IF_ERROR(applied);
  if (deleted && throughput_ != nullptr) {
    throughput_->RecordTimeToLiveDeletion(table.id, keys::HashOfKey(item_key));
  }
  return deleted;
}

Status TtlSweeper::Step(Cursor* cursor, int64_t budget, int64_t now,
                        TimeToLiveSweepResult* result) {
  while (budget > 0 && !cursor->tables.empty()) {
    auto table = Current(*cursor->tables.front());
    if (!table) {
      cursor->tables.erase(cursor->tables.begin());
      cursor->next_key.clear();
      continue;
    }
    if (cursor->next_key.empty()) cursor->next_key = keys::TablePrefix(table->id);
    auto it = store_->NewIterator(Cf::kItems, cursor->next_key,
                                  keys::TableEnd(table->id));
    for (it->Seek(cursor->next_key); it->Valid() && budget > 0; it->Next()) {
      --budget;
      ++result->scanned_items;
      const std::string key(it->key());
      DR_ASSIGN_OR_RETURN(Item item, DecodeItem(it->value()));
      if (!DueAt(item, table->ttl.attribute_name, key,
                 options_.deletion_spread_micros, now)) {
        continue;
      }
      if (before_delete_) before_delete_(key);
      DR_ASSIGN_OR_RETURN(bool deleted, DeleteIfDue(*table, key, now));
      if (deleted) ++result->deleted_items;
    }
    DR_RETURN_IF_ERROR(it->status());
    if (it->Valid()) {
      cursor->next_key = std::string(it->key());  // out of budget here
      return Status::OK();
    }
    cursor->tables.erase(cursor->tables.begin());
    cursor->next_key.clear();
  }
  return Status::OK();
}

void TtlSweeper::RunDue() {
  const int64_t now = clock_->NowMicros();
  if (now < next_start_micros_.load(std::memory_order_relaxed)) return;
  // Another thread sweeping already: nothing to do here.
  if (!mu_.TryLock()) return;
  RunDueLocked(now);
  mu_.Unlock();
}

void TtlSweeper::RunDueLocked(int64_t now) {
  if (!running_) {
    if (now < next_start_micros_.load(std::memory_order_relaxed)) return;
    Cursor cursor;
    for (auto& table : catalog_->All()) {
      if (table->ttl.enabled) cursor.tables.push_back(std::move(table));
    }
    running_ = std::move(cursor);
  }
  TimeToLiveSweepResult ignored;
  const Status s = Step(&*running_, options_.chunk_items, now, &ignored);
  if (!s.ok() || running_->tables.empty()) {
    running_.reset();
    next_start_micros_.store(now + options_.interval_micros,
                             std::memory_order_relaxed);
  }
}

Result<TimeToLiveSweepResult> TtlSweeper::SweepNow(
    const std::vector<std::shared_ptr<const TableInfo>>& tables) {
  MutexLock lock(&mu_);
  const int64_t now = clock_->NowMicros();
  Cursor cursor;
  for (const auto& table : tables) {
    if (table->ttl.enabled) cursor.tables.push_back(table);
  }
  TimeToLiveSweepResult result;
  while (!cursor.tables.empty()) {
    DR_RETURN_IF_ERROR(Step(&cursor, options_.chunk_items, now, &result));
  }
  return result;
}

}  // namespace dynarock
