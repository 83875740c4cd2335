// tools/simulate/endpoint_session.cc

#include "tools/simulate/endpoint_session.h"

#include <ctime>
#include <random>
#include <thread>

#include "api/ops/table_codec.h"
#include "tools/http/aws_credentials.h"
#include "tools/load/loader.h"

namespace dynarock::tools::simulate {
namespace {

bool EndsWith(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The error types with which DynamoDB refuses credentials or a signature.
bool IsCredentialsRefusal(std::string_view type) {
  return type == "UnrecognizedClientException" || type == "InvalidSignatureException" ||
         type == "MissingAuthenticationTokenException" ||
         type == "IncompleteSignatureException" || type == "AccessDeniedException" ||
         type == "ExpiredTokenException";
}

}  // namespace

std::string RegionOfAwsHost(std::string_view host) {
  constexpr std::string_view kPrefix = "dynamodb.";
  constexpr std::string_view kSuffix = ".amazonaws.com";
  if (host.substr(0, kPrefix.size()) != kPrefix || !EndsWith(host, kSuffix)) return "";
  std::string_view middle =
      host.substr(kPrefix.size(), host.size() - kPrefix.size() - kSuffix.size());
  // "us-east-1", not "us-east-1.api" or a FIPS host's "fips.us-east-1".
  if (middle.empty() || middle.find('.') != std::string_view::npos) return "";
  return std::string(middle);
}

api::Json CreateTableJson(const CreateTableRequest& request) {
  api::Json out = {{"TableName", request.table_name},
                   {"KeySchema", api::ops::KeySchemaJson(request.key_schema)}};
  api::Json definitions = api::Json::array();
  for (const AttributeDefinition& d : request.attribute_definitions) {
    definitions.push_back({{"AttributeName", d.attribute_name},
                           {"AttributeType", std::string(AttrTypeName(d.attribute_type))}});
  }
  out["AttributeDefinitions"] = std::move(definitions);
  auto throughput = [](const ProvisionedThroughput& t) {
    return api::Json{{"ReadCapacityUnits", t.read_capacity_units},
                     {"WriteCapacityUnits", t.write_capacity_units}};
  };
  const bool provisioned = request.billing_mode.value_or(BillingMode::kProvisioned) ==
                           BillingMode::kProvisioned;
  out["BillingMode"] = provisioned ? "PROVISIONED" : "PAY_PER_REQUEST";
  if (request.provisioned_throughput) {
    out["ProvisionedThroughput"] = throughput(*request.provisioned_throughput);
  }
  if (!request.global_secondary_indexes.empty()) {
    api::Json gsis = api::Json::array();
    for (const GlobalSecondaryIndexDef& g : request.global_secondary_indexes) {
      api::Json gsi = {{"IndexName", g.index_name},
                       {"KeySchema", api::ops::KeySchemaJson(g.key_schema)},
                       {"Projection", api::ops::ProjectionJson(g.projection)}};
      if (g.provisioned_throughput) {
        gsi["ProvisionedThroughput"] = throughput(*g.provisioned_throughput);
      }
      gsis.push_back(std::move(gsi));
    }
    out["GlobalSecondaryIndexes"] = std::move(gsis);
  }
  return out;
}

std::string NewTablePrefix() {
  std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%S", &utc);
  std::random_device rd;
  char tag[8];
  std::snprintf(tag, sizeof tag, "%04x", static_cast<unsigned>(rd() & 0xffff));
  return std::string("dynarock-sim-") + stamp + "-" + tag + "-";
}

Result<ResolvedEndpoint> ResolveEndpoint(const EndpointOptions& options) {
  Result<http::Endpoint> parsed = http::ParseEndpoint(options.url);
  if (!parsed.ok()) return parsed.status();
  ResolvedEndpoint r;
  r.endpoint = std::move(parsed).value();
  r.url = options.url;
  r.is_aws = EndsWith(r.endpoint.host, ".amazonaws.com");
  const http::EnvLookup env = http::ProcessEnvironment();
  r.region = options.region;
  if (r.region.empty()) r.region = RegionOfAwsHost(r.endpoint.host);
  if (r.region.empty()) r.region = http::ResolveRegion(env, options.profile);
  if (r.region.empty()) r.region = "us-east-1";
  Result<http::AwsCredentials> creds = http::ResolveCredentials(env, options.profile);
  if (creds.ok()) {
    r.credentials_source = creds.value().source;
    r.client_options.credentials = std::move(creds).value();
  } else if (r.is_aws) {
    return Status::Validation(r.url + " is Amazon DynamoDB, which wants credentials: " +
                              creds.status().message());
  } else {
    r.credentials_source = "none (dummy signature)";
  }
  r.client_options.region = r.region;
  if (std::optional<std::string> ca = env("AWS_CA_BUNDLE"); ca && !ca->empty()) {
    r.client_options.ca_file = *ca;
  }
  r.client_options.timeout = options.request_timeout;
  r.client_options.user_agent = "dynarock-simulate";
  return r;
}

EndpointSession::EndpointSession(ResolvedEndpoint endpoint, EndpointOptions options)
    : endpoint_(std::move(endpoint)),
      options_(std::move(options)),
      prefix_(options_.table_prefix.empty() ? NewTablePrefix() : options_.table_prefix),
      backoff_seed_(std::random_device{}()) {
  control_ = NewClient();
}

EndpointSession::~EndpointSession() = default;

bool EndpointSession::interrupted() const {
  return options_.interrupted != nullptr && options_.interrupted->load();
}

std::unique_ptr<http::DynamoDbHttpClient> EndpointSession::NewClient() const {
  return std::make_unique<http::DynamoDbHttpClient>(endpoint_.endpoint,
                                                    endpoint_.client_options);
}

void EndpointSession::Sleep(std::chrono::microseconds d) const {
  // In slices, so that an interruption is noticed.
  const auto until = std::chrono::steady_clock::now() + d;
  while (!interrupted()) {
    const auto now = std::chrono::steady_clock::now();
    if (now >= until) return;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(until - now, std::chrono::milliseconds(50)));
  }
}

api::Response EndpointSession::Call(http::DynamoDbHttpClient& client,
                                    std::string_view operation, std::string_view body) {
  uint64_t seed;
  {
    std::lock_guard<std::mutex> lock(mu_);
    seed = backoff_seed_++;
  }
  ExponentialBackoff backoff(options_.error_backoff, seed);
  std::string last_kind;
  for (int attempt = 0;; ++attempt) {
    api::Response r = client.Call(operation, body);
    const bool failed = r.http_status == 0 || r.http_status >= 500;
    if (!failed) {
      if (!last_kind.empty()) {
        std::lock_guard<std::mutex> lock(mu_);
        ++errors_.retried[last_kind];
      }
      return r;
    }
    last_kind = r.http_status == 0
                    ? (r.body.find("timed out") != std::string::npos ? "timeout" : "transport")
                    : "HTTP " + std::to_string(r.http_status);
    if (attempt >= options_.max_error_retries || interrupted()) {
      std::lock_guard<std::mutex> lock(mu_);
      ++errors_.gave_up[last_kind];
      return r;
    }
    {
      std::lock_guard<std::mutex> lock(mu_);
      ++errors_.retried[last_kind];
    }
    Sleep(std::chrono::microseconds(backoff.DelayMicros(attempt)));
  }
}

std::string EndpointSession::Describe(std::string_view operation,
                                      const api::Response& r) const {
  std::string out(operation);
  if (r.http_status == 0) {
    return out + ": endpoint " + endpoint_.url + " unreachable: " + r.body;
  }
  const std::string type = load::ErrorTypeOf(r);
  out += ": " + http::DescribeErrorResponse(r);
  if (IsCredentialsRefusal(type)) {
    out += " (the endpoint refused the credentials from " + endpoint_.credentials_source +
           ")";
  } else if (type == "UnknownOperationException" || r.http_status == 404) {
    out += " (the endpoint does not serve " + std::string(operation) + ")";
  }
  return out;
}

Status EndpointSession::Check() {
  api::Response r = Call(*control_, "ListTables", R"({"Limit":1})");
  if (r.ok()) return Status::OK();
  return Status::Validation(Describe("ListTables", r));
}

Result<std::string> EndpointSession::CreateTable(std::string_view name, api::Json create) {
  const std::string table = prefix_ + std::string(name);
  create["TableName"] = table;
  api::Response r = Call(*control_, "CreateTable", create.dump());
  if (!r.ok()) return Status::Validation(Describe("CreateTable " + table, r));
  created_.push_back(table);
  const std::string describe = api::Json{{"TableName", table}}.dump();
  const auto deadline = std::chrono::steady_clock::now() + options_.table_wait;
  while (!interrupted()) {
    api::Json body = api::Json::parse(r.body, nullptr, false);
    const api::Json* desc = nullptr;
    for (const char* key : {"TableDescription", "Table"}) {
      if (body.is_object() && body.contains(key)) desc = &body[key];
    }
    if (desc != nullptr && desc->value("TableStatus", "") == "ACTIVE") return table;
    if (std::chrono::steady_clock::now() > deadline) {
      return Status::Validation("table " + table + " was not ACTIVE after " +
                                std::to_string(options_.table_wait.count()) + " s");
    }
    Sleep(std::chrono::milliseconds(desc == nullptr ? 0 : 500));
    r = Call(*control_, "DescribeTable", describe);
    if (!r.ok()) return Status::Validation(Describe("DescribeTable " + table, r));
  }
  return Status::Validation("interrupted while table " + table + " was being created");
}

// How long Cleanup waits for a deleted table to be gone (DynamoDB's take
// seconds; a run must not look clean while its tables still list).
constexpr std::chrono::seconds kDeleteWait{60};

bool EndpointSession::WaitGone(http::DynamoDbHttpClient& client, const std::string& table) {
  const std::string body = api::Json{{"TableName", table}}.dump();
  const auto deadline = std::chrono::steady_clock::now() + kDeleteWait;
  while (true) {
    api::Response r = client.Call("DescribeTable", body);
    if (load::ErrorTypeOf(r) == "ResourceNotFoundException") return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

std::vector<std::string> EndpointSession::Cleanup() {
  std::vector<std::string> lines;
  // A fresh client: a workload's interruption may have left the control
  // connection mid-request.
  std::unique_ptr<http::DynamoDbHttpClient> client = NewClient();
  for (const std::string& table : created_) {
    const std::string body = api::Json{{"TableName", table}}.dump();
    api::Response r;
    // DynamoDB refuses to delete a table still CREATING (ResourceInUse) and
    // limits concurrent control-plane calls (LimitExceeded): wait and retry.
    for (int attempt = 0; attempt < 30; ++attempt) {
      r = client->Call("DeleteTable", body);
      const std::string type = load::ErrorTypeOf(r);
      if (r.ok() || type == "ResourceNotFoundException") break;
      if (type != "ResourceInUseException" && type != "LimitExceededException" &&
          r.http_status != 0 && r.http_status < 500) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (r.ok() || load::ErrorTypeOf(r) == "ResourceNotFoundException") {
      lines.push_back(WaitGone(*client, table) ? "deleted table " + table
                                               : "deleting (still DELETING after " +
                                                     std::to_string(kDeleteWait.count()) +
                                                     " s): table " + table);
    } else {
      lines.push_back("left behind: table " + table + " (" + Describe("DeleteTable", r) +
                      "); delete it with: aws dynamodb delete-table --table-name " + table +
                      " --region " + endpoint_.region +
                      (endpoint_.is_aws ? "" : " --endpoint-url " + endpoint_.url));
    }
  }
  created_.clear();
  return lines;
}

ErrorCounts EndpointSession::errors() const {
  std::lock_guard<std::mutex> lock(mu_);
  return errors_;
}

}  // namespace dynarock::tools::simulate
