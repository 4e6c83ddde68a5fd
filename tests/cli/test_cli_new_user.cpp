// The rough edges a new user hits (issue 22, part 3), each through the real binary against a real
// git repository and a local store: the project id from the repository root, read commands on a
// store path that is a file or missing, options a command cannot honour, an unknown
// `examine --benchmark`, `list runs --skip-unreadable`, a mistyped configuration table, and the
// small wording fixes.

#include <catch2/catch.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "benchhist/codec/key.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"
#include "cli_support.hpp"

using namespace benchhist;
using bhtest::contains;
using bhtest::git_out;
using bhtest::run_cli;
namespace fs = std::filesystem;

namespace {

constexpr const char* triple = "x86_64-unknown-linux-gnu";

// A repository `<dir>/myproj` (no configuration: the project id defaults to `myproj`) with six
// commits on main, each with a stored Google Benchmark run of BM_X and BM_Y on machine key mk-a.
struct History {
  fs::path repo;
  fs::path store;
  std::vector<std::string> commits;
  std::string local() const { return "--local=" + store.string(); }
};

History make_history(const fs::path& dir, std::size_t commits = 6,
                     double (*value)(const char* id, std::size_t i) = [](const char*, std::size_t i) {
                       return 100.0 + static_cast<double>(i % 3);
                     }) {
  History h{dir / "myproj", dir / "store", {}};
  fs::create_directories(h.repo / "sub");
  git_out(h.repo, "init -q -b main");
  git_out(h.repo, "config user.email t@example.invalid");
  git_out(h.repo, "config user.name t");
  storage::LocalStore store(h.store);
  for (std::size_t i = 0; i < commits; ++i) {
    git_out(h.repo, "commit -q --allow-empty -m 'change " + std::to_string(i) + "'");
    h.commits.push_back(git_out(h.repo, "rev-parse HEAD"));
    Run run;
    run.context.git = GitState{h.commits.back(), std::string("main"), false};
    run.context.toolchain = ToolchainInfo{triple, std::nullopt};
    run.context.tool_version = std::string(tool_version);
    for (const char* id : {"BM_X", "BM_Y"})
      run.results.push_back(BenchmarkResult{BenchmarkId({id}), {MetricValue{MetricKind::wall_time, value(id, i), {}, {}}}});
    store.put(codec::clean_key("myproj", Engine::google_benchmark, triple, "mk-a", h.commits.back()),
              codec::encode_run(run), storage::CollisionPolicy::refuse);
  }
  return h;
}

std::vector<std::string> with_filters(std::vector<std::string> args) {
  for (const char* a : {"--target-triple", triple, "--machine-key", "mk-a"}) args.emplace_back(a);
  return args;
}

void require_error(const bhtest::CliResult& r, const std::vector<std::string>& parts) {
  INFO("stdout: " << r.out << "\nstderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  for (const auto& p : parts) CHECK(contains(r.err, p));
}

}  // namespace

TEST_CASE("A command run in a subdirectory reads the project named after the repository root", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto sub = h.repo / "sub";
  const auto list = run_cli(with_filters({"list", "runs", h.local()}), sub);
  INFO(list.err);
  REQUIRE(list.exit_code == 0);
  CHECK(contains(list.out, "Data set for project myproj\n"));
  CHECK(contains(list.out, h.commits.back()));

  const auto analyze = run_cli(with_filters({"analyze", h.local()}), sub);
  INFO(analyze.err);
  REQUIRE(analyze.exit_code == 0);
  CHECK(contains(analyze.out, "Analyzed project myproj"));
  CHECK_FALSE(contains(analyze.out, "No runs are stored"));

  SECTION("the repository root's configuration is found from the subdirectory") {
    fs::create_directories(h.repo / ".cargo");
    bhtest::write_file(h.repo / ".cargo" / "bench_history.toml", "[project]\nid = \"configured\"\n");
    const auto r = run_cli(with_filters({"list", "runs", h.local(), "--verbose"}), sub);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "Data set for project configured\n"));
    CHECK(contains(r.err, "project id: configured"));
  }

  SECTION("a query run from outside the --repo tree reads that repository's configuration, as collect does") {
    // collect --repo reads <repo>/.cargo/bench_history.toml; analyze --repo from the parent read
    // only <parent>/.cargo, analysed an empty project under the directory's name and passed.
    fs::create_directories(h.repo / ".cargo");
    bhtest::write_file(h.repo / ".cargo" / "bench_history.toml", "[project]\nid = \"configured\"\n");
    const auto r = run_cli(with_filters({"list", "runs", h.local(), "--repo", "myproj", "--verbose"}), dir.path());
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "Data set for project configured\n"));
    CHECK(contains(r.err, "configuration: " + (h.repo / ".cargo" / "bench_history.toml").string()));
    // The working directory's own file still wins, as the spec has it for query commands.
    fs::create_directories(dir.path() / ".cargo");
    bhtest::write_file(dir.path() / ".cargo" / "bench_history.toml", "[project]\nid = \"here\"\n");
    const auto own = run_cli(with_filters({"list", "runs", h.local(), "--repo", "myproj"}), dir.path());
    CHECK(contains(own.out, "Data set for project here\n"));
  }

  SECTION("a mistyped table is named on stderr, and the command still runs") {
    fs::create_directories(h.repo / ".cargo");
    const auto config = h.repo / ".cargo" / "bench_history.toml";
    bhtest::write_file(config, "[analyis]\nignore = [\"BM_X\"]\n");
    const auto r = run_cli(with_filters({"list", "runs", h.local()}), sub);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "Data set for project myproj\n"));
    CHECK(contains(r.err, "[bench-history] warning: the configuration " + config.string() +
                              " has a table [analyis] that this version does not read, so it is ignored"));
    CHECK(contains(r.err, "(it reads [project], [storage], [analysis] and [collect]): correct the table's name, or "
                          "remove it"));
    // A mistyped [project] key: the history would be filed under the directory's name unseen.
    bhtest::write_file(config, "[project]\nidd = \"myproj\"\n");
    const auto key = run_cli(with_filters({"list", "runs", h.local()}), sub);
    REQUIRE(key.exit_code == 0);
    CHECK(contains(key.err, "[bench-history] warning: the configuration " + config.string() +
                                " has a key `idd` in [project] that this version does not read, so it is ignored "
                                "(it reads `id` and `default_branch`): correct the key's name, or remove it"));
    bhtest::write_file(config, "[analysis]\nignore = [\"BM_X\"]\n");
    const auto fixed = run_cli(with_filters({"list", "runs", h.local()}), sub);
    CHECK(fixed.exit_code == 0);
    CHECK_FALSE(contains(fixed.err, "warning"));
  }
}

