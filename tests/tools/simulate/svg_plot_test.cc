// tests/tools/simulate/svg_plot_test.cc

#include "tools/simulate/svg_plot.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace dynarock::tools::simulate {
namespace {

// A parse-level check of what the writer emits: an XML declaration, then
// elements that nest and close properly, one root <svg>, attribute values
// quoted, no raw '<' or '&' in text. Returns "" or what is wrong.
std::string CheckWellFormed(const std::string& doc) {
  size_t pos = 0;
  if (doc.rfind("<?xml", 0) != 0) return "no XML declaration";
  pos = doc.find("?>");
  if (pos == std::string::npos) return "unterminated declaration";
  pos += 2;
  std::vector<std::string> stack;
  int roots = 0;
  while (pos < doc.size()) {
    const size_t lt = doc.find('<', pos);
    const std::string text =
        doc.substr(pos, (lt == std::string::npos ? doc.size() : lt) - pos);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '&') {
        const size_t semi = text.find(';', i);
        if (semi == std::string::npos || semi - i > 6) return "bare & in text";
      }
    }
    if (lt == std::string::npos) break;
    const size_t gt = doc.find('>', lt);
    if (gt == std::string::npos) return "unterminated tag";
    std::string tag = doc.substr(lt + 1, gt - lt - 1);
    pos = gt + 1;
    if (tag.find('<') != std::string::npos) return "'<' inside a tag";
    // Quotes in a tag must pair up.
    size_t quotes = 0;
    for (char c : tag) quotes += c == '"';
    if (quotes % 2 != 0) return "unbalanced quotes in <" + tag + ">";
    if (tag[0] == '/') {
      const std::string name = tag.substr(1);
      if (stack.empty() || stack.back() != name) return "mismatched </" + name + ">";
      stack.pop_back();
      continue;
    }
    const bool self_closing = tag.back() == '/';
    const std::string name = tag.substr(0, tag.find_first_of(" /"));
    if (stack.empty()) {
      ++roots;
      if (name != "svg") return "root is <" + name + ">";
    }
    if (!self_closing) stack.push_back(name);
  }
  if (!stack.empty()) return "unclosed <" + stack.back() + ">";
  if (roots != 1) return "not exactly one root";
  return "";
}

TEST(SvgPlotTest, LinePlotIsWellFormedWithEverySeries) {
  LinePlot plot;
  plot.title = "Time <to> read & \"N\"";
  plot.x_label = "N";
  plot.y_label = "s";
  plot.series.push_back({"random", {1, 2, 3}, {3.0, 1.5, 1.1}});
  plot.series.push_back({"hash", {1, 2, 3}, {3.0, 1.6, 1.0}});
  plot.x_markers.push_back({2, "seed N = 2"});
  const std::string svg = RenderLinePlot(plot);
  EXPECT_EQ(CheckWellFormed(svg), "");
  EXPECT_NE(svg.find("Time &lt;to&gt; read &amp; &quot;N&quot;"), std::string::npos);
  size_t polylines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos;
       p = svg.find("<polyline", p + 1)) {
    ++polylines;
  }
  EXPECT_EQ(polylines, 2u);
  EXPECT_NE(svg.find(">random</text>"), std::string::npos);
  EXPECT_NE(svg.find("seed N = 2"), std::string::npos);
}

TEST(SvgPlotTest, ReferenceSeriesIsDashedAndLongLegendsWidenTheDocument) {
  LinePlot plot;
  plot.series.push_back({"rate", {0, 1, 2}, {5, 6, 7}});
  PlotSeries target{"target", {0, 2}, {6, 6}};
  target.reference = true;
  plot.series.push_back(target);
  std::string svg = RenderLinePlot(plot);
  EXPECT_EQ(CheckWellFormed(svg), "");
  EXPECT_NE(svg.find("stroke=\"#000000\" stroke-dasharray=\"6,4\""), std::string::npos);
  size_t circles = 0;
  for (size_t p = svg.find("<circle"); p != std::string::npos;
       p = svg.find("<circle", p + 1)) {
    ++circles;
  }
  EXPECT_EQ(circles, 3u);  // the reference line has no point markers
  EXPECT_NE(svg.find("width=\"720\""), std::string::npos);
  plot.series[0].name = std::string(40, 'n');  // 55 + 7 x 40 = 335 px of legend
  svg = RenderLinePlot(plot);
  EXPECT_NE(svg.find("width=\"875\""), std::string::npos);
}

TEST(SvgPlotTest, EmptyPlotAndHeatMapAreWellFormed) {
  EXPECT_EQ(CheckWellFormed(RenderLinePlot(LinePlot{})), "");
  HeatMap map;
  map.title = "heat";
  map.row_labels = {"p0", "p1"};
  map.column_starts = {0, 1, 2};
  map.values = {{0, 0.5, 1.2}, {0.1, 0, 0}};
  const std::string svg = RenderHeatMap(map);
  EXPECT_EQ(CheckWellFormed(svg), "");
  size_t cells = 0;
  for (size_t p = svg.find("<rect"); p != std::string::npos;
       p = svg.find("<rect", p + 1)) {
    ++cells;
  }
  EXPECT_EQ(cells, 1u + 6u + 5u);  // background, cells, legend
  // Full scale and above: the darkest colour; zero: white.
  EXPECT_NE(svg.find("fill=\"#a50000\""), std::string::npos);
  EXPECT_NE(svg.find("fill=\"#ffffff\""), std::string::npos);
  EXPECT_EQ(CheckWellFormed(RenderHeatMap(HeatMap{})), "");
}

TEST(SvgPlotTest, NiceCeiling) {
  EXPECT_DOUBLE_EQ(NiceCeiling(0), 1);
  EXPECT_DOUBLE_EQ(NiceCeiling(1), 1);
  EXPECT_DOUBLE_EQ(NiceCeiling(1.2), 2);
  EXPECT_DOUBLE_EQ(NiceCeiling(2.2), 2.5);
  EXPECT_DOUBLE_EQ(NiceCeiling(3), 5);
  EXPECT_DOUBLE_EQ(NiceCeiling(7), 10);
  EXPECT_DOUBLE_EQ(NiceCeiling(0.03), 0.05);
}

}  // namespace
}  // namespace dynarock::tools::simulate
