// tools/simulate.cc

#include "tools/simulate.h"

#include <CLI/CLI.hpp>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>

#if defined(__GLIBC__)
#include <malloc.h>
#endif
#include <utility>
#include <vector>

#include "api/metrics/cost_model.h"
#include "tools/progress/progress_bar.h"
#include "tools/simulate/endpoint_cost.h"
#include "tools/simulate/endpoint_hot_partition.h"
#include "tools/simulate/endpoint_write_sharding.h"
#include "tools/simulate/sim_support.h"
#include "tools/simulate/write_sharding_report.h"

namespace dynarock::tools {
namespace {

using simulate::CapacityMode;

int RunWriteShardingAtEndpoint(SimulateOptions& opts, simulate::WriteShardingOptions o);
void AddEndpointFlags(CLI::App* app, SimulateOptions* opts);

// "1..20", "1,2,4,8" or a mix ("1..4,8,16").
bool ParseShards(const std::string& text, std::vector<int>* out) {
  out->clear();
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string::npos) comma = text.size();
    const std::string part = text.substr(pos, comma - pos);
    try {
      const size_t dots = part.find("..");
      if (dots == std::string::npos) {
        out->push_back(std::stoi(part));
      } else {
        const int lo = std::stoi(part.substr(0, dots));
        const int hi = std::stoi(part.substr(dots + 2));
        if (hi < lo || hi - lo > 10'000) return false;
        for (int n = lo; n <= hi; ++n) out->push_back(n);
      }
    } catch (...) {
      return false;
    }
    pos = comma + 1;
  }
  return !out->empty();
}

// "RCU,WCU" -> a provisioned mode; empty -> on-demand.
bool ParseCapacity(const std::string& text, CapacityMode* mode) {
  if (text.empty()) return true;
  const size_t comma = text.find(',');
  if (comma == std::string::npos) return false;
  try {
    mode->provisioned = true;
    mode->read_capacity_units = std::stoll(text.substr(0, comma));
    mode->write_capacity_units = std::stoll(text.substr(comma + 1));
  } catch (...) {
    return false;
  }
  return mode->read_capacity_units > 0 && mode->write_capacity_units > 0;
}

bool WriteOutputs(const SimulateOptions& opts, const std::string& csv,
                  const std::string& json, const std::string& svg) {
  struct Out {
    const std::string& path;
    const std::string& text;
  };
  for (const Out& out : {Out{opts.csv, csv}, Out{opts.json, json},
                         Out{opts.svg, svg}}) {
    if (out.path.empty()) continue;
    if (out.text.empty()) {
      std::fprintf(stderr, "dynarock simulate: this experiment writes no %s\n",
                   out.path.c_str());
      continue;
    }
    Status s = simulate::WriteTextFile(out.path, out.text);
    if (!s.ok()) {
      std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
      return false;
    }
  }
  return true;
}

void AddCommonOutputs(CLI::App* app, SimulateOptions* opts, bool svg) {
  app->add_option("--csv", opts->csv, "Write the table as CSV to this file");
  app->add_option("--json", opts->json, "Write the report as JSON to this file");
  if (svg) app->add_option("--svg", opts->svg, "Write the SVG plot to this file");
  app->add_flag("--progress", opts->progress,
                "Show progress on stderr even when it is not a terminal");
  app->add_option("--provisioned", opts->provisioned,
                  "Provisioned mode with RCU,WCU for the table and each GSI "
                  "(default: on-demand)");
}

int RunWriteSharding(SimulateOptions& opts) {
  simulate::WriteShardingOptions o = opts.write_sharding;
  for (auto [text, list] : {std::pair{&opts.shards, &o.shards},
                             std::pair{&opts.hash_shards, &o.hash_shards}}) {
    if (!text->empty() && !ParseShards(*text, list)) {
      std::fprintf(stderr,
                   "dynarock simulate: --shards and --hash-shards want 1..20 "
                   "or 1,2,4\n");
      return 2;
    }
  }
  if (!ParseCapacity(opts.provisioned, &o.capacity)) {
    std::fprintf(stderr, "dynarock simulate: --provisioned wants RCU,WCU\n");
    return 2;
  }
  o.mode = opts.mode == "single-read" ? simulate::ReadMode::kSingleRead
                                      : simulate::ReadMode::kSustained;
  o.unsharded = o.random = o.hash = false;
  for (size_t pos = 0; pos <= opts.variants.size();) {
    size_t comma = opts.variants.find(',', pos);
    if (comma == std::string::npos) comma = opts.variants.size();
    const std::string v = opts.variants.substr(pos, comma - pos);
    if (v == "unsharded") o.unsharded = true;
    else if (v == "random") o.random = true;
    else if (v == "hash") o.hash = true;
    else {
      std::fprintf(stderr, "dynarock simulate: unknown variant '%s'\n", v.c_str());
      return 2;
    }
    pos = comma + 1;
  }
  if (!opts.endpoint.url.empty()) return RunWriteShardingAtEndpoint(opts, o);
  if (opts.dry_run) {
    std::fprintf(stderr, "dynarock simulate: --dry-run goes with --endpoint\n");
    return 2;
  }
  if (opts.progress || StderrIsTerminal()) {
    o.on_progress = [](std::string_view phase, int64_t done, int64_t total) {
      DrawProgress(static_cast<size_t>(done), static_cast<size_t>(total),
                   phase == "load" ? "writes" : "reads",
                   phase == "load" ? "load " : "read ");
    };
  }
  Result<simulate::WriteShardingReport> report = simulate::RunWriteSharding(o);
  if (!report.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n",
                 report.status().message().c_str());
    return 1;
  }
  std::fputs(simulate::WriteShardingText(report.value()).c_str(), stdout);
  if (!opts.series_csv.empty()) {
    Status s = simulate::WriteTextFile(
        opts.series_csv, simulate::WriteShardingSeries(report.value()).Csv());
    if (!s.ok()) {
      std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
      return 1;
    }
  }
  return WriteOutputs(opts, simulate::WriteShardingTable(report.value()).Csv(),
                      simulate::WriteShardingJson(report.value()),
                      simulate::WriteShardingSvg(report.value()))
             ? 0
             : 1;
}

