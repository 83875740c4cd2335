// bench/common/world_clients.h
//
// The api::Client of each configuration of bench_world.h ("mem", "disk"):
// one in-process Client over the World's engine, made on first use and
// checked once by the benchmark's own `verify` (outside the timed runs).
// For the benchmarks that link dynarock_api (bench/api/).
//
// Header-only; single-threaded setup.

#ifndef DYNAROCK_BENCH_COMMON_WORLD_CLIENTS_H_
#define DYNAROCK_BENCH_COMMON_WORLD_CLIENTS_H_

#include <functional>
#include <memory>

#include "api/client.h"
#include "bench/common/bench_world.h"

namespace dynarock::bench {

// The Client over WorldFor(in_memory).engine(); `verify` is called with it
// when it is made (and never again).
inline api::Client& WorldClient(bool in_memory,
                                const std::function<void(api::Client&)>& verify) {
  static std::unique_ptr<api::Client> clients[2];
  auto& c = clients[in_memory ? 0 : 1];
  if (!c) {
    c = std::make_unique<api::Client>(&WorldFor(in_memory).engine());
    verify(*c);
  }
  return *c;
}

}  // namespace dynarock::bench

#endif  // DYNAROCK_BENCH_COMMON_WORLD_CLIENTS_H_
