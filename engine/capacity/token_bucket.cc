#include "engine/capacity/token_bucket.h"

#include <algorithm>
#include <cassert>
#include <cmath>

namespace dynarock {

int64_t ToMicroUnits(double units) {
  return std::llround(units * static_cast<double>(kMicroUnitsPerUnit));
}

TokenBucket::TokenBucket(int64_t rate, int64_t capacity, int64_t now_micros)
    : rate_(rate),
      capacity_micro_(capacity * kMicroUnitsPerUnit),
      balance_micro_(capacity_micro_),
      last_micros_(now_micros) {
  assert(rate >= 0 && capacity >= 0);
}

void TokenBucket::Refill(int64_t now_micros) {
  if (now_micros <= last_micros_) return;  // time never runs backwards here
  const int64_t elapsed = now_micros - last_micros_;
  last_micros_ = now_micros;
  if (balance_micro_ >= capacity_micro_ || rate_ == 0) return;
  // Compare before multiplying so that a long idle time cannot overflow.
  const int64_t missing = capacity_micro_ - balance_micro_;
  if (elapsed >= (missing + rate_ - 1) / rate_) {
    balance_micro_ = capacity_micro_;
  } else {
    balance_micro_ += rate_ * elapsed;
  }
}

bool TokenBucket::CanAdmit(int64_t now_micros) {
  Refill(now_micros);
  return balance_micro_ > 0;
}

void TokenBucket::Charge(double units, int64_t now_micros) {
  Refill(now_micros);
  balance_micro_ -= ToMicroUnits(units);
}

void TokenBucket::Refund(double units, int64_t now_micros) {
  Refill(now_micros);
  balance_micro_ =
      std::min(capacity_micro_, balance_micro_ + ToMicroUnits(units));
}

void TokenBucket::SetRate(int64_t rate, int64_t capacity, int64_t now_micros) {
  assert(rate >= 0 && capacity >= 0);
  Refill(now_micros);
  rate_ = rate;
  capacity_micro_ = capacity * kMicroUnitsPerUnit;
  balance_micro_ = std::min(balance_micro_, capacity_micro_);
}

void TokenBucket::Grow(int64_t rate, int64_t capacity, int64_t now_micros) {
  Refill(now_micros);
  const int64_t added = capacity * kMicroUnitsPerUnit - capacity_micro_;
  SetRate(rate, capacity, now_micros);
  if (added > 0) {
    balance_micro_ = std::min(capacity_micro_, balance_micro_ + added);
  }
}

double TokenBucket::Balance(int64_t now_micros) {
  Refill(now_micros);
  return static_cast<double>(balance_micro_) /
         static_cast<double>(kMicroUnitsPerUnit);
}

}  // namespace dynarock