TEST_CASE("When every benchmark is a ghost, the hint names the newest measured commit and the project's "
          "bench command",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  // A replayed range: HEAD was never measured.
  git_out(h.repo, "commit -q --allow-empty -m 'not measured'");
  const std::string head = git_out(h.repo, "rev-parse HEAD");
  const std::string newest = h.commits.back().substr(0, 12);
  const auto plain = run_cli(with_filters({"analyze", h.local()}), h.repo);
  INFO(plain.err);
  REQUIRE(plain.exit_code == 0);
  CHECK(contains(plain.out, "none was measured at the context commit " + head.substr(0, 12) + "."));
  CHECK(contains(plain.out, "The newest measured commit on this line is " + newest + ": analyze it with `--context " +
                                newest + "`, or collect at " + head.substr(0, 12) +
                                " (`cargo bench-history collect " + h.local() + "`) and analyze again."));

  fs::create_directories(h.repo / ".cargo");
  bhtest::write_file(h.repo / ".cargo" / "bench_history.toml", "[collect]\nbench_command = \"./bench.sh --quick\"\n");
  const auto configured = run_cli(with_filters({"analyze", h.local()}), h.repo);
  INFO(configured.err);
  REQUIRE(configured.exit_code == 0);
  CHECK(contains(configured.out, "(`cargo bench-history collect " + h.local() + " --bench-command './bench.sh --quick'`)"));

  // Only a dirty snapshot stored at HEAD: history does not read it, and the hint says so (with a
  // clean working tree: a dirty one would admit it at the base tip, in branch mode).
  fs::remove_all(h.repo / ".cargo");
  {
    Run run;
    run.context.git = GitState{head, std::string("main"), true};
    run.context.toolchain = ToolchainInfo{triple, std::nullopt};
    run.context.tool_version = std::string(tool_version);
    run.results.push_back(BenchmarkResult{BenchmarkId({"BM_X"}), {MetricValue{MetricKind::wall_time, 100.0, {}, {}}}});
    storage::LocalStore(h.store).put(codec::dirty_key("myproj", Engine::google_benchmark, triple, "mk-a", head, 1780272000),
                                     codec::encode_run(run), storage::CollisionPolicy::refuse);
  }
  const auto ghost = run_cli(with_filters({"analyze", h.local()}), h.repo);
  INFO(ghost.err);
  REQUIRE(ghost.exit_code == 0);
  CHECK(contains(ghost.out, "The run stored at " + head.substr(0, 12) +
                                " is a dirty snapshot (measured with uncommitted changes), which history analysis "
                                "does not read: collect at " + head.substr(0, 12) + " with a clean working tree"));

  // Analyzed at the newest measured commit, nothing is a ghost and there is no such hint.
  const auto at_newest = run_cli(with_filters({"analyze", h.local(), "--context", h.commits.back()}), h.repo);
  INFO(at_newest.err);
  REQUIRE(at_newest.exit_code == 0);
  CHECK_FALSE(contains(at_newest.out, "is a ghost"));
}

