#include "engine/ttl/ttl_settings.h"

#include <string>
#include <utility>

#include "engine/clock.h"

namespace dynarock {
namespace {

// DynamoDB's UpdateTimeToLive refusals (recorded against DynamoDB; the
// cooldown's wording as SDK users quote it).
Status AlreadyEnabled() {
  return Status::Validation("TimeToLive is already enabled");
}
Status AlreadyDisabled() {
  return Status::Validation("TimeToLive is already disabled");
}
Status DifferentAttribute(const std::string& current) {
  return Status::Validation(
      "TimeToLive is active on a different AttributeName: current "
      "AttributeName is " + current);
}
Status ModifiedTooOften() {
  return Status::Validation(
      "Time to live has been modified multiple times within a fixed interval");
}

}  // namespace

Result<TimeToLiveSpecification> TtlSettings::Update(
    const UpdateTimeToLiveRequest& req) {
  DR_ASSIGN_OR_RETURN(auto table, tables_->FindOrNotFound(req.scope, req.table_name));
  const TimeToLiveSpecification& want = req.specification;
  const int64_t now = clock_->NowMicros();
  auto change = [&](TableInfo* t) -> Status {
    TimeToLiveSettings& ttl = t->ttl;
    if (ttl.enabled && ttl.attribute_name != want.attribute_name) {
      return DifferentAttribute(ttl.attribute_name);
    }
    if (want.enabled && ttl.enabled) return AlreadyEnabled();
    if (!want.enabled && !ttl.enabled) return AlreadyDisabled();
    if (change_cooldown_micros_ > 0 && ttl.last_change_micros &&
        now < *ttl.last_change_micros + change_cooldown_micros_) {
      return ModifiedTooOften();
    }
    ttl.enabled = want.enabled;
    // Disabling keeps the name: DISABLING shows it.
    if (want.enabled) ttl.attribute_name = want.attribute_name;
    ttl.last_change_micros = now;
    return Status::OK();
  };
  Result<std::shared_ptr<const TableInfo>> changed =
      catalog_->UpdateSettings(req.scope.ns, req.table_name, table->id, change);
  if (!changed.ok()) {
    // Deleted since the lookup.
    if (changed.status().code() == ErrorCode::kResourceNotFound) {
      return TableNotFound(req.table_name);
    }
    return changed.status();
  }
  return want;
}

Result<TimeToLiveDescription> TtlSettings::Describe(
    const DescribeTimeToLiveRequest& req) {
  DR_ASSIGN_OR_RETURN(auto table, tables_->FindOrNotFound(req.scope, req.table_name));
  const TimeToLiveSettings& ttl = table->ttl;
  const bool settling =
      ttl.last_change_micros &&
      clock_->NowMicros() < *ttl.last_change_micros + status_delay_micros_;
  TimeToLiveDescription d;
  if (ttl.enabled) {
    d.status = settling ? TimeToLiveStatus::kEnabling : TimeToLiveStatus::kEnabled;
    d.attribute_name = ttl.attribute_name;
  } else if (settling && !ttl.attribute_name.empty()) {
    d.status = TimeToLiveStatus::kDisabling;
    d.attribute_name = ttl.attribute_name;
  }
  return d;
}

}  // namespace dynarock
