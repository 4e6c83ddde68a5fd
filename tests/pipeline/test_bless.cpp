// bless, unbless and list blessings through the library, against a real git repository made
// by the test (git CLI) and a LocalStore in a temporary directory.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <boost/json/parse.hpp>
#include <boost/json/value.hpp>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/analyze.hpp"
#include "benchhist/pipeline/bless.hpp"
#include "benchhist/pipeline/blessings.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"

#include "shell.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

using bhtest::sh;

const std::string triple = "x86_64-unknown-linux-gnu";
constexpr int n_commits = 40;
constexpr int step_at = 20;

// A main branch of 40 empty commits; runs for criterion/<triple>/mk-a and …/mk-b where
// parse/small steps 100 → 130 at commit 20 in both partitions and parse/flat stays flat.
struct Fixture {
  fs::path dir;
  std::vector<std::string> commits;
  std::unique_ptr<storage::LocalStore> store;
  std::unique_ptr<analysis::GitTopology> git;

  Fixture() {
    static std::atomic<int> counter{0};
    dir = fs::temp_directory_path() / ("bh-bless-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    fs::remove_all(dir);
    fs::create_directories(dir / "repo");
    sh(g() + "init -q -b main && " + g() + "config user.email t@example.invalid && " + g() + "config user.name t");
    // One shell for the whole history: the machine is shared, process spawns are the cost.
    const std::string ids = sh("for i in $(seq 0 " + std::to_string(n_commits - 1) + "); do " + g() +
                               "commit -q --allow-empty -m \"change $i\" && " + g() + "rev-parse HEAD || exit 1; done");
    for (std::size_t at = 0; at <= ids.size();) {
      const auto nl = std::min(ids.find('\n', at), ids.size());
      commits.push_back(ids.substr(at, nl - at));
      at = nl + 1;
    }
    REQUIRE(commits.size() == static_cast<std::size_t>(n_commits));
    REQUIRE(commits.back().size() == 40);
    store = std::make_unique<storage::LocalStore>(dir / "store");
    for (int i = 0; i < n_commits; ++i)
      for (const char* mk : {"mk-a", "mk-b"}) put_run(commits[i], mk, i);
    git = analysis::open_git_topology(repo());
  }
  ~Fixture() { fs::remove_all(dir); }
  fs::path repo() const { return dir / "repo"; }
  std::string g() const { return "git -C '" + repo().string() + "' "; }

  static double noise(int i, int salt) { return double(((i * 7919 + salt * 104729) % 17) - 8) / 8.0; }

  void put_run(const std::string& commit, const std::string& mk, int i) {
    Run run;
    run.context.observation = *parse_rfc3339("2026-11-01T00:00:00Z");
    run.context.git = GitState{commit, std::string("main"), false};
    run.context.toolchain = ToolchainInfo{triple, std::string("1.91.0")};
    run.context.tool_version = std::string(tool_version);
    run.context.best_of = 1;
    run.results = {
        BenchmarkResult{BenchmarkId({"parse", "small"}),
                        {MetricValue{MetricKind::wall_time, (i >= step_at ? 130.0 : 100.0) + noise(i, 1), {}, {}}}},
        BenchmarkResult{BenchmarkId({"parse", "flat"}),
                        {MetricValue{MetricKind::wall_time, 50.0 + 0.5 * noise(i, 2), {}, {}}}}};
    store->put(codec::clean_key("demo", Engine::criterion, triple, mk, commit), codec::encode_run(run), storage::CollisionPolicy::refuse);
  }

  // Findings of a history-mode analysis at HEAD over every partition, as `<machine key> <benchmark>`.
  std::vector<std::string> findings() {
    pipeline::AnalyzeRequest req;
    req.selection.project = "demo";
    req.selection.filters = analysis::resolve_filters({}, {"all"}, {"all"}, std::nullopt, std::nullopt);
    req.selection.now = std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
    const auto result = pipeline::analyze(req, *git, *store);
    std::vector<std::string> out;
    for (const auto& f : result.report.findings) out.push_back(f.set.machine_key + " " + f.benchmark.qualified());
    std::sort(out.begin(), out.end());
    return out;
  }
};

analysis::DiscriminantFilters filters(std::vector<std::string> engines, std::vector<std::string> triples,
                                      std::vector<std::string> machines) {
  return analysis::resolve_filters(engines, triples, machines, triple, std::string("mk-a"));
}

pipeline::BlessRequest bless_request(std::optional<std::string> context, std::vector<std::string> prefixes,
                                     analysis::DiscriminantFilters f) {
  pipeline::BlessRequest req;
  req.project = "demo";
  req.context_ref = std::move(context);
  req.prefixes = std::move(prefixes);
  req.all = req.prefixes.empty();
  req.filters = std::move(f);
  req.now = *parse_rfc3339("2026-12-01T10:00:00.123456789Z");
  return req;
}

std::vector<std::string> project_records(storage::LocalStore& store) { return store.list(codec::project_blessings_prefix("demo")); }

}  // namespace

