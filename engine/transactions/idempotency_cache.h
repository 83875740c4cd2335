// engine/transactions/idempotency_cache.h
//
// What makes TransactWriteItems with a ClientRequestToken idempotent: per
// (table namespace, token), the fingerprint of the first request and, once
// it succeeded, its result, kept for 10 minutes on the engine's Clock
// (real or simulated) from the moment it completed. A repeat within the
// window with the same fingerprint replays the result without writing; a
// different fingerprint is a mismatch; a repeat while the first is still
// running is refused. A request that failed is forgotten (a retry runs).
//
// Thread-safe (one mutex; entries are pruned as new ones arrive).

#ifndef DYNAROCK_ENGINE_TRANSACTIONS_IDEMPOTENCY_CACHE_H_
#define DYNAROCK_ENGINE_TRANSACTIONS_IDEMPOTENCY_CACHE_H_

#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engine/clock.h"
#include "engine/requests/transaction_requests.h"
#include "engine/status.h"
#include "engine/util/mutex.h"

namespace dynarock {

class IdempotencyCache {
 public:
  // DynamoDB: "A client request token is valid for 10 minutes after the
  // first request that uses it is completed."
  static constexpr int64_t kWindowMicros = int64_t{10} * 60 * 1000 * 1000;

  // REQUIRES: clock outlives the cache.
  explicit IdempotencyCache(const Clock* clock) : clock_(clock) {}

  // What a completed request left for its repeats: its result, and the
  // items it wrote (table name, storage key), which a repeat reads.
  struct Completed {
    TransactWriteItemsResult result;
    std::vector<std::pair<std::string, std::string>> items;
  };

  // Starts the request with `token` in namespace `ns`:
  //   - no live entry: records it as running and returns OK (call Finish
  //     or Abandon afterwards);
  //   - a completed entry with the same fingerprint: fills `replay` and
  //     returns OK (do not call Finish or Abandon);
  //   - a different fingerprint: kIdempotentParameterMismatch;
  //   - the same fingerprint still running: kTransactionInProgress.
  // `*replayed` says which OK it was.
  Status Begin(const std::string& ns, const std::string& token,
               const std::string& fingerprint, Completed* replay,
               bool* replayed);
  // The request started by Begin succeeded: its window starts now.
  void Finish(const std::string& ns, const std::string& token,
              Completed completed);
  // The request started by Begin failed: forget the token.
  void Abandon(const std::string& ns, const std::string& token);

  // Live entries (for tests).
  size_t TEST_size();

 private:
  struct Entry {
    std::string fingerprint;
    bool running = true;
    int64_t completed_micros = 0;
    Completed completed;
  };
  using Key = std::pair<std::string, std::string>;
  // Drops entries whose window has passed.
  void Prune(int64_t now) REQUIRES(mu_);

  const Clock* const clock_;
  Mutex mu_;
  std::map<Key, Entry> entries_ GUARDED_BY(mu_);
  // Completed entries in completion order, for pruning.
  std::deque<std::pair<int64_t, Key>> expiry_ GUARDED_BY(mu_);
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TRANSACTIONS_IDEMPOTENCY_CACHE_H_
