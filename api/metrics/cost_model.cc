// api/metrics/cost_model.cc

#include "api/metrics/cost_model.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dynarock::api::metrics {
namespace {

double NonNegative(double x) { return std::isfinite(x) ? std::max(x, 0.0) : 0.0; }

constexpr double kBytesPerGb = 1024.0 * 1024.0 * 1024.0;

}  // namespace

TableCost EstimateCost(const TableUsage& usage, const PriceTable& prices) {
  const double hours = NonNegative(usage.period_hours);
  TableCost cost;
  cost.on_demand_reads =
      NonNegative(usage.read_units) / 1e6 * prices.per_million_read_request_units;
  cost.on_demand_writes = (NonNegative(usage.write_units) + NonNegative(usage.gsi_write_units)) /
                          1e6 * prices.per_million_write_request_units;
  cost.provisioned_reads = NonNegative(usage.provisioned_rcu) * hours * prices.per_rcu_hour;
  cost.provisioned_writes = NonNegative(usage.provisioned_wcu) * hours * prices.per_wcu_hour;
  const double months = prices.hours_per_month > 0 ? hours / prices.hours_per_month : 0;
  cost.storage = NonNegative(usage.storage_bytes) / kBytesPerGb * months * prices.per_gb_month;
  return cost;
}

double ProvisionedForPeak(double peak_units_per_second) {
  return std::max(1.0, std::ceil(NonNegative(peak_units_per_second) - 1e-9));
}

std::string FormatDollars(double dollars) {
  char text[64];
  if (dollars != 0 && std::fabs(dollars) < 0.01) {
    std::snprintf(text, sizeof(text), "$%.6f", dollars);
  } else {
    // To the cent, a half cent up (away from zero), as a bill is rounded:
    // printf's "%.2f" would round an exact half to even ($1.625 -> $1.62),
    // and a sum of products lands a hair under a half it means ($0.145 is
    // 0.14499999999999999 in binary), hence the relative nudge far below a
    // cent and far above double's error.
    const double cents = std::round(dollars * 100 * (1 + 1e-12));
    std::snprintf(text, sizeof(text), "$%.2f", cents / 100);
  }
  return text;
}

}  // namespace dynarock::api::metrics
