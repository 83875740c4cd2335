#include "api/fault/fault_rule_json.h"

#include <cmath>
#include <initializer_list>
#include <string>
#include <utility>

#include "api/dispatch.h"

namespace dynarock::api {

namespace {

Status Invalid(std::string message) { return Status::Validation("Invalid fault rule: " + message); }

// Refuses members of `object` other than `known`.
Status OnlyMembers(const Json& object, std::string_view where,
                   std::initializer_list<std::string_view> known) {
  for (auto it = object.begin(); it != object.end(); ++it) {
    bool ok = false;
    for (std::string_view k : known) ok = ok || it.key() == k;
    if (!ok) return Invalid("unknown member " + it.key() + " in " + std::string(where));
  }
  return Status::OK();
}

Result<const Json*> Object(const Json& parent, std::string_view name, std::string_view where) {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return static_cast<const Json*>(nullptr);
  if (!it->is_object()) return Invalid(std::string(where) + "." + std::string(name) + " must be an object");
  return &*it;
}

Result<std::string> String(const Json& parent, std::string_view name, std::string_view where) {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return std::string();
  if (!it->is_string()) return Invalid(std::string(where) + "." + std::string(name) + " must be a string");
  return it->get<std::string>();
}

// A non-negative integer member; 0 when absent.
Result<int64_t> Count(const Json& parent, std::string_view name, std::string_view where) {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return int64_t{0};
  if (!it->is_number_integer() || (it->is_number_integer() && it->get<int64_t>() < 1)) {
    return Invalid(std::string(where) + "." + std::string(name) + " must be a positive integer");
  }
  return it->get<int64_t>();
}

// Epoch seconds (fractional) to microseconds; 0 when absent.
Result<int64_t> Time(const Json& parent, std::string_view name) {
  auto it = parent.find(name);
  if (it == parent.end() || it->is_null()) return int64_t{0};
  if (!it->is_number()) return Invalid("When." + std::string(name) + " must be epoch seconds");
  const double seconds = it->get<double>();
  if (!std::isfinite(seconds) || seconds <= 0 || seconds > 9.2e12) {
    return Invalid("When." + std::string(name) + " must be epoch seconds");
  }
  return static_cast<int64_t>(std::llround(seconds * 1e6));
}

// The DynamoDB name of an injectable error ("ThrottlingException").
Result<ErrorCode> ErrorNamed(const std::string& name) {
  std::string names;
  for (ErrorCode code : kInjectableFaultErrors) {
    if (ErrorCodeName(code) == name) return code;
    names += names.empty() ? "" : ", ";
    names += ErrorCodeName(code);
  }
  return Invalid("unknown Error " + name + "; one of " + names);
}

// A request member's value as FaultMatch::request holds it.
Result<std::string> MemberText(const std::string& name, const Json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_boolean()) return std::string(value.get<bool>() ? "true" : "false");
  if (value.is_number()) return value.dump();
  return Invalid("Match.Request." + name + " must be a string, number or boolean");
}

Status DecodeMatch(const Json& m, FaultMatch* out) {
  DR_RETURN_IF_ERROR(OnlyMembers(
      m, "Match", {"Operations", "TableName", "IndexName", "Key", "KeyPrefix", "Request"}));
  if (auto it = m.find("Operations"); it != m.end() && !it->is_null()) {
    if (!it->is_array()) return Invalid("Match.Operations must be a list of operation names");
    for (const Json& op : *it) {
      if (!op.is_string()) return Invalid("Match.Operations must be a list of operation names");
      const std::string name = op.get<std::string>();
      if (FindHandler(name) == nullptr) return Invalid("unknown operation " + name);
      out->operations.push_back(name);
    }
  }
  DR_ASSIGN_OR_RETURN(out->table_name, String(m, "TableName", "Match"));
  DR_ASSIGN_OR_RETURN(out->index_name, String(m, "IndexName", "Match"));
  DR_ASSIGN_OR_RETURN(const Json* key, Object(m, "Key", "Match"));
  if (key != nullptr) {
    Result<Item> item = DecodeItem(*key);
    if (!item.ok()) return Invalid("Match.Key: " + item.status().message());
    for (auto& [name, value] : *item) out->key.emplace_back(name, std::move(value));
  }
  DR_ASSIGN_OR_RETURN(const Json* prefix, Object(m, "KeyPrefix", "Match"));
  if (prefix != nullptr) {
    DR_RETURN_IF_ERROR(OnlyMembers(*prefix, "Match.KeyPrefix", {"AttributeName", "Prefix"}));
    DR_ASSIGN_OR_RETURN(out->key_prefix_attribute, String(*prefix, "AttributeName", "Match.KeyPrefix"));
    DR_ASSIGN_OR_RETURN(out->key_prefix, String(*prefix, "Prefix", "Match.KeyPrefix"));
  }
  DR_ASSIGN_OR_RETURN(const Json* request, Object(m, "Request", "Match"));
  if (request != nullptr) {
    for (auto it = request->begin(); it != request->end(); ++it) {
      DR_ASSIGN_OR_RETURN(std::string text, MemberText(it.key(), it.value()));
      out->request.emplace_back(it.key(), std::move(text));
    }
  }
  return Status::OK();
}

Status DecodeEffect(const Json& e, FaultEffect* out) {
  DR_RETURN_IF_ERROR(OnlyMembers(e, "Effect",
                                 {"Error", "Message", "ThrottlingReason", "CancellationReason",
                                  "CancellationReasons", "Unprocessed", "LatencyMillis"}));
  const int kinds = e.contains("Error") + e.contains("Unprocessed") + e.contains("LatencyMillis");
  if (kinds != 1) return Invalid("Effect needs exactly one of Error, Unprocessed and LatencyMillis");
  if (e.contains("Error")) {
    out->kind = FaultEffectKind::kError;
    DR_ASSIGN_OR_RETURN(std::string name, String(e, "Error", "Effect"));
    DR_ASSIGN_OR_RETURN(out->error, ErrorNamed(name));
    DR_ASSIGN_OR_RETURN(out->message, String(e, "Message", "Effect"));
    DR_ASSIGN_OR_RETURN(out->throttling_reason, String(e, "ThrottlingReason", "Effect"));
    DR_ASSIGN_OR_RETURN(std::string reason, String(e, "CancellationReason", "Effect"));
    if (!reason.empty()) out->cancellation_reason = reason;
    if (auto it = e.find("CancellationReasons"); it != e.end() && !it->is_null()) {
      if (!it->is_array() || it->empty() || it->size() > 100) {
        return Invalid("Effect.CancellationReasons must be a list of 1 to 100 reason codes");
      }
      for (const Json& code : *it) {
        if (!code.is_string()) return Invalid("Effect.CancellationReasons must hold reason codes");
        out->cancellation_reasons.push_back(code.get<std::string>());
      }
    }
    return Status::OK();
  }
  if (e.contains("Message") || e.contains("ThrottlingReason") || e.contains("CancellationReason") ||
      e.contains("CancellationReasons")) {
    return Invalid("Message, ThrottlingReason and CancellationReason(s) go with Error");
  }
  if (e.contains("Unprocessed")) {
    if (!e["Unprocessed"].is_boolean() || !e["Unprocessed"].get<bool>()) {
      return Invalid("Effect.Unprocessed must be true");
    }
    out->kind = FaultEffectKind::kUnprocessed;
    return Status::OK();
  }
  const Json& ms = e["LatencyMillis"];
  if (!ms.is_number_integer() || ms.get<int64_t>() < 1 ||
      ms.get<int64_t>() * 1000 > kMaxFaultLatencyMicros) {
    return Invalid("LatencyMillis must be between 1 and 60000");
  }
  out->kind = FaultEffectKind::kLatency;
  out->latency_micros = ms.get<int64_t>() * 1000;
  return Status::OK();
}

Status DecodeWhen(const Json& w, FaultSchedule* out) {
  DR_RETURN_IF_ERROR(OnlyMembers(w, "When", {"Probability", "Seed", "EveryNth", "FirstN", "From", "To"}));
  if (auto it = w.find("Probability"); it != w.end() && !it->is_null()) {
    if (!it->is_number()) return Invalid("Probability must be greater than 0 and at most 1");
    out->probability = it->get<double>();
  }
  if (auto it = w.find("Seed"); it != w.end() && !it->is_null()) {
    if (!it->is_number_integer()) return Invalid("When.Seed must be an integer");
    out->seed = it->is_number_unsigned() ? it->get<uint64_t>()
                                         : static_cast<uint64_t>(it->get<int64_t>());
  }
  DR_ASSIGN_OR_RETURN(out->every_nth, Count(w, "EveryNth", "When"));
  DR_ASSIGN_OR_RETURN(out->first_n, Count(w, "FirstN", "When"));
  DR_ASSIGN_OR_RETURN(out->from_micros, Time(w, "From"));
  DR_ASSIGN_OR_RETURN(out->to_micros, Time(w, "To"));
  return Status::OK();
}

Json EncodeTime(int64_t micros) { return static_cast<double>(micros) / 1e6; }

}  // namespace

