#include "api/metrics/prometheus_text.h"

#include <gtest/gtest.h>

#include <limits>

namespace dynarock::api::metrics {
namespace {

TEST(PrometheusTextTest, GroupsSamplesUnderTheirFamily) {
  PrometheusText text;
  text.Family("a_total", MetricType::kCounter, "A things.");
  text.Family("b", MetricType::kGauge, "B\\level\nnow");
  text.Sample("b", "", {{"table", "t1"}}, 2.5);
  text.Sample("a_total", "", {{"table", "t1"}, {"index", ""}}, 3);
  text.Sample("a_total", "", {{"table", "t2"}, {"index", "g"}}, 4);
  EXPECT_EQ(text.Text(),
            "# HELP a_total A things.\n"
            "# TYPE a_total counter\n"
            "a_total{table=\"t1\"} 3\n"
            "a_total{table=\"t2\",index=\"g\"} 4\n"
            "# HELP b B\\\\level\\nnow\n"
            "# TYPE b gauge\n"
            "b{table=\"t1\"} 2.5\n");
}

TEST(PrometheusTextTest, HistogramSamplesTakeSuffixesAndLe) {
  PrometheusText text;
  text.Family("lat_seconds", MetricType::kHistogram, "Latency.");
  const Label le{"le", "+Inf"};
  text.Sample("lat_seconds", "_bucket", std::vector<Label>{{"op", "Get"}}, 1, &le);
  text.Sample("lat_seconds", "_count", {}, 1);
  EXPECT_EQ(text.Text(),
            "# HELP lat_seconds Latency.\n"
            "# TYPE lat_seconds histogram\n"
            "lat_seconds_bucket{op=\"Get\",le=\"+Inf\"} 1\n"
            "lat_seconds_count 1\n");
}

TEST(PrometheusTextTest, EscapesLabelValues) {
  EXPECT_EQ(EscapeLabelValue("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
}

TEST(PrometheusTextTest, FormatsValuesExactly) {
  EXPECT_EQ(FormatSampleValue(0), "0");
  EXPECT_EQ(FormatSampleValue(1234567), "1234567");
  EXPECT_EQ(FormatSampleValue(0.1), "0.1");
  EXPECT_EQ(FormatSampleValue(-2.5), "-2.5");
  EXPECT_EQ(FormatSampleValue(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(FormatSampleValue(-std::numeric_limits<double>::infinity()), "-Inf");
  EXPECT_EQ(FormatSampleValue(std::numeric_limits<double>::quiet_NaN()), "NaN");
}

}  // namespace
}  // namespace dynarock::api::metrics