TEST_CASE("Read commands refuse a store path that is a file or does not exist, naming it", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto file = dir.path() / "not-a-store";
  bhtest::write_file(file, "x");
  const auto missing = dir.path() / "typo-store";
  for (const std::vector<std::string>& command :
       {std::vector<std::string>{"analyze"}, {"list", "runs"}, {"list", "discriminants"}, {"list", "blessings"},
        {"examine", "--benchmark", "BM_X", "--metric", "wall_time"}}) {
    INFO(command[0]);
    auto on_file = command;
    on_file.push_back("--local=" + file.string());
    require_error(run_cli(with_filters(on_file), h.repo),
                  {"Error: the local store path " + file.string() + " is a file, not a directory", "  hint: "});
    auto on_missing = command;
    on_missing.push_back("--local=" + missing.string());
    require_error(run_cli(with_filters(on_missing), h.repo),
                  {"Error: no local store at " + missing.string() + ": the directory does not exist",
                   "a new store is created by `collect`, `backfill` or `import`"});
    CHECK_FALSE(fs::exists(missing));
  }
  // import writes, but not into a file: it says so instead of blaming permissions.
  bhtest::write_file(h.repo / "report.json", "{}");
  const auto import = run_cli({"import", "--local=" + file.string(), "--target-triple", triple, "report.json"}, h.repo);
  require_error(import, {"is a file, not a directory"});
  CHECK_FALSE(contains(import.err, "writable"));
}

TEST_CASE("Options a list subject cannot honour and invalid --since values are refused up front", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  // Argument errors (exit 1, `error:` and the usage line), whatever the value.
  require_error(run_cli({"list", "discriminants", h.local(), "--since", "banana"}, h.repo),
                {"error: '--since <WHEN>' does not apply to `list discriminants`", "use `list runs`"});
  require_error(run_cli({"list", "blessings", h.local(), "--since", "banana"}, h.repo),
                {"error: '--since <WHEN>' does not apply to `list blessings` without --all", "add --all"});
  require_error(run_cli({"list", "discriminants", h.local(), "--context", "nosuchref"}, h.repo),
                {"'--context <REF>' does not apply to `list discriminants`", "drop the option"});
  require_error(run_cli({"list", "discriminants", h.local(), "--since", "6 months"}, h.repo),
                {"'--since <WHEN>' does not apply to `list discriminants`"});
  require_error(run_cli({"list", "blessings", h.local(), "--since", "6 months"}, h.repo),
                {"'--since <WHEN>' does not apply to `list blessings` without --all", "add --all"});
  require_error(run_cli({"list", "discriminants", h.local(), "--skip-unreadable"}, h.repo), {"'--skip-unreadable'"});
  require_error(run_cli({"list", "blessings", "--all", h.local(), "--since", "banana"}, h.repo),
                {"Error: invalid --since value \"banana\""});
  // With --all the window is honoured.
  const auto all = run_cli(with_filters({"list", "blessings", "--all", h.local(), "--since", "6 months"}), h.repo);
  INFO(all.err);
  CHECK(all.exit_code == 0);
  // Refused before the configuration, the store or git are touched: here there are none.
  bhtest::TempDir empty;
  require_error(run_cli({"analyze", "--since", "banana"}, empty.path()), {"Error: invalid --since value \"banana\""});
  require_error(run_cli({"prune", "--clean", "--since", "banana"}, empty.path()), {"invalid --since value"});
}

TEST_CASE("examine of a benchmark the runs do not hold fails and names the stored ids", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto found = run_cli(with_filters({"examine", h.local(), "--benchmark", "BM_X", "--metric", "wall_time"}), h.repo);
  INFO(found.err);
  REQUIRE(found.exit_code == 0);

  require_error(run_cli(with_filters({"examine", h.local(), "--benchmark", "BM_Z", "--metric", "wall_time"}), h.repo),
                {"Error: no benchmark \"BM_Z\" in the 6 selected runs", "closest stored ids are: BM_X, BM_Y"});
  require_error(run_cli(with_filters({"examine", h.local(), "--benchmark", "google_benchmark/BM_X", "--metric",
                                      "wall_time"}),
                        h.repo),
                {"its id is \"BM_X\"", "pass --benchmark BM_X"});
  require_error(run_cli(with_filters({"examine", h.local(), "--benchmark", "BM_X", "--metric", "processor_time"}), h.repo),
                {"benchmark \"BM_X\" has no processor_time metric", "pass --metric with one of its metrics: wall_time"});
}

