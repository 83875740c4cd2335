#include "engine/transactions/idempotency_cache.h"

namespace dynarock {

void IdempotencyCache::Prune(int64_t now) {
  while (!expiry_.empty() && expiry_.front().first + kWindowMicros <= now) {
    auto it = entries_.find(expiry_.front().second);
    // A token may have been reused after expiring: drop only the entry this
    // record is about.
    if (it != entries_.end() && !it->second.running &&
        it->second.completed_micros == expiry_.front().first) {
      entries_.erase(it);
    }
    expiry_.pop_front();
  }
}

Status IdempotencyCache::Begin(const std::string& ns, const std::string& token,
                               const std::string& fingerprint,
                               Completed* replay, bool* replayed) {
  *replayed = false;
  MutexLock lock(&mu_);
  Prune(clock_->NowMicros());
  Key key(ns, token);
  auto it = entries_.find(key);
  if (it == entries_.end()) {
    Entry e;
    e.fingerprint = fingerprint;
    entries_.emplace(std::move(key), std::move(e));
    return Status::OK();
  }
  if (it->second.fingerprint != fingerprint) {
    return Status(ErrorCode::kIdempotentParameterMismatch,
                  "Request has a different parameters than the original request");
  }
  if (it->second.running) {
    return Status(ErrorCode::kTransactionInProgress,
                  "Transaction from previous request is still in progress");
  }
  *replay = it->second.completed;
  *replayed = true;
  return Status::OK();
}

void IdempotencyCache::Finish(const std::string& ns, const std::string& token,
                              Completed completed) {
  MutexLock lock(&mu_);
  const int64_t now = clock_->NowMicros();
  Key key(ns, token);
  auto it = entries_.find(key);
  if (it == entries_.end()) return;
  it->second.running = false;
  it->second.completed_micros = now;
  it->second.completed = std::move(completed);
  expiry_.emplace_back(now, std::move(key));
}

void IdempotencyCache::Abandon(const std::string& ns, const std::string& token) {
  MutexLock lock(&mu_);
  auto it = entries_.find(Key(ns, token));
  if (it != entries_.end() && it->second.running) entries_.erase(it);
}

size_t IdempotencyCache::TEST_size() {
  MutexLock lock(&mu_);
  Prune(clock_->NowMicros());
  return entries_.size();
}

}  // namespace dynarock