TEST_CASE("blessing the planted step hides it from analyze and unblessing brings it back", "[bless]") {
  Fixture fx;
  const std::vector<std::string> both{"mk-a parse/small", "mk-b parse/small"};
  REQUIRE(fx.findings() == both);

  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view s) { announced.emplace_back(s); };
  const auto blessed = pipeline::bless(bless_request(fx.commits[step_at], {"parse/small"}, filters({}, {"all"}, {"all"})),
                                       *fx.git, *fx.store, hooks);
  CHECK(blessed.warnings.empty());
  CHECK(blessed.key == codec::project_blessing_key("demo", fx.commits[step_at], 1796119200123456789LL));
  CHECK(blessed.message == "Blessed 1 prefix filter (parse/small) in blessing scope all/all/all at commit " +
                               fx.commits[step_at].substr(0, 12) + ".\n");
  REQUIRE(announced.size() == 1);
  CHECK(announced[0] == "selection: engine=all, target-triple=all, machine-key=all; base=main (auto-detected); context=" +
                            fx.commits[step_at].substr(0, 12));
  // The stored record is the project-level form with a required scope.
  const auto body = fx.store->get(blessed.key);
  REQUIRE(body);
  const auto record = codec::decode_blessing(*body, blessed.key);
  CHECK(record.commit == fx.commits[step_at]);
  CHECK(record.prefixes == std::vector<std::string>{"parse/small"});
  REQUIRE(record.scope);
  CHECK(*record.scope == BlessingScope{});

  CHECK(fx.findings().empty());

  announced.clear();
  pipeline::UnblessRequest un;
  un.project = "demo";
  un.context_ref = fx.commits[step_at];
  un.filters = filters({}, {"all"}, {"all"});
  const auto removed = pipeline::unbless(un, *fx.git, *fx.store, hooks);
  CHECK(removed.removed == std::vector<std::string>{blessed.key});
  CHECK(removed.message == "Removed 1 blessing at commit " + fx.commits[step_at].substr(0, 12) + ".\n");
  REQUIRE(announced.size() == 1);
  CHECK(announced[0] == "selection: engine=all, target-triple=all, machine-key=all; context=" +
                            fx.commits[step_at].substr(0, 12));
  CHECK(fx.findings() == both);

  const auto again = pipeline::unbless(un, *fx.git, *fx.store);
  CHECK(again.removed.empty());
  CHECK(again.message == "No blessings recorded at commit " + fx.commits[step_at].substr(0, 12) + ".\n");
}

TEST_CASE("a blessing scoped to one machine key leaves the other machine's step reported", "[bless]") {
  Fixture fx;
  // Omitted --target-triple is the auto-detected host triple; --engine omitted is unrestricted.
  const auto blessed =
      pipeline::bless(bless_request(fx.commits[step_at], {"parse/"}, filters({}, {}, {"mk-a"})), *fx.git, *fx.store);
  REQUIRE(blessed.record.scope);
  CHECK(blessed.record.scope->engine.empty());
  CHECK(blessed.record.scope->target_triple == std::vector<std::string>{triple});
  CHECK(blessed.record.scope->machine_key == std::vector<std::string>{"mk-a"});
  CHECK_THAT(blessed.message, Catch::Contains("in blessing scope all/" + triple + "/mk-a at commit"));
  CHECK(fx.findings() == std::vector<std::string>{"mk-b parse/small"});

  // Explicit values are the scope; `all` empties an axis; omitted machine key auto-detects.
  const auto s = pipeline::scope_of(filters({"callgrind", "criterion"}, {"ALL"}, {}));
  CHECK(s.engine == std::vector<std::string>{"callgrind", "criterion"});
  CHECK(s.target_triple.empty());
  CHECK(s.machine_key == std::vector<std::string>{"mk-a"});
}

