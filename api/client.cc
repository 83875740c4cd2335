#include "api/client.h"

#include <chrono>
#include <exception>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "api/dispatch.h"
#include "api/error.h"
#include "api/fault/fault_injection.h"
#include "api/json_codec.h"
#include "api/metrics/request_metrics.h"
#include "api/table_arns.h"

namespace dynarock::api {

namespace {

// DynamoDB Local's convention: every access key id + region has its own
// tables ("<key>_<region>"), unless -sharedDb. An unsigned in-process call
// (no key, no region) uses the shared set.
std::string NamespaceFor(const CallerIdentity& caller, const ClientOptions& options) {
  if (options.shared_db) return "";
  if (caller.access_key_id.empty() && caller.region.empty()) return "";
  return dynarock::NamespaceFor(caller.access_key_id, caller.region);
}

Scope ScopeFor(const CallerIdentity& caller, const ClientOptions& options) {
  Scope scope;
  scope.ns = NamespaceFor(caller, options);
  // "ddblocal" is the region DynamoDB Local puts in ARNs of unsigned calls.
  scope.region = caller.region.empty() ? "ddblocal" : caller.region;
  scope.account = options.account_id;
  // Only a caller with its own tables has replicas in other Regions.
  if (!scope.ns.empty()) scope.access_key = caller.access_key_id;
  return scope;
}

// A null body is an empty one: DynamoDB answers the operations whose
// output has no members (TagResource, UntagResource) with no body at all.
Response Ok(const Json& body) {
  Response r;
  r.http_status = 200;
  if (!body.is_null()) r.body = DumpJson(body);
  return r;
}

// Runs the operation's handler on a parsed, non-empty body.
Response Run(Handler handler, const RequestContext& ctx, const Json& request) {
  Result<Json> response = handler(ctx, request);
  if (!response.ok()) return FormatError(response.status());
  if (!ctx.body_text->empty()) {
    Response r;
    r.http_status = 200;
    r.body = std::move(*ctx.body_text);
    return r;
  }
  return Ok(*response);
}

// Runs the operation under the fault rules (api/fault/fault_injection.h).
Response RunWithFaults(Handler handler, const RequestContext& ctx, std::string_view operation,
                       Json request) {
  InjectedFaults faults = InjectFaults(ctx.engine, ctx.scope, operation, &request);
  Response r;
  if (faults.error) {
    r = FormatError(*faults.error);
  } else if (faults.nothing_left) {
    r = Ok(UnprocessedOnlyResponse(operation, faults));
  } else if (faults.unprocessed.is_null()) {
    r = Run(handler, ctx, request);
  } else {
    // The batch's own answer, with the entries taken out added back as
    // unprocessed: its body is Json (batches have no text answer).
    Result<Json> response = handler(ctx, request);
    if (!response.ok()) {
      r = FormatError(response.status());
    } else {
      AddUnprocessed(operation, faults, &*response);
      r = Ok(*response);
    }
  }
  r.delay_micros = faults.latency_micros;
  return r;
}

Response Handle(Engine* engine, const ClientOptions& options,
                std::string_view operation, std::string_view request_json,
                const CallerIdentity& caller) {
  const bool faults = engine != nullptr && engine->FaultRulesMayMatch(operation);
  if (options.one_pass_item_requests && !faults) {
    if (TextHandler text = FindTextHandler(operation)) {
      RequestContext ctx{engine, ScopeFor(caller, options), nullptr};
      std::optional<Result<std::string>> answer = text(ctx, request_json);
      if (answer) {
        if (!answer->ok()) return FormatError(answer->status());
        Response r;
        r.http_status = 200;
        r.body = std::move(*answer).value();
        return r;
      }
    }
  }
  // DynamoDB's order: a body that is not JSON fails before the operation
  // name is looked at; an empty body fails after it.
  Result<Json> request = Json::object();
  const bool empty_body = request_json.find_first_not_of(" \t\r\n") ==
                          std::string_view::npos;
  if (!empty_body) {
    request = ParseRequestBody(request_json);
    if (!request.ok()) return FormatError(request.status());
  }
  Handler handler = FindHandler(operation);
  if (handler == nullptr) {
    return FormatError(Dispatch(RequestContext{}, operation, *request).status());
  }
  if (empty_body) return FormatError(ParseRequestBody(request_json).status());
  std::string body_text;
  RequestContext ctx{engine, ScopeFor(caller, options), &body_text};
  TableArnAliases arns;
  Status resolved = ResolveTableArns(operation, ctx.scope, &*request, &arns);
  if (!resolved.ok()) return FormatError(resolved);
  Response r = faults ? RunWithFaults(handler, ctx, operation, std::move(*request))
                      : Run(handler, ctx, *request);
  if (!arns.empty() && r.http_status == 200 && !r.body.empty()) {
    // Rare (a request naming tables by ARN): the answer is parsed again to
    // put the ARNs back where DynamoDB echoes them.
    Result<Json> body = ParseRequestBody(r.body);
    if (body.ok()) {
      RestoreTableArns(arns, &*body);
      r.body = DumpJson(*body);
    }
  }
  return r;
}

}  // namespace

Client::Client(Engine* engine, ClientOptions options)
    : engine_(engine), options_(options) {}

Response Client::Call(std::string_view operation, std::string_view request_json,
                      const CallerIdentity& caller) const {
  if (options_.request_metrics == nullptr) return CallUncounted(operation, request_json, caller);
  const auto start = std::chrono::steady_clock::now();
  Response r = CallUncounted(operation, request_json, caller);
  const auto elapsed = std::chrono::steady_clock::now() - start;
  try {
    const std::string ns = NamespaceFor(caller, options_);
    options_.request_metrics->Record(metrics::RequestOutcome{
        ns, operation, request_json, r.http_status, r.body,
        std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()});
  } catch (...) {
    // Out of memory for a new series: the answer stands, uncounted.
  }
  return r;
}

Response Client::CallUncounted(std::string_view operation, std::string_view request_json,
                               const CallerIdentity& caller) const {
  try {
    Response r = Handle(engine_, options_, operation, request_json, caller);
    if (r.delay_micros > 0 && options_.wait_injected_latency) {
      std::this_thread::sleep_for(std::chrono::microseconds(r.delay_micros));
      r.delay_micros = 0;
    }
    return r;
  } catch (const std::exception& e) {
    return FormatError(Status::Internal(e.what()));
  } catch (...) {
    return FormatError(Status::Internal("Internal server error"));
  }
}

}  // namespace dynarock::api
