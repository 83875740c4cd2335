// Engine: opening it, the gate every call passes, and the throttling
// switch. The operations are in engine_*.cc by concern.

#include <utility>

#include "engine/facade/engine_state.h"

namespace dynarock {
namespace {

// The engine whose gate this thread is inside, if any.
thread_local const Engine* inside_engine = nullptr;

}  // namespace

Result<std::unique_ptr<Engine>> Engine::Open(const EngineOptions& options) {
  StoreOptions store_options;
  store_options.path = options.path;
  store_options.in_memory = options.in_memory;
  store_options.sync_writes = options.sync_writes;
  store_options.min_free_disk_bytes = options.min_free_disk_bytes;
  store_options.memtable_bytes = options.memtable_bytes;
  store_options.block_cache_bytes = options.block_cache_bytes;
  DR_ASSIGN_OR_RETURN(std::unique_ptr<Store> store, Store::Open(store_options));
  auto state = std::make_unique<State>(options, std::shared_ptr<Store>(std::move(store)));
  for (const FaultRule& rule : options.fault_rules) {
    DR_RETURN_IF_ERROR(state->faults.Put(rule).status());
  }
  DR_ASSIGN_OR_RETURN(state->parts,
                      EngineParts::Open(options, state->store, &state->throttling));
  std::unique_ptr<Engine> engine(new Engine(std::move(state)));
  if (options.due_work_interval_micros > 0) {
    Engine* e = engine.get();
    engine->state_->due_work_timer = std::make_unique<DueWorkTimer>(
        [e] { return e->RunWithoutDueWork([](EngineParts& p) { return p.RunDueWork(); }); },
        std::chrono::microseconds(options.due_work_interval_micros));
  }
  return engine;
}

Engine::Engine(std::unique_ptr<State> state) : state_(std::move(state)) {}

Engine::~Engine() {
  // The timer first: its RunDueWork passes the gate this takes exclusively.
  state_->due_work_timer.reset();
  // The parts (their threads, their final flush) before the store.
  std::unique_lock lock(state_->reset_mu);
  state_->parts.reset();
}

Engine::Gate::Gate(Engine* engine) {
  if (inside_engine == engine) return;
  lock_ = std::shared_lock(engine->state_->reset_mu);
  outer_ = inside_engine;
  inside_engine = engine;
  entered_ = true;
}

Engine::Gate::~Gate() {
  if (entered_) inside_engine = outer_;
}

void Engine::SetThrottling(bool on) {
  state_->throttling.store(on, std::memory_order_relaxed);
}

bool Engine::throttling() const {
  return state_->throttling.load(std::memory_order_relaxed);
}

}  // namespace dynarock
