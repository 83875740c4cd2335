// engine/control/contributor_insights.h
//
// ContributorInsights answers UpdateContributorInsights,
// DescribeContributorInsights and ListContributorInsights for tables and
// their GSIs. The setting (on/off, when it last changed) lives in the
// table's catalog record (Catalog::UpdateSettings), so it survives restarts
// and goes with the table. The data it stands for, the most accessed and most
// throttled keys, is what the throughput model keeps anyway
// (Engine::DescribeCapacity, `dynarock stats`): it is kept whether or not
// contributor insights are on.
//
// Thread-safe: changes of one table are serialized by the catalog.

#ifndef DYNAROCK_ENGINE_CONTROL_CONTRIBUTOR_INSIGHTS_H_
#define DYNAROCK_ENGINE_CONTROL_CONTRIBUTOR_INSIGHTS_H_

#include "engine/clock.h"
#include "engine/requests/contributor_insights_requests.h"
#include "engine/requests/scope.h"
#include "engine/status.h"
#include "engine/storage/catalog.h"
#include "engine/control/table_lifecycle.h"

namespace dynarock {

class ContributorInsights {
 public:
  // No pointer is owned; all must outlive this.
  ContributorInsights(const Clock* clock, Catalog* catalog, TableLifecycle* tables)
      : clock_(clock), catalog_(catalog), tables_(tables) {}

  // Switches the table's (or GSI's) setting (an ENABLE also sets the mode,
  // by default ACCESSED_AND_THROTTLED_KEYS) and answers ENABLING or
  // DISABLING, as DynamoDB does; Describe answers ENABLED / DISABLED from
  // then on, with the mode while enabled. Errors: kResourceNotFound (DescribeTable's message for the
  // table; "Requested resource not found: Index: <name> not found for table:
  // <table>" for an
  // index that is not a GSI of it).
  Result<ContributorInsightsDescription> Update(
      const UpdateContributorInsightsRequest& req);
  // Errors: as Update.
  Result<ContributorInsightsDescription> Describe(const Scope& scope,
                                                  const std::string& table_name,
                                                  const std::string& index_name);
  // The resources of the table (or of every table of the scope) whose
  // setting was ever changed, by table name then index (the table first).
  // Errors: kResourceNotFound for a named table that does not exist.
  Result<ListContributorInsightsResult> List(const ListContributorInsightsRequest& req);

 private:
  // The table, and checks that `index_name` (if any) is one of its GSIs.
  Result<std::shared_ptr<const TableInfo>> Resource(const Scope& scope,
                                                    const std::string& table_name,
                                                    const std::string& index_name);

  const Clock* const clock_;
  Catalog* const catalog_;
  TableLifecycle* const tables_;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_CONTROL_CONTRIBUTOR_INSIGHTS_H_
