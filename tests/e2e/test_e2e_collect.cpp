// End to end with a REAL `cargo bench`: a test-made git repository holding a copy of
// examples/demo-crate (Criterion 0.3.6 from Debian's packaged crates, offline), collected by
// the real binary into a local store. Covers docs/formats.md#gzip-body-encoding (gzip body),
// docs/formats.md#write-semantics (collision policies), docs/formats.md#run-record (schema-5
// record), docs/formats.md#benchmark-invocation, #freshness-gate (invocation, freshness gate),
// docs/formats.md#criterion (Criterion identity and wall_time), docs/formats.md#best-of-reduction
// (best-of), docs/formats.md#streams (the collecting announcement),
// docs/formats.md#listings-and-command-messages (message).
//
// The Cargo target directory is cached under the build directory (BH_E2E_CARGO_TARGET) and starts
// as a copy of the dependency build the cargo suites share (tests/common/demo_crate_cache.hpp),
// so the ~85 s Criterion build is paid once per build directory; the repository itself lives at
// a fixed path under the build directory and is recreated once per process.

#include <sys/stat.h>
#include <utime.h>

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <regex>

#include "benchhist/codec/gzip.hpp"
#include "common/demo_crate_cache.hpp"
#include "e2e_support.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
using e2e::contains;
using e2e::run_cli;

namespace {

const fs::path cargo_target{BH_E2E_CARGO_TARGET};

struct DemoRepo {
  fs::path dir;
  std::string commit;
  std::string triple;
  std::string machine_key;
};

std::string host_triple() {
  auto r = e2e::run({"rustc", "-vV"}, fs::current_path());
  std::smatch m;
  if (std::regex_search(r.out, m, std::regex("host: (\\S+)"))) return m[1];
  return "unknown";
}

// The Getting-started flow up to the first collect: a repository with the crate, `install`
// writing the starter configuration, committed. Built once per process.
const DemoRepo& demo_repo() {
  static const DemoRepo repo = [] {
    DemoRepo r;
    // Fail with the cause rather than an opaque cargo resolution error (ENVIRONMENT.md).
    bool criterion_packaged = false;
    const fs::path registry = "/usr/share/cargo/registry";
    if (fs::is_directory(registry))
      for (const auto& e : fs::directory_iterator(registry))
        if (e.path().filename().string().rfind("criterion-0.3", 0) == 0) criterion_packaged = true;
    if (!criterion_packaged)
      throw std::runtime_error("Debian's criterion 0.3 crate is missing from /usr/share/cargo/registry; "
                               "install librust-criterion-dev (scripts/install-deps.sh does)");
    // The suite's own target directory starts as a copy of the shared dependency build, dated
    // back so the crate below (created after it) is rebuilt and only the dependencies reused.
    if (!fs::exists(cargo_target)) benchhist::testing::seed_cargo_target(cargo_target);
    r.dir = fs::path(BH_E2E_WORK_DIR) / "demo-repo";
    fs::remove_all(r.dir);
    fs::create_directories(r.dir);
    fs::copy(fs::path(BH_SOURCE_DIR) / "examples" / "demo-crate", r.dir, fs::copy_options::recursive);
    // Cargo writes Cargo.lock and target/ would be untracked files, which make a tree dirty
    // (docs/formats.md#git-facts).
    e2e::write_file(r.dir / ".gitignore", "/target\nCargo.lock\n");
    e2e::write_file(r.dir / "notes.txt", "notes\n");
    e2e::git(r.dir, {"init", "-q"});
    auto install = run_cli({"install"}, r.dir);
    if (install.exit_code != 0) throw std::runtime_error("install failed: " + install.err);
    if (!fs::exists(r.dir / ".cargo" / "bench_history.toml"))
      throw std::runtime_error("install wrote no .cargo/bench_history.toml");
    e2e::git(r.dir, {"add", "-A"});
    e2e::git(r.dir, {"commit", "-q", "-m", "demo crate"}, 1767225600);
    r.commit = e2e::git(r.dir, {"rev-parse", "HEAD"});
    r.triple = host_triple();
    r.machine_key = e2e::trim(run_cli({"machine-key"}, r.dir).out);
    return r;
  }();
  return repo;
}

e2e::EnvChanges cargo_env() { return {{"CARGO_TARGET_DIR", cargo_target.string()}}; }

e2e::Result collect(const fs::path& store, std::vector<std::string> extra = {}) {
  std::vector<std::string> args{"collect", "--local=" + store.string()};
  args.insert(args.end(), extra.begin(), extra.end());
  return run_cli(args, demo_repo().dir, cargo_env());
}

std::string clean_key(const DemoRepo& r) {
  return "v1/demo-repo/objects/criterion/" + r.triple + "/" + r.machine_key + "/" + r.commit +
         "/clean.json";
}

json::object stored_record(const fs::path& file) {
  const auto body = e2e::read_file(file);
  return json::parse(benchhist::codec::gunzip(body)).as_object();
}

std::string qualified(const json::value& result) {
  std::string q;
  for (const auto& s : result.at("id").at("segments").as_array()) {
    if (!q.empty()) q += "/";
    q += std::string(s.as_string());
  }
  return q;
}

std::vector<std::string> result_ids(const json::object& rec) {
  std::vector<std::string> ids;
  for (const auto& r : rec.at("results").as_array()) ids.push_back(qualified(r));
  std::sort(ids.begin(), ids.end());
  return ids;
}

// One wall_time per case with value inside its interval (docs/formats.md#criterion).
void check_wall_times(const json::object& rec) {
  for (const auto& r : rec.at("results").as_array()) {
    INFO("case " << qualified(r));
    const auto& metrics = r.at("metrics").as_array();
    REQUIRE(metrics.size() == 1);
    const auto& m = metrics[0].as_object();
    CHECK(m.at("kind").as_string() == "wall_time");
    const double v = m.at("value").to_number<double>();
    const double lo = m.at("interval_low").to_number<double>();
    const double hi = m.at("interval_high").to_number<double>();
    CHECK(v > 0.0);
    CHECK(lo <= v);
    CHECK(v <= hi);
    CHECK(m.contains("std_dev"));
  }
}

const std::vector<std::string> demo_ids = {"checksum/256", "checksum/4096", "count_words"};

// Restores a tracked file on scope exit, so a failing dirty-snapshot test leaves the shared
// repository clean for the next one.
struct RestoreFile {
  fs::path repo;
  std::string name;
  ~RestoreFile() {
    try {
      e2e::git(repo, {"checkout", "--", name});
    } catch (...) {
    }
  }
};

}  // namespace

