#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "benchhist/report/chart.hpp"

using namespace benchhist::report;

namespace {

// The seed's clean step (detection vectors `seed_clean_step`): 20 points at commits 0–19 of a
// 30-commit history, so the chart ends in a 10-column trailing gap.
const std::vector<double> clean_step = {
    99.80727877100948,  98.42085021166359,  100.62898233776585, 100.10762202730722, 96.92714627070083,
    101.35834855660843, 103.22098058431875, 99.73790153237124,  103.37691473090972, 103.46725066576893,
    128.1354943602526,  127.37245591720621, 132.52725765199287, 131.96793374004625, 126.63966444724235,
    134.19625407900602, 135.09007559015703, 128.06715058774273, 135.06972550392157, 126.07203526080744};

const std::vector<double> slow_ramp = {
    98.33514316641795,  97.14136917091398,  102.68526296179597, 98.81717828854819,  100.16917165212355,
    100.61533961989821, 98.31917177148908,  100.62530656707948, 101.4677594496543,  103.30963026749589,
    102.08150922169975, 106.6084199643992,  103.84747753101963, 106.42194074596519, 103.39944907833478,
    108.67400843128358, 106.28223528433043, 101.87565129227403, 103.21966081860212, 101.17489165455396,
    104.82008465868522, 110.67164583181471, 105.20196756278365, 104.71865532705446, 105.6818625515974,
    103.14308259140316, 107.43275377091017, 110.2761177404652,  109.76604029639958, 113.06924733503351};

std::vector<ChartPoint> points_of(const std::vector<double>& v, std::size_t first = 0) {
  std::vector<ChartPoint> out;
  for (std::size_t i = 0; i < v.size(); ++i) out.push_back({first + i, v[i]});
  return out;
}

}  // namespace

TEST_CASE("the seed's change-point chart is reproduced glyph for glyph", "[chart]") {
  auto cols = history_columns(points_of(clean_step), 29);
  REQUIRE(cols.size() == 30);
  CHECK_FALSE(cols[20].has_value());
  auto chart = plot_chart(cols);
  REQUIRE(chart);
  // As printed in the user guide (formats.md §7.3); every row but the last keeps its blank
  // final cell, the last row loses it.
  const std::string expected =
      " 135 ┤           ╭─╮╭─╮╭╮           \n"
      " 126 ┤         ╭─╯ ╰╯ ╰╯╰─          \n"
      " 116 ┤         │                    \n"
      " 106 ┤ ╭╮ ╭─╮╭─╯                    \n"
      "  97 ┼─╯╰─╯ ╰╯                     ";
  CHECK(*chart == expected);
}

TEST_CASE("the seed's drift chart is reproduced glyph for glyph", "[chart]") {
  auto chart = plot_chart(history_columns(points_of(slow_ramp), 29));
  REQUIRE(chart);
  // The guide trims the bottom row's trailing blanks; the algorithm keeps all but the last.
  const std::string expected =
      " 113 ┤                    ╭╮    ╭── \n"
      " 109 ┤          ╭╮╭╮╭─╮   ││ ╭╮╭╯   \n"
      " 105 ┤ ╭╮     ╭─╯╰╯╰╯ ╰─╮╭╯╰─╯╰╯    \n"
      " 101 ┼╮│╰─────╯         ╰╯          \n"
      "  97 ┤╰╯                           ";
  CHECK(*chart == expected);
}
