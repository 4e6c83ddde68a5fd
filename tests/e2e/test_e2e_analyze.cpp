// End to end of the analysis family on a real git repository: 45 first-parent commits on
// `main` (a merge from a side branch among them, one commit without any run), runs for two
// engines and two machine keys written through the library (encode_run + LocalStore, i.e. the
// same gzip records `collect` writes), and the real binary's `analyze`, `examine`, `list runs`
// and `list discriminants`. Covers docs/cli.md#commands, docs/formats.md#outputs (text, --json,
// --markdown, --markdown-summary, --outcome), determinism, corrupt objects and the shallow-clone
// error.

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <regex>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "e2e_support.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
namespace bh = benchhist;
using e2e::contains;
using e2e::run_cli;

namespace {

const std::string triple = "x86_64-unknown-linux-gnu";
const std::string project = "analyze-repo";
constexpr long long t0 = 1780272000;  // 2026-06-01T00:00:00Z; commits are an hour apart
constexpr int n_commits = 45;
constexpr int step_at = 30;      // parse/big rises 30 % here on machine m-a
constexpr int missing_at = 10;   // no run at all at this commit
constexpr int dirty_at = 20;     // a dirty snapshot (base side: never admitted)
constexpr int merge_at = 15;     // merge commit of the side branch

double noise(int i) { return (((i * 37) % 11) - 5) * 0.1; }

bh::MetricValue metric(bh::MetricKind kind, double v) {
  bh::MetricValue m;
  m.kind = kind;
  m.value = v;
  m.interval = bh::Interval{v * 0.99, v * 1.01};
  return m;
}

bh::BenchmarkResult result(std::vector<std::string> segments, bh::MetricKind kind, double v) {
  bh::BenchmarkResult r;
  r.id = bh::BenchmarkId(std::move(segments));
  r.metrics.push_back(metric(kind, v));
  return r;
}

bh::Run make_run(const std::string& commit, long long when, bool dirty, std::vector<bh::BenchmarkResult> results) {
  bh::Run run;
  run.context.observation = bh::Timestamp{std::chrono::seconds(when + 60)};
  run.context.git.commit = commit;
  run.context.git.branch = "main";
  run.context.git.dirty = dirty;
  run.context.toolchain.target_triple = triple;
  run.context.toolchain.rustc_version = "1.95.0";
  run.context.tool_version = "e2e";
  run.context.best_of = 1;
  run.results = std::move(results);
  return run;
}

struct History {
  e2e::TempDir tmp{"bhe2e-analyze"};
  fs::path repo = tmp.path() / project;
  fs::path store = tmp.path() / "store";
  std::vector<std::string> commits;  // first-parent line, oldest first
  std::vector<std::string> side;     // side-branch commits (not on the first-parent line)

  void put(const std::string& key, const bh::Run& run) {
    bh::storage::LocalStore s(store);
    s.put(key, bh::codec::encode_run(run), bh::storage::CollisionPolicy::refuse);
  }

  void commit(const std::string& subject, long long when) {
    e2e::write_file(repo / "log.txt", subject + "\n");
    e2e::git(repo, {"add", "log.txt"});
    e2e::git(repo, {"commit", "-q", "-m", subject}, when);
  }

