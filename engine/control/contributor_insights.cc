#include "engine/control/contributor_insights.h"

#include <utility>

namespace dynarock {
namespace {

// ListContributorInsights's page when MaxResults is not given (its most).
constexpr int64_t kDefaultPage = 100;

// DynamoDB's text (recorded in us-east-1 and us-west-2, October 2026, by the
// AWS controllers' API-quirks lab), also for an LSI.
Status IndexNotFound(const std::string& index_name, const std::string& table_name) {
  return Status::ResourceNotFound("Requested resource not found: Index: " + index_name +
                                  " not found for table: " + table_name);
}

bool HasSortKey(const TableInfo& table, const std::string& index_name) {
  if (index_name.empty()) return table.key.range_name.has_value();
  const IndexInfo* index = table.FindIndex(index_name);
  return index != nullptr && index->key.range_name.has_value();
}

ContributorInsightsDescription DescribeOf(const TableInfo& table,
                                        const std::string& index_name, bool rules) {
  ContributorInsightsDescription out;
  out.table_name = table.desc.table_name;
  out.index_name = index_name;
  auto it = table.contributor_insights.find(index_name);
  if (it == table.contributor_insights.end()) return out;
  const ContributorInsightsSetting& setting = it->second;
  out.status = setting.enabled ? ContributorInsightsStatus::kEnabled
                               : ContributorInsightsStatus::kDisabled;
  out.last_update_micros = setting.last_change_micros;
  if (setting.enabled) out.mode = setting.mode;
  if (setting.enabled && rules) {
    // DynamoDB's rule names (the AWS CLI reference's example):
    // DynamoDBContributorInsights-PKC-MusicCollection-1576629651520. The
    // "most accessed" (*C) rules only when accessed keys are tracked.
    const std::string suffix = "-" + table.desc.table_name + "-" +
                               std::to_string(setting.last_change_micros / 1000);
    const bool accessed = setting.mode == ContributorInsightsMode::kAccessedAndThrottledKeys;
    const bool sort_key = HasSortKey(table, index_name);
    std::vector<std::string> kinds;
    if (accessed) kinds.push_back("PKC");
    if (accessed && sort_key) kinds.push_back("SKC");
    kinds.push_back("PKT");
    if (sort_key) kinds.push_back("SKT");
    for (const std::string& kind : kinds) {
      out.rule_list.push_back("DynamoDBContributorInsights-" + kind + suffix);
    }
  }
  return out;
}

}  // namespace

Result<std::shared_ptr<const TableInfo>> ContributorInsights::Resource(
    const Scope& scope, const std::string& table_name, const std::string& index_name) {
  DR_ASSIGN_OR_RETURN(auto table, tables_->FindOrNotFound(scope, table_name));
  if (!index_name.empty()) {
    const IndexInfo* index = table->FindIndex(index_name);
    if (index == nullptr || !index->global) {
      return IndexNotFound(index_name, table->desc.table_name);
    }
  }
  return table;
}

Result<ContributorInsightsDescription> ContributorInsights::Update(
    const UpdateContributorInsightsRequest& req) {
  DR_ASSIGN_OR_RETURN(auto table, Resource(req.scope, req.table_name, req.index_name));
  const int64_t now = clock_->NowMicros();
  ContributorInsightsMode mode = ContributorInsightsMode::kAccessedAndThrottledKeys;
  Result<std::shared_ptr<const TableInfo>> changed = catalog_->UpdateSettings(
      req.scope.ns, table->desc.table_name, table->id, [&](TableInfo* t) -> Status {
        if (!req.index_name.empty() && t->FindIndex(req.index_name) == nullptr) {
          return IndexNotFound(req.index_name, t->desc.table_name);
        }
        ContributorInsightsSetting& setting = t->contributor_insights[req.index_name];
        setting.enabled = req.enable;
        setting.last_change_micros = now;
        if (req.enable) {
          mode = req.mode.value_or(ContributorInsightsMode::kAccessedAndThrottledKeys);
          setting.mode = mode;
        }
        return Status::OK();
      });
  if (!changed.ok()) {
    if (changed.status().code() == ErrorCode::kResourceNotFound &&
        changed.status().message().find("Index:") == std::string::npos) {
      return tables_->FindOrNotFound(req.scope, req.table_name).status();
    }
    return changed.status();
  }
  ContributorInsightsDescription out;
  out.table_name = table->desc.table_name;
  out.index_name = req.index_name;
  out.status = req.enable ? ContributorInsightsStatus::kEnabling
                          : ContributorInsightsStatus::kDisabling;
  if (req.enable) out.mode = mode;
  return out;
}

Result<ContributorInsightsDescription> ContributorInsights::Describe(
    const Scope& scope, const std::string& table_name, const std::string& index_name) {
  DR_ASSIGN_OR_RETURN(auto table, Resource(scope, table_name, index_name));
  return DescribeOf(*table, index_name, /*rules=*/true);
}

Result<ListContributorInsightsResult> ContributorInsights::List(
    const ListContributorInsightsRequest& req) {
  std::vector<std::shared_ptr<const TableInfo>> tables;
  if (!req.table_name.empty()) {
    DR_ASSIGN_OR_RETURN(auto table, tables_->FindOrNotFound(req.scope, req.table_name));
    tables.push_back(std::move(table));
  } else {
    tables = catalog_->List(req.scope.ns);
  }
  const size_t page = static_cast<size_t>(req.max_results > 0 ? req.max_results : kDefaultPage);
  ListContributorInsightsResult result;
  // The token names the last resource of the previous page: "<table>/<index>".
  bool skipping = req.next_token.has_value();
  for (const auto& table : tables) {
    for (const auto& [index_name, setting] : table->contributor_insights) {
      // A GSI deleted since keeps no summary.
      if (!index_name.empty() && table->FindIndex(index_name) == nullptr) continue;
      const std::string key = table->desc.table_name + "/" + index_name;
      if (skipping) {
        if (key == *req.next_token) skipping = false;
        continue;
      }
      if (result.summaries.size() == page) {
        const auto& last = result.summaries.back();
        result.next_token = last.table_name + "/" + last.index_name;
        return result;
      }
      result.summaries.push_back(DescribeOf(*table, index_name, /*rules=*/false));
    }
  }
  return result;
}

}  // namespace dynarock