TEST_CASE("a narrowed unbless never revokes acceptance outside its selection", "[bless]") {
  Fixture fx;
  const auto all = pipeline::bless(bless_request(fx.commits[step_at], {}, filters({}, {"all"}, {"all"})), *fx.git, *fx.store);
  CHECK(all.message == "Blessed all benchmarks in blessing scope all/all/all at commit " + fx.commits[step_at].substr(0, 12) + ".\n");
  CHECK(all.record.prefixes.empty());
  CHECK(fx.findings().empty());

  pipeline::UnblessRequest un;
  un.project = "demo";
  un.context_ref = fx.commits[step_at];
  un.filters = filters({}, {}, {"mk-a"});  // narrower than the record's all/all/all
  const auto kept = pipeline::unbless(un, *fx.git, *fx.store);
  CHECK(kept.removed.empty());
  CHECK(kept.kept.size() == 1);
  CHECK(project_records(*fx.store).size() == 1);
  CHECK(fx.findings().empty());
  // The message must not say there is nothing: the kept record still re-baselines the series.
  const std::string c = fx.commits[step_at].substr(0, 12);
  CHECK(kept.message == "No blessing at commit " + c + " lies within this request's scope " +
                            pipeline::scope_of(un.filters).label() + ".\n"
                            "Kept 1 blessing whose scope (all/all/all) is not contained in this request's: unbless "
                            "revokes only the blessings its filters cover. To revoke it, run `cargo bench-history unbless "
                            "--context " + c + "` with filters at least as wide as that scope (the --engine, "
                            "--target-triple and --machine-key the blessing was given, or `all`).\n");

  // A legacy sidecar at that commit in a selected partition is removed by the narrow request.
  const auto sidecar = codec::partition_blessing_key("demo", Engine::criterion, triple, "mk-a", fx.commits[step_at], 1790000000);
  Blessing b;
  b.commit = fx.commits[step_at];
  b.issued_at = from_unix_seconds(1790000000);
  b.tool_version = "0.9.0";
  fx.store->put(sidecar, codec::encode_blessing(b), storage::CollisionPolicy::refuse);
  const auto removed = pipeline::unbless(un, *fx.git, *fx.store);
  CHECK(removed.removed == std::vector<std::string>{sidecar});
  CHECK(project_records(*fx.store).size() == 1);
  CHECK(removed.message.starts_with("Removed 1 blessing at commit " + c + ".\nKept 1 blessing whose scope (all/all/all)"));
}

TEST_CASE("bless warns about a commit off the base line, a commit without results and a dirty tree, in that order",
          "[bless]") {
  Fixture fx;
  sh(fx.g() + "checkout -q -b feature && " + fx.g() + "commit -q --allow-empty -m 'feature work'");
  const std::string feature = sh(fx.g() + "rev-parse HEAD");
  std::ofstream(fx.repo() / "untracked.txt") << "x\n";
  const std::string s = feature.substr(0, 12);

  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view a) { announced.emplace_back(a); };
  const auto r = pipeline::bless(bless_request(std::nullopt, {"parse/small"}, filters({}, {}, {})), *fx.git, *fx.store, hooks);
  REQUIRE(r.warnings.size() == 3);
  CHECK_THAT(r.warnings[0], Catch::StartsWith("Warning: the context commit " + s + " is not on the base branch main; "));
  CHECK_THAT(r.warnings[0], Catch::Contains("takes effect only once this commit is part of the base branch's first-parent history"));
  CHECK_THAT(r.warnings[1], Catch::StartsWith("Warning: no stored result at the context commit " + s +
                                              "; blessing anyway — double-check the commit id."));
  CHECK(r.warnings[2] == "Warning: uncommitted changes present. Blessing was applied to the existing commit at HEAD (" + s + ").");
  CHECK_THAT(r.message, Catch::StartsWith(r.warnings[0] + "\n" + r.warnings[1] + "\n" + r.warnings[2] + "\nBlessed 1 prefix filter"));
  REQUIRE(announced.size() == 1);
  CHECK(announced[0] == "selection: engine=all, target-triple=" + triple + " (auto-detected), machine-key=mk-a (auto-detected); base=main (auto-detected); context=" + s + " (defaulted to HEAD)");

  // An explicit --context suppresses the dirty-tree warning; a commit with a clean run on the
  // base line needs no warning at all.
  const auto quiet = pipeline::bless(bless_request(fx.commits[5], {"parse/small"}, filters({}, {}, {})), *fx.git, *fx.store);
  CHECK(quiet.warnings.empty());
  // A run outside the selected partitions does not count as a stored result.
  const auto other = pipeline::bless(bless_request(fx.commits[5], {"parse/small"}, filters({}, {}, {"mk-zzz"})), *fx.git, *fx.store);
  REQUIRE(other.warnings.size() == 2);
  CHECK_THAT(other.warnings[0], Catch::StartsWith("Warning: no stored result at the context commit"));
  // Another scope at a commit that already has a record: stored beside it, with a word.
  CHECK_THAT(other.warnings[1], Catch::StartsWith("Note: commit " + fx.commits[5].substr(0, 7)) &&
                                    Catch::Contains("already has 1 blessing record"));

  // A store holding nothing of the project (a mistyped store path) is named as such, not the commit.
  storage::LocalStore empty(fx.dir / "empty-store");
  const auto stray = pipeline::bless(bless_request(fx.commits[5], {"parse/small"}, filters({}, {}, {})), *fx.git, empty);
  REQUIRE(stray.warnings.size() == 1);
  CHECK(stray.warnings[0] == "Warning: " + empty.describe() + " holds no runs of project \"demo\" at all; blessing "
                             "anyway — check --local (or the configured storage) and the project id before relying on it.");
}

