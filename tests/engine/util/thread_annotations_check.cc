// tests/engine/util/thread_annotations_check.cc
//
// Compiled, not run, by the ctest thread_annotations_check: with
// -DDR_EXPECT_VIOLATION clang's -Wthread-safety must reject it (a guarded
// member written without its mutex), and without it must accept it. This
// proves that util/mutex.h's annotations reach the analysis, so that the
// GUARDED_BY members of the engine are really checked.

#include "engine/util/mutex.h"

namespace dynarock {

class Counter {
 public:
  void Add() {
    MutexLock lock(&mu_);
    ++value_;
  }
  int Read() const {
    ReaderMutexLock lock(&shared_mu_);
    return shared_value_;
  }
#ifdef DR_EXPECT_VIOLATION
  void AddUnlocked() { ++value_; }
#endif

 private:
  Mutex mu_;
  int value_ GUARDED_BY(mu_) = 0;
  mutable SharedMutex shared_mu_;
  int shared_value_ GUARDED_BY(shared_mu_) = 0;
};

}  // namespace dynarock

int main() {
  dynarock::Counter c;
  c.Add();
  return c.Read();
}