TEST_CASE("list runs fails on an unreadable object and lists around it with --skip-unreadable", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto key = codec::clean_key("myproj", Engine::google_benchmark, triple, "mk-a", h.commits[2]);
  bhtest::write_file(h.store / key, "not gzip");
  require_error(run_cli(with_filters({"list", "runs", h.local()}), h.repo), {"--skip-unreadable"});
  const auto r = run_cli(with_filters({"list", "runs", h.local(), "--skip-unreadable"}), h.repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "Skipped 1 unreadable stored object (--skip-unreadable): " + key));
  CHECK_FALSE(contains(r.out, "    " + h.commits[2] + "\n"));
  CHECK(contains(r.out, "    " + h.commits[3] + "\n"));
}

TEST_CASE("--version and the version command print the tool version", "[cli][new-user]") {
  bhtest::TempDir dir;
  for (const char* flag : {"--version", "-V", "version"}) {
    const auto r = run_cli({flag}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out == "cargo-bench-history " + std::string(tool_version) + "\n");
  }
}

TEST_CASE("bless twice stores one record, unbless leaves no empty directory", "[cli][new-user][bless]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto bless = with_filters({"bless", "BM_X", h.local(), "--context", h.commits[3]});
  const auto first = run_cli(bless, h.repo);
  INFO(first.err);
  REQUIRE(first.exit_code == 0);
  const auto second = run_cli(bless, h.repo);
  INFO(second.err);
  REQUIRE(second.exit_code == 0);
  CHECK(contains(second.out, "Already blessed"));
  CHECK(contains(second.out, "nothing stored"));
  const auto commit_dir = h.store / codec::project_blessings_prefix("myproj") / h.commits[3];
  std::size_t records = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(commit_dir)) ++records;
  CHECK(records == 1);

  // Another prefix is a different acceptance: stored, with a word.
  const auto other = run_cli(with_filters({"bless", "BM_Y", h.local(), "--context", h.commits[3]}), h.repo);
  REQUIRE(other.exit_code == 0);
  CHECK(contains(other.out, "already has 1 blessing record"));

  const auto unbless = run_cli(with_filters({"unbless", h.local(), "--context", h.commits[3]}), h.repo);
  INFO(unbless.err);
  REQUIRE(unbless.exit_code == 0);
  CHECK(contains(unbless.out, "Removed 2 blessings"));
  CHECK_FALSE(fs::exists(commit_dir));
  CHECK(fs::is_directory(h.store));
}

TEST_CASE("prune says why a named commit matched nothing: base history, no such commit, a ref", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  git_out(h.repo, "checkout -q -b feature");
  git_out(h.repo, "commit -q --allow-empty -m 'on the branch'");
  const auto r = run_cli(with_filters({"prune", h.local(), "--clean", "--dry-run", h.commits[2].substr(0, 10)}), h.repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "No run matches the selection."));
  CHECK(contains(r.out, "Kept " + h.commits[2].substr(0, 10) + ": it is base history of main"));
  CHECK(contains(r.out, "--context main --prune-base"));

  // A prefix of no commit on the line, and a ref where an id belongs.
  const auto typo = run_cli(with_filters({"prune", h.local(), "--clean", "--dry-run", "deadbeef"}), h.repo);
  INFO(typo.err);
  REQUIRE(typo.exit_code == 0);
  CHECK(contains(typo.out, "No run matches the selection.\n\nNo commit on the first-parent line of HEAD starts with "
                           "deadbeef: check the id (`git log --first-parent --format=%H HEAD`), or pass --context with "
                           "the branch that holds it.\n"));
  const auto ref = run_cli(with_filters({"prune", h.local(), "--clean", "--dry-run", "HEAD"}), h.repo);
  CHECK(ref.exit_code == 1);
  CHECK(contains(ref.err, "error: invalid commit \"HEAD\": prune takes commit ids or their prefixes (hexadecimal), not "
                          "refs; pass the id, e.g. $(git rev-parse HEAD)"));
}

namespace {

// A loopback TCP port that accepts connections into its backlog but never answers: any contact
// by the CLI shows as a pending connection.
struct Listener {
  int fd = -1;
  int port = 0;
  Listener() {
    fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&addr), len) == 0);
    REQUIRE(::listen(fd, 8) == 0);
    REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) == 0);
    port = ntohs(addr.sin_port);
  }
  ~Listener() { ::close(fd); }
  bool contacted() const {
    pollfd p{fd, POLLIN, 0};
    return ::poll(&p, 1, 0) > 0;
  }
};

}  // namespace

