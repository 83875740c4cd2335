// bench/common/check.h
//
// Failing a benchmark's set-up: Die prints "bench: <what>" to stderr and
// exits 1; Check does so when a Status is not OK. For set-up and
// verification outside the timed loops (a timed loop reports a failure with
// State::SkipWithError instead).
//
// Header-only.

#ifndef DYNAROCK_BENCH_COMMON_CHECK_H_
#define DYNAROCK_BENCH_COMMON_CHECK_H_

#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/status.h"

namespace dynarock::bench {

[[noreturn]] inline void Die(const std::string& what) {
  std::fprintf(stderr, "bench: %s\n", what.c_str());
  std::exit(1);
}

inline void Check(const Status& s, const char* what) {
  if (!s.ok()) Die(std::string(what) + ": " + s.ToString());
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_CHECK_H_
