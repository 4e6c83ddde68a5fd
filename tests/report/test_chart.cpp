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
  // As printed in the user guide (docs/formats.md#report-formats); every row but the last keeps its
  // blank final cell, the last row loses it.
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

TEST_CASE("fewer than two finite values draw no chart", "[chart]") {
  CHECK_FALSE(plot_chart({}));
  CHECK_FALSE(plot_chart({5.0}));
  CHECK_FALSE(plot_chart({5.0, std::nullopt, std::nullopt}));
  CHECK_FALSE(plot_chart(history_columns({{3, 7.0}}, 3)));
  // One observation with a trailing target still has a single finite column.
  CHECK_FALSE(plot_chart(history_columns({{3, 7.0}}, 10)));
  CHECK(history_columns({}, 4).empty());
}

TEST_CASE("interior and trailing gaps are kept and never lose an isolated point", "[chart]") {
  auto cols = history_columns({{10, 1.0}, {11, 2.0}, {15, 3.0}}, 17);
  REQUIRE(cols.size() == 8);
  CHECK(cols[0] == 1.0);
  CHECK(cols[1] == 2.0);
  CHECK_FALSE(cols[2]);
  CHECK(cols[5] == 3.0);
  CHECK_FALSE(cols[7]);
  auto chart = plot_chart(cols);
  REQUIRE(chart);
  // Gaps break the line: the gap after column 1 gets a flat stub on column 1's row, the
  // isolated column 5 is reached by a stub from its left neighbour gap.
  CHECK(*chart ==
        " 3.00 ┤    ──  \n"
        " 2.50 ┤        \n"
        " 2.00 ┤╭─      \n"
        " 1.50 ┤│       \n"
        " 1.00 ┼╯      ");
}

TEST_CASE("several observations at one index are averaged into one column", "[chart]") {
  auto cols = history_columns({{0, 1.0}, {0, 3.0}, {1, 4.0}}, 1);
  REQUIRE(cols.size() == 2);
  CHECK(cols[0] == 2.0);
  CHECK(cols[1] == 4.0);
}

TEST_CASE("long histories are grouped into 48 columns by the floor mapping", "[chart]") {
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 100; ++i) pts.push_back({i, static_cast<double>(i)});
  auto cols = history_columns(pts, 120);
  REQUIRE(cols.size() == 48);
  // span 120: index i → floor(i × 47 / 120); indices 0–2 share column 0, 100–120 hold nothing.
  CHECK(*cols[0] == Approx(1.0));
  for (std::size_t c = 0; c < 48; ++c) {
    bool has = false;
    for (std::size_t i = 0; i < 100; ++i)
      if (i * 47 / 120 == c) has = true;
    CHECK(cols[c].has_value() == has);
  }
  CHECK_FALSE(cols[47]);
  auto chart = plot_chart(cols);
  REQUIRE(chart);
  // 48 columns + 3 axis cells on every row but the last.
  const auto first_row = chart->substr(0, chart->find('\n'));
  std::size_t scalars = 0;
  for (unsigned char c : first_row)
    if ((c & 0xC0) != 0x80) ++scalars;
  // Label ` 98.50` (the top column is the mean of 98 and 99), a blank cell, the axis, then
  // 48 plot cells.
  CHECK(scalars == 6 + 1 + 1 + 48);
  CHECK(first_row.rfind(" 98.50 \u2524", 0) == 0);
}

TEST_CASE("a flat series draws one row labelled by its rounded level", "[chart]") {
  auto chart = plot_chart({5.0, 5.0, 5.0});
  REQUIRE(chart);
  CHECK(*chart == " 5.00 \u253c\u2500\u2500");
}

TEST_CASE("huge values print labels without decimals", "[chart]") {
  auto chart = plot_chart({1.0e9, 1.5e9, 2.0e9});
  REQUIRE(chart);
  CHECK(chart->rfind(" 2000000000 \u2524", 0) == 0);
  CHECK(chart->find("\n 1000000000 \u253c") != std::string::npos);
}

TEST_CASE("tiny values get extra label precision", "[chart]") {
  // log10(0.002) = −2.7 → precision 2 + 2 = 4.
  auto chart = plot_chart({0.001, 0.002});
  REQUIRE(chart);
  CHECK(chart->rfind(" 0.0020 \u2524", 0) == 0);
  CHECK(chart->find("\n 0.0010 \u253c") != std::string::npos);
  // An exact power of ten below 1: log10(0.1) = −1 → precision 2 + 0.
  auto tenth = plot_chart({0.1, 0.05});
  REQUIRE(tenth);
  CHECK(tenth->rfind(" 0.10 \u253c", 0) == 0);
}

TEST_CASE("labels round half to even on exact ties", "[chart]") {
  // max 108, min 100 → rows 4, third label 104, second 106; a 106.5 tie prints 106.
  auto chart = plot_chart({100.0, 113.0});
  REQUIRE(chart);
  // interval 13, rows 4: labels 113, 109.75, 106.5, 103.25, 100 → `113 110 106 103 100`.
  CHECK(*chart ==
        " 113 \u2524\u256d \n"
        " 110 \u2524\u2502 \n"
        " 106 \u2524\u2502 \n"
        " 103 \u2524\u2502 \n"
        " 100 \u253c\u256f");
}

TEST_CASE("negative values and falling lines use the mirrored corners", "[chart]") {
  auto chart = plot_chart({-1.0, -3.0});
  REQUIRE(chart);
  CHECK(*chart ==
        " -1.00 \u253c\u256e \n"
        " -1.50 \u2524\u2502 \n"
        " -2.00 \u2524\u2502 \n"
        " -2.50 \u2524\u2502 \n"
        " -3.00 \u2524\u2570");
}

TEST_CASE("branch charts start with the baseline and keep at most 28 commits of tail", "[chart]") {
  std::vector<ChartPoint> pts;
  for (std::size_t i = 0; i < 40; ++i) pts.push_back({i, 100.0 + static_cast<double>(i % 3)});
  pts.push_back({45, 130.0});  // context value after a lag of 5 commits
  auto cols = branch_columns(102.0, pts);
  REQUIRE(cols.size() == 30);
  CHECK(cols[0] == 102.0);
  CHECK(cols[1] == 100.0 + static_cast<double>(17 % 3));  // index 45 − 28 = 17
  CHECK_FALSE(cols[24]);   // index 40: the lag's empty columns
  CHECK_FALSE(cols[28]);   // index 44
  CHECK(cols[29] == 130.0);
  auto short_cols = branch_columns(1.0, {{0, 2.0}, {1, 3.0}});
  CHECK(short_cols.size() == 3);
  FindingChart fc{{{0, 2.0}, {1, 3.0}}, 1, std::nullopt, 1.0};
  CHECK(finding_columns(fc, true) == short_cols);
  CHECK(finding_columns(fc, false).size() == 2);
}
