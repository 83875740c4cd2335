// tools/simulate.h
//
// `dynarock simulate EXPERIMENT`: the seed documents' capacity predictions as
// runnable experiments on an in-memory engine and a simulated clock
// (tools/simulate/): write-sharding (GSI2 of seeds 000/003), hot-partition
// and item-size (seed 002), scale (a table of 1,000 partitions at 100,000
// requests per simulated second); hot-partition also against a DynamoDB endpoint
// (--endpoint), beside the model. See docs/simulate.md.

#ifndef DYNAROCK_TOOLS_SIMULATE_H_
#define DYNAROCK_TOOLS_SIMULATE_H_

#include <string>

#include "tools/simulate/endpoint_session.h"
#include "tools/simulate/hot_partition.h"
#include "tools/simulate/item_practices.h"
#include "tools/simulate/scale.h"
#include "tools/simulate/write_sharding.h"

namespace CLI {
class App;
}

namespace dynarock::tools {

struct SimulateOptions {
  simulate::WriteShardingOptions write_sharding;
  simulate::HotPartitionOptions hot_partition;
  simulate::ItemPracticesOptions item_size;
  simulate::ScaleOptions scale;
  // Text forms parsed before the run: "1..20" or "1,2,4,8" (empty: the
  // default sweep); "RCU,WCU".
  std::string shards;
  std::string hash_shards;
  std::string provisioned;
  std::string variants = "unsharded,random,hash";
  std::string mode = "sustained";  // write-sharding: or "single-read"
  std::string series_csv;          // write-sharding, sustained: per second
  // Report files (empty: not written) and the progress bar.
  std::string csv;
  std::string json;
  std::string svg;
  bool progress = false;
  // hot-partition --endpoint: run the schedule against a DynamoDB endpoint
  // beside the model (tools/simulate/endpoint_*.h).
  simulate::EndpointOptions endpoint;
  double max_cost_usd = 1.0;
  bool dry_run = false;

  CLI::App* write_sharding_app = nullptr;
  CLI::App* hot_partition_app = nullptr;
  CLI::App* item_size_app = nullptr;
  CLI::App* scale_app = nullptr;
};

// Declares `simulate` and its experiments' flags on `app`, bound to `opts`.
CLI::App* AddSimulate(CLI::App& app, SimulateOptions* opts);

// Runs the experiment that was parsed; prints the report to stdout and
// writes the files asked for. Returns the exit code (0 success, 1 error,
// 2 bad options).
int RunSimulate(SimulateOptions& opts);

}  // namespace dynarock::tools

#endif  // DYNAROCK_TOOLS_SIMULATE_H_