  History() {
    fs::create_directories(repo);
    e2e::git(repo, {"init", "-q"});
    for (int i = 0; i < n_commits; ++i) {
      const long long when = t0 + i * 3600;
      if (i == merge_at) {
        e2e::git(repo, {"checkout", "-q", "-b", "side"});
        for (int k = 0; k < 2; ++k) {
          e2e::write_file(repo / ("side" + std::to_string(k) + ".txt"), "side\n");
          e2e::git(repo, {"add", "-A"});
          e2e::git(repo, {"commit", "-q", "-m", "side work " + std::to_string(k)}, when - 1800 + k * 60);
          side.push_back(e2e::git(repo, {"rev-parse", "HEAD"}));
        }
        e2e::git(repo, {"checkout", "-q", "main"});
        e2e::git(repo, {"merge", "-q", "--no-ff", "-m", "commit 15: merge side", "side"}, when);
      } else {
        commit("commit " + std::to_string(i) + (i == step_at ? ": slow parser" : ""), when);
      }
      commits.push_back(e2e::git(repo, {"rev-parse", "HEAD"}));
    }
    using bh::Engine;
    using bh::MetricKind;
    for (int i = 0; i < n_commits; ++i) {
      if (i == missing_at) continue;
      const long long when = t0 + i * 3600;
      const double big = (i >= step_at ? 130.0 : 100.0) + noise(i);
      std::vector<bh::BenchmarkResult> a{result({"parse", "big"}, MetricKind::wall_time, big),
                                         result({"parse", "small"}, MetricKind::wall_time, 50.0 + noise(i))};
      if (i >= n_commits - 2) a.push_back(result({"fresh", "bench"}, MetricKind::wall_time, 10.0 + noise(i)));
      put(bh::codec::clean_key(project, Engine::criterion, triple, "m-a", commits[i]), make_run(commits[i], when, false, a));
      put(bh::codec::clean_key(project, Engine::criterion, triple, "m-b", commits[i]),
          make_run(commits[i], when, false, {result({"parse", "big"}, MetricKind::wall_time, 100.0 + noise(i + 3))}));
      put(bh::codec::clean_key(project, Engine::callgrind, triple, "m-a", commits[i]),
          make_run(commits[i], when, false,
                   {result({"cg", "insn"}, MetricKind::instruction_count, 1000.0 + (i % 3))}));
    }
    // A wild dirty snapshot on the base side and wild runs on the side branch: neither may
    // appear in any finding, examine row or run count.
    put(bh::codec::dirty_key(project, Engine::criterion, triple, "m-a", commits[dirty_at], t0 + dirty_at * 3600 + 90),
        make_run(commits[dirty_at], t0 + dirty_at * 3600 + 30, true,
                 {result({"parse", "big"}, MetricKind::wall_time, 500.0),
                  result({"parse", "small"}, MetricKind::wall_time, 500.0)}));
    for (std::size_t k = 0; k < side.size(); ++k)
      put(bh::codec::clean_key(project, Engine::criterion, triple, "m-a", side[k]),
          make_run(side[k], t0, false,
                   {result({"parse", "big"}, MetricKind::wall_time, 999.0),
                    result({"parse", "small"}, MetricKind::wall_time, 999.0)}));
  }

  std::string key(const std::string& engine, const std::string& machine, const std::string& commit) const {
    return "v1/" + project + "/objects/" + engine + "/" + triple + "/" + machine + "/" + commit + "/clean.json";
  }
};

// A fixed --since keeps the analysis window (and so every output) independent of today's date.
const std::vector<std::string> all_sets{"--engine", "all", "--target-triple", "all", "--machine-key", "all",
                                        "--since", "2026-05-01"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

json::value read_json(const fs::path& p) { return json::parse(e2e::read_file(p)); }

}  // namespace

TEST_CASE("analyze finds the step regression at its commit and writes every requested output", "[e2e][analyze]") {
  History h;
  const auto out = h.tmp.path() / "out";
  auto args = with({"analyze", "--local=" + h.store.string(), "--json", (out / "a.json").string(), "--markdown",
                    (out / "a.md").string(), "--markdown-summary", (out / "s.md").string(), "--outcome",
                    (out / "outcome").string()},
                   all_sets);
  auto r = run_cli(args, h.repo);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);  // findings never change the exit code (docs/formats.md#process-contract)
  CHECK(contains(r.err, "[bench-history] selection: engine=all, target-triple=all, machine-key=all; base=main"));

  const auto j = read_json(out / "a.json").as_object();
  CHECK(j.at("project").as_string() == project);
  CHECK(j.at("tip_commit").as_string() == h.commits.back());
  CHECK(j.at("tip_dirty").as_bool() == false);
  CHECK(j.at("mode").as_string() == "history");
  CHECK(j.at("outcome").as_string() == "findings");
  CHECK(j.at("notable").as_bool() == true);
  CHECK(j.at("regressions").as_int64() == 1);
  CHECK_FALSE(j.contains("improvements"));
  // 44 runs per set on the first-parent line (no run at commit 10; the dirty snapshot and
  // the side-branch runs are not admitted).
  CHECK(j.at("runs").as_int64() == 3 * 44);
  // docs/formats.md#report-formats: members in the listed order (history mode: no improvements; no
  // hint or warning).
  std::vector<std::string> members;
  for (const auto& kv : j) members.emplace_back(kv.key());
  CHECK(members == std::vector<std::string>{"project", "tip_commit", "tip_dirty", "mode", "outcome", "notable",
                                            "runs", "series", "regressions", "ghosts_excluded", "census",
                                            "findings", "sets"});
  CHECK(j.at("series").as_int64() == 5);
  CHECK(j.at("ghosts_excluded").as_int64() == 0);
  const auto& findings = j.at("findings").as_array();
  REQUIRE(findings.size() == 1);
  const auto& f = findings[0].as_object();
  CHECK(f.at("engine").as_string() == "criterion");
  CHECK(f.at("machine_key").as_string() == "m-a");
  CHECK(f.at("target_triple").as_string() == triple);
  CHECK(f.at("segments") == json::array{"parse", "big"});
  CHECK(f.at("kind").as_string() == "wall_time");
  CHECK(f.at("method").as_string() == "change_point");
  CHECK(f.at("direction").as_string() == "regression");
  CHECK(f.at("commit").as_string() == h.commits[step_at]);
  CHECK(f.at("baseline").to_number<double>() == Approx(100.0).margin(1.0));
  CHECK(f.at("latest").to_number<double>() == Approx(130.0).margin(1.0));
  CHECK(f.at("relative_delta").to_number<double>() == Approx(0.3).margin(0.02));

