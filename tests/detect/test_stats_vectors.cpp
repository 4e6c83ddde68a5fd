// Every case of vectors/stats_primitives.json (docs/statistics.md#primitives,
// #selection-correction).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>

#include "benchhist/detect/detail/analytic_bound.hpp"
#include "benchhist/detect/detail/orbit_group.hpp"
#include "benchhist/detect/detail/scatter.hpp"
#include "benchhist/detect/split_correction.hpp"
#include "benchhist/detect/stats.hpp"
#include "common/vectors.hpp"
#include "revisions.hpp"

using namespace benchhist::detect;
using bhtest::num;
using bhtest::numbers;
using bhtest::str;
using bhtest::tol_erfc;
using bhtest::tol_exact;

namespace {

std::vector<double> parse_float_list(std::string text) {
  std::vector<double> out;
  text.erase(std::remove_if(text.begin(), text.end(), [](char c) { return c == '[' || c == ']' || c == ' '; }),
             text.end());
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string tok = text.substr(start, end - start);
    if (tok == "NaN") out.push_back(std::numeric_limits<double>::quiet_NaN());
    else if (tok == "+inf" || tok == "inf") out.push_back(std::numeric_limits<double>::infinity());
    else if (tok == "-inf") out.push_back(-std::numeric_limits<double>::infinity());
    else out.push_back(std::stod(tok));
    start = end + 1;
  }
  return out;
}

std::vector<std::int64_t> doubled_even_ranks(std::int64_t from, std::int64_t to) {
  std::vector<std::int64_t> r;
  for (std::int64_t v = from; v <= to; v += 2) r.push_back(v);
  return r;
}

