// tools/simulate/endpoint_report.h
//
// What every experiment run against an endpoint (`simulate ... --endpoint`)
// reads from the endpoint's answers and how it reports them beside the
// model: a request's outcome counted (throttled by exception and by
// ThrottlingReasons, the ConsumedCapacity the endpoint reported), ratios
// and percentiles, and the parts of the text and JSON reports that do not
// depend on the experiment (the endpoint's line, the note when it never
// throttled, the errors retried, the tables deleted).
//
// Plain functions and a value type; thread-compatible.

#ifndef DYNAROCK_TOOLS_SIMULATE_ENDPOINT_REPORT_H_
#define DYNAROCK_TOOLS_SIMULATE_ENDPOINT_REPORT_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "api/client.h"
#include "tools/simulate/endpoint_session.h"

namespace dynarock::tools::simulate {

// The throttles and consumed capacity of a run's answers.
struct EndpointCounts {
  int64_t throttled = 0;
  std::map<std::string, int64_t> throttled_by_exception;
  std::map<std::string, int64_t> throttling_reasons;  // ThrottlingReasons[].reason
  double consumed_units = 0;  // ConsumedCapacity the endpoint reported
  int64_t responses_with_capacity = 0;
};

// True for the error types an SDK retries as throttling.
bool IsThrottleType(const std::string& type);

// Counts a throttled answer `r` of error type `type`: by exception and by
// each of its ThrottlingReasons.
void CountThrottle(const std::string& type, const api::Response& r, EndpointCounts* counts);

// Adds a successful answer's ConsumedCapacity (CapacityUnits, else Read- or
// WriteCapacityUnits) when it has one.
void CountConsumed(const api::Response& r, EndpointCounts* counts);

// The p-quantile (0..1) of `micros` in milliseconds; 0 when empty.
// Reorders `micros`.
double PercentileMs(std::vector<int64_t>& micros, double p);

// endpoint / model for the text report: "1.00" when both are 0, "-" when
// only the model's is.
std::string RatioText(double endpoint, double model);
// The same for JSON: a number, or null.
nlohmann::json RatioJson(double endpoint, double model);

// "A 3; B 1", or "-" when empty.
std::string JoinCounts(const std::map<std::string, int64_t>& counts);

// Where and how a run went, for the reports' first lines.
struct EndpointRunInfo {
  std::string url;
  std::string region;
  std::string credentials_source;
  std::string table_prefix;
  int clients = 0;
  ErrorCounts errors;
  std::vector<std::string> cleanup;  // "deleted table T", "left behind: ..."
  bool interrupted = false;
};

// "at URL (Region R, credentials: C, K clients)".
std::string EndpointLine(const EndpointRunInfo& info);
// The report's end: the note when the endpoint never throttled, the errors
// retried and given up, the cleanup lines.
std::string EndpointFooterText(const EndpointRunInfo& info, bool endpoint_throttled);
// {"url", "region", "credentials", "table_prefix", "clients", "interrupted"}.
nlohmann::json EndpointJson(const EndpointRunInfo& info);
// {"retried", "gave_up"}.
nlohmann::json ErrorsJson(const ErrorCounts& errors);
// A run's counts as JSON members: throttled_by_exception,
// throttling_reasons, responses_with_capacity.
void AddCountsJson(const EndpointCounts& counts, nlohmann::json* out);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ENDPOINT_REPORT_H_
