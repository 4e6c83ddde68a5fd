// Every case of vectors/reconstruction.json (docs/pipeline.md#reconstruction).
#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <set>

#include "benchhist/analysis/reconstruction.hpp"
#include "common/vectors.hpp"

using namespace benchhist;
using namespace benchhist::analysis;
namespace json = boost::json;
using bhtest::num;

namespace {

// Point positions are 32-bit (reconstruction.hpp).
std::uint32_t u32(std::size_t v) { return static_cast<std::uint32_t>(v); }

std::string str(const json::value& v) { return std::string(v.as_string()); }

BenchmarkId id_of(const std::string& qualified) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  while (true) {
    const auto slash = qualified.find('/', start);
    segments.push_back(qualified.substr(start, slash - start));
    if (slash == std::string::npos) break;
    start = slash + 1;
  }
  return BenchmarkId(std::move(segments));
}

DiscriminantSet set_named(const std::string& machine) { return {Engine::callgrind, "t", machine}; }

std::vector<std::string> strings(const json::value& v) {
  std::vector<std::string> out;
  for (const auto& s : v.as_array()) out.push_back(str(s));
  return out;
}

// Points arrive in arbitrary order; the ordinal is the rank of the storage key
// (docs/pipeline.md#selection step 5).
void check_order(const json::object& in, const json::object& expected) {
  const auto& pts = in.at("points").as_array();
  std::vector<std::string> keys;
  for (const auto& p : pts) keys.push_back(str(p.at("storage_key")));
  std::vector<std::string> sorted = keys;
  std::sort(sorted.begin(), sorted.end());
  std::vector<Run> runs(pts.size());
  std::vector<PlacedRun> placed;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    const auto& p = pts[i].as_object();
    runs[i].results.push_back(BenchmarkResult{id_of("group/case"), {MetricValue{MetricKind::instruction_count, num(p.at("value")), {}, {}}}});
    const auto ordinal = static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), keys[i]) - sorted.begin());
    placed.push_back(PlacedRun{set_named("m1"), static_cast<std::size_t>(p.at("topo").to_number<std::int64_t>()),
                               p.at("dirty").as_bool(), ordinal, str(p.at("commit")), &runs[i]});
  }
  const auto series = build_series(placed);
  REQUIRE(series.size() == 1);
  std::vector<double> want;
  for (const auto& v : expected.at("values_in_order").as_array()) want.push_back(num(v));
  CHECK(series[0].values() == want);
}

std::vector<Series> ghost_input(const json::object& in) {
  std::vector<Series> series;
  for (const auto& sv : in.at("series").as_array()) {
    const auto& s = sv.as_object();
    Series out;
    out.key = SeriesKey{set_named(str(s.at("set"))), id_of(str(s.at("id"))), *parse_metric_kind(str(s.at("kind")))};
    std::size_t topo = 0;
    for (const auto& c : s.at("commits").as_array()) {
      std::string commit = str(c);
      bool dirty = false;
      if (commit.ends_with("(dirty)")) {
        commit.resize(commit.size() - 7);
        dirty = true;
      }
      out.points.push_back(Point{u32(topo++), dirty, 0, commit, 1.0, std::nullopt});
    }
    series.push_back(std::move(out));
  }
  return series;
}

void check_ghosts(const json::object& in, const json::object& expected) {
  auto series = ghost_input(in);
  const auto outcome = eliminate_ghosts(series, str(in.at("context_commit")));
  std::vector<std::string> kept;
  for (const auto& want : expected.at("kept").as_array()) kept.push_back(str(want));
  // Labels are `<id> <kind>` or, where sets matter, `<machine key> <id> <kind>`.
  const bool with_set = !kept.empty() && std::count(kept[0].begin(), kept[0].end(), ' ') == 2;
  std::vector<std::string> have;
  for (const auto& s : series) {
    const std::string base = s.key.id.qualified() + " " + std::string(to_string(s.key.kind));
    have.push_back(with_set ? s.key.set.machine_key + " " + base : base);
  }
  CHECK(have == kept);
  CHECK(outcome.ghost_series == expected.at("ghost_series").to_number<std::size_t>());
  if (const auto* gb = expected.if_contains("ghost_benchmarks"))
    CHECK(outcome.ghost_benchmarks == gb->to_number<std::size_t>());
}

void check_blessing_match(const json::object& in, const json::object& expected) {
  const auto prefixes = strings(in.at("prefixes"));
  const auto& ids = in.at("ids").as_array();
  const auto& matches = expected.at("matches").as_array();
  REQUIRE(ids.size() == matches.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    INFO(str(ids[i]));
    CHECK(prefixes_accept(prefixes, str(ids[i])) == matches[i].as_bool());
    // The whole matching path: a candidate with an unrestricted scope.
    const std::vector<BlessingCandidate> cands{{"k", "c", 0, BlessingScope{}, prefixes}};
    CHECK((select_blessing(cands, set_named("m"), str(ids[i])) != nullptr) == matches[i].as_bool());
  }
}

