// tools/simulate/svg_plot.cc

#include "tools/simulate/svg_plot.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace dynarock::tools::simulate {
namespace {

// Distinguishable line colours (Okabe-Ito).
constexpr const char* kColours[] = {"#0072B2", "#D55E00", "#009E73",
                                    "#CC79A7", "#E69F00", "#56B4E9",
                                    "#F0E442", "#000000"};

std::string Num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s(buf);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s.empty() || s == "-0" ? "0" : s;
}

std::string Header(int width, int height) {
  return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
         "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" viewBox=\"0 0 " + std::to_string(width) + " " +
         std::to_string(height) +
         "\" font-family=\"sans-serif\" font-size=\"12\">\n"
         "<rect x=\"0\" y=\"0\" width=\"" +
         std::to_string(width) + "\" height=\"" + std::to_string(height) +
         "\" fill=\"white\"/>\n";
}

std::string Text(double x, double y, std::string_view text,
                 std::string_view anchor = "start", std::string_view extra = "") {
  std::string s = "<text x=\"" + Num(x) + "\" y=\"" + Num(y) +
                  "\" text-anchor=\"" + std::string(anchor) + "\"";
  if (!extra.empty()) s += " " + std::string(extra);
  return s + ">" + XmlEscape(text) + "</text>\n";
}

// White (0) to dark red (1).
std::string HeatColour(double f) {
  f = std::clamp(f, 0.0, 1.0);
  const int r = static_cast<int>(std::lround(255 - f * (255 - 165)));
  const int g = static_cast<int>(std::lround(255 - f * 255));
  const int b = static_cast<int>(std::lround(255 - f * 255));
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", r, g, b);
  return buf;
}

}  // namespace

std::string XmlEscape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += c;
    }
  }
  return out;
}

double NiceCeiling(double v) {
  if (!(v > 0)) return 1;
  const double p = std::pow(10.0, std::floor(std::log10(v)));
  for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (m * p >= v * (1 - 1e-12)) return m * p;
  }
  return 10 * p;
}

std::string RenderLinePlot(const LinePlot& plot) {
  const double left = 70, top = 40, bottom = 50;
  // The legend: 45 px of line, then ~7 px per character of the longest name.
  size_t longest = 0;
  for (const PlotSeries& s : plot.series) longest = std::max(longest, s.name.size());
  const double right = std::max(180.0, 55.0 + 7.0 * static_cast<double>(longest));
  const double w = plot.width - left - 180;
  const int doc_width = static_cast<int>(left + w + right);
  const double h = plot.height - top - bottom;
  double x_min = 0, x_max = 0, y_max = 0;
  bool first = true;
  for (const PlotSeries& s : plot.series) {
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (first) x_min = x_max = s.x[i];
      first = false;
      x_min = std::min(x_min, s.x[i]);
      x_max = std::max(x_max, s.x[i]);
      y_max = std::max(y_max, s.y[i]);
    }
  }
  if (x_min > 0) x_min = std::floor(x_min);
  else x_min = 0;
  x_max = std::max(NiceCeiling(x_max), x_min + 1);
  y_max = NiceCeiling(y_max);
  auto px = [&](double x) { return left + (x - x_min) / (x_max - x_min) * w; };
  auto py = [&](double y) { return top + h - y / y_max * h; };

  std::string svg = Header(doc_width, plot.height);
  svg += Text(doc_width / 2.0, 22, plot.title, "middle", "font-size=\"15\"");
  // Axes, ticks and grid.
  svg += "<g stroke=\"#999\" stroke-width=\"1\">\n";
  svg += "<line x1=\"" + Num(left) + "\" y1=\"" + Num(top + h) + "\" x2=\"" +
         Num(left + w) + "\" y2=\"" + Num(top + h) + "\"/>\n";
  svg += "<line x1=\"" + Num(left) + "\" y1=\"" + Num(top) + "\" x2=\"" +
         Num(left) + "\" y2=\"" + Num(top + h) + "\"/>\n";
  svg += "</g>\n";
  constexpr int kTicks = 5;
  for (int i = 0; i <= kTicks; ++i) {
    const double yv = y_max * i / kTicks;
    const double xv = x_min + (x_max - x_min) * i / kTicks;
    svg += "<line x1=\"" + Num(left) + "\" y1=\"" + Num(py(yv)) + "\" x2=\"" +
           Num(left + w) + "\" y2=\"" + Num(py(yv)) +
           "\" stroke=\"#eee\" stroke-width=\"1\"/>\n";
    svg += Text(left - 6, py(yv) + 4, Num(yv), "end");
    svg += Text(px(xv), top + h + 16, Num(xv), "middle");
  }
  svg += Text(left + w / 2, plot.height - 12, plot.x_label, "middle");
  svg += Text(16, top + h / 2, plot.y_label, "middle",
              "transform=\"rotate(-90 16 " + Num(top + h / 2) + ")\"");
  for (size_t m = 0; m < plot.x_markers.size(); ++m) {
    const auto& [x, label] = plot.x_markers[m];
    if (x < x_min || x > x_max) continue;
    svg += "<line x1=\"" + Num(px(x)) + "\" y1=\"" + Num(top) + "\" x2=\"" +
           Num(px(x)) + "\" y2=\"" + Num(top + h) +
           "\" stroke=\"#555\" stroke-dasharray=\"4 3\"/>\n";
    svg += Text(px(x) + 4, top + 12 + 14.0 * static_cast<double>(m), label);
  }
  // Series and legend.
  for (size_t k = 0; k < plot.series.size(); ++k) {
    const PlotSeries& s = plot.series[k];
    const char* colour = s.reference ? "#000000" : kColours[k % std::size(kColours)];
    const std::string dash = s.reference ? " stroke-dasharray=\"6,4\"" : "";
    std::string points;
    for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
      if (!points.empty()) points += ' ';
      points += Num(px(s.x[i])) + "," + Num(py(s.y[i]));
    }
    svg += "<polyline fill=\"none\" stroke=\"" + std::string(colour) + "\"" +
           dash + " stroke-width=\"2\" points=\"" + points + "\"/>\n";
    for (size_t i = 0; i < s.x.size() && i < s.y.size() && !s.reference; ++i) {
      svg += "<circle cx=\"" + Num(px(s.x[i])) + "\" cy=\"" + Num(py(s.y[i])) +
             "\" r=\"2.5\" fill=\"" + colour + "\"/>\n";
    }
    const double ly = top + 10 + 20.0 * k;
    svg += "<line x1=\"" + Num(left + w + 15) + "\" y1=\"" + Num(ly) +
           "\" x2=\"" + Num(left + w + 40) + "\" y2=\"" + Num(ly) +
           "\" stroke=\"" + colour + "\"" + dash + " stroke-width=\"2\"/>\n";
    svg += Text(left + w + 45, ly + 4, s.name);
  }
  svg += "</svg>\n";
  return svg;
}

