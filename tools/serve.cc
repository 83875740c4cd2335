// tools/serve.cc

#include "tools/serve.h"

#include <signal.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <string_view>
#include <vector>

#include "api/client.h"
#include "api/fault/fault_rule_json.h"
#include "api/http/server.h"
#include "api/http/sigv4.h"
#include "api/metrics/prometheus_exposition.h"
#include "api/metrics/request_metrics.h"
#include "api/transfer/s3_directory.h"
#include "engine/clock.h"
#include "engine/engine.h"
#include "engine/options.h"

namespace dynarock::tools {
namespace {

// Lets the server keep many connections and RocksDB its files open.
void RaiseFileLimit() {
  struct rlimit limit;
  if (getrlimit(RLIMIT_NOFILE, &limit) == 0 &&
      limit.rlim_cur < limit.rlim_max) {
    limit.rlim_cur = limit.rlim_max;
    setrlimit(RLIMIT_NOFILE, &limit);
  }
}

std::string Url(const std::string& host, int port) {
  bool v6 = host.find(':') != std::string::npos;
  return "http://" + (v6 ? "[" + host + "]" : host) + ":" +
         std::to_string(port);
}

// The text of `path`, or why it cannot be read.
Result<std::string> ReadFile(const std::string& path, std::string_view what) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status(ErrorCode::kValidation, "cannot read the " + std::string(what) + " " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The credentials of strict mode, or null when none were asked for.
Result<std::shared_ptr<const api::http::SigV4Secrets>> LoadSecrets(
    const ServeOptions& options) {
  if (options.auth_file.empty() && options.access_key.empty() &&
      options.secret_key.empty()) {
    return std::shared_ptr<const api::http::SigV4Secrets>();
  }
  if (options.access_key.empty() != options.secret_key.empty()) {
    return Status(ErrorCode::kValidation,
                  "--access-key and --secret-key go together");
  }
  api::http::SigV4Secrets secrets;
  if (!options.auth_file.empty()) {
    DR_ASSIGN_OR_RETURN(std::string text, ReadFile(options.auth_file, "auth file"));
    Result<api::http::SigV4Secrets> parsed = api::http::ParseSigV4Secrets(text);
    if (!parsed.ok()) return parsed.status();
    secrets = *std::move(parsed);
  }
  if (!options.access_key.empty()) secrets[options.access_key] = options.secret_key;
  return std::make_shared<const api::http::SigV4Secrets>(std::move(secrets));
}

// --clock real | simulated | simulated=EPOCH_SECONDS: the simulated clock
// to run on (starting now, or at EPOCH_SECONDS), or null for the real one.
Result<std::unique_ptr<SimulatedClock>> ClockFor(const std::string& spec) {
  if (spec == "real") return std::unique_ptr<SimulatedClock>();
  if (spec == "simulated") {
    return std::make_unique<SimulatedClock>(RealClock::Default()->NowMicros());
  }
  constexpr std::string_view kPrefix = "simulated=";
  if (spec.compare(0, kPrefix.size(), kPrefix) == 0) {
    char* end = nullptr;
    const std::string number = spec.substr(kPrefix.size());
    const double seconds = std::strtod(number.c_str(), &end);
    if (!number.empty() && end == number.c_str() + number.size() && seconds > 0 &&
        seconds < 9.2e12) {
      return std::make_unique<SimulatedClock>(static_cast<int64_t>(std::llround(seconds * 1e6)));
    }
  }
  return Status(ErrorCode::kValidation,
                "--clock must be real, simulated or simulated=EPOCH_SECONDS, not " + spec);
}

// The engine's options for `options`: the fault rules of --fault-rules,
// the model's settings, and the clock's rules (`clock` null: the real one).
// Errors: an unreadable or malformed fault-rules file.
Result<EngineOptions> EngineOptionsFor(const ServeOptions& options, SimulatedClock* clock) {
  EngineOptions e;
  if (!options.fault_rules_file.empty()) {
    Result<std::string> text = ReadFile(options.fault_rules_file, "fault-rules file");
    Result<std::vector<FaultRule>> rules =
        text.ok() ? api::ParseFaultRules(*text) : Result<std::vector<FaultRule>>(text.status());
    if (!rules.ok()) {
      return Status(ErrorCode::kValidation,
                    options.fault_rules_file + ": " + rules.status().message());
    }
    e.fault_rules = std::move(rules).value();
  }
  e.path = options.db_path;
  e.in_memory = options.in_memory;
  e.gsi_lag_micros = options.gsi_lag_ms * 1000;
  e.eventual_read_lag_micros = options.eventual_read_lag_ms * 1000;
  e.replication_lag_micros = options.replication_lag_ms * 1000;
  e.legacy_global_tables = options.legacy_global_tables;
  e.throttling = options.throttling;
  e.sync_writes = options.sync_writes;
  e.min_free_disk_bytes = options.min_free_disk_mb << 20;
  e.block_cache_bytes = options.block_cache_mb << 20;
  e.capacity.split_size_bytes = options.partition_split_bytes;
  e.ttl_sweep_interval_micros = options.ttl_sweep_interval_ms * 1000;
  e.ttl_deletion_spread_micros = options.ttl_deletion_spread_s * 1'000'000;
  e.ttl_status_delay_micros = options.ttl_status_delay_ms * 1000;
  if (clock != nullptr) {
    // Nothing moves by itself on a simulated clock: no timer, and tables
    // are ACTIVE (or gone) at once, as no time passes until a test says so.
    e.clock = clock;
    e.table_create_delay_micros = 0;
    e.table_delete_delay_micros = 0;
  } else {
    // An idle server still expires items and trims streams: the due work at
    // the TTL sweep interval, at least once a second (stream maintenance).
    e.due_work_interval_micros = std::clamp<int64_t>(options.ttl_sweep_interval_ms, 1, 1000) * 1000;
  }
  return e;
}

api::http::ServerOptions ServerOptionsFor(
    const ServeOptions& options, std::shared_ptr<const api::http::SigV4Secrets> secrets) {
  api::http::ServerOptions s;
  s.host = options.host;
  s.port = static_cast<uint16_t>(options.port);
  s.threads = options.threads;
  s.max_connections = options.max_connections;
  s.max_inflight_bytes = static_cast<size_t>(options.max_inflight_mb) << 20;
  auto millis = [](double seconds) {
    return std::chrono::milliseconds(static_cast<int64_t>(seconds * 1000));
  };
  s.idle_timeout = millis(options.idle_timeout_s);
  s.header_timeout = millis(options.header_timeout_s);
  s.request_timeout = millis(options.request_timeout_s);
  s.protocol.secrets = std::move(secrets);
  return s;
}

// What the listening line says in parentheses: the database and the
// settings that differ from DynamoDB Local's.
std::string Describe(const ServeOptions& options, const EngineOptions& engine_options,
                     const api::http::SigV4Secrets* secrets) {
  auto count = [](size_t n, const char* what) {
    return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
  };
  std::string db = options.in_memory ? "in-memory" : "db: " + options.db_path;
  if (options.shared_db) db += ", shared-db";
  if (options.account_id != kDefaultAccountId)
    db += ", account " + options.account_id;
  if (!options.throttling) db += ", throttling off";
  if (options.sync_writes) db += ", sync-writes";
  if (engine_options.clock != nullptr) db += ", simulated clock";
  if (!engine_options.fault_rules.empty()) {
    db += ", " + count(engine_options.fault_rules.size(), "fault rule");
  }
  if (secrets != nullptr) db += ", auth: " + count(secrets->size(), "key");
  return db;
}

// Blocks until SIGINT or SIGTERM (blocked in `signals`); says which.
void WaitForStop(const sigset_t& signals) {
  int signal_number = 0;
  sigwait(&signals, &signal_number);
  std::fprintf(stderr, "dynarock: %s received, shutting down\n",
               signal_number == SIGINT ? "SIGINT" : "SIGTERM");
}

}  // namespace

int RunServe(const ServeOptions& options) {
  // Every thread started from here on inherits this mask, so the signals
  // are only ever taken by sigwait() in WaitForStop.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  signal(SIGPIPE, SIG_IGN);
  RaiseFileLimit();

  auto secrets = LoadSecrets(options);
  if (!secrets.ok()) {
    std::fprintf(stderr, "dynarock: %s\n", secrets.status().message().c_str());
    return 1;
  }
  // Declared before the engine, which uses them until it closes.
  Result<std::unique_ptr<SimulatedClock>> clock = ClockFor(options.clock);
  if (!clock.ok()) {
    std::fprintf(stderr, "dynarock: %s\n", clock.status().message().c_str());
    return 1;
  }
  Result<EngineOptions> engine_options = EngineOptionsFor(options, clock->get());
  if (!engine_options.ok()) {
    std::fprintf(stderr, "dynarock: %s\n", engine_options.status().message().c_str());
    return 1;
  }
  api::S3Directory s3(options.s3_dir);
  engine_options->transfer_files = &s3;
  Result<std::unique_ptr<Engine>> engine = Engine::Open(*engine_options);
  if (!engine.ok()) {
    std::fprintf(stderr, "dynarock: cannot open the database at %s: %s\n",
                 options.db_path.c_str(), engine.status().ToString().c_str());
    return 1;
  }

  api::metrics::RequestMetrics request_metrics;
  const bool metrics = options.metrics != "off";
  api::ClientOptions client_options;
  client_options.shared_db = options.shared_db;
  client_options.account_id = options.account_id;
  if (metrics) client_options.request_metrics = &request_metrics;
  // The server waits out a fault rule's latency on a timer instead.
  client_options.wait_injected_latency = false;
  api::Client client(engine->get(), client_options);
  api::http::ServerOptions server_options = ServerOptionsFor(options, *secrets);
  if (metrics) {
    server_options.protocol.metrics = [db = engine->get(), &request_metrics] {
      return api::metrics::RenderMetrics(db, &request_metrics);
    };
    server_options.protocol.metrics_any_peer = options.metrics == "any";
  }
  server_options.protocol.console.access =
      options.console == "off"   ? api::console::ConsoleAccess::kOff
      : options.console == "any" ? api::console::ConsoleAccess::kAnyPeer
                                 : api::console::ConsoleAccess::kLoopback;
  server_options.protocol.console.write = options.console_write;
  auto server = api::http::Server::Start(
      [&client](std::string_view operation, std::string_view body,
                const api::CallerIdentity& caller) {
        return client.Call(operation, body, caller);
      },
      server_options);
  if (!server.ok()) {
    std::fprintf(stderr, "dynarock: %s\n", server.status().message().c_str());
    return 1;
  }
  std::printf("dynarock listening on %s (%s)\n",
              Url((*server)->host(), (*server)->port()).c_str(),
              Describe(options, *engine_options, secrets->get()).c_str());
  if (options.console != "off") {
    std::printf("console: %s/console/%s\n", Url((*server)->host(), (*server)->port()).c_str(),
                options.console_write ? " (may write)" : " (read-only)");
  }
  std::fflush(stdout);

  WaitForStop(stop_signals);
  (*server)->Shutdown();  // no request runs after this
  server = Status::Internal("stopped");
  engine = Status::Internal("closed");  // closes the Engine
  std::fprintf(stderr, "dynarock: stopped\n");
  return 0;
}

}  // namespace dynarock::tools
