// engine/requests/contributor_insights_requests.h
//
// UpdateContributorInsights, DescribeContributorInsights and
// ListContributorInsights (engine/control/contributor_insights.h).

#ifndef DYNAROCK_ENGINE_REQUESTS_CONTRIBUTOR_INSIGHTS_REQUESTS_H_
#define DYNAROCK_ENGINE_REQUESTS_CONTRIBUTOR_INSIGHTS_REQUESTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/requests/scope.h"
#include "engine/types.h"

namespace dynarock {

// UpdateContributorInsights: turns contributor insights on or off for a
// table (index_name empty) or one of its GSIs.
struct UpdateContributorInsightsRequest {
  Scope scope;
  std::string table_name;
  std::string index_name;  // empty: the table
  bool enable = false;
  // ContributorInsightsMode; an ENABLE without one tracks accessed and
  // throttled keys. Ignored by DISABLE (the setting keeps its mode).
  std::optional<ContributorInsightsMode> mode;
};

// ContributorInsightsStatus, as DynamoDB names it.
enum class ContributorInsightsStatus { kEnabling, kEnabled, kDisabling, kDisabled };

// What DescribeContributorInsights and UpdateContributorInsights answer.
struct ContributorInsightsDescription {
  std::string table_name;
  std::string index_name;  // empty: the table
  ContributorInsightsStatus status = ContributorInsightsStatus::kDisabled;
  // DynamoDB's CloudWatch rule names, while enabled:
  // "DynamoDBContributorInsights-{PKC,PKT,SKC,SKT}-<table>-<enabled ms>"
  // (SK* only with a sort key; the *C "most accessed" rules only in the
  // ACCESSED_AND_THROTTLED_KEYS mode).
  std::vector<std::string> rule_list;
  std::optional<int64_t> last_update_micros;  // engine clock; unset if never set
  // While enabled (and in UpdateContributorInsights's answer to an ENABLE).
  std::optional<ContributorInsightsMode> mode;
};

// ListContributorInsights: of one table (and its GSIs), or of every table
// of the scope; `max_results` per page (0: the default, 100).
struct ListContributorInsightsRequest {
  Scope scope;
  std::string table_name;  // empty: every table
  std::optional<std::string> next_token;
  int64_t max_results = 0;
};

struct ListContributorInsightsResult {
  std::vector<ContributorInsightsDescription> summaries;  // no rule lists
  std::optional<std::string> next_token;
};

}  // namespace dynarock

#endif  // DYNAROCK_ENGINE_REQUESTS_CONTRIBUTOR_INSIGHTS_REQUESTS_H_