std::string RenderHeatMap(const HeatMap& map) {
  const int left = 120, top = 40, bottom = 70;
  size_t columns = 0;
  for (const auto& row : map.values) columns = std::max(columns, row.size());
  const int rows = static_cast<int>(map.values.size());
  const int grid_w = static_cast<int>(columns) * map.cell_width;
  const int grid_h = rows * map.cell_height;
  const int width = left + std::max(grid_w, 200) + 30;
  const int height = top + grid_h + bottom;
  std::string svg = Header(width, height);
  svg += Text(width / 2.0, 22, map.title, "middle", "font-size=\"15\"");
  for (int r = 0; r < rows; ++r) {
    const double y = top + r * map.cell_height;
    if (r < static_cast<int>(map.row_labels.size())) {
      svg += Text(left - 6, y + map.cell_height - 4, map.row_labels[r], "end");
    }
    for (size_t c = 0; c < map.values[r].size(); ++c) {
      const double v = map.values[r][c];
      svg += "<rect x=\"" + std::to_string(left + c * map.cell_width) +
             "\" y=\"" + Num(y) + "\" width=\"" +
             std::to_string(map.cell_width) + "\" height=\"" +
             std::to_string(map.cell_height) + "\" fill=\"" +
             HeatColour(map.full_scale > 0 ? v / map.full_scale : 0) +
             "\" stroke=\"#ddd\" stroke-width=\"0.5\"><title>" +
             XmlEscape(Num(v)) + "</title></rect>\n";
    }
  }
  // Column labels: about ten along the bottom.
  const size_t step = std::max<size_t>(1, columns / 10);
  for (size_t c = 0; c < columns && c < map.column_starts.size(); c += step) {
    svg += Text(left + (c + 0.5) * map.cell_width, top + grid_h + 14,
                Num(map.column_starts[c]), "middle");
  }
  svg += Text(left + grid_w / 2.0, top + grid_h + 32, map.x_label, "middle");
  svg += Text(12, top + grid_h / 2.0, map.y_label, "middle",
              "transform=\"rotate(-90 12 " + Num(top + grid_h / 2.0) + ")\"");
  // Legend: a five-step scale.
  for (int i = 0; i <= 4; ++i) {
    svg += "<rect x=\"" + std::to_string(left + i * 24) + "\" y=\"" +
           std::to_string(top + grid_h + 44) +
           "\" width=\"24\" height=\"12\" fill=\"" + HeatColour(i / 4.0) +
           "\" stroke=\"#999\" stroke-width=\"0.5\"/>\n";
  }
  svg += Text(left + 5 * 24 + 6, top + grid_h + 54,
              "0 .. " + Num(map.full_scale) + " " + map.value_label);
  svg += "</svg>\n";
  return svg;
}

}  // namespace dynarock::tools::simulate