  // Census: 5 series (3 criterion on m-a, 1 on m-b, 1 callgrind); fresh/bench has 2 points.
  const auto& census = j.at("census").as_object();
  CHECK(census.at("total").as_int64() == 5);
  CHECK(census.at("in_scope").as_int64() == 5);
  CHECK(census.at("judged").as_int64() == 4);
  CHECK(census.at("unjudged").as_int64() == 1);
  CHECK(census.at("coverage").as_string() == "partial");
  CHECK(census.at("reasons") == json::parse(R"([{"reason":"too_few_points","count":1}])"));
  const auto& sets = j.at("sets").as_array();
  CHECK(sets.size() == 3);

  CHECK(e2e::trim(e2e::read_file(out / "outcome")) == "findings");
  const auto md = e2e::read_file(out / "a.md");
  CHECK(md.rfind("# Benchmark history analysis: " + project + "\n", 0) == 0);
  CHECK(contains(md, "## criterion/" + triple + "/m-a"));
  CHECK(contains(md, "parse/big"));
  CHECK(contains(md, "## Coverage"));
  const auto summary = e2e::read_file(out / "s.md");
  CHECK(summary.rfind("# Benchmark history analysis: " + project + "\n", 0) == 0);
  CHECK(contains(summary, "_Filter:_ `--engine criterion --target-triple " + triple + " --machine-key m-a`"));
  CHECK(contains(r.out, "parse/big"));
  CHECK(contains(r.out, h.commits[step_at].substr(0, 7)));
  // docs/formats.md#streams: the rendered report ends with "\n" and is printed followed by a
  // newline.
  CHECK(r.out.size() > 2);
  CHECK(r.out.substr(r.out.size() - 2) == "\n\n");

  SECTION("a second run produces byte-identical outputs") {
    const auto out2 = h.tmp.path() / "out2";
    auto args2 = with({"analyze", "--local=" + h.store.string(), "--json", (out2 / "a.json").string(), "--markdown",
                       (out2 / "a.md").string(), "--markdown-summary", (out2 / "s.md").string(), "--outcome",
                       (out2 / "outcome").string()},
                      all_sets);
    auto r2 = run_cli(args2, h.repo);
    REQUIRE(r2.exit_code == 0);
    CHECK(r2.out == r.out);
    for (const char* name : {"a.json", "a.md", "s.md", "outcome"}) {
      INFO(name);
      CHECK(e2e::read_file(out2 / name) == e2e::read_file(out / name));
    }
  }
  SECTION("judged nothing because every series is too short: the report says how many points it takes") {
    // fresh/bench was measured at the last two commits only.
    auto rf = run_cli(with({"analyze", "--local=" + h.store.string(), "--json", (out / "fresh.json").string(), "fresh/"},
                           all_sets),
                      h.repo);
    INFO("stdout:\n" << rf.out << "\nstderr:\n" << rf.err);
    REQUIRE(rf.exit_code == 0);
    const std::string hint = "History judges a series once it has 10 points in the analyzed window (a change needs "
                             "five on each side of it); the longest here has 2 points.";
    CHECK(contains(rf.out, hint));
    CHECK(contains(std::string(read_json(out / "fresh.json").at("hint").as_string()), hint));
    // With any series judged, the census line alone speaks for the short ones.
    CHECK_FALSE(contains(r.out, "History judges"));
  }
  SECTION("--verbose names the unjudged series") {
    auto rv = run_cli(with(args, {"--verbose"}), h.repo);
    INFO("stderr:\n" << rv.err);
    REQUIRE(rv.exit_code == 0);
    CHECK(contains(rv.err, "[bench-history] unjudged criterion/" + triple +
                               "/m-a fresh/bench wall_time: too_few_points (with too few points in the analyzed window"));
    // Flat series raise candidates that a gate declines; each declined ladder is named with
    // the gate that stopped it and one line per gate.
    CHECK(std::regex_search(rv.err, std::regex(R"(\[bench-history\] declined (change_point|drift) candidate for \S+ \S+ \S+( at \S+)?:\n\[bench-history\]   \S+)")));
  }
}