void check_case(const bhtest::json::object& c, bhtest::Behaviour behaviour) {
  const std::string op = str(c.at("op"));
  const auto& exp = c.at("expected");
  const auto& in = c.at("input");
  if (op == "mann_whitney") {
    const auto mw = mann_whitney(numbers(in.at("left")), numbers(in.at("right")));
    BH_CHECK_CLOSE(mw.two_sided_p, num(exp.at("two_sided_p")), tol_erfc);
    BH_CHECK_CLOSE(mw.superiority, num(exp.at("superiority")), tol_exact);
  } else if (op == "mann_whitney_normal_from_rank_sum") {
    const auto n1 = static_cast<std::size_t>(num(in.at("n1")));
    const auto n2 = static_cast<std::size_t>(num(in.at("n2")));
    const double t = num(in.at("tie_term"));
    BH_CHECK_CLOSE(mw_normal_p(n1, n2, num(in.at("rank_sum_left")), t), num(exp.at("two_sided_p")), tol_erfc);
    // The note: the complementary rank sum 108 gives the same p.
    BH_CHECK_CLOSE(mw_normal_p(n1, n2, 108.0, t), num(exp.at("two_sided_p")), tol_erfc);
  } else if (op == "exact_mw_feasible") {
    const auto& pairs = in.as_array();
    const auto& want = exp.as_array();
    REQUIRE(pairs.size() == want.size());
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const auto n1 = static_cast<std::size_t>(num(pairs[i].as_array()[0]));
      const auto n2 = static_cast<std::size_t>(num(pairs[i].as_array()[1]));
      INFO("(" << n1 << ", " << n2 << ")");
      CHECK(exact_mw_feasible(n1, n2) == want[i].as_bool());
    }
  } else if (op == "mann_whitney_tie_term_from_doubled_ranks") {
    std::vector<std::int64_t> r;
    for (const auto& v : in.at("doubled_ranks").as_array()) r.push_back(static_cast<std::int64_t>(num(v)));
    BH_CHECK_CLOSE(tie_term_from_doubled_ranks(r), num(exp.at("tie_term")), tol_exact);
  } else if (op == "mann_kendall") {
    const auto mk = mann_kendall(numbers(in.at("values")));
    BH_CHECK_CLOSE(mk.s, num(exp.at("s")), tol_exact);
    BH_CHECK_CLOSE(mk.p_value, num(exp.at("p_value")), tol_erfc);
  } else if (op == "theil_sen") {
    const auto ts = theil_sen(numbers(in.at("values")));
    REQUIRE(ts);
    BH_CHECK_CLOSE(ts->slope, num(exp.at("slope")), tol_exact);
    BH_CHECK_CLOSE(ts->intercept, num(exp.at("intercept")), tol_exact);
  } else if (op == "pettitt") {
    const auto p = pettitt(numbers(in.at("values")));
    REQUIRE(p);
    CHECK(p->index == static_cast<std::size_t>(num(exp.at("index"))));
    BH_CHECK_CLOSE(static_cast<double>(p->k), num(exp.at("k_statistic")), tol_exact);
    BH_CHECK_CLOSE(p->p_value, num(exp.at("p_value")), tol_erfc);
  } else if (op == "median") {
    BH_CHECK_CLOSE(median(numbers(in.at("values"))), num(exp.at("median")), tol_exact);
  } else if (op == "clamp_p_value") {
    const auto inputs = parse_float_list(str(in.at("inputs")));
    const auto outputs = parse_float_list(str(exp.at("outputs")));
    REQUIRE(inputs.size() == outputs.size());
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      INFO("input " << inputs[i]);
      CHECK(clamp_p(inputs[i]) == outputs[i]);
    }
  } else if (op == "selection_adjusted_change_point") {
    const auto values = in.as_object().contains("values") ? numbers(in.at("values")) : bhtest::expand_rle(in.at("values_rle"));
    const auto& cal = in.at("calibration");
    SplitCalibration sc;
    sc.order_budget = static_cast<std::uint64_t>(num(cal.at("permutation_order_budget")));
    sc.analytic_weight = num(cal.at("analytic_weight"));
    sc.accept_analytic_below = num(cal.at("accept_analytic_below"));
    sc.reject_at_or_above = num(cal.at("reject_at_or_above"));
    sc.min_regime = static_cast<std::size_t>(num(in.at("min_regime")));
    // S1, S3 and S3b are part of the history procedure (docs/divergences.md).
    sc.sharp_certificate = bhtest::departures_of(behaviour).sharp_certificate;
    sc.min_p_search = bhtest::departures_of(behaviour).min_p_search;
    sc.sharp_tails = bhtest::departures_of(behaviour).sharp_tails;
    const auto r = split_corrected_change_point(values, sc);
    if (exp.is_null()) {
      CHECK_FALSE(r.has_value());
      return;
    }
    REQUIRE(r.has_value());
    CHECK(r->index == static_cast<std::size_t>(num(exp.at("index"))));
    BH_CHECK_CLOSE(r->tainted_p, num(exp.at("tainted_p")), tol_erfc);
    BH_CHECK_CLOSE(r->adjusted_p, num(exp.at("adjusted_p")), tol_erfc);
    BH_CHECK_CLOSE(r->superiority, num(exp.at("superiority")), tol_exact);
    CHECK(r->adjusted_p >= r->tainted_p);
  } else if (op == "selection_fallback_group_order") {
    for (const auto& e : exp.as_array()) {
      const auto n = static_cast<std::size_t>(num(e.at("series_len")));
      const auto budget = static_cast<std::uint64_t>(num(e.at("order_budget")));
      INFO("n " << n << " budget " << budget);
      CHECK(detail::fallback_group(n, budget).order == static_cast<std::uint64_t>(num(e.at("group_order"))));
    }
  } else if (op == "best_factorization") {
    for (const auto& e : exp.as_array()) {
      const auto n = static_cast<std::size_t>(num(e.at("series_len")));
      const auto budget = static_cast<std::uint64_t>(num(e.at("budget")));
      INFO("n " << n << " budget " << budget);
      const auto f = detail::best_factorization(n, budget);
      std::vector<std::size_t> want;
      for (const auto& v : e.at("factors").as_array()) want.push_back(static_cast<std::size_t>(num(v)));
      CHECK(f.factors == want);
      CHECK(f.grid == static_cast<std::size_t>(num(e.at("grid_size"))));
      CHECK(f.order == static_cast<std::uint64_t>(num(e.at("order"))));
    }
  } else if (op == "scattered_positions") {
    CHECK(detail::scatter_key(0) == std::stoull(str(exp.at("scatter_key_0")), nullptr, 16));
    auto as_sizes = [](const bhtest::json::value& v) {
      std::vector<std::size_t> out;
      for (const auto& e : v.as_array()) out.push_back(static_cast<std::size_t>(num(e)));
      return out;
    };
    CHECK(detail::fallback_group(10, 24).positions == as_sizes(exp.at("positions_len10_budget24")));
    CHECK(detail::fallback_group(12, 2000).positions == as_sizes(exp.at("positions_len12_budget2000")));
  } else if (op == "permutation_orbit") {
    // "ties_5_5_budget_600": distinct orbit, order 252.
    {
      const std::vector<double> v{1, 1, 1, 1, 1, 2, 2, 2, 2, 2};
      std::set<std::vector<std::int64_t>> seen;
      std::size_t visits = 0;
      const auto g = detail::for_each_orbit_element(doubled_ranks(v), 600, [&](std::span<const std::int64_t> o) {
        seen.emplace(o.begin(), o.end());
        ++visits;
        return true;
      });
      CHECK(g == 252);
      CHECK(visits == 252);
      CHECK(seen.size() == 252);
    }
    // "distinct_10_budget_600": subgroup, order 240.
    {
      std::vector<double> v(10);
      for (std::size_t i = 0; i < 10; ++i) v[i] = static_cast<double>(i);
      std::size_t visits = 0;
      const auto g = detail::for_each_orbit_element(doubled_ranks(v), 600, [&](std::span<const std::int64_t>) {
        ++visits;
        return true;
      });
      CHECK(g == 240);
      CHECK(visits == 240);
    }
    // "balanced_12_tied_6_6": A6 x S6 yields 400 distinct orderings, each 648 times.
    {
      const std::vector<double> v{1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2};
      const auto group = detail::fallback_group(12, 259'200);
      CHECK(group.balanced);
      CHECK(group.order == 259'200);
      std::map<std::vector<std::int64_t>, std::size_t> counts;
      detail::for_each_group_element(doubled_ranks(v), group, [&](std::span<const std::int64_t> o) {
        ++counts[std::vector<std::int64_t>(o.begin(), o.end())];
        return true;
      });
      CHECK(counts.size() == 400);
      CHECK(std::all_of(counts.begin(), counts.end(), [](const auto& kv) { return kv.second == 648; }));
    }
    // "alternating_4": 12 even permutations.
    CHECK(detail::permutations(4, true).size() == 12);
    CHECK(detail::permutations(4, false).size() == 24);
  } else if (op == "analytic_bound_parts") {
    const auto r12 = doubled_even_ranks(2, 24);
    BH_CHECK_CLOSE(detail::analytic_bound(r12, 0.01, 5), num(exp.at("union_ranks_1_to_12_doubled_min_regime5_p0.01")), tol_exact);
    BH_CHECK_CLOSE(detail::analytic_bound(r12, 0.01, 6), num(exp.at("union_ranks_1_to_12_doubled_min_regime6_p0.01")), tol_exact);
    const auto r20 = doubled_even_ranks(2, 40);
    BH_CHECK_CLOSE(detail::rank_sum_tail_bound(r20, 5, 59, false),
                   num(exp.at("rank_sum_tail_bound(doubled ranks 2..40 step 2, k=5, sum=59, lower)")), tol_erfc);
    BH_CHECK_CLOSE(detail::rank_sum_tail_bound(r20, 5, 151, true), num(exp.at("rank_sum_tail_bound(same, sum=151, upper)")),
                   tol_erfc);
    BH_CHECK_CLOSE(detail::binary_kl(0.25, 0.5), num(exp.at("binary_kl(0.25,0.5)")), tol_erfc);
    BH_CHECK_CLOSE(detail::binary_kl(0.2, 0.4), num(exp.at("binary_kl(0.2,0.4)")), tol_erfc);
    BH_CHECK_CLOSE(detail::serfling_bound(20, 5, 0.2), num(exp.at("serfling(N=20,k=5,dev=0.2)")), tol_erfc);
    const auto lower = detail::closest_rejection_sum(r20, 5, 0.05, false);
    const auto upper = detail::closest_rejection_sum(r20, 5, 0.05, true);
    REQUIRE(lower);
    REQUIRE(upper);
    CHECK(*lower == static_cast<std::int64_t>(
                        num(exp.at("closest_lower_rejection_sum(k=5,min=30,expected=105,p=0.05, normal scorer)"))));
    CHECK(*upper == static_cast<std::int64_t>(
                        num(exp.at("closest_upper_rejection_sum(k=5,expected=105,max=190,p=0.05, normal scorer)"))));
  } else if (op == "scattered") {
    std::vector<std::pair<double, std::size_t>> rle;
    for (const auto& r : in.at("levels_rle").as_array())
      rle.emplace_back(num(r.as_array()[0]), static_cast<std::size_t>(num(r.as_array()[1])));
    const std::string seed = str(in.at("seed_name"));
    CHECK(detail::fnv1a64(seed) == std::stoull(str(exp.at("seed")), nullptr, 16));
    const auto got = detail::scattered_series(rle, num(in.at("cv")), seed);
    const auto want = numbers(exp.at("values"));
    REQUIRE(got.size() == want.size());
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(got[i] == want[i]);
  } else {
    FAIL("unknown stats op " << op);
  }
}

}  // namespace

TEST_CASE("every stats_primitives vector matches the spec primitives", "[detect][vectors]") {
  for (const bhtest::Behaviour b : {bhtest::Behaviour::product, bhtest::Behaviour::reference}) {
    const auto cases = bhtest::vectors_for("stats_primitives.json", b);
    REQUIRE(cases.size() == 47);
    for (const auto& v : cases) {
      const auto& c = v.as_object();
      DYNAMIC_SECTION(bhtest::to_string(b) << " " << str(c.at("name"))) { check_case(c, b); }
    }
  }
}
