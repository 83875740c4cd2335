// tools/simulate/svg_plot.h
//
// Hand-written SVG for the simulator's reports: a line plot (one polyline and
// legend entry per series) and a heat map (a grid of cells coloured by value).
// The output is a complete, well-formed SVG 1.1 document; text is escaped.
//
// Plain functions of their arguments; thread-compatible.

#ifndef DYNAROCK_TOOLS_SIMULATE_SVG_PLOT_H_
#define DYNAROCK_TOOLS_SIMULATE_SVG_PLOT_H_

#include <string>
#include <string_view>
#include <vector>

namespace dynarock::tools::simulate {

struct PlotSeries {
  std::string name;
  std::vector<double> x;
  std::vector<double> y;  // same length as x
  // A reference line (e.g. a target): dashed, black, no point markers.
  bool reference = false;
};

struct LinePlot {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<PlotSeries> series;
  // Optional vertical marker lines (e.g. the seed formula's N), with labels.
  std::vector<std::pair<double, std::string>> x_markers;
  // The plot area's size and legend; the document grows to the right for
  // legend names longer than about 18 characters.
  int width = 720;
  int height = 440;
};

// The plot as an SVG document. Axes start at 0 (x at the smallest x when it
// is positive) and end at a "nice" bound above the largest value.
std::string RenderLinePlot(const LinePlot& plot);

struct HeatMap {
  std::string title;
  std::string x_label;  // the columns (e.g. simulated seconds)
  std::string y_label;  // the rows (e.g. partitions)
  std::vector<std::string> row_labels;
  std::vector<double> column_starts;  // the x value of each column
  // values[row][column]; 0 is white, `full_scale` and above fully coloured.
  std::vector<std::vector<double>> values;
  double full_scale = 1.0;
  std::string value_label;  // the legend's caption
  int cell_width = 12;
  int cell_height = 16;
};

std::string RenderHeatMap(const HeatMap& map);

// `text` with &, <, >, " and ' escaped for SVG/XML.
std::string XmlEscape(std::string_view text);

// The smallest of 1, 2, 2.5, 5 x 10^k at or above `v` (v > 0); 1 for v <= 0.
double NiceCeiling(double v);

}  // namespace dynarock::tools::simulate

#endif  // DYNAROCK_TOOLS_SIMULATE_SVG_PLOT_H_
