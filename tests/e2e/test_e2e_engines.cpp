// End to end with a FAKE cargo (fake_cargo.hpp) replaying the real engine output files of
// BH_TEST_DATA_DIR/fixtures/engines: the real binary harvests every engine
// (docs/formats.md#output-locations), stores one object per engine with the
// docs/formats.md#engine-harvest values, and refuses bad input (malformed or truncated files, NaN,
// negative values, a failing `cargo bench`) with one clear message naming the file, exit 1, nothing
// stored and earlier runs untouched.

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <regex>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/codec/run_json.hpp"
#include "e2e_support.hpp"
#include "fake_cargo.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using e2e::contains;
using e2e::run_cli;

namespace {

std::string host_triple() {
  auto r = e2e::run({"rustc", "-vV"}, fs::current_path());
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex("host: (\\S+)"))) return m[1];
  return "unknown";
}

// A git repository named `engines-repo` (so the project id is `engines-repo`) with one commit,
// a fake cargo and a store beside it.
struct Fixture {
  e2e::TempDir tmp{"bhe2e-engines"};
  fs::path repo = tmp.path() / "engines-repo";
  fs::path store = tmp.path() / "store";
  fs::path cargo;
  std::string triple = host_triple();
  std::string machine_key;

  Fixture() {
    fs::create_directories(repo);
    e2e::write_file(repo / ".gitignore", "/target\n");
    e2e::write_file(repo / "README", "engines\n");
    e2e::git(repo, {"init", "-q"});
    e2e::git(repo, {"add", "-A"});
    e2e::git(repo, {"commit", "-q", "-m", "first"}, 1767225600);
    cargo = e2e::install_fake_cargo(tmp.path());
    machine_key = e2e::trim(run_cli({"machine-key"}, repo).out);
  }

  std::string head() const { return e2e::git(repo, {"rev-parse", "HEAD"}); }

  void commit(const std::string& subject, long long when) {
    e2e::write_file(repo / "README", subject + "\n");
    e2e::git(repo, {"commit", "-q", "-a", "-m", subject}, when);
  }