TEST_CASE("examine lists every first-parent commit of the range with gaps as n/a", "[e2e][analyze]") {
  History h;
  const auto ex = h.tmp.path() / "ex.json";
  auto r = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "parse/big", "--metric", "wall_time",
                    "--engine", "criterion", "--target-triple", "all", "--machine-key", "m-a", "--since",
                    "2026-05-01", "--json", ex.string()},
                   h.repo);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "Data points for parse/big metric wall_time"));
  CHECK(contains(r.out, "criterion/" + triple + "/m-a"));
  const auto j = read_json(ex).as_object();
  const auto& sets = j.at("sets").as_array();
  REQUIRE(sets.size() == 1);
  const auto& points = sets[0].at("points").as_array();
  REQUIRE(points.size() == n_commits);
  for (int i = 0; i < n_commits; ++i) {
    INFO("commit index " << i);
    const auto& p = points[i].as_object();
    CHECK(p.at("commit").as_string() == h.commits[i]);
    if (i == missing_at) {
      CHECK(p.at("value").is_null());
      CHECK_FALSE(p.contains("dirty"));
    } else {
      CHECK(p.at("value").to_number<double>() == Approx((i >= step_at ? 130.0 : 100.0) + noise(i)));
      CHECK(p.at("dirty").as_bool() == false);
    }
  }
  // The Markdown table marks the gap as n/a in both the value and the kind column.
  const auto md = h.tmp.path() / "ex.md";
  auto rm = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "parse/big", "--metric", "wall_time",
                     "--engine", "criterion", "--target-triple", "all", "--machine-key", "m-a", "--since",
                     "2026-05-01", "--no-text", "--markdown", md.string()},
                    h.repo);
  REQUIRE(rm.exit_code == 0);
  CHECK(rm.out.empty());
  const auto mdtext = e2e::read_file(md);
  CHECK(mdtext.rfind("# Data points for parse/big in " + project + "\n", 0) == 0);
  CHECK(contains(mdtext, "## criterion/" + triple + "/m-a"));
  CHECK(std::regex_search(mdtext, std::regex("\\| " + h.commits[missing_at].substr(0, 7) +
                                             "[0-9a-f]* \\| n/a \\| n/a \\| commit 10 \\|")));
  CHECK(std::regex_search(mdtext, std::regex("\\| " + h.commits[step_at].substr(0, 7) +
                                             "[0-9a-f]* \\| [0-9.]+ \\| clean \\| commit 30: slow parser \\|")));

  // An unknown benchmark id is an error naming the closest stored ids (issue 22: it used to
  // exit 0 pointing to `list runs`, which prints no ids).
  auto unknown = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "no/such", "--metric", "wall_time",
                          "--engine", "all", "--target-triple", "all", "--machine-key", "all", "--since", "2026-05-01"},
                         h.repo);
  INFO("unknown stderr:\n" << unknown.err);
  CHECK(unknown.exit_code == 1);
  CHECK(unknown.out.empty());
  CHECK(contains(unknown.err, "Error: no benchmark \"no/such\" in the "));
  CHECK(contains(unknown.err, "the closest stored ids are: "));
  CHECK(contains(unknown.err, "parse/big"));

  // The text rows: the gap commit shows n/a.
  CHECK(std::regex_search(r.out, std::regex(h.commits[missing_at].substr(0, 7) + "[0-9a-f]*\\s+n/a\\s+commit 10")));
}

TEST_CASE("list runs counts the admitted runs and list discriminants lists every stored partition",
          "[e2e][analyze]") {
  History h;
  const auto lr = h.tmp.path() / "runs.json";
  auto r = run_cli(with({"list", "runs", "--local=" + h.store.string(), "--json", lr.string()}, all_sets), h.repo);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.rfind("Data set for project " + project + "\n", 0) == 0);
  CHECK(contains(r.out, "Total: 132 runs, 5 series across 3 discriminant sets"));
  const auto j = read_json(lr).as_object();
  CHECK(j.at("totals") == json::parse(R"({"runs":132,"series":5,"discriminant_sets":3})"));
  for (const auto& s : j.at("sets").as_array()) {
    const auto& commits = s.at("commits").as_array();
    CHECK(commits.size() == 44);
    CHECK(commits.front().at("commit").as_string() == h.commits.front());
    CHECK(commits.back().at("commit").as_string() == h.commits.back());
  }

  // Needs no repository (docs/cli.md#commands): run from a plain directory that is not a git
  // repository (named like the project, since the default project id is the directory name,
  // docs/configuration.md).
  e2e::TempDir elsewhere;
  fs::create_directories(elsewhere.path() / project);
  const auto ld = h.tmp.path() / "disc.json";
  auto d = run_cli({"list", "discriminants", "--local=" + h.store.string(), "--json", ld.string()},
                   elsewhere.path() / project);
  INFO("stderr:\n" << d.err);
  REQUIRE(d.exit_code == 0);
  CHECK(d.out == "Discriminant sets:\n  - callgrind/" + triple + "/m-a\n  - criterion/" + triple +
                     "/m-a\n  - criterion/" + triple + "/m-b\n\n");
  CHECK(read_json(ld) == json::parse(R"([
    {"engine":"callgrind","target_triple":"x86_64-unknown-linux-gnu","machine_key":"m-a"},
    {"engine":"criterion","target_triple":"x86_64-unknown-linux-gnu","machine_key":"m-a"},
    {"engine":"criterion","target_triple":"x86_64-unknown-linux-gnu","machine_key":"m-b"}])"));
}