// Set by SIGINT / SIGTERM during an endpoint run: the run stops, deletes
// its tables and reports. The handler then restores the default action, so
// that a second Ctrl-C ends the process at once.
std::atomic<bool> g_interrupted{false};

extern "C" void OnInterrupt(int signal) {
  g_interrupted.store(true);
  std::signal(signal, SIG_DFL);
}

void PrintCleanup(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    std::fprintf(stderr, "dynarock simulate: %s\n", line.c_str());
  }
}

// What an experiment brings to a run against an endpoint; RunAtEndpoint
// does the rest.
struct EndpointExperiment {
  // The plan for the cost guard, in the Region and under the table prefix.
  std::function<simulate::RunPlan(const std::string& region, const std::string& prefix)> plan;
  // The in-process model of the same inputs: it checks the options before
  // the endpoint is touched.
  std::function<Status()> model;
  // The endpoint run on the session (`bar`: draw progress).
  std::function<Status(simulate::EndpointSession& session, bool bar)> run;
  // Prints the comparison and writes the files asked for; false when a
  // file could not be written.
  std::function<bool(const simulate::EndpointRunInfo& info)> report;
};

// `EXPERIMENT --endpoint URL`: the plan and its cost first (--dry-run stops
// there; --max-cost-usd refuses above the limit), then the model on the
// same inputs, then the endpoint run, then the tables' deletion (also after
// Ctrl-C), then the report.
int RunAtEndpoint(SimulateOptions& opts, const EndpointExperiment& x) {
  simulate::EndpointOptions e = opts.endpoint;
  e.interrupted = &g_interrupted;
  Result<simulate::ResolvedEndpoint> resolved = simulate::ResolveEndpoint(e);
  std::string region = e.region;
  if (resolved.ok()) region = resolved.value().region;
  else if (!opts.dry_run) {
    std::fprintf(stderr, "dynarock simulate: %s\n", resolved.status().message().c_str());
    return 2;
  }
  if (region.empty()) {  // a dry run without credentials: the host's Region
    Result<http::Endpoint> parsed = http::ParseEndpoint(e.url);
    if (parsed.ok()) region = simulate::RegionOfAwsHost(parsed.value().host);
  }
  if (region.empty()) region = "us-east-1";
  const std::string prefix =
      e.table_prefix.empty() ? simulate::NewTablePrefix() : e.table_prefix;
  e.table_prefix = prefix;
  const simulate::RunPlan plan = x.plan(region, prefix);
  const simulate::PlanCost cost = simulate::PricePlan(plan);
  if (opts.dry_run) {
    std::fputs(simulate::PlanText(plan, cost, opts.max_cost_usd).c_str(), stdout);
    return 0;
  }
  if (Status s = simulate::CheckCostLimit(cost, opts.max_cost_usd); !s.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
    return 1;
  }
  if (Status s = x.model(); !s.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
    return 1;
  }
  simulate::EndpointSession session(std::move(resolved).value(), e);
  if (Status s = session.Check(); !s.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
    return 1;
  }
  g_interrupted.store(false);
  std::signal(SIGINT, OnInterrupt);
  std::signal(SIGTERM, OnInterrupt);
  std::fprintf(stderr, "dynarock simulate: tables %s* at %s (about %s)\n", prefix.c_str(),
               e.url.c_str(), api::metrics::FormatDollars(cost.dollars).c_str());
  const Status run = x.run(session, opts.progress || StderrIsTerminal());
  simulate::EndpointRunInfo info;
  info.cleanup = session.Cleanup();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  PrintCleanup(info.cleanup);
  if (!run.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", run.message().c_str());
    return g_interrupted.load() ? 130 : 1;
  }
  info.url = e.url;
  info.region = session.endpoint().region;
  info.credentials_source = session.endpoint().credentials_source;
  info.table_prefix = prefix;
  info.clients = e.clients;
  info.errors = session.errors();
  info.interrupted = g_interrupted.load();
  const bool written = x.report(info);
  if (info.interrupted) return 130;
  return written ? 0 : 1;
}

