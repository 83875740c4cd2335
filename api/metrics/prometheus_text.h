// api/metrics/prometheus_text.h
//
// PrometheusText builds a document in Prometheus' text exposition format,
// version 0.0.4: for each metric family one "# HELP" and one "# TYPE" line,
// then its samples, all together, whatever order the caller adds samples
// in. Label values are escaped (backslash, double quote, newline); values
// are written in the shortest form that reads back exactly, with "+Inf",
// "-Inf" and "NaN" as the format spells them.
//
// Not thread-safe; one per document.

#ifndef DYNAROCK_API_METRICS_PROMETHEUS_TEXT_H_
#define DYNAROCK_API_METRICS_PROMETHEUS_TEXT_H_

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace dynarock::api::metrics {

// The Content-Type of the format.
inline constexpr std::string_view kPrometheusContentType =
    "text/plain; version=0.0.4; charset=utf-8";

struct Label {
  std::string_view name;
  std::string_view value;
};

enum class MetricType { kCounter, kGauge, kHistogram };

class PrometheusText {
 public:
  // Declares a family. REQUIRES: `name` is a valid metric name, declared
  // once; a counter's name ends in "_total".
  void Family(std::string_view name, MetricType type, std::string_view help);

  // Adds a sample of `family` (declared before); `suffix` is "" or, for a
  // histogram, "_bucket", "_sum" or "_count". Labels with an empty value
  // are left out (Prometheus reads them as absent anyway).
  void Sample(std::string_view family, std::string_view suffix,
              std::initializer_list<Label> labels, double value);
  // The same with a list built at run time, plus `extra` at its end (a
  // histogram bucket's "le").
  void Sample(std::string_view family, std::string_view suffix,
              const std::vector<Label>& labels, double value,
              const Label* extra = nullptr);

  // The document: the families in declaration order. A family without
  // samples is still listed (HELP and TYPE only).
  std::string Text() const;

 private:
  struct FamilyText {
    std::string name;
    std::string text;
  };
  FamilyText* Find(std::string_view name);
  std::vector<FamilyText> families_;
};

// Backslash, double quote and newline escaped as the format wants.
std::string EscapeLabelValue(std::string_view value);
// "+Inf", "-Inf", "NaN", or the shortest decimal that reads back exactly.
std::string FormatSampleValue(double value);

}  // namespace dynarock::api::metrics

#endif  // DYNAROCK_API_METRICS_PROMETHEUS_TEXT_H_