TEST_CASE("A corrupt stored object fails the analysis with a message naming it", "[e2e][analyze]") {
  History h;
  const auto key = h.key("criterion", "m-a", h.commits[5]);
  const auto path = h.store / key;
  const auto body = e2e::read_file(path);
  auto analyze = [&] { return run_cli(with({"analyze", "--local=" + h.store.string()}, all_sets), h.repo); };

  SECTION("a truncated gzip body") {
    e2e::write_file(path, body.substr(0, body.size() / 2));
    auto r = analyze();
    INFO("stderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "Error: could not decompress local storage object at "));
    CHECK(contains(r.err, key));
    CHECK(e2e::read_file(path) == body.substr(0, body.size() / 2));  // never repaired or removed
  }
  SECTION("a plaintext JSON object (no gzip)") {
    e2e::write_file(path, bh::codec::gunzip(body));
    auto r = analyze();
    INFO("stderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, key));
  }
  SECTION("a gzip body that is not a result set") {
    e2e::write_file(path, bh::codec::gzip_compress("{\"schema_version\": 5, \"context\": 7}"));
    auto r = analyze();
    INFO("stderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "stored object " + key + " is not a valid result set"));
  }
  SECTION("a record of a newer schema_version") {
    // docs/formats.md#read-compatibility says "reads are not gated on" schema_version; the library
    // refuses versions newer than 5 naming the key (what this suite's brief asks for). Reported.
    auto text = bh::codec::gunzip(body);
    const auto pos = text.find("\"schema_version\": 5");
    REQUIRE(pos != std::string::npos);
    text.replace(pos, 19, "\"schema_version\": 99");
    e2e::write_file(path, bh::codec::gzip_compress(text));
    auto r = analyze();
    INFO("stderr:\n" << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "Error: stored object " + key + " was written by a newer cargo-bench-history"));
  }
}

TEST_CASE("--skip-unreadable: the failure counts the unreadable objects; with the flag the rest is analysed and every format lists them",
          "[e2e][analyze]") {
  History h;
  // Two objects outside the reported series: the m-b run of commit 5 cut in half, the callgrind
  // run of commit 7 a well-formed gzip body that is not a result set.
  const auto truncated = h.key("criterion", "m-b", h.commits[5]);
  const auto invalid = h.key("callgrind", "m-a", h.commits[7]);
  const auto truncated_body = e2e::read_file(h.store / truncated);
  e2e::write_file(h.store / truncated, truncated_body.substr(0, truncated_body.size() / 2));
  e2e::write_file(h.store / invalid, bh::codec::gzip_compress("{\"schema_version\": 5, \"context\": 7}"));
  const auto damaged = [&] {
    return std::pair{e2e::read_file(h.store / truncated), e2e::read_file(h.store / invalid)};
  };
  const auto before = damaged();

  // By default the analysis fails on the first unreadable key, counting the others.
  auto fail = run_cli(with({"analyze", "--local=" + h.store.string()}, all_sets), h.repo);
  INFO("stderr:\n" << fail.err);
  CHECK(fail.exit_code == 1);
  CHECK(fail.out.empty());
  CHECK(contains(fail.err, "Error: stored object " + invalid + " is not a valid result set"));
  CHECK(contains(fail.err, "2 of the 132 selected stored objects cannot be read"));
  CHECK(contains(fail.err, "pass --skip-unreadable to analyse the rest"));
  CHECK_FALSE(contains(fail.err, "library"));  // a CLI hint names options, not request fields
  CHECK(damaged() == before);

  const auto out = h.tmp.path() / "out";
  auto r = run_cli(with({"analyze", "--local=" + h.store.string(), "--skip-unreadable", "--json",
                         (out / "a.json").string(), "--markdown", (out / "a.md").string(), "--markdown-summary",
                         (out / "s.md").string(), "--html", (out / "a.html").string()},
                        all_sets),
                   h.repo);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string sentence = "Skipped 2 unreadable stored objects (--skip-unreadable): " + invalid + ", " + truncated + ".";
  CHECK(contains(r.err, "[bench-history] skipped (--skip-unreadable): stored object " + invalid));
  CHECK(contains(r.err, "[bench-history] skipped (--skip-unreadable): could not decompress local storage object at "));
  CHECK(contains(r.out, "  " + sentence + "\n"));
  CHECK(contains(e2e::read_file(out / "a.md"), "- " + sentence + "\n"));
  CHECK(contains(e2e::read_file(out / "s.md"), "- " + sentence + "\n"));
  CHECK(contains(e2e::read_file(out / "a.html"), "<p id=\"skipped-unreadable\">"));
  const auto j = read_json(out / "a.json").as_object();
  CHECK(j.at("census").at("skipped_unreadable") == json::array{json::string(invalid), json::string(truncated)});
  CHECK(j.at("runs").as_int64() == 3 * 44 - 2);
  // The rest is really analysed: the planted step is still found at its commit.
  const auto& findings = j.at("findings").as_array();
  REQUIRE(findings.size() == 1);
  CHECK(findings[0].at("commit").as_string() == h.commits[step_at]);
  CHECK(damaged() == before);  // skipping never repairs or removes a stored object

  // examine skips the same way and says so in its warning; the skipped commit is a gap.
  const auto ex = h.tmp.path() / "ex.json";
  auto e = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "parse/big", "--metric", "wall_time",
                    "--engine", "criterion", "--target-triple", "all", "--machine-key", "m-b", "--since",
                    "2026-05-01", "--skip-unreadable", "--json", ex.string()},
                   h.repo);
  INFO("examine stdout:\n" << e.out << "\nexamine stderr:\n" << e.err);
  REQUIRE(e.exit_code == 0);
  CHECK(contains(e.out, "Skipped 1 unreadable stored object (--skip-unreadable): " + truncated + "."));
  auto e_fail = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "parse/big", "--metric",
                         "wall_time", "--engine", "criterion", "--target-triple", "all", "--machine-key", "m-b",
                         "--since", "2026-05-01"},
                        h.repo);
  CHECK(e_fail.exit_code == 1);
  CHECK(contains(e_fail.err, truncated));
  CHECK(contains(e_fail.err, "--skip-unreadable"));
}