// `hot-partition --endpoint URL`.
int RunHotAtEndpoint(SimulateOptions& opts, const simulate::HotPartitionOptions& o) {
  simulate::HotEndpointReport report;
  report.options = o;
  EndpointExperiment x;
  x.plan = [&](const std::string& region, const std::string& prefix) {
    return simulate::PlanHotPartition(o, region, prefix);
  };
  x.model = [&]() -> Status {
    Result<simulate::HotPartitionReport> model = simulate::RunHotPartition(o);
    if (!model.ok()) return model.status();
    report.model = std::move(model).value();
    return Status::OK();
  };
  x.run = [&](simulate::EndpointSession& session, bool bar) -> Status {
    Result<std::vector<simulate::EndpointScenario>> run = simulate::RunHotPartitionAtEndpoint(
        session, o, opts.endpoint.clients, [bar](int64_t done, int64_t total) {
          if (bar) {
            DrawProgress(static_cast<size_t>(done), static_cast<size_t>(total), "writes",
                         "endpoint ");
          }
        });
    if (!run.ok()) return run.status();
    report.endpoint = std::move(run).value();
    return Status::OK();
  };
  x.report = [&](const simulate::EndpointRunInfo& info) {
    report.info = info;
    std::fputs(simulate::HotComparisonText(report).c_str(), stdout);
    return WriteOutputs(opts, simulate::HotComparisonTable(report).Csv(),
                        simulate::HotComparisonJson(report),
                        simulate::HotPartitionSvg(report.model));
  };
  return RunAtEndpoint(opts, x);
}

