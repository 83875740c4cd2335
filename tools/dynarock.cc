// tools/dynarock.cc
//
// The `dynarock` command line: one subcommand per tool. Each subcommand's
// flags are declared here and map onto the options struct of its tools/*.h,
// which does the work.

#include <CLI/CLI.hpp>

#include "engine/requests/scope.h"
#include "tools/clock.h"
#include "tools/load.h"
#include "tools/serve.h"
#include "tools/simulate.h"
#include "tools/snapshot.h"
#include "tools/stats.h"

#ifndef DYNAROCK_VERSION
#define DYNAROCK_VERSION "unknown"
#endif

namespace {

// `serve`: The network side: where it listens and what a client may hold.
void AddServeNetworkFlags(CLI::App* serve, dynarock::tools::ServeOptions* opts) {
  serve->add_option("--host", opts->host, "Address to listen on")
      ->capture_default_str();
  serve
      ->add_option("--port", opts->port,
                   "Port to listen on; 0 picks a free one (printed)")
      ->capture_default_str()
      ->check(CLI::Range(0, 65535));
  serve
      ->add_option("--threads", opts->threads,
                   "HTTP worker threads; 0 = four per core, at least 8")
      ->capture_default_str()
      ->check(CLI::Range(0, 256));
  serve
      ->add_option("--max-connections", opts->max_connections,
                   "Connections served at once; one more is answered 503 "
                   "ServiceUnavailable and closed")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  serve
      ->add_option("--max-inflight-mb", opts->max_inflight_mb,
                   "Megabytes of request bodies buffered at once over all "
                   "connections; a request beyond it is answered 503 "
                   "ServiceUnavailable")
      ->capture_default_str()
      ->check(CLI::Range(1, 1'000'000));
  serve
      ->add_option("--idle-timeout", opts->idle_timeout_s,
                   "Seconds a connection may wait between requests")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 86'400.0));
  serve
      ->add_option("--header-timeout", opts->header_timeout_s,
                   "Seconds a request's headers may take to arrive, from its "
                   "first byte (slower clients are dropped)")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 86'400.0));
  serve
      ->add_option("--request-timeout", opts->request_timeout_s,
                   "Seconds a request's body may take to arrive once its "
                   "headers have, and its response to be read")
      ->capture_default_str()
      ->check(CLI::Range(0.01, 86'400.0));
}

// `serve`: Where the data lives and how it is kept.
void AddServeDatabaseFlags(CLI::App* serve, dynarock::tools::ServeOptions* opts) {
  serve->add_option("--db-path", opts->db_path, "Directory of the database")
      ->capture_default_str();
  serve->add_flag("--in-memory", opts->in_memory,
                  "Keep everything in memory; nothing survives the process");
  serve->add_option("--s3-dir", opts->s3_dir,
                    "Directory standing for S3 in ExportTableToPointInTime and "
                    "ImportTable: bucket B is its subdirectory B (create it), "
                    "an object key a path below that")
      ->capture_default_str();
  serve->add_flag("--shared-db", opts->shared_db,
                  "One set of tables for all credentials and regions "
                  "(otherwise each access key id + region has its own)");
  serve
      ->add_option("--account-id", opts->account_id,
                   "The AWS account id (12 digits) every ARN names; an ARN of "
                   "another account is answered AccessDeniedException")
      ->capture_default_str()
      ->check(CLI::Validator(
          [](std::string& id) {
            return dynarock::IsAccountId(id)
                       ? std::string()
                       : "an AWS account id is 12 digits, not '" + id + "'";
          },
          "ACCOUNT_ID", "account id"));
  serve->add_flag("--sync-writes", opts->sync_writes,
                  "fsync the write-ahead log before acknowledging each write: "
                  "acknowledged writes survive a power loss, not only a "
                  "process crash (slower)");
  serve
      ->add_option("--min-free-disk-mb", opts->min_free_disk_mb,
                   "refuse writes (InternalServerError) while the database's "
                   "filesystem has less free space than this, so that a full "
                   "disk loses nothing and writes resume when space returns; "
                   "0 = no floor")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 30));
  serve
      ->add_option("--block-cache-mb", opts->block_cache_mb,
                   "RocksDB's block cache, shared by the whole database: data, "
                   "index and filter blocks; with the memtables it bounds the "
                   "memory the data costs (docs/storage-tuning.md); 0 = "
                   "RocksDB's defaults (index and filters outside any cache)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 20));
}

// `serve`: The physical model: indexes, capacity, partitions, Time to Live, the clock and fault rules.
void AddServeModelFlags(CLI::App* serve, dynarock::tools::ServeOptions* opts) {
  serve
      ->add_option("--gsi-lag-ms", opts->gsi_lag_ms,
                   "Milliseconds before a write reaches the global secondary "
                   "indexes (asynchronous, as in DynamoDB); 0 = as fast as possible")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{86'400'000}));
  serve
      ->add_option("--replication-lag-ms", opts->replication_lag_ms,
                   "Milliseconds before a write to a replica of a global table "
                   "reaches the other Regions' replicas; 0 = at the next due work")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{86'400'000}));
  serve->add_flag("--legacy-global-tables", opts->legacy_global_tables,
                  "Serve CreateGlobalTable (global tables version 2017.11.29) as an "
                  "account that still has legacy global tables; without it, as DynamoDB "
                  "does for new tables: ValidationException");
  serve
      ->add_option("--eventual-read-lag-ms", opts->eventual_read_lag_ms,
                   "Milliseconds an eventually consistent read of a table or "
                   "LSI may lag behind the latest write (it sees the items as "
                   "they were that long ago, as a DynamoDB replica may); "
                   "0 = always the latest")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{3'600'000}));
  serve
      ->add_option("--throttling", opts->throttling,
                   "on: refuse requests beyond a table's capacity, as DynamoDB "
                   "does (ProvisionedThroughputExceededException); off: never, "
                   "as DynamoDB Local. Metering and `dynarock stats` work "
                   "either way")
      ->check(CLI::IsMember({"on", "off"}))
      ->type_name("on|off")
      ->default_str("on");
  serve
      ->add_option("--partition-split-bytes", opts->partition_split_bytes,
                   "a partition splits in two when its data passes this many "
                   "bytes (DynamoDB: 10 GB); small values let tests see splits, "
                   "and the stream shards that follow them")
      ->check(CLI::PositiveNumber)
      ->default_str("10737418240");
  serve
      ->add_option("--ttl-sweep-interval-ms", opts->ttl_sweep_interval_ms,
                   "Milliseconds between sweeps for items past their Time to "
                   "Live (an idle server sweeps too)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{1}, int64_t{86'400'000}));
  serve
      ->add_option("--ttl-deletion-spread-s", opts->ttl_deletion_spread_s,
                   "Seconds over which expired items are deleted after their "
                   "expiry, each at a delay of its own; 0 = at the next sweep "
                   "(DynamoDB: within a few days)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{30} * 86'400));
  serve
      ->add_option("--ttl-status-delay-ms", opts->ttl_status_delay_ms,
                   "Milliseconds DescribeTimeToLive shows ENABLING / DISABLING "
                   "after UpdateTimeToLive; 0 = settles at once (DynamoDB: up "
                   "to an hour)")
      ->capture_default_str()
      ->check(CLI::Range(int64_t{0}, int64_t{86'400'000}));
  serve
      ->add_option("--clock", opts->clock,
                   "real, or simulated[=EPOCH_SECONDS]: time then moves only "
                   "when a test says so (dynarock clock advance, the "
                   "DynamoRock_20251121.AdvanceClock extension; docs/testing.md)")
      ->capture_default_str();
  serve->add_option("--fault-rules", opts->fault_rules_file,
                    "JSON file of fault rules in force from the start "
                    "(docs/testing.md; DynamoRock_20251121.PutFaultRule adds more)")
      ->check(CLI::ExistingFile);
}

// `serve`: Strict authentication.
void AddServeAuthFlags(CLI::App* serve, dynarock::tools::ServeOptions* opts) {
  serve->add_option("--auth-file", opts->auth_file,
                    "Verify every request's SigV4 signature against the "
                    "credentials in this file (an AWS credentials file, or "
                    "lines 'ACCESS_KEY_ID SECRET_ACCESS_KEY'); off by default")
      ->check(CLI::ExistingFile);
  serve->add_option("--access-key", opts->access_key,
                    "With --secret-key: verify signatures against this "
                    "credential (alone or beside --auth-file)");
  serve->add_option("--secret-key", opts->secret_key,
                    "The secret access key of --access-key");
  serve->add_option("--metrics", opts->metrics,
                    "GET /metrics, Prometheus text (docs/metrics.md): on = to "
                    "loopback clients, or to signed requests with --auth-file; "
                    "any = to every client; off = not served")
      ->check(CLI::IsMember({"on", "off", "any"}))
      ->type_name("on|off|any")
      ->capture_default_str();
  serve->add_option("--console", opts->console,
                    "The web console at /console/ (docs/console.md): on = to "
                    "loopback clients (its calls signed with --auth-file); any = "
                    "to every client; off = not served")
      ->check(CLI::IsMember({"on", "off", "any"}))
      ->type_name("on|off|any")
      ->capture_default_str();
  serve->add_flag("--console-write", opts->console_write,
                  "Let the console write (put, update and delete items, change "
                  "tables); it only reads otherwise");
}

CLI::App* AddServe(CLI::App& app, dynarock::tools::ServeOptions* opts) {
  CLI::App* serve = app.add_subcommand(
      "serve",
      "Serve the DynamoDB API over HTTP, like DynamoDB Local "
      "(stop with Ctrl-C or SIGTERM)");
  AddServeNetworkFlags(serve, opts);
  AddServeDatabaseFlags(serve, opts);
  AddServeModelFlags(serve, opts);
  AddServeAuthFlags(serve, opts);
  return serve;
}

CLI::App* AddLoad(CLI::App& app, dynarock::tools::LoadOptions* opts) {
  CLI::App* load = app.add_subcommand(
      "load",
      "Create the tables of NoSQL Workbench models (1.0, 2.0, 3.0), "
      "BatchWriteItem request files or specs and write their items");
  load->add_option("files", opts->files, "Model or request files")
      ->required()
      ->check(CLI::ExistingFile);
  load->add_option("--endpoint", opts->endpoint,
                   "DynamoDB endpoint to load into (a running dynarock serve)")
      ->capture_default_str();
  CLI::Option* db_path = load->add_option(
      "--db-path", opts->db_path,
      "Load in process into this database directory instead (not while a "
      "server has it open)");
  CLI::Option* in_memory = load->add_flag(
      "--in-memory", opts->in_memory,
      "Load in process into a throwaway in-memory database (checks the files)");
  db_path->excludes(in_memory);
  load->add_flag("--replace", opts->replace,
                 "Delete and recreate tables that already exist");
  load->add_flag("--skip-invalid", opts->skip_invalid,
                 "Load the valid items and list the invalid ones (default: "
                 "load nothing if any item is invalid)");
  load->add_flag("--progress", opts->progress,
                 "Show the progress bar even when stderr is not a terminal");
  load->add_option("--access-key-id", opts->access_key_id,
                   "Access key id to sign as (default $AWS_ACCESS_KEY_ID, "
                   "else dynarock); serve keeps tables per key + region");
  load->add_option("--region", opts->region,
                   "Region to sign for (default $AWS_REGION, else us-east-1)");
  return load;
}

CLI::App* AddStats(CLI::App& app, dynarock::tools::StatsOptions* opts) {
  CLI::App* stats = app.add_subcommand(
      "stats",
      "Show a table's capacity: rates, partitions, consumed and throttled "
      "units, hot keys (from a running dynarock serve)");
  stats->add_option("table", opts->table, "Table name")->required();
  stats->add_option("--endpoint", opts->endpoint, "dynarock serve endpoint")
      ->capture_default_str();
  stats->add_flag("--json", opts->json,
                  "Print the DescribeCapacity response as JSON");
  stats->add_flag("--cost", opts->cost,
                  "Also print what the table's use would cost on DynamoDB, "
                  "on-demand and provisioned (us-east-1 list prices, docs/metrics.md)");
  stats->add_option("--period-hours", opts->period_hours,
                    "The period --cost bills (default: since the table was created)")
      ->check(CLI::Range(0.0, 1e6));
  stats->add_option("--hot-keys", opts->hot_keys,
                    "Hot keys to show per table and index")
      ->capture_default_str()
      ->check(CLI::Range(0, 100));
  stats->add_option("--access-key-id,--access-key", opts->access_key_id,
                    "Access key id to sign as (default $AWS_ACCESS_KEY_ID, "
                    "else dynarock); serve keeps tables per key + region");
  stats->add_option("--region", opts->region,
                    "Region to sign for (default $AWS_REGION, else us-east-1)");
  return stats;
}

CLI::App* AddClock(CLI::App& app, dynarock::tools::ClockOptions* opts) {
  CLI::App* clock = app.add_subcommand(
      "clock",
      "Show or move the clock of a running dynarock serve --clock simulated "
      "(advance SECONDS, set EPOCH_SECONDS)");
  clock->add_option("action", opts->action, "describe | advance | set")
      ->check(CLI::IsMember({"describe", "advance", "set"}))
      ->capture_default_str();
  clock->add_option("seconds", opts->seconds,
                    "advance: seconds to move forward; set: the new time in "
                    "seconds since the epoch");
  clock->add_option("--endpoint", opts->endpoint, "dynarock serve endpoint")
      ->capture_default_str();
  return clock;
}

CLI::App* AddSnapshot(CLI::App& app, dynarock::tools::SnapshotOptions* opts) {
  CLI::App* snapshot = app.add_subcommand(
      "snapshot",
      "Snapshot the whole database under a name, reset it to a snapshot, list "
      "or delete snapshots (a running dynarock serve, or --db-path)");
  snapshot->add_option("action", opts->action, "create | restore | list | delete")
      ->required()
      ->check(CLI::IsMember({"create", "restore", "list", "delete"}));
  snapshot->add_option("name", opts->name, "Snapshot name ([a-zA-Z0-9_.-], 1..255)");
  snapshot->add_option("--endpoint", opts->endpoint, "dynarock serve endpoint")
      ->capture_default_str();
  snapshot->add_option("--db-path", opts->db_path,
                       "Work on this data directory (no server may have it open)");
  return snapshot;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"dynarock: a DynamoDB-compatible storage engine"};
  app.set_version_flag("--version", "dynarock " DYNAROCK_VERSION);
  app.require_subcommand(1);

  dynarock::tools::ServeOptions serve_options;
  CLI::App* serve = AddServe(app, &serve_options);
  dynarock::tools::LoadOptions load_options;
  CLI::App* load = AddLoad(app, &load_options);
  dynarock::tools::StatsOptions stats_options;
  CLI::App* stats = AddStats(app, &stats_options);

  dynarock::tools::ClockOptions clock_options;
  CLI::App* clock = AddClock(app, &clock_options);

  dynarock::tools::SnapshotOptions snapshot_options;
  CLI::App* snapshot = AddSnapshot(app, &snapshot_options);

  dynarock::tools::SimulateOptions simulate_options;
  CLI::App* simulate = dynarock::tools::AddSimulate(app, &simulate_options);

  CLI11_PARSE(app, argc, argv);

  if (serve->parsed()) return dynarock::tools::RunServe(serve_options);
  if (load->parsed()) return dynarock::tools::RunLoad(load_options);
  if (stats->parsed()) return dynarock::tools::RunStats(stats_options);
  if (clock->parsed()) return dynarock::tools::RunClock(clock_options);
  if (snapshot->parsed()) return dynarock::tools::RunSnapshot(snapshot_options);
  if (simulate->parsed()) return dynarock::tools::RunSimulate(simulate_options);
  return 0;
}