TEST_CASE("analyze in a shallow clone without the merge base fails with the shallow-clone advice",
          "[e2e][analyze]") {
  History h;
  // A feature branch forked at commit 30, 6 commits long; the shallow clone holds the last 5 of
  // each branch, so their merge base is missing.
  e2e::git(h.repo, {"checkout", "-q", "-b", "feature", h.commits[step_at]});
  for (int k = 0; k < 6; ++k) h.commit("feature " + std::to_string(k), t0 + 100 * 3600 + k * 60);
  e2e::git(h.repo, {"checkout", "-q", "main"});
  const auto shallow = h.tmp.path() / "shallow";
  e2e::git(h.tmp.path(), {"clone", "-q", "--depth", "5", "--no-single-branch", "--branch", "feature",
                          "file://" + h.repo.string(), shallow.string()});
  REQUIRE(e2e::git(shallow, {"rev-parse", "--is-shallow-repository"}) == "true");
  auto r = run_cli(with({"analyze", "--local=" + h.store.string(), "--base", "origin/main"}, all_sets), shallow);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "Error: "));
  CHECK(contains(r.err, "shallow"));
  CHECK(contains(r.err, "fetch-depth: 0"));
}

TEST_CASE("analyze in a shallow clone says which stored runs its boundary left out, and how to fix it",
          "[e2e][analyze]") {
  History h;
  const std::string fix = "run `git fetch --unshallow` (actions/checkout: `fetch-depth: 0`) and analyze again";
  // The full clone leaves nothing out, and says nothing.
  auto full = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--json",
                            (h.tmp.path() / "full.json").string()}, all_sets),
                      h.repo);
  INFO("stderr:\n" << full.err);
  REQUIRE(full.exit_code == 0);
  CHECK_FALSE(contains(full.err, "shallow"));
  // A clone of the last 10 commits (35..44): the runs of every older commit, the side branch's
  // included, are off its history. The project id is the checkout's directory name.
  const auto shallow = h.tmp.path() / "depth-10" / project;
  fs::create_directories(shallow.parent_path());
  e2e::git(h.tmp.path(), {"clone", "-q", "--depth", "10", "file://" + h.repo.string(), shallow.string()});
  REQUIRE(e2e::git(shallow, {"rev-parse", "--is-shallow-repository"}) == "true");
  const auto out = h.tmp.path() / "shallow.json";
  auto r = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--json", out.string()}, all_sets),
                   shallow);
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, "[bench-history] this repository is a shallow clone whose history stops at " +
                            h.commits[35].substr(0, 12) + " commit 35: "));
  // 34 measured commits before 35 (10 has no run) with three runs each, the dirty snapshot of
  // commit 20, and one run of each of the two side commits.
  CHECK(contains(r.err, ": 105 stored runs of 36 commits it does not have were left out, so a step whose old level "
                        "or window reaches past that commit is not found here: " + fix));
  // The report itself is unchanged in shape: the note is for the person running the command.
  CHECK(read_json(out).as_object().contains("findings"));
}

