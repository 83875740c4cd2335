// engine/index/vector_update_plan.h
//
// UpdateTable's VectorIndexUpdates as a pure step beside the GSI plan
// (gsi_update_plan.h): one Create (a new index, backfilled from the table's
// items, CREATING with Backfilling until done) or one Delete per request,
// with DynamoDB's rules (on-demand tables only; docs/vector-search.md).

#ifndef DYNAROCK_ENGINE_INDEX_VECTOR_UPDATE_PLAN_H_
#define DYNAROCK_ENGINE_INDEX_VECTOR_UPDATE_PLAN_H_

#include "engine/index/gsi_update_plan.h"
#include "engine/requests/table_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"

namespace dynarock {

// The checks that need no table: one action per update, at most one
// update. Errors: kValidation.
Status CheckVectorUpdateActions(const std::vector<VectorIndexUpdate>& updates);

// Applies `req`'s VectorIndexUpdates (and the on-demand rule of a billing
// switch) to `*next`, which holds the request's other changes; fills
// `*changes` (a GSI change in the same request is refused: one index
// change at a time). Errors: kValidation, kResourceNotFound, kLimitExceeded.
Status PlanVectorUpdates(const UpdateTableRequest& req, const GsiUpdateContext& context,
                         TableInfo* next, GsiChanges* changes);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_VECTOR_UPDATE_PLAN_H_