  e2e::Result collect(e2e::EnvChanges env = {}, std::vector<std::string> extra = {}) {
    env["CARGO"] = cargo.string();
    env["FAKE_FIXTURES"] = e2e::fixtures_dir();
    std::vector<std::string> args{"collect", "--local=" + store.string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_cli(args, repo, env);
  }

  std::string key(const std::string& engine, const std::string& commit) const {
    return "v1/engines-repo/objects/" + engine + "/" + triple + "/" + machine_key + "/" + commit +
           "/clean.json";
  }

  json::object record(const std::string& key) const {
    return json::parse(benchhist::codec::gunzip(e2e::read_file(store / key))).as_object();
  }

  // Snapshot of the store: path -> bytes.
  std::map<std::string, std::string> snapshot() const {
    std::map<std::string, std::string> m;
    for (const auto& f : e2e::files_under(store)) m[f] = e2e::read_file(store / f);
    return m;
  }
};

// "kind value [low high] sd s" lines of one case, in stored order. Values come from the
// library's decoder, which is exact (Boost.JSON's own parser rounds some doubles one ULP off).
std::vector<std::string> metric_lines(const Fixture& fx, const std::string& key, const std::string& id) {
  const auto run = benchhist::codec::decode_run(benchhist::codec::gunzip(e2e::read_file(fx.store / key)), key);
  for (const auto& c : run.results) {
    if (c.id.qualified() != id) continue;
    std::vector<std::string> out;
    for (const auto& m : c.metrics) {
      std::ostringstream os;
      os.precision(17);
      os << benchhist::to_string(m.kind) << " " << m.value;
      if (m.interval) os << " [" << m.interval->low << " " << m.interval->high << "]";
      if (m.std_dev) os << " sd " << *m.std_dev;
      out.push_back(os.str());
    }
    return out;
  }
  FAIL("no case " << id << " in " << key);
  return {};
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// The bad-input contract: exit 1, one `Error:` message naming `file_part`, no new object, the
// earlier store contents byte-identical.
void require_refused(const e2e::Result& r, const std::map<std::string, std::string>& before,
                     const Fixture& fx, const std::string& file_part) {
  INFO("stdout:\n" << r.out << "\nstderr:\n" << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  const auto pos = r.err.find("Error: ");
  REQUIRE(pos != std::string::npos);
  const std::string message = r.err.substr(pos);
  CHECK(contains(message, file_part));
  CHECK(fx.snapshot() == before);
}

}  // namespace

TEST_CASE("collect with every engine's real output stores one object per engine with the fixture values",
          "[e2e][engines]") {
  Fixture fx;
  const auto args_file = fx.tmp.path() / "args";
  auto r = fx.collect({{"FAKE_ARGS", args_file.string()}});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out ==
        "Stored 4 result sets covering 6 benchmark cases. [callgrind: 2 stored; criterion: 2 stored; "
        "alloc_tracker: 1 stored; all_the_time: 1 stored]\n");
  // docs/formats.md#benchmark-invocation: `cargo bench --workspace` with no scope flags.
  CHECK(e2e::read_file(args_file) == "bench\n--workspace\n");
  const auto commit = fx.head();
  CHECK(e2e::files_under(fx.store) ==
        std::vector<std::string>{fx.key("all_the_time", commit), fx.key("alloc_tracker", commit),
                                 fx.key("callgrind", commit), fx.key("criterion", commit)});

  const auto cg = fx.record(fx.key("callgrind", commit));
  const auto cr = fx.record(fx.key("criterion", commit));
  const auto at = fx.record(fx.key("alloc_tracker", commit));
  const auto att = fx.record(fx.key("all_the_time", commit));
  CHECK(cg.at("results").as_array().size() == 2);
  CHECK(metric_lines(fx, fx.key("callgrind", commit), "fast_time/fast_time_timestamp_performance_cg::timestamp_capture::"
                                   "timestamp_capture_std_now/timestamp_capture_std_now") ==
        std::vector<std::string>{"conditional_branches 4", "indirect_branches 2", "instruction_count 36"});
  CHECK(metric_lines(fx, fx.key("callgrind", commit), "fast_time/fast_time_timestamp_performance_cg::timestamp_capture::"
                "timestamp_capture_instant_saturating_duration_since/"
                "timestamp_capture_instant_saturating_duration_since/two_instants") ==
        std::vector<std::string>{"conditional_branches 2", "indirect_branches 1", "instruction_count 87"});

  CHECK(metric_lines(fx, fx.key("criterion", commit), "fast_time_timestamp_performance/timestamp_capture/std_instant/now") ==
        std::vector<std::string>{"wall_time " + fmt(26.92998067163995) + " [" + fmt(26.672074791998387) + " " +
                                 fmt(27.182943616630872) + "] sd " + fmt(0.4743821543400398)});
  CHECK(metric_lines(fx, fx.key("criterion", commit), "fast_time_timestamp_performance/timestamp_capture/fast_time_clock/now") ==
        std::vector<std::string>{"wall_time " + fmt(1.6358498721267847) + " [" + fmt(1.5527208509940653) + " " +
                                 fmt(1.6965648627851915) + "] sd " + fmt(0.11376493078044861)});

  CHECK(metric_lines(fx, fx.key("alloc_tracker", commit), "allocate_vec") ==
        std::vector<std::string>{"allocated_bytes 200 [" + fmt(199.3466786718254) + " " + fmt(200.6533213281746) + "]",
                                 "allocation_count 2 [2 2]"});
  CHECK(metric_lines(fx, fx.key("all_the_time", commit), "read_cell") ==
        std::vector<std::string>{"processor_time 20 [" + fmt(19.346678671819987) + " " + fmt(20.653321328180013) + "]"});
  for (const auto* rec : {&cg, &cr, &at, &att}) {
    CHECK(rec->at("schema_version").as_int64() == 5);
    CHECK(rec->at("context").at("machine").at("fingerprint").as_string() == fx.machine_key);
    CHECK(rec->at("context").at("git").at("commit").as_string() == commit);
  }
}

TEST_CASE("collect forwards scope, feature and passthrough arguments to cargo bench in the §3.1 order",
          "[e2e][engines]") {
  Fixture fx;
  const auto args_file = fx.tmp.path() / "args";
  auto r = fx.collect({{"FAKE_ARGS", args_file.string()}, {"FAKE_ENGINES", "all_the_time"}},
                      {"--no-store", "-p", "a", "--package", "b", "--bench", "x", "--features", "f g",
                       "--all-features", "--no-default-features", "--", "--exact", "y"});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "Harvested 1 benchmark case; nothing stored (--no-store). [all_the_time: 1 harvested (not stored)]\n");
  CHECK(e2e::read_file(args_file) ==
        "bench\n--package\na\n--package\nb\n--bench\nx\n--features\nf g\n--all-features\n"
        "--no-default-features\n--\n--exact\ny\n");
  CHECK_FALSE(fs::exists(fx.store));
}

