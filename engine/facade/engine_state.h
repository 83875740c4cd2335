// engine/facade/engine_state.h
//
// What an open Engine holds, and the gate every operation passes. Private
// to engine/facade/: the files that implement Engine's operations include
// it; nothing else does.
//
// The gate: a call holds `reset_mu` shared for its duration, runs the
// background work due on the clock (EngineParts::RunDueWork), then runs on
// the parts. A database-snapshot restore holds `reset_mu` exclusively and
// replaces the parts whole. A call made from inside another on the same
// thread (PartiQL runs its statements as the engine's own operations) is
// already inside the gate and does not lock again, so a waiting restore
// cannot deadlock it.

#ifndef DYNAROCK_ENGINE_FACADE_ENGINE_STATE_H_
#define DYNAROCK_ENGINE_FACADE_ENGINE_STATE_H_

#include <atomic>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <utility>

#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/facade/due_work_timer.h"
#include "engine/facade/engine_parts.h"
#include "engine/fault/fault_injector.h"

namespace dynarock {

struct Engine::State {
  State(const EngineOptions& options_in, std::shared_ptr<Store> store_in)
      : options(options_in),
        clock(options_in.clock ? options_in.clock : RealClock::Default()),
        store(std::move(store_in)),
        throttling(options_in.throttling),
        faults(clock) {}

  const EngineOptions options;
  // options.clock, or the real clock.
  Clock* const clock;
  const std::shared_ptr<Store> store;
  // Read by the paths on every request; kept over a restore.
  std::atomic<bool> throttling;
  // Shared by every call (the Gate), exclusive for a restore.
  std::shared_mutex reset_mu;
  std::unique_ptr<EngineParts> parts;
  // Serializes snapshot creation and deletion (a restore, holding the gate
  // exclusively, excludes every call).
  std::mutex snapshot_mu;
  // Runs the due work while the engine is idle
  // (EngineOptions::due_work_interval_micros); null when not asked for.
  std::unique_ptr<DueWorkTimer> due_work_timer;
  // The fault rules: the server's, not the database's, so kept over a
  // restore.
  FaultInjector faults;
};

class Engine::Gate {
 public:
  explicit Gate(Engine* engine);
  ~Gate();
  Gate(const Gate&) = delete;
  Gate& operator=(const Gate&) = delete;

 private:
  std::shared_lock<std::shared_mutex> lock_;
  // The engine this thread was inside before (restored on exit).
  const Engine* outer_ = nullptr;
  bool entered_ = false;
};

template <typename Op>
auto Engine::Run(Op&& op) {
  Gate gate(this);
  state_->parts->RunDueWork(/*in_request=*/true);
  return std::forward<Op>(op)(*state_->parts);
}

template <typename Op>
auto Engine::RunWithoutDueWork(Op&& op) {
  Gate gate(this);
  return std::forward<Op>(op)(*state_->parts);
}

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_FACADE_ENGINE_STATE_H_
