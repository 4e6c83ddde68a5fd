// The real `cargo-bench-history` binary against Azurite, configured only through
// `.cargo/bench_history.toml` ([storage.azure] with an https endpoint) and the GitHub OIDC
// variables: collect (through a fake cargo) → analyze → examine → list → prune, the collision
// policies, and the read-through cache's miss, hit and invalidation after an overwrite made
// by another process without a cache.

#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/probe/process.hpp"
#include "harness.hpp"

namespace fs = std::filesystem;

namespace {

struct Cli {
  int exit_code = -1;
  std::string out, err;
};

struct Project {
  fs::path dir;
  std::string container;
  std::vector<std::string> commits;
  std::map<std::string, std::optional<std::string>> env;

  Project() {
    auto& h = bhtest::harness();
    dir = bhtest::scratch_dir("cli-project");
    container = bhtest::unique_container("cli");
    const auto oidc = h.oidc_env();
    for (const char* name : {"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "AZURE_CLIENT_ID",
                             "AZURE_TENANT_ID", "AZURE_AUTHORITY_HOST"})
      env[name] = oidc.get(name);
    env["CARGO"] = (dir / "fake-cargo").string();
    env["CARGO_TARGET_DIR"] = (dir / "target").string();
    env["CARGO_BENCH_HISTORY_STORAGE"] = std::nullopt;
    // The fake cargo writes one all_the_time operation whose value is the file `value`.
    std::ofstream(dir / "fake-cargo") << "#!/bin/sh\n"
                                         "mkdir -p \"$CARGO_TARGET_DIR/all_the_time\"\n"
                                         "v=$(cat value)\n"
                                         "printf '{\"operation\":\"parse\",\"span_count\":1,"
                                         "\"slope_processor_time_nanos\":%s}' \"$v\" > \"$CARGO_TARGET_DIR/all_the_time/parse.json\"\n";
    fs::permissions(dir / "fake-cargo", fs::perms::owner_all);
    fs::create_directories(dir / "repo" / ".cargo");
    std::ofstream(dir / "repo" / ".cargo" / "bench_history.toml")
        << "[project]\nid = \"roundtrip\"\n\n[storage.azure]\naccount = \"devstoreaccount1\"\ncontainer = \"" << container
        << "\"\nendpoint = \"" << h.endpoint() << "\"\n";
    std::ofstream(dir / "repo" / ".gitignore") << "/value\n";
    git({"init", "-q", "-b", "main"});
    git({"config", "user.email", "t@example.invalid"});
    git({"config", "user.name", "t"});
    git({"add", "-A"});
    for (int i = 0; i < 14; ++i) {
      git({"commit", "-q", "--allow-empty", "-m", "change " + std::to_string(i)});
      commits.push_back(run({"git", "-C", repo().string(), "rev-parse", "HEAD"}).out.substr(0, 40));
    }
  }
  fs::path repo() const { return dir / "repo"; }
  // Report files go beside the repository: an untracked file inside would make it dirty.
  std::string out(const std::string& name) const { return (dir / name).string(); }

  static benchhist::probe::ProcessResult run(std::vector<std::string> argv) {
    benchhist::probe::ProcessSpec spec;
    spec.argv = std::move(argv);
    return benchhist::probe::run_process(spec);
  }

  void git(std::vector<std::string> args) const {
    args.insert(args.begin(), {"git", "-C", repo().string()});
    REQUIRE(run(std::move(args)).success());
  }

  Cli cli(std::vector<std::string> args) const {
    benchhist::probe::ProcessSpec spec;
    spec.argv = {BH_CLI};
    spec.argv.insert(spec.argv.end(), args.begin(), args.end());
    spec.cwd = repo();
    spec.env_changes = env;
    spec.capture_stderr = true;
    const auto r = benchhist::probe::run_process(spec);
    return {r.exited ? r.exit_code : -1, r.out, r.err};
  }

  // Checks out commit i (detached) and collects with the given value.
  Cli collect_at(std::size_t i, double value, std::vector<std::string> extra = {}) const {
    git({"checkout", "-q", "--detach", commits[i]});
    std::ofstream(repo() / "value") << value;
    extra.insert(extra.begin(), "collect");
    return cli(extra);
  }
};

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// The first line of `text` containing `part` (empty when none does).
std::string line_with(const std::string& text, const std::string& part) {
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = text.substr(start, end - start);
    if (contains(line, part)) return line;
    start = end + 1;
  }
  return {};
}

}  // namespace