// `write-sharding --endpoint URL`: the load, then the sustained reads.
int RunWriteShardingAtEndpoint(SimulateOptions& opts, simulate::WriteShardingOptions o) {
  if (o.mode != simulate::ReadMode::kSustained || o.with_order_items) {
    std::fprintf(stderr,
                 "dynarock simulate: write-sharding --endpoint runs the sustained "
                 "read of the Orders (not --mode single-read, not --with-order-items)\n");
    return 2;
  }
  if (Status s = simulate::PrepareWriteShardingOptions(&o); !s.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", s.message().c_str());
    return 2;
  }
  simulate::WriteShardingEndpointReport report;
  EndpointExperiment x;
  x.plan = [&](const std::string& region, const std::string& prefix) {
    return simulate::PlanWriteSharding(o, region, prefix);
  };
  x.model = [&]() -> Status {
    simulate::WriteShardingOptions model_options = o;
    model_options.on_progress = nullptr;
    // The endpoint's GSIs are created with the table (a GSI added to a
    // loaded DynamoDB table takes minutes): the model's too.
    model_options.backfill_indexes = false;
    Result<simulate::WriteShardingReport> model = simulate::RunWriteSharding(model_options);
    if (!model.ok()) return model.status();
    report.model = std::move(model).value();
    return Status::OK();
  };
  x.run = [&](simulate::EndpointSession& session, bool bar) -> Status {
    const auto progress = [bar](std::string_view phase, int64_t done, int64_t total) {
      if (!bar) return;
      DrawProgress(static_cast<size_t>(done), static_cast<size_t>(total),
                   phase == "load" ? "batches" : "ms", phase == "load" ? "load " : "read ");
    };
    Result<simulate::EndpointLoad> load = simulate::LoadWriteShardingAtEndpoint(
        session, o, opts.endpoint.clients, progress);
    if (!load.ok()) return load.status();
    report.load = load.value();
    Result<std::vector<simulate::EndpointRead>> reads = simulate::ReadWriteShardingAtEndpoint(
        session, o, opts.endpoint.clients, progress);
    if (!reads.ok()) return reads.status();
    report.endpoint = std::move(reads).value();
    return Status::OK();
  };
  x.report = [&](const simulate::EndpointRunInfo& info) {
    report.info = info;
    std::fputs(simulate::WriteShardingComparisonText(report).c_str(), stdout);
    return WriteOutputs(opts, simulate::WriteShardingComparisonTable(report).Csv(),
                        simulate::WriteShardingComparisonJson(report),
                        simulate::WriteShardingSvg(report.model));
  };
  return RunAtEndpoint(opts, x);
}

int RunHot(SimulateOptions& opts) {
  simulate::HotPartitionOptions o = opts.hot_partition;
  if (!ParseCapacity(opts.provisioned, &o.capacity)) {
    std::fprintf(stderr, "dynarock simulate: --provisioned wants RCU,WCU\n");
    return 2;
  }
  if (!opts.endpoint.url.empty()) return RunHotAtEndpoint(opts, o);
  if (opts.dry_run) {
    std::fprintf(stderr, "dynarock simulate: --dry-run goes with --endpoint\n");
    return 2;
  }
  Result<simulate::HotPartitionReport> report = simulate::RunHotPartition(o);
  if (!report.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n",
                 report.status().message().c_str());
    return 1;
  }
  std::fputs(simulate::HotPartitionText(report.value()).c_str(), stdout);
  return WriteOutputs(opts, simulate::HotPartitionTable(report.value()).Csv(),
                      simulate::HotPartitionJson(report.value()),
                      simulate::HotPartitionSvg(report.value()))
             ? 0
             : 1;
}

int RunScale(SimulateOptions& opts) {
  simulate::ScaleOptions o = opts.scale;
  if (!ParseCapacity(opts.provisioned, &o.capacity)) {
    std::fprintf(stderr, "dynarock simulate: --provisioned wants RCU,WCU\n");
    return 2;
  }
  if (opts.progress || StderrIsTerminal()) {
    o.on_progress = [](int64_t done, int64_t total) {
      DrawProgress(static_cast<size_t>(done), static_cast<size_t>(total), "simulated s",
                   "run ");
    };
  }
  Result<simulate::ScaleReport> report = simulate::RunScale(o);
  if (!report.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n", report.status().message().c_str());
    return 1;
  }
  std::fputs(simulate::ScaleText(report.value()).c_str(), stdout);
  return WriteOutputs(opts, simulate::ScaleSeries(report.value()).Csv(),
                      simulate::ScaleJson(report.value()), "")
             ? 0
             : 1;
}

int RunItemSize(SimulateOptions& opts) {
  Result<simulate::ItemPracticesReport> report =
      simulate::RunItemPractices(opts.item_size);
  if (!report.ok()) {
    std::fprintf(stderr, "dynarock simulate: %s\n",
                 report.status().message().c_str());
    return 1;
  }
  const simulate::TextTable table = simulate::ItemPracticesTable(report.value());
  std::fputs("item-size best practices (seed 002), units from the engine's "
             "ConsumedCapacity\n\n",
             stdout);
  std::fputs(table.Render().c_str(), stdout);
  return WriteOutputs(opts, table.Csv(),
                      simulate::ItemPracticesJson(report.value()), "")
             ? 0
             : 1;
}