TEST_CASE("An engine that produced nothing stores nothing and the others are still stored", "[e2e][engines]") {
  Fixture fx;
  auto r = fx.collect({{"FAKE_ENGINES", "criterion"}});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == "Stored 1 result set covering 2 benchmark cases. [criterion: 2 stored]\n");
  CHECK(e2e::files_under(fx.store) == std::vector<std::string>{fx.key("criterion", fx.head())});
}

TEST_CASE("Bad engine output fails the collection with a message naming the file and stores nothing",
          "[e2e][engines]") {
  Fixture fx;
  auto first = fx.collect();
  REQUIRE(first.exit_code == 0);
  fx.commit("second", 1767229200);
  const auto before = fx.snapshot();
  REQUIRE(before.size() == 4);
  const std::string T = "\"$CARGO_TARGET_DIR\"";

  SECTION("a truncated Gungraun summary") {
    auto r = fx.collect({{"FAKE_HOOK", "head -c 200 " + T + "/gungraun/fast_time/param/summary.json > /tmp/.t$$ && "
                                       "mv /tmp/.t$$ " + T + "/gungraun/fast_time/param/summary.json"}});
    require_refused(r, before, fx, "gungraun/fast_time/param/summary.json");
  }
  SECTION("a malformed Criterion estimates.json") {
    auto r = fx.collect({{"FAKE_HOOK", "printf '{\"mean\": [' > " + T +
                                           "/criterion/fast_time_timestamp_performance_timestamp_capture/std_instant/now/new/estimates.json"}});
    require_refused(r, before, fx, "criterion/fast_time_timestamp_performance_timestamp_capture/std_instant/now/new");
  }
  SECTION("a NaN in an alloc_tracker file") {
    auto r = fx.collect({{"FAKE_HOOK", "sed -i 's/\"slope_bytes_per_iteration\": *[0-9.]*/\"slope_bytes_per_iteration\": NaN/' " +
                                           T + "/alloc_tracker/allocate_vec.json"}});
    require_refused(r, before, fx, "alloc_tracker/allocate_vec.json");
  }
  SECTION("a negative all_the_time slope") {
    auto r = fx.collect({{"FAKE_HOOK", "sed -i 's/\"slope_processor_time_nanos\": *[0-9.]*/\"slope_processor_time_nanos\": -20.0/' " +
                                           T + "/all_the_time/read_cell.json"}});
    require_refused(r, before, fx, "all_the_time/read_cell.json");
  }
  SECTION("a negative Criterion point estimate") {
    auto r = fx.collect({{"FAKE_HOOK", "sed -i 's/\"point_estimate\":[0-9]/\"point_estimate\":-1/g; s/\"point_estimate\": [0-9]/\"point_estimate\": -1/g' " + T +
                                           "/criterion/fast_time_timestamp_performance_timestamp_capture/fast_time_clock/now/new/estimates.json"}});
    require_refused(r, before, fx, "criterion/fast_time_timestamp_performance_timestamp_capture/fast_time_clock/now/new");
  }
  SECTION("a failing cargo bench (exit 101)") {
    auto r = fx.collect({{"FAKE_EXIT", "101"}});
    require_refused(r, before, fx, "engine \"cargo bench\" failed with exit code 101");
  }
}

TEST_CASE("A Criterion case missing one of its two files fails the collection naming the file",
          "[e2e][engines]") {
  // docs/formats.md#output-locations says a new/ missing either file is "skipped with a verbose
  // note"; the implementation (and this suite's brief) treat it as a half-written case and fail
  // loudly, naming the missing file. Kept as implemented; the disagreement is reported.
  Fixture fx;
  auto first = fx.collect();
  REQUIRE(first.exit_code == 0);
  fx.commit("second", 1767229200);
  const auto before = fx.snapshot();
  const std::string dir = "criterion/fast_time_timestamp_performance_timestamp_capture/std_instant/now/new";
  auto r = fx.collect({{"FAKE_HOOK", "rm \"$CARGO_TARGET_DIR\"/" + dir + "/benchmark.json"}});
  require_refused(r, before, fx, dir + "/benchmark.json");
}