TEST_CASE("bless refuses a request without prefixes, with an empty prefix or with both --all and prefixes", "[bless]") {
  Fixture fx;
  auto req = bless_request(std::nullopt, {}, filters({}, {}, {}));
  req.all = false;
  CHECK_THROWS_WITH(pipeline::bless(req, *fx.git, *fx.store),
                    "bless requires at least one benchmark-id prefix (or pass --all); for example `bless read_cell`");
  req.prefixes = {"parse", ""};
  CHECK_THROWS_WITH(pipeline::bless(req, *fx.git, *fx.store), "a benchmark-id prefix must not be empty");
  req.prefixes = {"parse"};
  req.all = true;
  CHECK_THROWS_AS(pipeline::bless(req, *fx.git, *fx.store), Error);
  CHECK(project_records(*fx.store).empty());

  req.all = false;
  req.context_ref = "no-such-ref";
  CHECK_THROWS_WITH(pipeline::bless(req, *fx.git, *fx.store), Catch::Contains("could not resolve \"no-such-ref\""));
  req.context_ref.reset();
  req.base_ref = "no-such-branch";
  CHECK_THROWS_WITH(pipeline::bless(req, *fx.git, *fx.store), Catch::Contains("could not resolve \"no-such-branch\""));
  CHECK(project_records(*fx.store).empty());
}

TEST_CASE("two blessings issued in the same nanosecond are both kept", "[bless]") {
  Fixture fx;
  const auto req = bless_request(fx.commits[3], {"parse/small"}, filters({}, {}, {}));
  const auto a = pipeline::bless(req, *fx.git, *fx.store);
  const auto b = pipeline::bless(bless_request(fx.commits[3], {"parse/large"}, filters({}, {}, {})), *fx.git, *fx.store);
  CHECK(a.key != b.key);
  CHECK(project_records(*fx.store).size() == 2);
  CHECK(b.record.issued_at == a.record.issued_at + std::chrono::nanoseconds(1));
}

TEST_CASE("blessing the same commit with the same prefixes and scope again stores nothing and says so", "[bless]") {
  Fixture fx;
  const auto req = bless_request(fx.commits[3], {"parse/small"}, filters({}, {}, {}));
  const auto a = pipeline::bless(req, *fx.git, *fx.store);
  const auto again = pipeline::bless(req, *fx.git, *fx.store);
  CHECK(again.key == a.key);
  CHECK(project_records(*fx.store).size() == 1);
  CHECK_THAT(again.message, Catch::Contains("Already blessed: " + a.key) && Catch::Contains("nothing stored"));
}