// `simulate write-sharding`: GSI2 write sharding (seeds 000/003).
void AddWriteSharding(CLI::App* sim, SimulateOptions* opts) {
  simulate::WriteShardingOptions& w = opts->write_sharding;
  CLI::App* ws = sim->add_subcommand(
      "write-sharding",
      "GSI2 write sharding (seeds 000/003): read every OPEN order at the "
      "required rate (or once, timed), unsharded vs random vs hashed shard "
      "keys, for N in a sweep");
  ws->add_option("--orders", w.orders, "Orders to load")->capture_default_str();
  ws->add_option("--open-fraction", w.open_fraction, "Fraction of OPEN orders")
      ->capture_default_str();
  ws->add_option("--order-bytes", w.order_bytes, "Size of an Order item")
      ->capture_default_str();
  ws->add_option("--order-item-bytes", w.order_item_bytes,
                 "Size of an OrderItem item")
      ->capture_default_str();
  ws->add_option("--items-per-order", w.items_per_order,
                 "OrderItems per order (counted in the entity size)")
      ->capture_default_str();
  ws->add_flag("--with-order-items", w.with_order_items,
               "Load the OrderItems too (default: only counted in the "
               "entity size; the GSIs hold Orders only either way)");
  ws->add_flag("--with-closed-orders", w.with_closed_orders,
               "Load the closed orders too (default: counted, not loaded; "
               "no read touches them)");
  ws->add_flag("--backfill,!--no-backfill", w.backfill_indexes,
               "Create the GSIs after loading (UpdateTable, one at a time, "
               "backfilled; the default, about twice as fast) or with the "
               "table (--no-backfill: every write maintains them)");
  ws->add_option("--threads", w.threads,
                 "Tables loaded and read at once (each its own engine and "
                 "clock; results do not depend on it)")
      ->capture_default_str()
      ->check(CLI::Range(1, 64));
  ws->add_option("--days", w.days, "Days the order dates spread over")
      ->capture_default_str();
  ws->add_option("--from-day", w.from_day,
                 "First day of the read's date range (default: the first)");
  ws->add_option("--to-day", w.to_day,
                 "Last day of the read's date range (default: the last)");
  ws->add_option("--shards", opts->shards,
                 "N to sweep, 1..20 or 1,2,4,8: the random suffix's, and the "
                 "hash suffix's unless --hash-shards (default: sustained "
                 "2,4,8,13,16, hash 13; single-read "
                 "2,3,4,6,8,10,13,15,16,17,20, hash 4,13,16; 1..20: the "
                 "full sweep)");
  ws->add_option("--hash-shards", opts->hash_shards,
                 "N to sweep for the hash suffix (default: as above with the "
                 "default --shards, else the same as --shards)");
  ws->add_option("--variants", opts->variants,
                 "GSI2 variants to run: unsharded,random,hash (any of them)")
      ->capture_default_str();
  ws->add_option("--seed", w.seed, "Random seed")->capture_default_str();
  ws->add_option("--load-rate", w.load_orders_per_second,
                 "Orders loaded per simulated second")
      ->capture_default_str();
  ws->add_option("--mode", opts->mode,
                 "sustained: read every OPEN order at --rate for --duration "
                 "simulated seconds; single-read: read them once and time it")
      ->capture_default_str()
      ->check(CLI::IsMember({"sustained", "single-read"}));
  ws->add_option("--rate", w.required_items_per_second,
                 "Items per second the clients need (the seed's MaxRequiredIO)")
      ->capture_default_str();
  ws->add_option("--duration", w.duration_seconds,
                 "Sustained: simulated seconds of reading per variant and N")
      ->capture_default_str();
  ws->add_option("--series-csv", opts->series_csv,
                 "Sustained: write one row per variant, N and simulated "
                 "second as CSV to this file");
  ws->add_option("--plateau", w.plateau_fraction,
                 "Simulated N: smallest N within this fraction of the best time")
      ->capture_default_str();
  ws->add_option("--service-base-us", w.service.base_micros,
                 "Simulated time of a request, fixed part (µs)")
      ->capture_default_str();
  ws->add_option("--service-us-per-kb", w.service.micros_per_kb,
                 "Simulated time of a request per KB read (µs)")
      ->capture_default_str();
  ws->add_option("--backoff-base-us", w.backoff.base_micros,
                 "Retry backoff base (µs; botocore DynamoDB default 50 ms)")
      ->capture_default_str();
  AddEndpointFlags(ws, opts);
  AddCommonOutputs(ws, opts, true);
  opts->write_sharding_app = ws;
}

