#include "engine/storage/lagging_replica.h"

namespace dynarock {

LaggingReplica::LaggingReplica(const Store* store, const Clock* clock,
                               int64_t lag_micros)
    : store_(store), clock_(clock), lag_micros_(lag_micros) {}

void LaggingReplica::Trim(int64_t now) {
  // Reads from now on ask for times after now - lag; a view stamped at or
  // before that is never the first one after them.
  while (!views_.empty() && views_.front().micros <= now - lag_micros_) {
    views_.pop_front();
  }
}

void LaggingReplica::BeforeWrite() {
  if (!lagging()) return;
  const int64_t now = clock_->NowMicros();
  // Read before the snapshot is taken: a write landing in between shows as
  // a newer generation next time, never as a state the snapshot lacks.
  const uint64_t generation = store_->WriteGeneration();
  MutexLock lock(&mu_);
  Trim(now);
  if (!views_.empty() && views_.back().generation == generation) {
    // Nothing was written since that view was taken: it is also the state
    // just before this write.
    views_.back().micros = now;
    return;
  }
  views_.push_back({now, generation, store_->NewSnapshot()});
}

std::shared_ptr<const StoreSnapshot> LaggingReplica::View() {
  if (!lagging()) return nullptr;
  const int64_t now = clock_->NowMicros();
  MutexLock lock(&mu_);
  Trim(now);
  // The first view stamped after now - lag: the state before the first
  // write made since then. Trim left only such views.
  if (views_.empty()) return nullptr;
  return views_.front().snapshot;
}

}  // namespace dynarock
