// tools/simulate/item_practices.h
//
// `dynarock simulate item-size`: seed 002's item best practices, each as a
// pair of real engine calls whose ConsumedCapacity shows what the practice
// saves: vertical partitioning (update a 3 KB item vs its 300 B hot part),
// compressing a large attribute (zlib into a Binary attribute), and a value
// above 400 KB split into chunk items written with BatchWriteItem and read
// back with BatchGetItem. Runs on its own in-memory engine.

#ifndef DYNAROCK_TOOLS_SIMULATE_ITEM_PRACTICES_H_
#define DYNAROCK_TOOLS_SIMULATE_ITEM_PRACTICES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "engine/status.h"
#include "tools/simulate/sim_support.h"

namespace dynarock::tools::simulate {

struct ItemPracticesOptions {
  int64_t catalog_item_bytes = 3 * 1024;  // ProductCatalog item
  int64_t hot_part_bytes = 300;           // price and availability
  int64_t message_bytes = 32 * 1024;      // a long Reply message (text)
  int64_t large_value_bytes = 1024 * 1024;  // above the 400 KB item limit
  int64_t chunk_bytes = 64 * 1024;
  uint64_t seed = 1;
};

// One engine call of a scenario and what it consumed.
struct PracticeStep {
  std::string practice;   // "vertical partitioning", ...
  std::string operation;  // "UpdateItem ProductCatalog (3 KB item)"
  int64_t item_bytes = 0;  // bytes the call's units are computed on
  double read_units = 0;
  double write_units = 0;
  std::string note;
};

struct ItemPracticesReport {
  ItemPracticesOptions options;
  std::vector<PracticeStep> steps;
  int64_t compressed_bytes = 0;
  int chunks = 0;
};

// Errors: engine errors, kInternal if zlib fails.
Result<ItemPracticesReport> RunItemPractices(const ItemPracticesOptions& options);

// What DynamoDB would bill for a step's call (api/metrics/cost_model.h,
// us-east-1 list prices, as `simulate hot-partition` and `stats --cost`):
// a million such calls on-demand (by request units), and one such call a
// second for a 730-hour month provisioned (its units rounded up, at least
// 1 RCU and 1 WCU). Storage not counted.
struct PracticeStepCost {
  double on_demand_per_million = 0;
  double provisioned_month_at_one_per_second = 0;
};
PracticeStepCost CostOfStep(const PracticeStep& step);

// One row per step, its bill in the last two columns.
TextTable ItemPracticesTable(const ItemPracticesReport& report);
std::string ItemPracticesJson(const ItemPracticesReport& report);

// zlib-compresses `data` (level 9). Errors: kInternal.
Result<std::string> Deflate(const std::string& data);
// Inflates what Deflate produced. Errors: kInternal.
Result<std::string> Inflate(const std::string& data, size_t original_size);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_ITEM_PRACTICES_H_