// --endpoint and its companions (docs/simulate.md, "Against an endpoint").
void AddEndpointFlags(CLI::App* app, SimulateOptions* opts) {
  simulate::EndpointOptions& e = opts->endpoint;
  app->add_option("--endpoint", e.url,
                  "Also run the schedule in real time against this DynamoDB endpoint "
                  "(http[s]://host[:port]; https://dynamodb.REGION.amazonaws.com is "
                  "Amazon DynamoDB, billed) and report it beside the model");
  app->add_option("--region", e.region,
                  "Region to sign for (default: the endpoint's host, AWS_REGION, "
                  "AWS_DEFAULT_REGION, the profile's, us-east-1)");
  app->add_option("--profile", e.profile,
                  "Profile of ~/.aws/credentials and ~/.aws/config (default: "
                  "AWS_PROFILE or default); AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY "
                  "come first");
  app->add_option("--clients", e.clients, "Requests in flight at most (connections)")
      ->capture_default_str()
      ->check(CLI::Range(1, 256));
  app->add_option("--table-prefix", e.table_prefix,
                  "Prefix of the tables the run creates and deletes (default: "
                  "dynarock-sim-<UTC time>-<4 hex>-)");
  app->add_option("--max-cost-usd", opts->max_cost_usd,
                  "Refuse to start when the plan would cost more on DynamoDB "
                  "(on-demand list prices of the dated price table)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  app->add_flag("--dry-run", opts->dry_run,
                "Print the endpoint run's plan and its cost, and send nothing");
}

// `simulate hot-partition`: one partition key vs K suffixed keys.
void AddHotPartition(CLI::App* sim, SimulateOptions* opts) {
  simulate::HotPartitionOptions& h = opts->hot_partition;
  CLI::App* hp = sim->add_subcommand(
      "hot-partition",
      "Writes on one partition key vs the same writes over K suffixed keys: "
      "throttles, per-partition heat, hottest keys");
  hp->add_option("--rate", h.rate, "Writes per simulated second")
      ->capture_default_str();
  hp->add_option("--item-bytes", h.item_bytes, "Size of each written item")
      ->capture_default_str();
  hp->add_option("--duration", h.duration_seconds, "Simulated seconds")
      ->capture_default_str();
  hp->add_option("--suffixes", h.suffixes, "K keys of the spread scenario")
      ->capture_default_str();
  hp->add_option("--max-retries", h.max_retries, "Retries per write")
      ->capture_default_str();
  hp->add_option("--seed", h.seed, "Random seed")->capture_default_str();
  AddEndpointFlags(hp, opts);
  AddCommonOutputs(hp, opts, true);
  opts->hot_partition_app = hp;
}