TEST_CASE("Engine files older than the run are not harvested (freshness gate)", "[e2e][engines]") {
  Fixture fx;
  // The hook ages the all_the_time file an hour into the past after writing it.
  auto r = fx.collect({{"FAKE_HOOK", "touch -d '1 hour ago' \"$CARGO_TARGET_DIR\"/all_the_time/read_cell.json"}});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out ==
        "Stored 3 result sets covering 5 benchmark cases. [callgrind: 2 stored; criterion: 2 stored; "
        "alloc_tracker: 1 stored]\n");
  CHECK_FALSE(fs::exists(fx.store / fx.key("all_the_time", fx.head())));
}

TEST_CASE("collect --best-of 3 keeps each metric from the repetition with the smallest value", "[e2e][engines]") {
  Fixture fx;
  const std::string file = "\"$CARGO_TARGET_DIR\"/all_the_time/read_cell.json";
  const std::string set = "sed -i 's/\"slope_processor_time_nanos\": 20.0/\"slope_processor_time_nanos\": ";
  auto r = fx.collect({{"FAKE_ENGINES", "all_the_time"},
                       {"FAKE_COUNTER", (fx.tmp.path() / "reps").string()},
                       {"FAKE_HOOK", "case $FAKE_REP in 1) " + set + "30.0/' " + file + ";; 3) " + set +
                                         "25.0/' " + file + ";; esac"}},
                      {"--best-of", "3", "--verbose"});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(e2e::read_file(fx.tmp.path() / "reps") == "3\n");
  const auto key = fx.key("all_the_time", fx.head());
  CHECK(metric_lines(fx, key, "read_cell") ==
        std::vector<std::string>{"processor_time 20 [" + fmt(19.346678671819987) + " " + fmt(20.653321328180013) + "]"});
  CHECK(fx.record(key).at("context").at("best_of").as_int64() == 3);
  CHECK(contains(r.err, "[bench-history] all_the_time read_cell/processor_time: best-of samples 30, [20], 25 (kept run 2)"));
}

TEST_CASE("collect --best-of fails when a repetition measures a different set of cases", "[e2e][engines]") {
  Fixture fx;
  const auto before = fx.snapshot();
  auto r = fx.collect({{"FAKE_ENGINES", "all_the_time alloc_tracker"},
                       {"FAKE_COUNTER", (fx.tmp.path() / "reps").string()},
                       {"FAKE_HOOK", "[ $FAKE_REP != 2 ] || rm \"$CARGO_TARGET_DIR\"/all_the_time/read_cell.json"}},
                      {"--best-of", "3"});
  INFO("stderr:\n" << r.err);
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "Error: engine \"all_the_time\" produced inconsistent results across --best-of runs"));
  CHECK(contains(r.err, "benchmark case 'read_cell' is missing from run 2; every best-of run must measure the same set of cases"));
  CHECK(fx.snapshot() == before);  // nothing stored, not even the consistent alloc_tracker
}

TEST_CASE("collect --repo resolves a relative CARGO_TARGET_DIR and --local against the repository", "[e2e][engines]") {
  // docs/formats.md#benchmark-invocation: a relative CARGO_TARGET_DIR is made absolute against the
  // repository (the fake cargo refuses a relative one); docs/formats.md#storage-selection:
  // collect's relative --local uses --repo as base.
  Fixture fx;
  e2e::write_file(fx.repo / ".gitignore", "/target\n/tgt\n/rel-store\n");
  e2e::git(fx.repo, {"commit", "-q", "-a", "-m", "ignore more"}, 1767229200);
  e2e::EnvChanges env{{"CARGO", fx.cargo.string()},
                      {"FAKE_FIXTURES", e2e::fixtures_dir()},
                      {"FAKE_ENGINES", "all_the_time"},
                      {"CARGO_TARGET_DIR", "tgt"}};
  auto r = run_cli({"collect", "--repo", "engines-repo", "--local=rel-store"}, fx.tmp.path(), env);
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::is_regular_file(fx.repo / "tgt" / "all_the_time" / "read_cell.json"));
  const auto key = fx.key("all_the_time", fx.head());
  // A clean.json key: the ignored target and store directories do not make the tree dirty.
  CHECK(e2e::files_under(fx.repo / "rel-store") == std::vector<std::string>{key});
}
