#include "engine/capacity/throughput_settings.h"

#include <algorithm>
#include <string>

namespace dynarock {
namespace {

constexpr std::string_view kInvalid = "One or more parameter values were invalid: ";

// DynamoDB names the resource three ways: "for table" everywhere, and for
// an index "for index : <name>" (OnDemandThroughput ranges), "for index:
// <name>" (OnDemandThroughput on a provisioned table) and "for index <name>"
// (WarmThroughput), as recorded from live tables.
std::string ForResource(std::string_view index_name, std::string_view separator) {
  if (index_name.empty()) return "for table";
  std::string out = "for index";
  out += separator;
  out += index_name;
  return out;
}

std::string_view MaxName(bool read) {
  return read ? "MaxReadRequestUnits" : "MaxWriteRequestUnits";
}
std::string_view WarmName(bool read) {
  return read ? "ReadUnitsPerSecond" : "WriteUnitsPerSecond";
}
std::string_view QuotaName(bool read) {
  return read ? "TableMaxReadCapacityUnits" : "TableMaxWriteCapacityUnits";
}

Status OnDemandOnProvisioned(std::string_view index_name, bool read) {
  std::string m(kInvalid);
  m += MaxName(read);
  m += " for OnDemandThroughput ";
  if (!index_name.empty()) {
    m += ForResource(index_name, ": ");
    m += ' ';
  }
  m += "cannot be specified when the table BillingMode is PROVISIONED";
  return Status::Validation(std::move(m));
}

Status OnDemandOutOfRange(std::string_view index_name, bool read) {
  return Status::Validation(std::string(kInvalid) + "Requested " +
                            std::string(MaxName(read)) +
                            " for OnDemandThroughput " +
                            ForResource(index_name, " : ") +
                            " is outside of valid range");
}

Status PastQuota(std::string_view member, std::string_view setting,
                 std::string_view resource, bool read, std::string_view region) {
  return Status(ErrorCode::kLimitExceeded,
                "Subscriber limit exceeded: Requested " + std::string(member) +
                    " for " + std::string(setting) + " " + std::string(resource) +
                    " exceeds " + std::string(QuotaName(read)) +
                    " of the account in region " + std::string(region));
}

Status WarmBelow(std::string_view index_name, bool read, std::string_view what) {
  return Status::Validation(std::string(kInvalid) + "Requested " +
                            std::string(WarmName(read)) + " for WarmThroughput " +
                            ForResource(index_name, " ") + " is lower than " +
                            std::string(what));
}

constexpr std::string_view kInitialOnDemand =
    "initial throughput for OnDemand. See: "
    "https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/"
    "on-demand-capacity-mode.html#on-demand-capacity-mode-initial";
constexpr std::string_view kDecrease =
    "current WarmThroughput, decreasing WarmThroughput is not supported";

bool Given(const std::optional<OnDemandThroughput>& t) {
  return t && (t->max_read_request_units || t->max_write_request_units);
}

// The maximum `value` asks for: 0 (none) for -1 when `may_remove`; else an
// error unless 1 <= value <= quota.
Result<int64_t> CheckMaximum(std::string_view index_name, bool read, int64_t value,
                             bool may_remove, const CapacityOptions& o,
                             std::string_view region) {
  if (value == -1 && may_remove) return int64_t{0};
  if (value < 1) return OnDemandOutOfRange(index_name, read);
  const int64_t quota = read ? o.table_read_quota : o.table_write_quota;
  if (value > quota) {
    return PastQuota(MaxName(read), "OnDemandThroughput",
                     ForResource(index_name, " : "), read, region);
  }
  return value;
}

// Applies `on_demand` to `*s`; nothing on an error.
Status ApplyMaxima(std::string_view index_name, BillingMode mode,
                   const std::optional<OnDemandThroughput>& on_demand,
                   bool may_remove, const CapacityOptions& o,
                   std::string_view region, ThroughputSettings* s) {
  if (!Given(on_demand)) return Status::OK();
  if (mode == BillingMode::kProvisioned) {
    return OnDemandOnProvisioned(index_name,
                                 on_demand->max_read_request_units.has_value());
  }
  ThroughputSettings out = *s;
  if (on_demand->max_read_request_units) {
    DR_ASSIGN_OR_RETURN(out.max_read_request_units,
                        CheckMaximum(index_name, true,
                                     *on_demand->max_read_request_units,
                                     may_remove, o, region));
  }
  if (on_demand->max_write_request_units) {
    DR_ASSIGN_OR_RETURN(out.max_write_request_units,
                        CheckMaximum(index_name, false,
                                     *on_demand->max_write_request_units,
                                     may_remove, o, region));
  }
  *s = out;
  return Status::OK();
}

Status CheckWarmQuota(std::string_view index_name, bool read, int64_t value,
                      const CapacityOptions& o, std::string_view region) {
  const int64_t quota = read ? o.table_read_quota : o.table_write_quota;
  if (value <= quota) return Status::OK();
  return PastQuota(WarmName(read), "WarmThroughput", ForResource(index_name, " "),
                   read, region);
}

}  // namespace

WarmUnits EffectiveWarm(const ThroughputSettings& s, BillingMode mode,
                        const ProvisionedThroughputDescription& provisioned,
                        const CapacityOptions& o) {
  const bool on_demand = mode == BillingMode::kPayPerRequest;
  WarmUnits out;
  out.read = s.warm_read_units_per_second > 0 ? s.warm_read_units_per_second
             : on_demand ? o.on_demand_warm_read_units
                         : provisioned.read_capacity_units;
  out.write = s.warm_write_units_per_second > 0 ? s.warm_write_units_per_second
              : on_demand ? o.on_demand_warm_write_units
                          : provisioned.write_capacity_units;
  return out;
}

Result<ThroughputSettings> NewThroughputSettings(
    std::string_view index_name, BillingMode mode,
    const std::optional<ProvisionedThroughput>& provisioned,
    const std::optional<OnDemandThroughput>& on_demand,
    const std::optional<WarmThroughput>& warm, const CapacityOptions& o,
    std::string_view region) {
  ThroughputSettings s;
  DR_RETURN_IF_ERROR(ApplyMaxima(index_name, mode, on_demand,
                                 /*may_remove=*/false, o, region, &s));
  ProvisionedThroughputDescription units;
  if (provisioned) {
    units.read_capacity_units = provisioned->read_capacity_units;
    units.write_capacity_units = provisioned->write_capacity_units;
  }
  const WarmUnits floor = EffectiveWarm(ThroughputSettings{}, mode, units, o);
  const bool on_demand_mode = mode == BillingMode::kPayPerRequest;
  WarmUnits in_force = floor;
  if (warm) {
    for (bool read : {true, false}) {
      const std::optional<int64_t>& want =
          read ? warm->read_units_per_second : warm->write_units_per_second;
      if (!want) continue;
      if (*want < (read ? floor.read : floor.write)) {
        return WarmBelow(index_name, read,
                         on_demand_mode ? kInitialOnDemand
                         : read ? "ReadCapacityUnits of ProvisionedThroughput"
                                : "WriteCapacityUnits of ProvisionedThroughput");
      }
      DR_RETURN_IF_ERROR(CheckWarmQuota(index_name, read, *want, o, region));
      (read ? in_force.read : in_force.write) = *want;
    }
  }
  s.warm_read_units_per_second = in_force.read;
  s.warm_write_units_per_second = in_force.write;
  return s;
}

Status UpdateThroughputSettings(
    std::string_view index_name, BillingMode mode,
    const ProvisionedThroughputDescription& provisioned,
    const std::optional<OnDemandThroughput>& on_demand,
    const std::optional<WarmThroughput>& warm, const CapacityOptions& o,
    std::string_view region, ThroughputSettings* settings) {
  ThroughputSettings s = *settings;
  DR_RETURN_IF_ERROR(ApplyMaxima(index_name, mode, on_demand,
                                 /*may_remove=*/true, o, region, &s));
  if (warm) {
    const WarmUnits current = EffectiveWarm(*settings, mode, provisioned, o);
    WarmUnits in_force = current;
    for (bool read : {true, false}) {
      const std::optional<int64_t>& want =
          read ? warm->read_units_per_second : warm->write_units_per_second;
      if (!want) continue;
      if (*want < (read ? current.read : current.write)) {
        return WarmBelow(index_name, read, kDecrease);
      }
      DR_RETURN_IF_ERROR(CheckWarmQuota(index_name, read, *want, o, region));
      (read ? in_force.read : in_force.write) = *want;
    }
    s.warm_read_units_per_second = in_force.read;
    s.warm_write_units_per_second = in_force.write;
  }
  *settings = s;
  return Status::OK();
}

void FollowCapacity(const WarmUnits& before, BillingMode mode,
                    const ProvisionedThroughputDescription& provisioned,
                    const CapacityOptions& o, ThroughputSettings* s) {
  const WarmUnits floor = EffectiveWarm(ThroughputSettings{}, mode, provisioned, o);
  s->warm_read_units_per_second = std::max(before.read, floor.read);
  s->warm_write_units_per_second = std::max(before.write, floor.write);
  if (mode == BillingMode::kProvisioned) {
    s->max_read_request_units = 0;
    s->max_write_request_units = 0;
  }
}

}  // namespace dynarock