// `simulate scale`: a table of 1,000 partitions at 100,000 requests/s.
void AddScale(CLI::App* sim, SimulateOptions* opts) {
  simulate::ScaleOptions& s = opts->scale;
  CLI::App* sc = sim->add_subcommand(
      "scale",
      "DynamoDB scale: a table of --partitions partitions under --rate "
      "GetItem/PutItem/Query per simulated second, with hot keys; reports "
      "throttles per partition and simulated seconds per wall second");
  sc->add_option("--partitions", s.partitions,
                 "Partitions of the table (its provisioned RCU/WCU are set to give them)")
      ->capture_default_str();
  sc->add_option("--rate", s.rate, "Requests per simulated second")->capture_default_str();
  sc->add_option("--duration", s.duration_seconds, "Simulated seconds of requests")
      ->capture_default_str();
  sc->add_option("--keys", s.keys, "Partition keys loaded")->capture_default_str();
  sc->add_option("--items-per-key", s.items_per_key, "Items per partition key")
      ->capture_default_str();
  sc->add_option("--item-bytes", s.item_bytes, "Size of each item")->capture_default_str();
  sc->add_option("--get-percent", s.get_percent, "GetItem share of the requests")
      ->capture_default_str();
  sc->add_option("--put-percent", s.put_percent, "PutItem share (the rest: Query)")
      ->capture_default_str();
  sc->add_option("--hot-keys", s.hot_keys, "Keys that get --hot-share of the requests")
      ->capture_default_str();
  sc->add_option("--hot-share", s.hot_share, "Share of the requests on the hot keys")
      ->capture_default_str();
  sc->add_option("--max-retries", s.max_retries, "Retries per request")->capture_default_str();
  sc->add_option("--seed", s.seed, "Random seed")->capture_default_str();
  sc->add_option("--memtable-bytes", s.memtable_bytes,
                 "The in-memory engine's memtable size (changes no result, only the speed)")
      ->capture_default_str();
  sc->add_option("--service-base-us", s.service.base_micros,
                 "Simulated time of a request before its retry's backoff (µs)")
      ->capture_default_str();
  sc->add_option("--backoff-base-us", s.backoff.base_micros,
                 "Retry backoff base (µs; botocore DynamoDB default 50 ms)")
      ->capture_default_str();
  sc->add_option("--csv", opts->csv, "Write the per-second series as CSV to this file");
  sc->add_option("--json", opts->json, "Write the report as JSON to this file");
  sc->add_flag("--progress", opts->progress,
               "Show progress on stderr even when it is not a terminal");
  sc->add_option("--provisioned", opts->provisioned,
                 "Provisioned RCU,WCU instead of those --partitions implies");
  opts->scale_app = sc;
}

// `simulate item-size`: the item best practices (seed 002).
void AddItemSize(CLI::App* sim, SimulateOptions* opts) {
  simulate::ItemPracticesOptions& i = opts->item_size;
  CLI::App* is = sim->add_subcommand(
      "item-size",
      "Item best practices (seed 002): vertical partitioning, compression, "
      "chunking, with the capacity each costs");
  is->add_option("--catalog-item-bytes", i.catalog_item_bytes)
      ->capture_default_str();
  is->add_option("--hot-part-bytes", i.hot_part_bytes)->capture_default_str();
  is->add_option("--message-bytes", i.message_bytes)->capture_default_str();
  is->add_option("--large-value-bytes", i.large_value_bytes)
      ->capture_default_str();
  is->add_option("--chunk-bytes", i.chunk_bytes)->capture_default_str();
  is->add_option("--csv", opts->csv, "Write the table as CSV to this file");
  is->add_option("--json", opts->json, "Write the report as JSON to this file");
  opts->item_size_app = is;
}

}  // namespace

CLI::App* AddSimulate(CLI::App& app, SimulateOptions* opts) {
  CLI::App* sim = app.add_subcommand(
      "simulate",
      "Run the seed documents' capacity experiments on an in-memory engine "
      "with a simulated clock (docs/simulate.md)");
  sim->require_subcommand(1);

  AddWriteSharding(sim, opts);
  AddHotPartition(sim, opts);
  AddItemSize(sim, opts);
  AddScale(sim, opts);
  return sim;
}

int RunSimulate(SimulateOptions& opts) {
#if defined(__GLIBC__)
  // The in-memory engines allocate and free many blocks of 1 MB and more
  // (memtable arenas, the in-memory Env's growing table files). glibc raises
  // its mmap threshold to the largest block freed, after which such blocks
  // come from the heap and fragment it: the default write-sharding sweep
  // peaked at 660 MB resident with 300 MB of data. A fixed threshold keeps
  // them mmapped and returned when freed (480 MB).
  mallopt(M_MMAP_THRESHOLD, 1 << 20);
#endif
  if (opts.write_sharding_app && opts.write_sharding_app->parsed()) {
    return RunWriteSharding(opts);
  }
  if (opts.hot_partition_app && opts.hot_partition_app->parsed()) {
    return RunHot(opts);
  }
  if (opts.item_size_app && opts.item_size_app->parsed()) {
    return RunItemSize(opts);
  }
  if (opts.scale_app && opts.scale_app->parsed()) {
    return RunScale(opts);
  }
  return 2;
}

}  // namespace dynarock::tools