TEST_CASE("list blessings shows both record forms at HEAD, scoped ones with their scope label", "[bless]") {
  Fixture fx;
  const std::string head = fx.commits.back();
  Blessing side;
  side.commit = head;
  side.issued_at = from_unix_seconds(1790000000);
  side.prefixes = {"parse/flat"};
  side.tool_version = "0.9.0";
  fx.store->put(codec::partition_blessing_key("demo", Engine::criterion, triple, "mk-b", head, 1790000000), codec::encode_blessing(side),
                storage::CollisionPolicy::refuse);
  pipeline::bless(bless_request(std::nullopt, {}, filters({}, {}, {"mk-a"})), *fx.git, *fx.store);
  pipeline::bless(bless_request(fx.commits[2], {}, filters({}, {}, {})), *fx.git, *fx.store);  // another commit

  pipeline::ListBlessingsRequest req;
  req.selection.project = "demo";
  req.selection.filters = filters({}, {"all"}, {"all"});
  auto listing = pipeline::list_blessings(req, *fx.git, *fx.store);
  REQUIRE(listing.listing.blessings.size() == 1);
  CHECK(listing.listing.blessings[0].set.machine_key == "mk-b");
  CHECK(listing.listing.blessings[0].prefixes == std::vector<std::string>{"parse/flat"});
  REQUIRE(listing.scoped.size() == 1);
  CHECK(listing.scoped[0].scope.label() == "all/" + triple + "/mk-a");
  const std::string s = head.substr(0, 12);
  CHECK(listing.text() == "Blessings for project demo at commit " + s + "\n\ncriterion/" + triple + "/mk-b\n  " + s +
                              " accepts parse/flat (issued 2026-09-21T14:13:20Z)\n\nScoped blessings\n  " + s +
                              " accepts all benchmarks in all/" + triple + "/mk-a (issued 2026-12-01T10:00:00.123456789Z)\n");
  CHECK_THAT(listing.markdown(), Catch::Contains("| " + s + " | all/" + triple + "/mk-a | all benchmarks |"));
  const auto json = listing.json();
  CHECK_THAT(json, Catch::Contains("\"scope\": \"head\""));
  CHECK_THAT(json, Catch::Contains("\"scoped_blessings\": ["));
  CHECK_THAT(json, Catch::EndsWith("]\n}"));
  const auto doc = boost::json::parse(json).as_object();  // still one valid document
  CHECK(doc.at("blessings").as_array().size() == 1);
  const auto& scoped = doc.at("scoped_blessings").as_array().at(0).as_object();
  CHECK(scoped.at("scope").as_string() == ("all/" + triple + "/mk-a").c_str());
  CHECK(scoped.at("blessing_scope").at("engine").as_array().empty());
  CHECK(scoped.at("blessing_scope").at("machine_key").as_array().at(0).as_string() == "mk-a");
  CHECK_FALSE(scoped.contains("prefixes"));

  // A selection that excludes mk-a hides the scoped record and the mk-b sidecar stays.
  req.selection.filters = filters({}, {}, {"mk-b"});
  listing = pipeline::list_blessings(req, *fx.git, *fx.store);
  CHECK(listing.listing.blessings.size() == 1);
  CHECK(listing.scoped.empty());
  CHECK(listing.json().find("scoped_blessings") == std::string::npos);

  // Nothing at the listed commit.
  req.selection.context_ref = fx.commits[7];
  listing = pipeline::list_blessings(req, *fx.git, *fx.store);
  CHECK(listing.text() == "No blessings recorded at commit " + fx.commits[7].substr(0, 12) + ".\n");
}

TEST_CASE("list blessings --all names the newest blessing affecting each benchmark in the window", "[bless]") {
  Fixture fx;
  pipeline::bless(bless_request(fx.commits[step_at], {"parse/small"}, filters({}, {}, {"mk-a"})), *fx.git, *fx.store);
  pipeline::bless(bless_request(fx.commits[10], {"parse/"}, filters({}, {}, {"mk-a"})), *fx.git, *fx.store);
  Blessing side;
  side.commit = fx.commits[25];
  side.issued_at = from_unix_seconds(1790000000);
  side.prefixes = {"parse/"};
  side.tool_version = "0.9.0";
  fx.store->put(codec::partition_blessing_key("demo", Engine::criterion, triple, "mk-b", fx.commits[25], 1790000000),
                codec::encode_blessing(side), storage::CollisionPolicy::refuse);

  pipeline::ListBlessingsRequest req;
  req.all = true;
  req.selection.project = "demo";
  req.selection.filters = filters({}, {"all"}, {"all"});
  req.selection.now = std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
  std::vector<std::string> announced;
  pipeline::Hooks hooks;
  hooks.announce = [&](std::string_view a) { announced.emplace_back(a); };
  const auto listing = pipeline::list_blessings(req, *fx.git, *fx.store, hooks);
  REQUIRE(announced.size() == 1);
  CHECK_THAT(announced[0], Catch::Contains("; since="));
  std::vector<std::string> rows;
  for (const auto& b : listing.listing.blessings)
    rows.push_back(b.set.machine_key + " " + b.benchmark.value_or("?") + " @" + std::to_string(
        std::find(fx.commits.begin(), fx.commits.end(), b.commit) - fx.commits.begin()));
  CHECK(rows == std::vector<std::string>{"mk-a parse/flat @10", "mk-a parse/small @20", "mk-b parse/flat @25",
                                         "mk-b parse/small @25"});
  CHECK(listing.scoped.empty());
  CHECK(listing.listing.blessings[0].commit_time.has_value());
  CHECK_THAT(listing.text(), Catch::StartsWith("Most recent blessings for project demo\n"));
}