TEST_CASE("A dirty snapshot at the base tip is admitted only while the working tree is dirty, with the warning",
          "[e2e][analyze]") {
  History h;
  const int tip = n_commits - 1;
  h.put(bh::codec::dirty_key(project, bh::Engine::criterion, triple, "m-a", h.commits[tip], t0 + tip * 3600 + 600),
        make_run(h.commits[tip], t0 + tip * 3600 + 540, true,
                 {result({"parse", "big"}, bh::MetricKind::wall_time, 131.0),
                  result({"parse", "small"}, bh::MetricKind::wall_time, 50.0)}));
  const auto out = h.tmp.path() / "a.json";
  const auto args = with({"analyze", "--local=" + h.store.string(), "--no-text", "--json", out.string()}, all_sets);

  auto clean = run_cli(args, h.repo);
  INFO("stderr:\n" << clean.err);
  REQUIRE(clean.exit_code == 0);
  CHECK(clean.out.empty());  // --no-text
  auto j = read_json(out).as_object();
  CHECK(j.at("tip_dirty").as_bool() == false);
  CHECK(j.at("runs").as_int64() == 132);
  CHECK_FALSE(j.contains("warning"));

  e2e::write_file(h.repo / "log.txt", "uncommitted edit\n");
  auto dirty = run_cli(args, h.repo);
  INFO("stderr:\n" << dirty.err);
  REQUIRE(dirty.exit_code == 0);
  j = read_json(out).as_object();
  CHECK(j.at("tip_dirty").as_bool() == true);
  CHECK(j.at("runs").as_int64() == 133);
  CHECK(j.at("mode").as_string() == "branch");  // docs/cli.md#commands: the admission makes it branch mode
  REQUIRE(j.contains("warning"));
  CHECK(std::string(j.at("warning").as_string()).rfind("Warning: the selected runs include dirty", 0) == 0);
  // The marker belongs to the checked-out commit: an older context was not measured with these
  // changes, and --no-dirty still reports the tree as it is.
  auto older = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--json", out.string(), "--context",
                             h.commits[tip - 1]},
                            all_sets),
                       h.repo);
  REQUIRE(older.exit_code == 0);
  CHECK(read_json(out).at("tip_dirty").as_bool() == false);
  auto no_dirty = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--json", out.string(), "--no-dirty"},
                               all_sets),
                          h.repo);
  REQUIRE(no_dirty.exit_code == 0);
  CHECK(read_json(out).at("tip_dirty").as_bool() == true);
  CHECK(read_json(out).at("mode").as_string() == "history");

  // examine shows the tip twice: the clean run, then the dirty one flagged.
  const auto ex = h.tmp.path() / "ex.json";
  auto e = run_cli({"examine", "--local=" + h.store.string(), "--benchmark", "parse/big", "--metric", "wall_time",
                    "--engine", "criterion", "--target-triple", "all", "--machine-key", "m-a", "--since",
                    "2026-05-01", "--json", ex.string()},
                   h.repo);
  REQUIRE(e.exit_code == 0);
  const auto exj = read_json(ex);
  const auto& points = exj.at("sets").at(0).at("points").as_array();
  REQUIRE(points.size() == n_commits + 1);
  CHECK(points[n_commits - 1].at("commit").as_string() == h.commits[tip]);
  CHECK(points[n_commits - 1].at("dirty").as_bool() == false);
  CHECK(points[n_commits].at("commit").as_string() == h.commits[tip]);
  CHECK(points[n_commits].at("dirty").as_bool() == true);
  CHECK(points[n_commits].at("value").to_number<double>() == 131.0);
  CHECK(contains(e.out, "(dirty)"));
}

