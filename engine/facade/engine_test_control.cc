// Engine's test controls (docs/testing.md): the clock that tests move, and
// the fault rules the DynamoDB API applies.

#include "engine/facade/engine_state.h"

namespace dynarock {

namespace {

Status RealClockError() {
  return Status::Validation(
      "The engine runs on the real clock; start it on a simulated clock "
      "(dynarock serve --clock simulated) to move time");
}

}  // namespace

ClockState Engine::DescribeClock() const {
  ClockState out;
  out.simulated = dynamic_cast<const SimulatedClock*>(state_->clock) != nullptr;
  out.now_micros = state_->clock->NowMicros();
  return out;
}

Result<int64_t> Engine::AdvanceClock(int64_t micros) {
  auto* clock = dynamic_cast<SimulatedClock*>(state_->clock);
  if (clock == nullptr) return RealClockError();
  if (micros <= 0) return Status::Validation("The clock only moves forward: advance by more than 0");
  return Run([&](EngineParts& p) -> Result<int64_t> {
    // Inside the gate, so that no call sees the new time before its due
    // work has run.
    clock->Advance(micros);
    p.RunDueWork();
    // A sweep started by the due work runs a chunk per call; the interval
    // that passed is long enough for all of it.
    DR_RETURN_IF_ERROR(p.ttl_sweeper.SweepNow(p.catalog->All()).status());
    return clock->NowMicros();
  });
}

Result<int64_t> Engine::SetClock(int64_t now_micros) {
  auto* clock = dynamic_cast<SimulatedClock*>(state_->clock);
  if (clock == nullptr) return RealClockError();
  const int64_t now = clock->NowMicros();
  if (now_micros < now) {
    return Status::Validation("The clock only moves forward: " + std::to_string(now_micros) +
                              " is before its time " + std::to_string(now) + " (microseconds)");
  }
  if (now_micros == now) return now;
  return AdvanceClock(now_micros - now);
}

Result<FaultRule> Engine::PutFaultRule(FaultRule rule) { return state_->faults.Put(std::move(rule)); }

std::vector<FaultRuleStatus> Engine::ListFaultRules() const { return state_->faults.List(); }

Status Engine::DeleteFaultRule(std::string_view id) { return state_->faults.Delete(id); }

void Engine::ClearFaultRules() { state_->faults.Clear(); }

bool Engine::FaultRulesMayMatch(std::string_view operation) const {
  return state_->faults.MayMatch(operation);
}

std::vector<FaultDecision> Engine::DecideFaults(const FaultSite& site) {
  return state_->faults.Decide(site);
}

std::vector<InjectedFaultCount> Engine::InjectedFaults(const Scope& scope,
                                                       std::string_view table_name) const {
  return state_->faults.Injected(scope, table_name);
}

}  // namespace dynarock