TEST_CASE("An invalid --since, --engine or --metric is refused before the cloud store is contacted", "[cli][new-user]") {
  // The --since check comes before the configuration is even read, so no repository is needed; with
  // a valid value the command reads this file and fails opening the Azure store instead.
  bhtest::TempDir dir;
  Listener azure;
  bhtest::write_file(dir.path() / ".cargo" / "bench_history.toml",
                     "[project]\nid = \"myproj\"\n[storage.azure]\naccount = \"acct\"\ncontainer = \"bench\"\n"
                     "endpoint = \"https://127.0.0.1:" + std::to_string(azure.port) + "\"\n");
  for (const char* command : {"analyze", "bisect"}) {
    const auto started = std::chrono::steady_clock::now();
    const auto r = run_cli({command, "--since", "banana"}, dir.path());
    const auto took = std::chrono::steady_clock::now() - started;
    INFO(command << ": " << r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "Error: invalid --since value \"banana\""));
    CHECK(took < std::chrono::seconds(2));
    CHECK_FALSE(azure.contacted());
  }
  const auto engine = run_cli({"analyze", "--engine", "bogus"}, dir.path());
  INFO(engine.err);
  CHECK(engine.exit_code == 1);
  CHECK(contains(engine.err, "Error: unknown engine \"bogus\""));
  CHECK_FALSE(azure.contacted());
  for (const std::vector<std::string>& args : {std::vector<std::string>{"bisect", "--metric", "bogus"},
                                               std::vector<std::string>{"examine", "--benchmark", "BM_X", "--metric", "bogus"}}) {
    const auto metric = run_cli(args, dir.path());
    INFO(metric.err);
    CHECK(metric.exit_code == 1);
    CHECK(contains(metric.err, "Error: unknown metric \"bogus\"; expected one of: wall_time, "));
    CHECK_FALSE(azure.contacted());
  }
  // A bisect budget below one confirmation could only build and discard.
  const auto budget = run_cli({"bisect", "--max-builds", "3"}, dir.path());
  INFO(budget.err);
  CHECK(budget.exit_code == 1);
  CHECK(contains(budget.err, "error: --max-builds 3 cannot confirm a finding: both ends are measured again --repeat (2) "
                             "times each first, 4 builds; pass --max-builds 4 or more (16 by default), or a smaller "
                             "--repeat\n"));
  CHECK_FALSE(azure.contacted());
  CHECK(run_cli({"bisect", "--max-builds", "3", "--repeat", "1", "--since", "banana"}, dir.path()).err.find(
            "--max-builds") == std::string::npos);
}

TEST_CASE("import of a report it cannot parse says to check the file, not to collect again", "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  bhtest::write_file(h.repo / "report.json",
                     R"({"context": {"date": "2024", "library_build_type": "release"}, "benchmarks": [)"
                     R"({"name": "BM_X", "run_type": "iteration", "real_time": "fast", "time_unit": "ns", "iterations": 5}]})");
  const auto r = run_cli({"import", h.local(), "--target-triple", triple, "report.json"}, h.repo);
  require_error(r, {"Error: failed to parse benchmark output: " + (h.repo / "report.json").string(),
                    "  caused by: /benchmarks/0/real_time must be a number but is a string",
                    "  hint: check that the file is a complete report its harness wrote", "or leave it out of the import"});
  CHECK_FALSE(contains(r.err, "collect again"));
  CHECK_FALSE(contains(r.err, "re-run the benchmarks"));
}

TEST_CASE("list discriminants announces its selection; machine-key --verbose says why each value is hashed",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto listed = run_cli({"list", "discriminants", h.local(), "--engine", "google_benchmark"}, h.repo);
  INFO(listed.err);
  CHECK(listed.exit_code == 0);
  CHECK(contains(listed.err, "[bench-history] selection: engine=google_benchmark, target-triple=all, machine-key=all\n"));
  CHECK(contains(listed.out, "google_benchmark/" + std::string(triple) + "/mk-a"));

  const auto key = run_cli({"machine-key", "--verbose"}, h.repo);
  INFO(key.err);
  CHECK(key.exit_code == 0);
  CHECK(contains(key.err, "[bench-history] machine-key components: version=mk3, processors="));
  for (const char* component : {"version: ", "processors: ", "memory_regions: ", "processor_models: ", "not hashed: "})
    CHECK(contains(key.err, "[bench-history]   " + std::string(component)));
  CHECK(contains(key.err, "clock speeds"));
  CHECK(contains(key.err, "host name"));
}

// The third wave's rough edges: filters and paths that matched nothing used to succeed quietly.

