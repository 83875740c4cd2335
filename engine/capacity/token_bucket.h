// engine/capacity/token_bucket.h
//
// A TokenBucket meters one throughput limit (a partition's, a table's or a
// GSI's) in capacity units. It never reads a clock: callers pass `now`
// (Clock::NowMicros), so it behaves the same under RealClock and, exactly
// and deterministically, under SimulatedClock.
//
// Semantics (DynamoDB-like; the tests assert them):
//   - The bucket holds a balance, refilled at `rate` units per second up to
//     `capacity` units. It starts full.
//   - A request is ADMITTED when the balance is positive (> 0). It is then
//     charged its full cost, and the balance may go negative: that debt is
//     waited out by later requests (nothing is admitted until the refill
//     brings the balance above zero again). Reads are charged after the read
//     (their cost is known only then); writes know their cost before commit.
//   - Arithmetic is exact: the balance is held in micro-units (int64) and a
//     refill over `e` microseconds adds exactly rate * e micro-units (rate is
//     a whole number of units per second, as every DynamoDB rate is). Costs
//     are multiples of 0.5 units, so no rounding ever happens.
//
// Not thread-safe; the ThroughputController serializes access per table.

#ifndef DYNAROCK_ENGINE_CAPACITY_TOKEN_BUCKET_H_
#define DYNAROCK_ENGINE_CAPACITY_TOKEN_BUCKET_H_

#include <cstdint>

namespace dynarock {

inline constexpr int64_t kMicroUnitsPerUnit = 1'000'000;

class TokenBucket {
 public:
  // A bucket that never admits anything until Reset (rate 0, capacity 0).
  TokenBucket() = default;
  // `rate` units per second, at most `capacity` units held; starts full.
  // REQUIRES: rate >= 0, capacity >= 0
  TokenBucket(int64_t rate, int64_t capacity, int64_t now_micros);

  // True when the balance at `now` is positive. Refills first.
  bool CanAdmit(int64_t now_micros);
  // Takes `units` (may drive the balance negative). Refills first.
  void Charge(double units, int64_t now_micros);
  // Gives back `units` (capped at capacity): for a charge that was undone.
  void Refund(double units, int64_t now_micros);

  // New rate and capacity (UpdateTable): the balance is kept, capped at the
  // new capacity. Refills at the old rate up to `now` first.
  void SetRate(int64_t rate, int64_t capacity, int64_t now_micros);
  // As SetRate, but the balance grows by the capacity added (used when an
  // on-demand table's capacity rises: it is available at once).
  void Grow(int64_t rate, int64_t capacity, int64_t now_micros);

  // The balance at `now`, in units (negative while in debt). Refills.
  double Balance(int64_t now_micros);
  int64_t rate() const { return rate_; }
  int64_t capacity() const { return capacity_micro_ / kMicroUnitsPerUnit; }

 private:
  void Refill(int64_t now_micros);

  int64_t rate_ = 0;            // units per second = micro-units per micro
  int64_t capacity_micro_ = 0;  // max balance, micro-units
  int64_t balance_micro_ = 0;   // may be negative (debt)
  int64_t last_micros_ = 0;     // time of the last refill
};

// `units` (a multiple of 0.5, or any value with at most 6 decimals) in
// micro-units.
int64_t ToMicroUnits(double units);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_TOKEN_BUCKET_H_