void check_blessing_scope(const json::object& in, const json::object& expected) {
  const auto& sc = in.at("scope").as_object();
  const BlessingScope scope{strings(sc.at("engine")), strings(sc.at("target_triple")), strings(sc.at("machine_key"))};
  const auto& sets = in.at("sets").as_array();
  const auto& matches = expected.at("matches").as_array();
  REQUIRE(sets.size() == matches.size());
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const auto& s = sets[i].as_array();
    const DiscriminantSet set{*parse_engine(str(s[0])), str(s[1]), str(s[2])};
    INFO(set.label());
    CHECK(scope.matches(set) == matches[i].as_bool());
    const std::vector<BlessingCandidate> cands{{"k", "c", 0, scope, {}}};
    CHECK((select_blessing(cands, set, "any/id") != nullptr) == matches[i].as_bool());
  }
}

std::vector<BlessingCandidate> candidates(const json::value& v) {
  std::vector<BlessingCandidate> out;
  std::size_t n = 0;
  for (const auto& b : v.as_array()) {
    const auto topo = b.at("topo").to_number<std::size_t>();
    out.push_back({"bless-" + std::to_string(n++), "commit" + std::to_string(topo), topo, BlessingScope{},
                   strings(b.at("prefixes"))});
  }
  return out;
}

void check_blessing_apply(const json::object& in, const json::object& expected) {
  const auto cands = candidates(in.at("blessings"));
  if (str(in.at("analysis_mode")) == "history") {
    std::vector<Point> points;
    for (const auto& t : in.at("point_topo").as_array()) {
      const auto topo = t.to_number<std::size_t>();
      points.push_back(Point{u32(topo), false, u32(points.size()), "commit" + std::to_string(topo), 1.0, std::nullopt});
    }
    const auto* b = select_blessing(cands, set_named("m"), str(in.at("id")));
    const std::size_t active_start = b ? history_active_start(points, b->topo) : 0;
    CHECK(active_start == expected.at("active_start").to_number<std::size_t>());
    if (const auto* blessed = expected.if_contains("blessed")) CHECK((b != nullptr) == blessed->as_bool());
  } else {
    std::vector<BaseLevel> levels;
    for (const auto& t : in.at("base_level_topo").as_array()) {
      const auto topo = t.to_number<std::size_t>();
      levels.push_back(BaseLevel{topo, "c" + std::to_string(topo), 1.0, std::nullopt});
    }
    const auto* b = select_blessing(cands, set_named("m"), "group/case");
    const auto window = base_window(levels, b ? std::optional<std::size_t>(b->topo) : std::nullopt);
    std::vector<std::size_t> retained;
    for (const auto& l : window.levels) retained.push_back(l.topo);
    std::vector<std::size_t> want;
    for (const auto& t : expected.at("retained_base_level_topo").as_array()) want.push_back(t.to_number<std::size_t>());
    CHECK(retained == want);
    CHECK((b != nullptr) == expected.at("blessed").as_bool());
  }
}

void check_ignore(const json::object& in, const json::object& expected) {
  const auto prefixes = strings(in.at("ignore_prefixes"));
  std::vector<Series> series;
  for (const auto& [id, present] : in.at("present_at_context").as_object()) {
    Series s;
    s.key = SeriesKey{set_named("m1"), id_of(std::string(id)), MetricKind::instruction_count};
    s.points.push_back(Point{0, false, 0, "c0", 1.0, std::nullopt});
    if (present.as_bool()) s.points.push_back(Point{1, false, 1, "ctx", 1.0, std::nullopt});
    series.push_back(std::move(s));
  }
  const auto ghosts = eliminate_ghosts(series, "ctx");
  const auto ignored = remove_ignored(series, prefixes);
  std::map<std::string, std::string> reasons;
  for (const auto& k : ghosts.removed) reasons[k.id.qualified()] = "ghost";
  for (const auto& k : ignored) reasons[k.id.qualified()] = "ignored";
  for (const auto& [id, reason] : expected.at("reasons").as_object()) {
    INFO(std::string(id));
    const auto it = reasons.find(std::string(id));
    if (reason.is_null())
      CHECK(it == reasons.end());
    else
      CHECK((it == reasons.end() ? std::string("<kept>") : it->second) == str(reason));
  }
}

