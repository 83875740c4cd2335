// engine/index/index_descriptions.h
//
// The one builder of a secondary index's description as DescribeTable
// shows it, for CreateTable's indexes and UpdateTable's created GSI: its
// definition, ARN, status and throughput settings (against the capacity
// defaults and quotas). A GSI being backfilled shows CREATING at describe
// time (SecondaryIndexes::Describe), not here.

#ifndef DYNAROCK_ENGINE_INDEX_INDEX_DESCRIPTIONS_H_
#define DYNAROCK_ENGINE_INDEX_INDEX_DESCRIPTIONS_H_

#include <optional>
#include <string>
#include <string_view>

#include "engine/capacity/capacity_options.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// The units of `t` (zero when unset), with no increase or decrease yet.
ProvisionedThroughputDescription ThroughputDescriptionOf(
    const std::optional<ProvisionedThroughput>& t);

// A new GSI of the table `table_arn`, billed by `billing`; `region` names
// the account quota in the messages of NewThroughputSettings.
// Errors: kValidation, kLimitExceeded (the throughput settings).
Result<GlobalSecondaryIndexDescription> NewGsiDescription(
    const std::string& table_arn, const GlobalSecondaryIndexDef& def,
    BillingMode billing, const CapacityOptions& capacity, std::string_view region);

// A new LSI of the table `table_arn`.
LocalSecondaryIndexDescription NewLsiDescription(const std::string& table_arn,
                                                 const LocalSecondaryIndexDef& def);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_INDEX_INDEX_DESCRIPTIONS_H_