TEST_CASE("collect runs the real cargo bench and stores one gzip schema-5 Criterion object for HEAD",
          "[e2e][collect][cargo]") {
  const auto& repo = demo_repo();
  REQUIRE(repo.machine_key.size() == 16);
  e2e::TempDir store("bhe2e-store");
  // A stale Criterion case from an earlier run (a benchmark renamed since): its new/ directory
  // is older than the freshness cutoff (docs/formats.md#freshness-gate), so it must not be
  // harvested.
  const fs::path stale = cargo_target / "criterion" / "renamed_away" / "new";
  const fs::path fixture = fs::path(BH_TEST_DATA_DIR) / "fixtures" / "engines" / "criterion" / "std_instant";
  fs::create_directories(stale);
  for (const char* f : {"benchmark.json", "estimates.json"}) {
    fs::copy_file(fixture / f, stale / f, fs::copy_options::overwrite_existing);
    const auto old = std::filesystem::file_time_type::clock::now() - std::chrono::hours(2);
    fs::last_write_time(stale / f, old);
  }

  auto r = collect(store.path());
  // Sequential steps on one store (not SECTIONs, which would re-run the first collect each time).
  fs::remove_all(cargo_target / "criterion" / "renamed_away");
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(e2e::last_line(r.out) == "Stored 1 result set covering 3 benchmark cases. [criterion: 3 stored]\n");
  CHECK(contains(r.err, "[bench-history] collecting: target-triple=" + repo.triple +
                            " (toolchain host); machine-key=" + repo.machine_key + " (auto-detected)\n"));

  const auto files = e2e::files_under(store.path());
  REQUIRE(files == std::vector<std::string>{clean_key(repo)});
  const auto body = e2e::read_file(store.path() / clean_key(repo));
  // docs/formats.md#gzip-body-encoding: single gzip member with the fixed header.
  REQUIRE(body.size() > 18);
  CHECK(body.substr(0, 10) == std::string("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff", 10));

  // docs/formats.md#records: 2-space pretty JSON in the listed member order;
  // docs/formats.md#gzip-body-encoding: the body is a pure function of the plaintext
  // (re-compressing it yields the same bytes).
  const auto plain = benchhist::codec::gunzip(body);
  CHECK(plain.rfind("{\n  \"schema_version\": 5,\n  \"context\": {\n    \"observation\": \"", 0) == 0);
  CHECK(benchhist::codec::gzip_compress(plain) == body);

  const auto rec = stored_record(store.path() / clean_key(repo));
  CHECK(rec.at("schema_version").as_int64() == 5);
  const auto& ctx = rec.at("context").as_object();
  CHECK(ctx.at("git").at("commit").as_string() == repo.commit);
  CHECK(ctx.at("git").at("branch").as_string() == "main");
  CHECK(ctx.at("git").at("dirty").as_bool() == false);
  CHECK(ctx.at("env").at("provider").as_string() == "local");
  CHECK(ctx.at("env").at("run_id").is_null());
  CHECK(ctx.at("toolchain").at("target_triple").as_string() == repo.triple);
  CHECK(ctx.at("toolchain").at("rustc_version").is_string());
  CHECK(ctx.at("machine").at("fingerprint").as_string() == repo.machine_key);
  CHECK(ctx.at("machine").at("processors").as_int64() >= 1);
  CHECK(ctx.at("best_of").as_int64() == 1);
  CHECK(std::regex_match(std::string(ctx.at("observation").as_string()),
                         std::regex(R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z)")));
  CHECK(result_ids(rec) == demo_ids);  // the stale renamed_away case is not among them
  check_wall_times(rec);

  {  // a second collect of the same commit is refused and leaves the object untouched
    auto again = collect(store.path());
    INFO("stderr:\n" << again.err);
    CHECK(again.exit_code == 1);
    CHECK(contains(again.err, "Error: a result is already stored for this run at " + clean_key(repo) +
                                  "; pass --overwrite to replace it or --skip-existing to keep it"));
    CHECK(e2e::read_file(store.path() / clean_key(repo)) == body);
    CHECK(e2e::files_under(store.path()) == files);
  }
  {  // --skip-existing succeeds, writes nothing and says the key already exists
    auto skip = collect(store.path(), {"--skip-existing"});
    INFO("stderr:\n" << skip.err);
    CHECK(skip.exit_code == 0);
    CHECK(e2e::last_line(skip.out) == "Harvested 3 benchmark cases and stored nothing: their result set was already "
                                      "stored, and --skip-existing keeps it. [criterion: 3 harvested (" +
                          clean_key(repo) + " already exists)]\n");
    CHECK(e2e::read_file(store.path() / clean_key(repo)) == body);
    CHECK(e2e::files_under(store.path()) == files);
  }
  {  // --overwrite replaces the object with the new measurement
    auto over = collect(store.path(), {"--overwrite"});
    INFO("stderr:\n" << over.err);
    CHECK(over.exit_code == 0);
    CHECK(e2e::last_line(over.out) == "Stored 1 result set covering 3 benchmark cases. [criterion: 3 stored]\n");
    CHECK(e2e::files_under(store.path()) == files);
    const auto rec2 = stored_record(store.path() / clean_key(repo));
    CHECK(rec2.at("context").at("observation") != ctx.at("observation"));
    CHECK(result_ids(rec2) == demo_ids);
  }
}

TEST_CASE("collect on a tree with an uncommitted edit stores a dirty snapshot keyed by the start second",
          "[e2e][collect][cargo]") {
  const auto& repo = demo_repo();
  e2e::TempDir store("bhe2e-store");
  RestoreFile restore{repo.dir, "notes.txt"};
  e2e::write_file(repo.dir / "notes.txt", "edited\n");
  const auto before = std::chrono::duration_cast<std::chrono::seconds>(
                          std::chrono::system_clock::now().time_since_epoch()).count();
  auto r = collect(store.path(), {"--", "count_words"});
  const auto after = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch()).count();
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(e2e::last_line(r.out) == "Stored 1 result set covering 1 benchmark case. [criterion: 1 stored]\n");
  const auto files = e2e::files_under(store.path());
  REQUIRE(files.size() == 1);
  std::smatch m;
  const std::string prefix = "v1/demo-repo/objects/criterion/" + repo.triple + "/" + repo.machine_key +
                             "/" + repo.commit + "/dirty-";
  REQUIRE(files[0].rfind(prefix, 0) == 0);
  const std::string tail = files[0].substr(prefix.size());
  REQUIRE(std::regex_match(tail, m, std::regex(R"((\d+)\.json)")));
  const long long second = std::stoll(m[1]);
  CHECK(second >= before);
  CHECK(second <= after);
  const auto rec = stored_record(store.path() / files[0]);
  CHECK(rec.at("context").at("git").at("dirty").as_bool() == true);
  CHECK(rec.at("context").at("git").at("commit").as_string() == repo.commit);
  CHECK(result_ids(rec) == std::vector<std::string>{"count_words"});
}

TEST_CASE("collect --best-of 3 keeps the smallest of three real measurements and records best_of",
          "[e2e][collect][cargo]") {
  const auto& repo = demo_repo();
  e2e::TempDir store("bhe2e-store");
  auto r = collect(store.path(), {"--best-of", "3", "--verbose", "--", "count_words"});
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(e2e::last_line(r.out) == "Stored 1 result set covering 1 benchmark case. [criterion: 1 stored]\n");
  const auto rec = stored_record(store.path() / clean_key(repo));
  CHECK(rec.at("context").at("best_of").as_int64() == 3);
  CHECK(result_ids(rec) == std::vector<std::string>{"count_words"});
  check_wall_times(rec);
  // docs/formats.md#best-of-reduction verbose note: `criterion count_words/wall_time: best-of
  // samples v1, [v2], v3 (kept run k)`.
  std::smatch m;
  REQUIRE(std::regex_search(r.err, m, std::regex(R"(criterion count_words/wall_time: best-of samples ([^\n]*) \(kept run ([123])\))")));
  const std::string samples = m[1];
  CHECK(std::count(samples.begin(), samples.end(), ',') == 2);
  CHECK(std::count(samples.begin(), samples.end(), '[') == 1);
}

TEST_CASE("Two collects racing on one commit run one after the other and store exactly one object; the loser exits 1 "
          "and says why",
          "[e2e][collect][cargo]") {
  const auto& repo = demo_repo();
  e2e::TempDir store("bhe2e-store");
  const std::vector<std::string> args{"collect", "--local=" + store.path().string(), "--", "count_words"};
  e2e::Child a(e2e::cli_argv(args), repo.dir, cargo_env());
  e2e::Child b(e2e::cli_argv(args), repo.dir, cargo_env());
  const auto ra = a.wait();
  const auto rb = b.wait();
  INFO("a stderr:\n" << ra.err << "\nb stderr:\n" << rb.err);
  CHECK(((ra.exit_code == 0 && rb.exit_code == 1) || (ra.exit_code == 1 && rb.exit_code == 0)));
  const auto& loser = ra.exit_code == 1 ? ra : rb;
  CHECK(contains(loser.err, "Error: a result is already stored for this run at " + clean_key(repo)));
  // One waited for the other's results to be stored before running its benchmarks, so neither
  // harvested the other's half-written Criterion files (docs/bench-command.md#concurrent-collects).
  CHECK(contains(ra.err + rb.err, "[bench-history] another collect (process "));
  CHECK(contains(ra.err + rb.err, "[bench-history] the other collect has ended; running the benchmarks"));
  CHECK(e2e::files_under(store.path()) == std::vector<std::string>{clean_key(repo)});
  const auto rec = stored_record(store.path() / clean_key(repo));
  CHECK(result_ids(rec) == std::vector<std::string>{"count_words"});
}

TEST_CASE("a crate that neither commits nor ignores Cargo.lock stores a clean run from a fresh checkout",
          "[e2e][collect][cargo]") {
  // The guide's probe → run → harvest: `cargo bench` creates Cargo.lock here, and a probe after
  // the run would see that untracked file and store a dirty snapshot on every CI checkout.
  const auto& demo = demo_repo();  // fails with the cause when Debian's criterion is missing
  const fs::path dir = fs::path(BH_E2E_WORK_DIR) / "lockless-repo";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* rel : {"Cargo.toml", ".cargo/config.toml", "src/lib.rs", "benches/wordcount.rs"}) {
    fs::create_directories((dir / rel).parent_path());
    fs::copy_file(fs::path(BH_SOURCE_DIR) / "examples" / "demo-crate" / rel, dir / rel);
  }
  e2e::write_file(dir / ".gitignore", "/target\n");  // Cargo.lock: neither committed nor ignored
  e2e::git(dir, {"init", "-q"});
  e2e::git(dir, {"add", "-A"});
  e2e::git(dir, {"commit", "-q", "-m", "lockless crate"}, 1767225600);
  const auto commit = e2e::git(dir, {"rev-parse", "HEAD"});
  REQUIRE_FALSE(fs::exists(dir / "Cargo.lock"));

  e2e::TempDir store("bhe2e-store");
  auto r = run_cli({"collect", "--local=" + store.path().string(), "--", "count_words"}, dir, cargo_env());
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(fs::exists(dir / "Cargo.lock"));  // the run created it …
  CHECK(contains(e2e::git(dir, {"status", "--porcelain"}), "?? Cargo.lock"));
  // … and the stored run is still the commit's clean run.
  const std::string key = "v1/lockless-repo/objects/criterion/" + demo.triple + "/" + demo.machine_key + "/" + commit +
                          "/clean.json";
  REQUIRE(e2e::files_under(store.path()) == std::vector<std::string>{key});
  const auto rec = stored_record(store.path() / key);
  CHECK(rec.at("context").at("git").at("dirty").as_bool() == false);
  CHECK(rec.at("context").at("git").at("commit").as_string() == commit);
}
