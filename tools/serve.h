// tools/serve.h
//
// `dynarock serve`: the drop-in replacement for DynamoDB Local. Opens the
// Engine, serves the DynamoDB JSON protocol over HTTP until SIGINT or
// SIGTERM, then stops accepting, finishes the requests in flight and closes
// the Engine, so nothing acknowledged is lost.

#ifndef DYNAROCK_TOOLS_SERVE_H_
#define DYNAROCK_TOOLS_SERVE_H_

#include <cstdint>
#include <string>

#include "engine/requests/scope.h"

namespace dynarock::tools {

struct ServeOptions {
  std::string host = "127.0.0.1";
  int port = 8000;  // 0 picks a free port, printed in the listening line
  std::string db_path = "./dynarock-data";
  bool in_memory = false;  // nothing survives the process
  bool shared_db = false;  // one set of tables for every access key + region
  // The AWS account id in every ARN (12 digits); an ARN of another account
  // is answered AccessDeniedException.
  std::string account_id{kDefaultAccountId};
  int threads = 0;         // HTTP threads; 0 = four per core, at least 8
  // How long after a write its changes reach the GSIs (0: at once, on a
  // background thread); SetIndexLag changes it per index at runtime.
  int64_t gsi_lag_ms = 0;
  // How far behind the latest write an eventually consistent read of a
  // table or LSI may be (0: never).
  int64_t eventual_read_lag_ms = 0;
  // How long a write to a replica of a global table takes to reach the
  // other replicas (docs/global-tables.md).
  int64_t replication_lag_ms = 1000;
  bool legacy_global_tables = false;
  // Refuse requests beyond a table's capacity, as DynamoDB does (on), or
  // never, as DynamoDB Local (off). Metering (ConsumedCapacity) and the
  // capacity statistics (`dynarock stats`) are on either way; the
  // DynamoRock_20251121.SetThrottling extension switches it at runtime.
  bool throttling = true;
  // fsync the RocksDB WAL before acknowledging each write
  // (EngineOptions::sync_writes): acknowledged writes survive a power loss
  // too, not only a process crash.
  bool sync_writes = false;
  // The directory that stands for Amazon S3 in ExportTableToPointInTime and
  // ImportTable: bucket B is the subdirectory B, an object key a path below
  // it (api/transfer/s3_directory.h, docs/export.md).
  std::string s3_dir = "./dynarock-s3";
  // EngineOptions::min_free_disk_bytes, in MiB.
  int64_t min_free_disk_mb = 64;
  // EngineOptions::block_cache_bytes, in MiB.
  int64_t block_cache_mb = 256;
  // A partition splits when its data passes this many bytes (DynamoDB:
  // 10 GB); small values make tests split partitions (and stream shards).
  int64_t partition_split_bytes = int64_t{10} << 30;
  // Server limits (api::http::ServerOptions): connections served at once
  // (beyond: 503 ServiceUnavailable), megabytes of request bodies buffered
  // at once over all connections (beyond: 503), and the timeouts in
  // seconds: between requests, for a request's headers, for its body (and
  // for its response to be read).
  int max_connections = 4096;
  int max_inflight_mb = 512;
  double idle_timeout_s = 60;
  double header_timeout_s = 20;
  double request_timeout_s = 60;
  // Time to Live: how often a sweep for expired items starts (engine
  // clock), and the spread of deletions after expiry (0: at the first sweep
  // after it; DynamoDB takes up to a few days).
  int64_t ttl_sweep_interval_ms = 1000;
  int64_t ttl_deletion_spread_s = 0;
  // How long DescribeTimeToLive shows ENABLING / DISABLING after a change
  // (0: settles at once).
  int64_t ttl_status_delay_ms = 0;
  // Strict authentication: verify every call's SigV4 signature against the
  // credentials in this file (api/http/sigv4.h ParseSigV4Secrets) and/or the
  // one pair given by access_key/secret_key. All empty: any credentials are
  // accepted, as DynamoDB Local.
  std::string auth_file;
  std::string access_key;
  std::string secret_key;
  // GET /metrics (api/metrics/prometheus_exposition.h): "on" serves it to
  // loopback clients (to signed requests only in strict mode), "any" to
  // every client, "off" not at all (404).
  std::string metrics = "on";
  // The web console, GET /console/ (api/console, docs/console.md): "on"
  // serves it to loopback clients (its calls signed in strict mode), "any"
  // to every client, "off" not at all. console_write lets it write; it
  // only reads otherwise.
  std::string console = "on";
  bool console_write = false;
  // The engine's clock: "real", or "simulated" / "simulated=EPOCH_SECONDS"
  // (docs/testing.md): time then moves only through the
  // DynamoRock_20251121.AdvanceClock / SetClock extensions (`dynarock
  // clock`); tables are ACTIVE at once unless the delays are set.
  std::string clock = "real";
  // A JSON file of fault rules in force from the start
  // (api/fault/fault_rule_json.h); empty: none.
  std::string fault_rules_file;
};

// Runs the server until a signal stops it; returns the process exit code
// (0 after a clean shutdown, 1 when the database or the port cannot be
// opened). Prints one line to stdout once it accepts connections:
//   dynarock listening on http://127.0.0.1:8000 (db: ./dynarock-data)
// (with ", throttling off" inside the parentheses when it is off, and
// ", sync-writes" with --sync-writes, ", auth: N keys" in strict mode).
// An unreadable or malformed auth file or fault-rules file, a malformed
// --clock, or only one of access_key and secret_key, is reported on stderr
// with exit code 1.
// REQUIRES: called from main() before any other thread is started (it sets
// the process's signal mask).
int RunServe(const ServeOptions& options);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_SERVE_H_
