// engine/ttl/ttl_settings.h
//
// TtlSettings answers UpdateTimeToLive and DescribeTimeToLive: a table's
// Time to Live setting (enabled, attribute name), validated with DynamoDB's
// rules and messages and persisted in the table's catalog record
// (Catalog::UpdateSettings), so it survives restarts and goes with the
// table. The sweeper (ttl_sweeper.h) reads it from each TableInfo.
//
// Thread-safe: changes of one table are serialized by the catalog.

#ifndef DYNAROCK_ENGINE_TTL_TTL_SETTINGS_H_
#define DYNAROCK_ENGINE_TTL_TTL_SETTINGS_H_

#include <cstdint>

#include "engine/requests/ttl_requests.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/control/table_lifecycle.h"

namespace dynarock {

class Clock;

class TtlSettings {
 public:
  // None of the pointers is owned; all must outlive this. A change within
  // `change_cooldown_micros` of the previous one is refused (0: never). For
  // `status_delay_micros` after a change DescribeTimeToLive shows ENABLING
  // or DISABLING (0: the change settles at once).
  TtlSettings(Clock* clock, Catalog* catalog, TableLifecycle* tables,
              int64_t change_cooldown_micros, int64_t status_delay_micros = 0)
      : clock_(clock),
        catalog_(catalog),
        tables_(tables),
        change_cooldown_micros_(change_cooldown_micros),
        status_delay_micros_(status_delay_micros) {}

  // Enables or disables TTL; returns the specification, as DynamoDB echoes
  // it. Errors: kResourceNotFound (DescribeTable's message), kValidation:
  //   enabling when enabled on the same attribute: "TimeToLive is already enabled"
  //   disabling when disabled: "TimeToLive is already disabled"
  //   enabling or disabling with another attribute than the enabled one:
  //     "TimeToLive is active on a different AttributeName: current AttributeName is <a>"
  //   within the cooldown: "Time to live has been modified multiple times
  //     within a fixed interval" (after the checks above, as DynamoDB).
  // The request's shape (AttributeName 1..255 characters, both members
  // present) is the api's to check.
  Result<TimeToLiveSpecification> Update(const UpdateTimeToLiveRequest& req);
  // ENABLING / DISABLING with the attribute within the status delay of the
  // last change (on the clock), then ENABLED with the attribute or DISABLED
  // without one. Deletion follows the setting at once: the sweeper deletes
  // while ENABLING and stops while DISABLING. Errors: kResourceNotFound.
  Result<TimeToLiveDescription> Describe(const DescribeTimeToLiveRequest& req);

 private:
  Clock* const clock_;
  Catalog* const catalog_;
  TableLifecycle* const tables_;
  const int64_t change_cooldown_micros_;
  const int64_t status_delay_micros_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_TTL_TTL_SETTINGS_H_
