// api/fault/fault_injection.h
//
// Applies the engine's fault rules (engine/fault/fault_rule.h) to one
// request of the DynamoDB API, before it runs: the request as the rules see
// it (operation, TableName, IndexName, and the items it names: a Key or
// Item, a batch's entries, a transaction's actions) goes to
// Engine::DecideFaults, and what fires comes back as an error to answer
// instead (the request never runs, so it takes no effect), entries taken
// out of a batch to answer as unprocessed, or a latency to add.
//
// dynarock's own extension operations (DynamoRock_20251121.*) are never
// faulted, so a test can always list or clear its rules. Stateless;
// thread-safe.

#ifndef DYNAROCK_API_FAULT_FAULT_INJECTION_H_
#define DYNAROCK_API_FAULT_FAULT_INJECTION_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "api/json_codec.h"
#include "engine/engine.h"
#include "engine/status.h"

namespace dynarock::api {

// What the rules did to one request.
struct InjectedFaults {
  // The error to answer; the request does not run.
  std::optional<Status> error;
  // Added to the answer's delivery.
  int64_t latency_micros = 0;
  // BatchWriteItem / BatchGetItem: the entries taken out of the request, in
  // the shape of UnprocessedItems / UnprocessedKeys (table -> entries);
  // null when none were.
  Json unprocessed;
  // Every entry was taken out: answer `unprocessed` without running.
  bool nothing_left = false;
};

// Decides the faults for `operation` on `request` (a parsed body), taking
// unprocessed entries out of *request. Check engine->FaultRulesMayMatch
// first: this parses the request for the rules.
InjectedFaults InjectFaults(Engine* engine, const Scope& scope, std::string_view operation,
                            Json* request);

// The response of a batch whose every entry was taken out.
Json UnprocessedOnlyResponse(std::string_view operation, const InjectedFaults& faults);

// Adds the entries taken out to `response`'s UnprocessedItems /
// UnprocessedKeys (after any the engine left unprocessed itself).
void AddUnprocessed(std::string_view operation, const InjectedFaults& faults, Json* response);

}  // namespace dynarock::api

#endif  // DYNAROCK_API_FAULT_FAULT_INJECTION_H_