void check_base_levels(const json::object& in, const json::object& expected) {
  if (const auto* runs = in.if_contains("runs")) {
    std::vector<Point> points;
    for (const auto& r : runs->as_array()) {
      const auto topo = r.at("topo").to_number<std::size_t>();
      points.push_back(Point{u32(topo), false, u32(points.size()), "c" + std::to_string(topo), num(r.at("value")), std::nullopt});
    }
    sort_points(points);
    const auto levels = collapse_base_levels(points);
    const auto& want = expected.at("levels").as_array();
    REQUIRE(levels.size() == want.size());
    for (std::size_t i = 0; i < levels.size(); ++i) {
      CHECK(levels[i].topo == want[i].at("topo").to_number<std::size_t>());
      CHECK(levels[i].value == num(want[i].at("value")));
      CHECK_FALSE(levels[i].interval);
    }
  } else {
    const auto n = in.at("base_commit_levels").to_number<std::size_t>();
    std::vector<BaseLevel> levels;
    for (std::size_t i = 0; i < n; ++i) levels.push_back(BaseLevel{i, "c" + std::to_string(i), double(i), std::nullopt});
    const auto window = base_window(levels, std::nullopt);
    CHECK(window.levels.size() == expected.at("base_window_levels").to_number<std::size_t>());
    CHECK(window.history_count == expected.at("base_history_count").to_number<std::size_t>());
    CHECK(window.first_retained == expected.at("first_retained_index").to_number<std::size_t>());
    CHECK(window.levels.front().topo == window.first_retained);
  }
}

void check_history_window(const json::object& in, const json::object& expected) {
  Series s;
  const auto n = in.at("points").to_number<std::size_t>();
  for (std::size_t i = 0; i < n; ++i) s.points.push_back(Point{u32(i), false, u32(i), "commit" + std::to_string(i), double(i), std::nullopt});
  s.active_start = in.at("active_start").to_number<std::size_t>();
  CHECK(s.analysed_first() == expected.at("analyzed_first_index").to_number<std::size_t>());
  CHECK(s.analysed_count() == expected.at("analyzed_points").to_number<std::size_t>());
  CHECK(s.values().size() == expected.at("chart_points").to_number<std::size_t>());
}

}  // namespace

TEST_CASE("every reconstruction vector case is reproduced exactly", "[analysis][vectors]") {
  const auto cases = bhtest::load_vectors("reconstruction.json");
  REQUIRE(cases.size() == 17);
  for (const auto& c : cases) {
    const auto& obj = c.as_object();
    const std::string name = str(obj.at("name"));
    const std::string mode = str(obj.at("mode"));
    const auto& in = obj.at("input").as_object();
    const auto& expected = obj.at("expected").as_object();
    SECTION(name) {
      if (mode == "reconstruction_order")
        check_order(in, expected);
      else if (mode == "ghosts")
        check_ghosts(in, expected);
      else if (mode == "blessing_match")
        check_blessing_match(in, expected);
      else if (mode == "blessing_scope")
        check_blessing_scope(in, expected);
      else if (mode == "blessing_apply")
        check_blessing_apply(in, expected);
      else if (mode == "ignore")
        check_ignore(in, expected);
      else if (mode == "branch_base_levels")
        check_base_levels(in, expected);
      else if (mode == "history_window")
        check_history_window(in, expected);
      else
        FAIL("unhandled vector mode " << mode);
    }
  }
}

TEST_CASE("base levels take the median of lows and highs when intervals are present", "[analysis]") {
  std::vector<Point> pts{{0, false, 0, "c0", 10.0, Interval{9, 11}},
                         {0, false, 1, "c0", 30.0, Interval{29, 33}},
                         {0, false, 2, "c0", 20.0, std::nullopt},
                         {1, false, 3, "c1", 5.0, std::nullopt}};
  const auto levels = collapse_base_levels(pts);
  REQUIRE(levels.size() == 2);
  CHECK(levels[0].value == 20.0);
  REQUIRE(levels[0].interval);
  CHECK(levels[0].interval->low == 19.0);
  CHECK(levels[0].interval->high == 22.0);
  CHECK_FALSE(levels[1].interval);
}

TEST_CASE("the context observation is the last point at the context commit", "[analysis]") {
  std::vector<Point> pts{{0, false, 0, "c0", 1.0, std::nullopt},
                         {2, false, 1, "tip", 2.0, std::nullopt},
                         {2, true, 0, "tip", 3.0, std::nullopt},
                         {2, true, 2, "tip", 4.0, std::nullopt}};
  sort_points(pts);
  auto tip = context_observation(pts, 2);
  REQUIRE(tip);
  CHECK(tip->value == 4.0);
  CHECK_FALSE(context_observation(pts, 1));
}

TEST_CASE("the median uses the total order and the midpoint formula", "[analysis]") {
  CHECK(median({3.0, 1.0, 2.0}) == 2.0);
  CHECK(median({4.0, 1.0, 3.0, 2.0}) == 2.5);
  CHECK(std::signbit(median({0.0, -0.0, -0.0})));
}