TEST_CASE("analyze refuses a benchmark prefix that matches nothing, naming the closest stored ids",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  // A typo in a CI gate's prefix must not pass `--fail-on regression` for ever.
  require_error(run_cli(with_filters({"analyze", h.local(), "--fail-on", "regression", "BM_Z"}), h.repo),
                {"Error: the benchmark prefix \"BM_Z\" matches none of the 2 benchmarks in the selected runs",
                 "the closest stored ids are: BM_X, BM_Y"});
  // An id copied from a report carries its engine, which the id does not.
  require_error(run_cli(with_filters({"analyze", h.local(), "google_benchmark/BM_X"}), h.repo),
                {"matches none of the 2 benchmarks", "drop \"google_benchmark/\"", "--engine google_benchmark"});
  // Every prefix must match: one good prefix does not cover a mistyped one.
  require_error(run_cli(with_filters({"analyze", h.local(), "BM_X", "BM_Q"}), h.repo),
                {"the benchmark prefix \"BM_Q\""});
  const auto good = run_cli(with_filters({"analyze", h.local(), "--fail-on", "regression", "BM_X", "BM_"}), h.repo);
  INFO(good.err);
  CHECK(good.exit_code == 0);
  // No runs at all is the empty-project hint's case, not a refusal; it names the project.
  bhtest::TempDir empty_store;
  const auto none = run_cli(with_filters({"analyze", "--local=" + empty_store.path().string(), "BM_Z"}), h.repo);
  INFO(none.err);
  CHECK(none.exit_code == 0);
  // ... and where it looked, so a mistyped store path shows.
  CHECK(contains(none.out, "No runs are stored for project \"myproj\" yet (looked in the local store at " +
                               empty_store.path().string() + ")."));
  CHECK(contains(none.out, "set `id` in the `[project]` table"));
  // The commands it suggests repeat the store the user named, so they can be pasted as they are.
  CHECK(contains(none.out, "Run `cargo bench-history collect --local=" + empty_store.path().string() + "` on a commit"));
  // A path a shell would split is quoted as one word.
  fs::create_directories(empty_store.path() / "my store");
  const auto spaced = run_cli(with_filters({"analyze", "--local=" + (empty_store.path() / "my store").string(), "BM_Z"}), h.repo);
  CHECK(contains(spaced.out, "Run `cargo bench-history collect '--local=" + (empty_store.path() / "my store").string() + "'`"));
}

TEST_CASE("bless warns about a prefix that matches no benchmark stored at the commit", "[cli][new-user][bless]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  const auto r = run_cli(with_filters({"bless", "google_benchmark/BM_X", "BM_Y", h.local(), "--context", h.commits[4]}),
                         h.repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const std::string short_ctx = h.commits[4].substr(0, 12);
  CHECK(contains(r.out, "Warning: the prefix \"google_benchmark/BM_X\" matches none of the benchmarks stored at " +
                            short_ctx + " (closest: BM_X, BM_Y)"));
  CHECK(contains(r.out, "unbless --context " + short_ctx));
  CHECK_FALSE(contains(r.out, "the prefix \"BM_Y\""));
  CHECK(contains(r.out, "Blessed 2 prefix filters"));
  // The help says what --context is for in this command.
  const auto help = run_cli({"bless", "--help"}, h.repo);
  CHECK(contains(help.out, "Commit to bless: the new baseline starts there [default: HEAD]"));
  CHECK_FALSE(contains(help.out, "Commit to analyze"));
  const auto usage = run_cli(with_filters({"bless", h.local()}), h.repo);
  CHECK(contains(usage.err, "for example `bless read_cell`"));
}

