// engine/storage/lagging_replica.h
//
// LaggingReplica is what an eventually consistent read sees when it lands on
// a replica that is behind the leader: the database as it was `lag` ago on
// the engine's clock. DynamoDB serves eventually consistent reads from any
// of a partition's three replicas, one of which may not have the latest
// writes yet (ATC'22 paper, section 3; "usually within one second"); strong
// reads go to the leader and never lag. With a lag of 0 (the default) it
// keeps nothing and every read sees the latest state.
//
// How: before each item write commits, the writer calls BeforeWrite, which
// keeps a RocksDB snapshot of the state the write is about to change,
// stamped with the time. A read at time T - lag reads the first snapshot
// stamped after T - lag (the state before the first write since then), or
// the latest state when nothing was written since. Snapshots older than the
// lag are released, so history is pinned for `lag` at most. Deterministic
// on a simulated clock.
//
// Thread-safe.

#ifndef DYNAROCK_ENGINE_STORAGE_LAGGING_REPLICA_H_
#define DYNAROCK_ENGINE_STORAGE_LAGGING_REPLICA_H_

#include <cstdint>
#include <deque>
#include <memory>

#include "engine/clock.h"
#include "engine/storage/store.h"
#include "engine/util/mutex.h"

namespace dynarock {

class LaggingReplica {
 public:
  // REQUIRES: store and clock outlive the replica; lag_micros >= 0.
  LaggingReplica(const Store* store, const Clock* clock, int64_t lag_micros);
  LaggingReplica(const LaggingReplica&) = delete;
  LaggingReplica& operator=(const LaggingReplica&) = delete;

  // False with a lag of 0: then BeforeWrite does nothing and View is null.
  bool lagging() const { return lag_micros_ > 0; }
  int64_t lag_micros() const { return lag_micros_; }

  // Call before committing a write of items: keeps the state it changes.
  void BeforeWrite();
  // The database as it was `lag` ago, or null when it has not changed since
  // (read the latest state). The view stays valid while held.
  std::shared_ptr<const StoreSnapshot> View();

 private:
  struct Stamped {
    int64_t micros;  // the view is the state just before this time's write
    uint64_t generation;  // Store::WriteGeneration when it was taken
    std::shared_ptr<const StoreSnapshot> snapshot;
  };
  // Releases the views no read can need any more. REQUIRES: mu_ held.
  void Trim(int64_t now) REQUIRES(mu_);

  const Store* const store_;
  const Clock* const clock_;
  const int64_t lag_micros_;
  Mutex mu_;
  std::deque<Stamped> views_ GUARDED_BY(mu_);  // ascending micros
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_STORAGE_LAGGING_REPLICA_H_