TEST_CASE("analyze on a feature branch reports a branch excursion and admits branch dirty runs unless --no-dirty",
          "[e2e][analyze]") {
  History h;
  const int fork = n_commits - 5;
  e2e::git(h.repo, {"checkout", "-q", "-b", "feature", h.commits[fork]});
  std::vector<std::string> feature;
  for (int k = 0; k < 3; ++k) {
    const long long when = t0 + 200 * 3600 + k * 3600;
    h.commit("feature " + std::to_string(k), when);
    feature.push_back(e2e::git(h.repo, {"rev-parse", "HEAD"}));
    h.put(bh::codec::clean_key(project, bh::Engine::criterion, triple, "m-a", feature.back()),
          make_run(feature.back(), when, false,
                   {result({"parse", "big"}, bh::MetricKind::wall_time, 130.0 + noise(k)),
                    result({"parse", "small"}, bh::MetricKind::wall_time, 80.0 + noise(k))}));
  }
  h.put(bh::codec::dirty_key(project, bh::Engine::criterion, triple, "m-a", feature.back(), t0 + 300 * 3600),
        make_run(feature.back(), t0 + 300 * 3600, true,
                 {result({"parse", "big"}, bh::MetricKind::wall_time, 130.0),
                  result({"parse", "small"}, bh::MetricKind::wall_time, 80.0)}));
  const auto out = h.tmp.path() / "a.json";
  const std::vector<std::string> sets{"--engine", "criterion", "--target-triple", "all", "--machine-key", "m-a"};
  auto args = with({"analyze", "--local=" + h.store.string(), "--json", out.string()}, sets);

  auto r = run_cli(args, h.repo);
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.err, "base=main (auto-detected)"));
  auto j = read_json(out).as_object();
  CHECK(j.at("mode").as_string() == "branch");
  CHECK(j.at("tip_commit").as_string() == feature.back());
  const auto runs_with_dirty = j.at("runs").as_int64();
  // Stored runs loaded across all sets: the feature line's (commits 0-40 but 10, three feature
  // commits and the dirty snapshot) and the base line's beyond the fork (41-44), which branch
  // mode loads too; the shared history counts once.
  CHECK(runs_with_dirty == 40 + 3 + 1 + 4);
  REQUIRE(j.at("sets").as_array().size() == 1);
  CHECK(j.at("sets").at(0).at("runs").as_int64() == runs_with_dirty);
  bool found = false;
  for (const auto& fv : j.at("findings").as_array()) {
    const auto& f = fv.as_object();
    if (f.at("segments") == json::array{"parse", "small"}) {
      found = true;
      CHECK(f.at("method").as_string() == "branch_excursion");
      CHECK(f.at("direction").as_string() == "regression");
      CHECK(f.contains("branch"));
    }
  }
  CHECK(found);

  auto nd = run_cli(with(args, {"--no-dirty"}), h.repo);
  REQUIRE(nd.exit_code == 0);
  CHECK(read_json(out).at("runs").as_int64() == runs_with_dirty - 1);
}

TEST_CASE("analyze --fail-on regression exits 2 after writing every output; findings stay advisory without it",
          "[e2e][analyze]") {
  History h;
  const auto out = h.tmp.path() / "gate";
  auto gated = run_cli(with({"analyze", "--local=" + h.store.string(), "--fail-on", "regression", "--no-text", "--json",
                             (out / "a.json").string(), "--markdown-summary", (out / "s.md").string()},
                            all_sets),
                       h.repo);
  INFO(gated.err);
  CHECK(gated.exit_code == 2);
  CHECK(contains(gated.err, "[bench-history] --fail-on regression: 1 regression reported; exiting with status 2"));
  CHECK_FALSE(contains(gated.err, "Error:"));
  // Every requested output was written before the gate tripped.
  CHECK(read_json(out / "a.json").at("regressions").as_int64() == 1);
  CHECK(fs::exists(out / "s.md"));

  // The same analysis without the flag, and a gated one without regressions, exit 0.
  CHECK(run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--json", (out / "b.json").string()},
                     all_sets),
                h.repo)
            .exit_code == 0);
  CHECK(run_cli(with({"analyze", "--local=" + h.store.string(), "--fail-on", "regression", "parse/small"}, all_sets),
                h.repo)
            .exit_code == 0);
  auto bad = run_cli({"analyze", "--local=" + h.store.string(), "--fail-on", "improvement"}, h.repo);
  CHECK(bad.exit_code == 1);
  CHECK(contains(bad.err, "invalid value 'improvement' for '--fail-on <WHAT>'"));
}