TEST_CASE("import refuses a target directory, or named reports, that hold no result", "[cli][new-user]") {
  const auto stored_files = [](const fs::path& root) {
    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_regular_file()) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    return files;
  };
  bhtest::TempDir dir;
  const auto h = make_history(dir.path());
  fs::create_directories(h.repo / "target" / "criterion");
  const auto store_before = stored_files(h.store);
  require_error(run_cli({"import", h.local(), "--target-triple", triple, "--target-dir", "target/criterion"}, h.repo),
                {"Error: nothing to import: no engine output under " + (h.repo / "target/criterion").string(),
                 "criterion: no output (" + (h.repo / "target/criterion/criterion").string() + " does not exist)",
                 "not one of its subdirectories"});
  CHECK(stored_files(h.store) == store_before);

  SECTION("named reports that hold no result are refused too, each with its reason") {
    fs::create_directories(h.repo / "empty");
    fs::create_directories(h.repo / "links");
    bhtest::write_file(h.repo / "bmf.json", R"({"parse/large": {"latency": {"value": 12.5}}})");
    fs::create_symlink(h.repo / "bmf.json", h.repo / "links" / "bmf.json");
    bhtest::write_file(h.repo / "hyperfine.json", R"({"results": []})");
    require_error(run_cli({"import", h.local(), "--target-triple", triple, "empty"}, h.repo),
                  {"Error: nothing to import: no benchmark results in " + (h.repo / "empty").string(),
                   (h.repo / "empty").string() + ": no report file in it", "name the report files the benchmarks wrote"});
    require_error(run_cli({"import", h.local(), "--target-triple", triple, "empty", "hyperfine.json"}, h.repo),
                  {(h.repo / "empty").string() + ": no report file in it; " + (h.repo / "hyperfine.json").string() +
                   ": a report with no benchmark results"});
    // A symlink below a named directory is never followed, nor skipped in silence.
    require_error(run_cli({"import", h.local(), "--target-triple", triple, "links", "hyperfine.json"}, h.repo),
                  {"Error: failed to parse benchmark output: " + (h.repo / "links" / "bmf.json").string(),
                   "it is a symbolic link, which is not followed below a report directory",
                   "name the report itself instead of its directory"});
    CHECK(stored_files(h.store) == store_before);

    // A report named twice, itself and inside its directory, is read once.
    fs::create_directories(h.repo / "reports");
    fs::rename(h.repo / "bmf.json", h.repo / "reports" / "bmf.json");
    const auto twice = run_cli({"import", h.local(), "--target-triple", triple, "reports", "reports/bmf.json"}, h.repo);
    INFO(twice.err);
    CHECK(twice.exit_code == 0);
    CHECK(contains(twice.out, "Stored 1 result set covering 1 benchmark case."));
    // --verbose says what each put did.
    const auto kept = run_cli({"import", h.local(), "--target-triple", triple, "--skip-existing", "--verbose", "reports"},
                              h.repo);
    INFO(kept.err);
    CHECK(kept.exit_code == 0);
    CHECK(contains(kept.err, "[bench-history] bmf kept the existing object at v1/myproj/objects/bmf/"));
    CHECK_FALSE(contains(kept.err, "bmf stored at"));
    const auto replaced = run_cli({"import", h.local(), "--target-triple", triple, "--overwrite", "--verbose", "reports"},
                                  h.repo);
    CHECK(contains(replaced.err, "[bench-history] bmf replaced the object at v1/myproj/objects/bmf/"));
  }
}

TEST_CASE("A report path that is a directory, an unborn HEAD and an empty project id are named for what they are",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  // Refused before the configuration, the store or git are touched: here there are none.
  const auto out_dir = dir.path() / "out";
  fs::create_directories(out_dir);
  require_error(run_cli({"analyze", "--json", "out"}, dir.path()),
                {"Error: the JSON report path " + out_dir.string() + " is a directory", "name a file to write"});
  // One ending in '/' names a directory even before it exists: refused, and nothing is created.
  require_error(run_cli({"analyze", "--html", "new-dir/"}, dir.path()),
                {"Error: the HTML report path " + (dir.path() / "new-dir/").string() + " names a directory (it ends in '/')",
                 "for example " + (dir.path() / "new-dir/report").string()});
  CHECK_FALSE(fs::exists(dir.path() / "new-dir"));

  fs::create_directories(dir.path() / "store");
  const auto fresh = dir.path() / "fresh";
  fs::create_directories(fresh);
  git_out(fresh, "init -q -b main");
  require_error(run_cli({"analyze", "--local=" + (dir.path() / "store").string()}, fresh),
                {"the repository has no commits yet", "commit first"});

  const auto configured = dir.path() / "configured";
  fs::create_directories(configured / ".cargo");
  git_out(configured, "init -q -b main");
  bhtest::write_file(configured / ".cargo/bench_history.toml", "[project]\nid = \"\"\n");
  require_error(run_cli({"list", "runs", "--local=" + (dir.path() / "store").string()}, configured),
                {"`project.id`", "must not be empty", "remove `id` to name the project after the repository"});
}

TEST_CASE("bisect with nothing to bisect says why: no runs for the project, or findings only in series left out",
          "[cli][new-user][bisect]") {
  bhtest::TempDir dir;
  // BM_X steps from 100 to 150 at commit 12 of 20; BM_Y stays flat.
  const auto h = make_history(dir.path(), 20, [](const char* id, std::size_t i) {
    return (std::string_view(id) == "BM_X" && i >= 12 ? 150.0 : 100.0) + static_cast<double>(i % 3) * 0.2;
  });
  const auto only_y = run_cli(with_filters({"bisect", h.local(), "--dry-run", "--benchmark", "BM_Y"}), h.repo);
  INFO(only_y.err);
  REQUIRE(only_y.exit_code == 0);
  CHECK(contains(only_y.out, "No findings to bisect: the analysis reported none in scope.\nNote: the analysis reports "
                             "change points only for series --benchmark/--metric leave out: BM_X wall_time; bisect one "
                             "of them, or drop the filter\n"));

  fs::create_directories(dir.path() / "other-store");
  const auto empty = run_cli(with_filters({"bisect", "--local=" + (dir.path() / "other-store").string(), "--dry-run"}),
                             h.repo);
  INFO(empty.err);
  REQUIRE(empty.exit_code == 0);
  CHECK(contains(empty.out, "Note: No runs are stored for project \"myproj\" yet (looked in the local store at " +
                                (dir.path() / "other-store").string() + ")."));
}