Result<FaultRule> DecodeFaultRule(const Json& rule) {
  if (!rule.is_object()) return Invalid("a rule must be an object");
  DR_RETURN_IF_ERROR(OnlyMembers(rule, "the rule", {"Id", "Match", "Effect", "When"}));
  FaultRule out;
  DR_ASSIGN_OR_RETURN(out.id, String(rule, "Id", "the rule"));
  DR_ASSIGN_OR_RETURN(const Json* match, Object(rule, "Match", "the rule"));
  if (match != nullptr) DR_RETURN_IF_ERROR(DecodeMatch(*match, &out.match));
  DR_ASSIGN_OR_RETURN(const Json* effect, Object(rule, "Effect", "the rule"));
  if (effect == nullptr) return Invalid("Effect is required");
  DR_RETURN_IF_ERROR(DecodeEffect(*effect, &out.effect));
  DR_ASSIGN_OR_RETURN(const Json* when, Object(rule, "When", "the rule"));
  if (when != nullptr) DR_RETURN_IF_ERROR(DecodeWhen(*when, &out.schedule));
  return out;
}

Json EncodeFaultRule(const FaultRuleStatus& status) {
  const FaultRule& r = status.rule;
  Json match = Json::object();
  if (!r.match.operations.empty()) match["Operations"] = r.match.operations;
  if (!r.match.table_name.empty()) match["TableName"] = r.match.table_name;
  if (!r.match.index_name.empty()) match["IndexName"] = r.match.index_name;
  if (!r.match.key.empty()) {
    Item key;
    for (const auto& [name, value] : r.match.key) key[name] = value;
    match["Key"] = EncodeItem(key);
  }
  if (!r.match.key_prefix_attribute.empty()) {
    match["KeyPrefix"] = {{"AttributeName", r.match.key_prefix_attribute},
                          {"Prefix", r.match.key_prefix}};
  }
  if (!r.match.request.empty()) {
    Json request = Json::object();
    for (const auto& [member, value] : r.match.request) request[member] = value;
    match["Request"] = std::move(request);
  }
  Json effect = Json::object();
  switch (r.effect.kind) {
    case FaultEffectKind::kError:
      effect["Error"] = ErrorCodeName(r.effect.error);
      if (!r.effect.message.empty()) effect["Message"] = r.effect.message;
      if (!r.effect.throttling_reason.empty()) effect["ThrottlingReason"] = r.effect.throttling_reason;
      if (r.effect.error == ErrorCode::kTransactionCanceled) {
        if (r.effect.cancellation_reasons.empty()) {
          effect["CancellationReason"] = r.effect.cancellation_reason;
        } else {
          effect["CancellationReasons"] = r.effect.cancellation_reasons;
        }
      }
      break;
    case FaultEffectKind::kUnprocessed:
      effect["Unprocessed"] = true;
      break;
    case FaultEffectKind::kLatency:
      effect["LatencyMillis"] = r.effect.latency_micros / 1000;
      break;
  }
  Json when = Json::object();
  const FaultSchedule& s = r.schedule;
  if (s.probability) {
    when["Probability"] = *s.probability;
    when["Seed"] = s.seed;
  }
  if (s.every_nth != 0) when["EveryNth"] = s.every_nth;
  if (s.first_n != 0) when["FirstN"] = s.first_n;
  if (s.from_micros != 0) when["From"] = EncodeTime(s.from_micros);
  if (s.to_micros != 0) when["To"] = EncodeTime(s.to_micros);
  Json out{{"Id", r.id}, {"Match", std::move(match)}, {"Effect", std::move(effect)}};
  if (!when.empty()) out["When"] = std::move(when);
  out["MatchedCount"] = status.matched;
  out["FiredCount"] = status.fired;
  return out;
}

Result<std::vector<FaultRule>> ParseFaultRules(std::string_view text) {
  Result<Json> json = ParseRequestBody(text);
  if (!json.ok() && !text.empty() && text.find_first_not_of(" \t\r\n") != std::string_view::npos &&
      text[text.find_first_not_of(" \t\r\n")] == '[') {
    // ParseRequestBody wants an object; a bare list is wrapped.
    json = ParseRequestBody("{\"Rules\":" + std::string(text) + "}");
  }
  if (!json.ok()) return Invalid("the file is not JSON: " + json.status().message());
  auto it = json->find("Rules");
  if (it == json->end() || !it->is_array() || json->size() != 1) {
    return Invalid("the file must hold {\"Rules\": [rule, ...]} or [rule, ...]");
  }
  std::vector<FaultRule> rules;
  for (const Json& rule : *it) {
    DR_ASSIGN_OR_RETURN(FaultRule r, DecodeFaultRule(rule));
    rules.push_back(std::move(r));
  }
  return rules;
}

}  // namespace dynarock::api
