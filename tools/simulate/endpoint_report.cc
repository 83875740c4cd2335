// tools/simulate/endpoint_report.cc

#include "tools/simulate/endpoint_report.h"

#include <algorithm>

#include "tools/load/loader.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {

bool IsThrottleType(const std::string& type) {
  return type == "ProvisionedThroughputExceededException" || type == "ThrottlingException" ||
         type == "RequestLimitExceeded";
}

void CountThrottle(const std::string& type, const api::Response& r, EndpointCounts* counts) {
  ++counts->throttled;
  ++counts->throttled_by_exception[type];
  api::Json body = api::Json::parse(r.body, nullptr, false);
  if (!body.is_object() || !body.contains("ThrottlingReasons") ||
      !body["ThrottlingReasons"].is_array()) {
    return;
  }
  for (const api::Json& reason : body["ThrottlingReasons"]) {
    if (reason.is_object()) ++counts->throttling_reasons[reason.value("reason", "?")];
  }
}

void CountConsumed(const api::Response& r, EndpointCounts* counts) {
  api::Json body = api::Json::parse(r.body, nullptr, false);
  if (!body.is_object() || !body.contains("ConsumedCapacity")) return;
  const api::Json& c = body["ConsumedCapacity"];
  if (!c.is_object()) return;
  double units = c.value("CapacityUnits", 0.0);
  if (units == 0) units = c.value("ReadCapacityUnits", 0.0) + c.value("WriteCapacityUnits", 0.0);
  counts->consumed_units += units;
  ++counts->responses_with_capacity;
}

double PercentileMs(std::vector<int64_t>& v, double p) {
  if (v.empty()) return 0;
  const size_t k = std::min(v.size() - 1, static_cast<size_t>(p * static_cast<double>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return static_cast<double>(v[k]) / 1000.0;
}

std::string RatioText(double endpoint, double model) {
  if (model == 0) return endpoint == 0 ? "1.00" : "-";
  return Fixed(endpoint / model, 2);
}

nlohmann::json RatioJson(double endpoint, double model) {
  if (model == 0) return endpoint == 0 ? nlohmann::json(1.0) : nlohmann::json(nullptr);
  return endpoint / model;
}

std::string JoinCounts(const std::map<std::string, int64_t>& counts) {
  std::string out;
  for (const auto& [k, v] : counts) {
    if (!out.empty()) out += "; ";
    out += k + " " + std::to_string(v);
  }
  return out.empty() ? "-" : out;
}

std::string EndpointLine(const EndpointRunInfo& info) {
  return "at " + info.url + " (Region " + info.region + ", credentials: " +
         info.credentials_source + ", " + std::to_string(info.clients) + " clients)";
}

std::string EndpointFooterText(const EndpointRunInfo& info, bool endpoint_throttled) {
  std::string out;
  if (!endpoint_throttled) {
    out += "\nthe endpoint never throttled (DynamoDB Local and `dynarock serve "
           "--throttling off` do not model throughput): compare the model's "
           "throttles with caution\n";
  }
  const ErrorCounts& errors = info.errors;
  if (!errors.retried.empty() || !errors.gave_up.empty()) {
    out += "\nendpoint errors retried with backoff: " + JoinCounts(errors.retried) +
           "; given up: " + JoinCounts(errors.gave_up) + "\n";
  }
  if (!info.cleanup.empty()) {
    out += "\n";
    for (const std::string& line : info.cleanup) out += line + "\n";
  }
  return out;
}

nlohmann::json EndpointJson(const EndpointRunInfo& info) {
  return {{"url", info.url},
          {"region", info.region},
          {"credentials", info.credentials_source},
          {"table_prefix", info.table_prefix},
          {"clients", info.clients},
          {"interrupted", info.interrupted}};
}

nlohmann::json ErrorsJson(const ErrorCounts& errors) {
  return {{"retried", errors.retried}, {"gave_up", errors.gave_up}};
}

void AddCountsJson(const EndpointCounts& counts, nlohmann::json* out) {
  (*out)["throttled_by_exception"] = counts.throttled_by_exception;
  (*out)["throttling_reasons"] = counts.throttling_reasons;
  (*out)["responses_with_capacity"] = counts.responses_with_capacity;
}

}  // namespace dynarock::tools::simulate