TEST_CASE("cargo's options are refused with a configured bench_command, naming the file, before anything runs; "
          "--workspace is accepted",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path(), 2);
  fs::create_directories(h.repo / ".cargo");
  const fs::path config = h.repo / ".cargo" / "bench_history.toml";
  // The command would leave a mark if it ran: it must not, nor may the store be created.
  const fs::path mark = dir.path() / "ran";
  bhtest::write_file(config, "[collect]\nbench_command = \"touch " + mark.string() + "\"\n");
  const std::string fresh_store = "--local=" + (dir.path() / "fresh-store").string();
  const std::string head = h.commits.back();
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused{
      {{"collect", fresh_store, "--package", "foo"}, "--package <NAME>"},
      {{"collect", fresh_store, "--bench", "nope"}, "--bench <NAME>"},
      {{"collect", fresh_store, "--workspace", "--features", "simd"}, "--features <FEATURES>"},
      {{"collect", fresh_store, "--", "--quick"}, "-- <ARGS>..."},
      {{"backfill", fresh_store, "--exclude", "foo", h.commits.front(), head}, "--exclude <NAME>"},
      {{"bisect", h.local(), "--all-features"}, "--all-features"},
  };
  for (const auto& [args, option] : refused) {
    const auto r = run_cli(args, h.repo);
    require_error(r, {"the argument '" + option + "' cannot be used with the benchmark command of " + config.string() +
                          " ([collect] bench_command)",
                      "hint: remove '" + option + "'"});
  }
  CHECK_FALSE(fs::exists(mark));
  CHECK_FALSE(fs::exists(dir.path() / "fresh-store"));

  // --bench-command on the command line overrides the configured one; cargo's options are refused
  // with it as before (that rule names the flag, not the file).
  const auto cli = run_cli({"collect", fresh_store, "--bench-command", "true", "--bench", "nope"}, h.repo);
  require_error(cli, {"the argument '--bench-command <COMMAND>' cannot be used with '--bench <NAME>'"});

  // --workspace means everything, which is what the command measures: it runs (and writes no report).
  const auto workspace = run_cli({"collect", fresh_store, "--workspace"}, h.repo);
  INFO(workspace.err);
  CHECK(fs::exists(mark));
  CHECK_FALSE(contains(workspace.err, "cannot be used with"));
}

TEST_CASE("An empty project names the project ids the store holds, and the suggested commands keep --config",
          "[cli][new-user]") {
  bhtest::TempDir dir;
  const auto h = make_history(dir.path(), 2);  // project "myproj"
  // A configuration elsewhere, with a mistyped project id, naming the store.
  const fs::path config = dir.path() / "ci" / "typo.toml";
  fs::create_directories(config.parent_path());
  bhtest::write_file(config, "[project]\nid = \"myprj\"\n");
  const std::string rel = "../ci/typo.toml";
  const auto r = run_cli(with_filters({"analyze", "--config", rel, h.local(), "--fail-on", "regression"}), h.repo);
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(contains(r.out, "No runs are stored for project \"myprj\" yet (looked in the local store at "));
  CHECK(contains(r.out, "The store holds runs of project \"myproj\": if this repository's runs are those, set `id` in "
                        "the `[project]` table of " + rel + " to that id."));
  // Pasted as it is, the suggested command reads the same configuration.
  CHECK(contains(r.out, "Otherwise run `cargo bench-history collect --config " + rel + " " + h.local() +
                        "` on a commit (or `cargo bench-history backfill <FROM> <TO> --config " + rel + " " + h.local() +
                        "` to seed history) first."));
  // list discriminants says the same.
  const auto listed = run_cli({"list", "discriminants", "--config", rel, h.local()}, h.repo);
  INFO(listed.err);
  CHECK(contains(listed.err, "The store holds runs of project \"myproj\""));
  // Which ids count: projects with runs, compared as store segments (lower case), this one left out;
  // a project that holds only a blessing has no history to point at.
  storage::LocalStore store(h.store);
  store.put(codec::project_blessing_key("lonely", h.commits.front(), 1780272000000000000), "{}",
            storage::CollisionPolicy::refuse);
  CHECK(pipeline::stored_projects(store, "MyProj").empty());
  CHECK(pipeline::stored_projects(store, "lonely") == std::vector<std::string>{"myproj"});
  CHECK(pipeline::stored_projects(store) == std::vector<std::string>{"myproj"});
}
