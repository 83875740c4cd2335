// engine/capacity/throughput_settings.h
//
// A table's or GSI's OnDemandThroughput maxima and warm throughput: the
// checks DynamoDB makes on them in CreateTable and UpdateTable (with its
// messages, recorded from live tables), and the settings then in force
// (ThroughputSettings, persisted with the table). The throughput controller
// enforces the maxima and starts an on-demand table or GSI at its warm
// throughput (engine/capacity/table_capacity.h).
//
// DynamoDB's rules, as observed:
//   - OnDemandThroughput only on PAY_PER_REQUEST; each member >= 1, or -1 in
//     UpdateTable to remove that maximum; at most the per-table quota.
//   - WarmThroughput on either mode; at create at least the on-demand initial
//     throughput (PAY_PER_REQUEST) or the provisioned units (PROVISIONED);
//     never decreased; a member left out keeps its value.
//   - The warm throughput follows the capacity: the highest units ever
//     provisioned, and at least the on-demand initial throughput once the
//     table was on demand.
//
// Functions of values; thread-compatible.

#ifndef DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_SETTINGS_H_
#define DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_SETTINGS_H_

#include <cstdint>
#include <optional>
#include <string_view>

#include "engine/capacity/capacity_options.h"
#include "engine/status.h"
#include "engine/types.h"

namespace dynarock {

// Warm throughput in units per second.
struct WarmUnits {
  int64_t read = 0;
  int64_t write = 0;
  bool operator==(const WarmUnits&) const = default;
};

// The warm throughput in force for `settings` of a table or GSI billed by
// `mode` with provisioned units `provisioned`: the recorded one, else the
// default (the on-demand initial throughput of `options`, or the
// provisioned units).
WarmUnits EffectiveWarm(const ThroughputSettings& settings, BillingMode mode,
                        const ProvisionedThroughputDescription& provisioned,
                        const CapacityOptions& options);

// CreateTable, or UpdateTable's GSI Create: checks the requested
// OnDemandThroughput and WarmThroughput of the table (`index_name` empty) or
// GSI `index_name` and returns the settings in force (warm recorded
// explicitly). `region` names the account quota in its messages.
// Errors: kValidation, kLimitExceeded (past the per-table quota).
Result<ThroughputSettings> NewThroughputSettings(
    std::string_view index_name, BillingMode mode,
    const std::optional<ProvisionedThroughput>& provisioned,
    const std::optional<OnDemandThroughput>& on_demand,
    const std::optional<WarmThroughput>& warm, const CapacityOptions& options,
    std::string_view region);

// UpdateTable (the table, or a GSI Update): checks the requested settings
// against `*settings` (billed by `mode`, with `provisioned` units) and
// applies them. Nothing changes on an error.
// Errors: kValidation, kLimitExceeded.
Status UpdateThroughputSettings(
    std::string_view index_name, BillingMode mode,
    const ProvisionedThroughputDescription& provisioned,
    const std::optional<OnDemandThroughput>& on_demand,
    const std::optional<WarmThroughput>& warm, const CapacityOptions& options,
    std::string_view region, ThroughputSettings* settings);

// After a capacity change (new provisioned units, a billing-mode switch):
// the warm throughput becomes at least `before` (what was in force) and the
// new floor (the provisioned units, or the on-demand initial throughput);
// a provisioned table or GSI keeps no OnDemandThroughput maxima.
void FollowCapacity(const WarmUnits& before, BillingMode mode,
                    const ProvisionedThroughputDescription& provisioned,
                    const CapacityOptions& options, ThroughputSettings* settings);

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CAPACITY_THROUGHPUT_SETTINGS_H_
