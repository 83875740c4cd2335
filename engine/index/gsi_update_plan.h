// engine/index/gsi_update_plan.h
//
// UpdateTable's GlobalSecondaryIndexUpdates as a pure step: the request and
// the table as it is in, the next version of the table and what changes in
// its index set out. It checks the updates (and what a billing-mode switch
// requires of the GSIs) with DynamoDB's messages, whole, before it changes
// anything; it reads no storage and holds no lock. SecondaryIndexes runs it
// with what only it knows (is a GSI backfilling, the next catalog id) and
// publishes the result.

#ifndef DYNAROCK_ENGINE_INDEX_GSI_UPDATE_PLAN_H_
#define DYNAROCK_ENGINE_INDEX_GSI_UPDATE_PLAN_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "engine/capacity/capacity_options.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"

namespace dynarock {

// What an UpdateTable does to the table's GSIs (at most one Create or one
// Delete; Updates only change the definition).
struct GsiChanges {
  std::optional<std::string> created;  // index name
  std::optional<IndexInfo> deleted;
  bool changes_index_set() const { return created || deleted; }
};

// Everything the plan reads besides the request.
struct GsiUpdateContext {
  const TableInfo& current;
  int64_t now_micros = 0;
  // Defaults and quotas of OnDemandThroughput and WarmThroughput.
  const CapacityOptions& capacity;
  // Whether one of `current`'s GSIs is still being backfilled: no other
  // index may be created or deleted meanwhile.
  bool backfilling = false;
  // The catalog id of a created index (called once per Create).
  std::function<Result<uint32_t>()> reserve_id;
};

// Applies `req`'s GlobalSecondaryIndexUpdates to `*next`, which already
// holds the table-level changes of the request (billing mode, throughput):
// creates, deletes, each GSI's provisioned throughput, OnDemandThroughput
// and WarmThroughput. Fills `*changes`. Leaves `*next` half changed on an
// error; the caller then discards it.
// Errors: kValidation, kResourceNotFound, kLimitExceeded.
Status PlanGsiUpdates(const UpdateTableRequest& req, const GsiUpdateContext& context,
                      TableInfo* next, GsiChanges* changes);

// The checks of GlobalSecondaryIndexUpdates that need no table, which
// DynamoDB makes before it looks the table up: one action per update, one
// update per index. Errors: kValidation.
Status CheckGsiUpdateActions(const std::vector<GlobalSecondaryIndexUpdate>& updates);

// The error of a request naming an index `table` does not have.
Status GsiNotFound(const std::string& index, const std::string& table);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_GSI_UPDATE_PLAN_H_