TEST_CASE("the CLI works against Azure exactly as against a local store", "[azure][cli]") {
  Project p;
  // A step at commit 7: 100 → 150 ns.
  for (std::size_t i = 0; i < p.commits.size(); ++i) {
    const auto r = p.collect_at(i, (i < 7 ? 100.0 : 150.0) + double(i % 3) * 0.2);
    INFO("collect " << i << ": " << r.err);
    REQUIRE(r.exit_code == 0);
    CHECK(contains(r.out, "Stored 1 result set covering 1 benchmark case."));
  }
  p.git({"checkout", "-q", "main"});

  SECTION("refuse, skip-existing and overwrite") {
    auto refused = p.collect_at(13, 999.0);
    CHECK(refused.exit_code == 1);
    CHECK(contains(refused.err, "a result is already stored for this run at v1/roundtrip/objects/all_the_time/"));
    auto skipped = p.collect_at(13, 999.0, {"--skip-existing"});
    CHECK(skipped.exit_code == 0);
    CHECK(contains(skipped.out, "already exists"));
    p.git({"checkout", "-q", "main"});
    auto examine = p.cli({"examine", "--benchmark", "parse", "--metric", "processor_time", "--target-triple", "all",
                          "--machine-key", "all", "--json", p.out("ex.json")});
    REQUIRE(examine.exit_code == 0);
    INFO(examine.out);
    // The value column of commit 13's row (commit ids are random hex and may contain "999").
    CHECK_FALSE(contains(line_with(examine.out, "change 13"), " 999 "));
    auto overwritten = p.collect_at(13, 999.0, {"--overwrite"});
    CHECK(overwritten.exit_code == 0);
    p.git({"checkout", "-q", "main"});
    CHECK(contains(line_with(p.cli({"examine", "--benchmark", "parse", "--metric", "processor_time"}).out, "change 13"),
                   " 999 "));
  }

  SECTION("a mistyped container fails the read commands instead of passing a gate on an empty history") {
    const auto cfg = p.dir / "typo.toml";
    std::ofstream(cfg) << "[project]\nid = \"roundtrip\"\n\n[storage.azure]\naccount = \"devstoreaccount1\"\n"
                          "container = \"no-such-container\"\nendpoint = \"" << bhtest::harness().endpoint() << "\"\n";
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"analyze", "--fail-on", "regression"}, {"list", "runs"},
          {"analyze", "--cache=" + (p.dir / "typo-cache").string()}}) {
      auto argv = args;
      argv.push_back("--config=" + cfg.string());
      const auto r = p.cli(argv);
      INFO(args[0] << ": " << r.err);
      CHECK(r.exit_code == 1);
      CHECK(contains(r.err, "the Azure container \"no-such-container\" does not exist at "));
      CHECK(contains(r.err, "[storage.azure]"));
    }
  }

  SECTION("collect against an endpoint nobody answers fails before the benchmarks run") {
    const auto cfg = p.dir / "down.toml";
    std::ofstream(cfg) << "[project]\nid = \"roundtrip\"\n\n[storage.azure]\naccount = \"devstoreaccount1\"\n"
                          "container = \"bench\"\nendpoint = \"https://127.0.0.1:1/devstoreaccount1\"\n";
    fs::remove_all(p.dir / "target");
    p.git({"checkout", "-q", "--detach", p.commits[3]});
    const auto r = p.cli({"collect", "--config=" + cfg.string()});
    INFO(r.err);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "could not list Azure blobs"));
    CHECK(contains(r.err, "check `endpoint` and `account` in [storage.azure]"));
    CHECK_FALSE(fs::exists(p.dir / "target" / "all_the_time"));  // the fake cargo bench never ran
  }

  SECTION("analyze, examine and list find the step through the cloud store") {
    auto analyze = p.cli({"analyze", "--json", p.out("report.json")});
    INFO(analyze.err);
    REQUIRE(analyze.exit_code == 0);
    CHECK(contains(analyze.out, "regression via change point"));
    CHECK(contains(analyze.out, p.commits[7]));
    auto runs = p.cli({"list", "runs"});
    REQUIRE(runs.exit_code == 0);
    CHECK(contains(runs.out, "14 runs"));
    auto sets = p.cli({"list", "discriminants"});
    REQUIRE(sets.exit_code == 0);
    CHECK(contains(sets.out, "all_the_time/"));
    // No secret ever reaches the output, even with --verbose.
    auto verbose = p.cli({"analyze", "--verbose", "--no-text", "--json", p.out("r2.json")});
    CHECK(verbose.exit_code == 0);
    CHECK_FALSE(contains(verbose.err, "test-request-token"));
    CHECK_FALSE(contains(verbose.err, "eyJ"));  // no JWT
  }

  SECTION("the read-through cache misses, then hits, and is invalidated by an overwrite elsewhere") {
    const auto cache = (p.dir / "cache").string();
    auto cold = p.cli({"analyze", "--cache=" + cache, "--verbose", "--no-text", "--json", p.out("cold.json")});
    INFO(cold.err);
    REQUIRE(cold.exit_code == 0);
    CHECK(contains(cold.err, "0 hits, 14 misses"));
    auto warm = p.cli({"analyze", "--cache=" + cache, "--verbose", "--no-text", "--json", p.out("warm.json")});
    REQUIRE(warm.exit_code == 0);
    CHECK(contains(warm.err, "14 hits, 0 misses"));
    // Another process, without a cache, overwrites one run: every mirror must notice.
    const auto over = p.collect_at(3, 555.0, {"--overwrite"});
    INFO("overwrite: " << over.out << over.err);
    REQUIRE(over.exit_code == 0);
    p.git({"checkout", "-q", "main"});
    CHECK(contains(over.out, "all_the_time: 1 stored"));
    CHECK(bhtest::make_store(p.container, "roundtrip")->get("v1/roundtrip/_cache-epoch").has_value());
    auto after = p.cli({"examine", "--cache=" + cache, "--verbose", "--benchmark", "parse", "--metric", "processor_time"});
    INFO("after: " << after.out << after.err);
    REQUIRE(after.exit_code == 0);
    CHECK(contains(after.err, "14 objects wiped"));
    CHECK(contains(after.out, "555"));
  }

  SECTION("prune deletes exactly its plan on Azure, and refuses the base without --prune-base") {
    auto refused = p.cli({"prune", "--all"});
    CHECK(refused.exit_code == 1);
    CHECK(contains(refused.err, "--prune-base"));
    auto dry = p.cli({"prune", "--all", "--prune-base", "--dry-run", p.commits[0].substr(0, 8)});
    REQUIRE(dry.exit_code == 0);
    CHECK(contains(p.cli({"list", "runs"}).out, "14 runs"));
    auto real = p.cli({"prune", "--all", "--prune-base", p.commits[0].substr(0, 8)});
    INFO(real.err);
    REQUIRE(real.exit_code == 0);
    CHECK(contains(p.cli({"list", "runs"}).out, "13 runs"));
  }
}
