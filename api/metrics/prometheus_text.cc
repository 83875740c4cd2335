// api/metrics/prometheus_text.cc

#include "api/metrics/prometheus_text.h"

#include <array>
#include <charconv>
#include <cmath>

namespace dynarock::api::metrics {
namespace {

std::string_view TypeName(MetricType type) {
  switch (type) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
  }
  return "untyped";
}

// HELP text escapes backslash and newline only.
void AppendHelp(std::string_view help, std::string* out) {
  for (char c : help) {
    if (c == '\\') {
      out->append("\\\\");
    } else if (c == '\n') {
      out->append("\\n");
    } else {
      out->push_back(c);
    }
  }
}

void AppendLabel(const Label& label, bool* first, std::string* out) {
  if (label.value.empty()) return;
  out->push_back(*first ? '{' : ',');
  *first = false;
  out->append(label.name);
  out->append("=\"");
  out->append(EscapeLabelValue(label.value));
  out->push_back('"');
}

}  // namespace

std::string EscapeLabelValue(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (char c : value) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '"') {
      out.append("\\\"");
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string FormatSampleValue(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  std::array<char, 64> buffer{};
  auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  if (ec != std::errc()) return "NaN";
  return std::string(buffer.data(), end);
}

PrometheusText::FamilyText* PrometheusText::Find(std::string_view name) {
  for (auto& f : families_) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

void PrometheusText::Family(std::string_view name, MetricType type, std::string_view help) {
  FamilyText f;
  f.name = std::string(name);
  f.text = "# HELP ";
  f.text.append(name);
  f.text.push_back(' ');
  AppendHelp(help, &f.text);
  f.text.append("\n# TYPE ");
  f.text.append(name);
  f.text.push_back(' ');
  f.text.append(TypeName(type));
  f.text.push_back('\n');
  families_.push_back(std::move(f));
}

void PrometheusText::Sample(std::string_view family, std::string_view suffix,
                            std::initializer_list<Label> labels, double value) {
  Sample(family, suffix, std::vector<Label>(labels), value);
}

void PrometheusText::Sample(std::string_view family, std::string_view suffix,
                            const std::vector<Label>& labels, double value,
                            const Label* extra) {
  FamilyText* f = Find(family);
  if (f == nullptr) return;
  std::string& out = f->text;
  out.append(family);
  out.append(suffix);
  bool first = true;
  for (const Label& label : labels) AppendLabel(label, &first, &out);
  if (extra != nullptr) AppendLabel(*extra, &first, &out);
  if (!first) out.push_back('}');
  out.push_back(' ');
  out.append(FormatSampleValue(value));
  out.push_back('\n');
}

std::string PrometheusText::Text() const {
  size_t size = 0;
  for (const auto& f : families_) size += f.text.size();
  std::string out;
  out.reserve(size);
  for (const auto& f : families_) out.append(f.text);
  return out;
}

}  // namespace dynarock::api::metrics
