// The engine's clock (docs/testing.md, "Time travel"): dynarock's
// extensions that show it and, when `dynarock serve --clock simulated`
// runs it, move it. Reached only under their own X-Amz-Target prefix
// ("DynamoRock_20251121.<Op>") or in process as Client::Call(...).
//
//   DescribeClock {} -> {Mode: "REAL" | "SIMULATED", Now: epoch seconds}
//   AdvanceClock  {Seconds > 0} -> the same, after every effect due by the
//                 new time has run (TTL deletions, GSI propagation, stream
//                 and PITR maintenance; buckets refill as time passes).
//   SetClock      {Now: epoch seconds, not before the clock's} -> the same.
// Moving a real clock is a ValidationException.

#include <cmath>

#include "api/ops/ops.h"
#include "api/validate.h"
#include "engine/engine.h"

namespace dynarock::api::ops {

namespace {

using Kind = Shape::Kind;

const Shape kEmptyInput{.kind = Kind::kStructure};

// A hundred years: anything longer is a mistake, not a test.
constexpr double kMaxAdvanceSeconds = 100.0 * 365 * 86400;

Json Describe(const ClockState& clock) {
  return Json{{"Mode", clock.simulated ? "SIMULATED" : "REAL"},
              {"Now", static_cast<double>(clock.now_micros) / 1e6}};
}

// The one number member `name` of `request` (nothing else allowed).
Result<double> Seconds(const Json& request, std::string_view op, std::string_view name) {
  auto it = request.find(name);
  if (it == request.end() || !it->is_number() || request.size() != 1) {
    return Status::Validation(std::string(op) + " takes {\"" + std::string(name) +
                              "\": <seconds>}");
  }
  const double seconds = it->get<double>();
  if (!std::isfinite(seconds)) {
    return Status::Validation(std::string(name) + " must be a finite number of seconds");
  }
  return seconds;
}

}  // namespace

Result<Json> DescribeClock(const RequestContext& ctx, const Json& request) {
  DR_RETURN_IF_ERROR(ValidateRequest(request, kEmptyInput));
  return Describe(ctx.engine->DescribeClock());
}

Result<Json> AdvanceClock(const RequestContext& ctx, const Json& request) {
  DR_ASSIGN_OR_RETURN(double seconds, Seconds(request, "AdvanceClock", "Seconds"));
  if (seconds <= 0 || seconds > kMaxAdvanceSeconds) {
    return Status::Validation("Seconds must be greater than 0 and at most 3153600000 (100 years)");
  }
  DR_RETURN_IF_ERROR(ctx.engine->AdvanceClock(std::llround(seconds * 1e6)).status());
  return Describe(ctx.engine->DescribeClock());
}

Result<Json> SetClock(const RequestContext& ctx, const Json& request) {
  DR_ASSIGN_OR_RETURN(double now, Seconds(request, "SetClock", "Now"));
  if (now <= 0 || now > 9.2e12) {
    return Status::Validation("Now must be a positive number of seconds since the epoch");
  }
  DR_RETURN_IF_ERROR(ctx.engine->SetClock(std::llround(now * 1e6)).status());
  return Describe(ctx.engine->DescribeClock());
}

// This file's rows of the operation table (api/dispatch.h).
constexpr Operation kClockOperationsRows[] = {
    Operation{"DynamoRock_20251121.AdvanceClock", &AdvanceClock},
    Operation{"DynamoRock_20251121.DescribeClock", &DescribeClock},
    Operation{"DynamoRock_20251121.SetClock", &SetClock},
};
const std::span<const Operation> kClockOperations = kClockOperationsRows;

}  // namespace dynarock::api::ops