TEST_CASE("series building is the plain grouping whatever the thread count and result order", "[analysis]") {
  // Runs of three sets whose results come in shifting orders, with gaps, extra metrics and an
  // empty id, so the per-position series hints miss as often as they hit.
  std::vector<Run> runs_storage;
  std::vector<PlacedRun> placed;
  const std::vector<DiscriminantSet> sets{{Engine::criterion, "x86_64-unknown-linux-gnu", "m2"},
                                          {Engine::callgrind, "x86_64-unknown-linux-gnu", "m1"},
                                          {Engine::criterion, "aarch64-apple-darwin", "m1"}};
  runs_storage.reserve(60);
  for (std::size_t r = 0; r < 60; ++r) {
    Run run;
    for (std::size_t b = 0; b < 12; ++b) {
      const std::size_t id = (b + r) % 13;  // rotates; one id missing per run
      if ((id + r) % 7 == 0) continue;
      BenchmarkResult res;
      if (id != 12) res.id = BenchmarkId({"g" + std::to_string(id % 3), "case" + std::to_string(id)});
      res.metrics.push_back(MetricValue{MetricKind::wall_time, double(r * 100 + id), std::nullopt, std::nullopt});
      if (r % 2 == 0) res.metrics.push_back(MetricValue{MetricKind::instruction_count, double(r + id), std::nullopt, std::nullopt});
      run.results.push_back(std::move(res));
    }
    runs_storage.push_back(std::move(run));
    placed.push_back(PlacedRun{sets[r % 3], 60 - r, r % 5 == 0, r, "commit" + std::to_string(r), &runs_storage.back()});
  }
  // Reference: a map from the full key, points sorted by docs/pipeline.md#reconstruction.
  std::map<SeriesKey, std::vector<Point>> plain;
  for (const auto& p : placed)
    for (const auto& res : p.run->results) {
      if (res.id.empty()) continue;
      for (const auto& m : res.metrics)
        plain[SeriesKey{p.set, res.id, m.kind}].push_back(Point{u32(p.topo), p.dirty, u32(p.ordinal), p.commit, m.value, m.interval});
    }
  for (unsigned threads : {1u, 2u, 5u}) {
    INFO("threads " << threads);
    const auto built = build_series(placed, {}, threads);
    REQUIRE(built.size() == plain.size());
    std::size_t i = 0;
    for (auto& [key, points] : plain) {
      auto expected = points;
      sort_points(expected);
      CHECK(built[i].key == key);
      CHECK(built[i].points == expected);
      ++i;
    }
  }
  const auto only_g1 = build_series(placed, {"g1/"}, 2);
  CHECK(std::all_of(only_g1.begin(), only_g1.end(), [](const Series& s) { return s.key.id.segments()[0] == "g1"; }));
  CHECK(static_cast<std::ptrdiff_t>(only_g1.size()) ==
        std::count_if(plain.begin(), plain.end(), [](const auto& kv) { return kv.first.id.segments()[0] == "g1"; }));
}

TEST_CASE("sort_points is a stable sort by (topo, dirty, ordinal) on both of its paths", "[analysis]") {
  for (const std::size_t big : {std::size_t{0}, std::size_t{1} << 40}) {  // packed keys, then the fallback
    std::vector<Point> points;
    for (std::size_t i = 0; i < 500; ++i) {
      const std::size_t topo = (i * 7919) % 97 + big;
      points.push_back(Point{u32(topo), i % 5 == 0, u32((i * 31) % 13), "c" + std::to_string(i), double(i), std::nullopt});
    }
    auto expected = points;
    std::stable_sort(expected.begin(), expected.end(), point_before);
    sort_points(points);
    CHECK(points == expected);  // values identify the input order of equal keys
    sort_points(points);        // already sorted: unchanged
    CHECK(points == expected);
  }
}

TEST_CASE("a run placed beyond Point's 32-bit positions is refused, not truncated", "[analysis]") {
  Run run;
  BenchmarkResult res;
  res.id = BenchmarkId({"g", "case"});
  res.metrics.push_back(MetricValue{MetricKind::wall_time, 1.0, std::nullopt, std::nullopt});
  run.results.push_back(res);
  const DiscriminantSet set{Engine::criterion, "x86_64-unknown-linux-gnu", "m"};
  const std::size_t beyond = std::size_t{1} << 32;
  CHECK(build_series({PlacedRun{set, beyond - 1, false, 0, "c", &run}}).front().points.front().topo == beyond - 1);
  for (const auto& placed : {PlacedRun{set, beyond, false, 0, "c", &run}, PlacedRun{set, 0, false, beyond, "c", &run}}) {
    try {
      build_series({placed});
      FAIL("no error");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::usage);
      CHECK_THAT(e.message(), Catch::Contains("beyond 2^32"));
    }
  }
}
