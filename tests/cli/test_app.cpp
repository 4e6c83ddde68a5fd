// The option model, storage selection and command runners through the library API, the way
// a harness uses them without the CLI.

#include <catch2/catch.hpp>
#include <sstream>

#include "app/commands.hpp"
#include "app/list_discriminants.hpp"
#include "benchhist/report/list_output.hpp"
#include "app/options.hpp"
#include "app/storage_selection.hpp"
#include "benchhist/error.hpp"
#include "probe/machine_key.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "cli_support.hpp"

using namespace benchhist;
using namespace benchhist::app;

namespace {

std::string usage_message(const Command& c) {
  try {
    validate(c);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e.message();
  }
  return {};
}

}  // namespace

TEST_CASE("Default option values are the CLI defaults", "[app][options]") {
  CollectOptions c;
  CHECK(c.best_of == 1);
  CHECK_FALSE(c.env.local.present);
  AnalyzeOptions a;
  CHECK(a.selection.context() == "HEAD");
  CHECK(a.selection.allow_dirty);
  CHECK(a.filters.engine.unconstrained());
  CHECK(usage_message(c).empty());
  CHECK(command_name(Command{MachineKeyOptions{}}) == "machine-key");
  CHECK(command_name(Command{SetupAzureOptions{}}) == "setup-azure");
}

TEST_CASE("validate rejects the argument combinations the CLI rejects", "[app][options]") {
  CollectOptions c;
  c.skip_existing = c.overwrite = true;
  CHECK(usage_message(c) == "the argument '--skip-existing' cannot be used with '--overwrite'");
  c = {};
  c.best_of = 0;
  CHECK(usage_message(c) == "invalid value '0' for '--best-of <N>': the value must be at least 1");
  c = {};
  c.scope.workspace = true;
  c.scope.cargo.packages = {"a"};
  CHECK(usage_message(c) == "the argument '--workspace' cannot be used with '--package <NAME>'");
  c = {};
  c.scope.cargo.excludes = {"x"};
  c.scope.cargo.packages = {"a"};
  CHECK(usage_message(c) == "the argument '--exclude <NAME>' cannot be used with '--package <NAME>'");

  BackfillOptions b;
  b.from = "a";
  b.to = "b";
  CHECK(usage_message(b).empty());
  b.max_commits = 0;
  CHECK(usage_message(b) == "invalid value '0' for '--max-commits <N>': the value must be at least 1");

  ListOptions l;
  l.env.local = OptionalPathFlag::bare();
  l.cache.cache = OptionalPathFlag::with("/c");
  CHECK(usage_message(l) == "the argument '--cache[=<PATH>]' cannot be used with '--local[=<PATH>]'");

  PruneOptions p;
  CHECK(usage_message(p).rfind("prune requires a deletion scope", 0) == 0);
  p.include_blessings = true;
  CHECK(usage_message(p).empty());

  BlessOptions bl;
  bl.all = true;
  bl.prefixes = {"x"};
  CHECK(usage_message(bl) == "the argument '--all' cannot be used with '[PREFIX]...'");
  bl.all = false;
  bl.prefixes = {""};
  CHECK(usage_message(bl) == "a benchmark-id prefix must not be empty");
}

TEST_CASE("Relative paths of write commands resolve against --repo, of query commands against the working directory",
          "[app][options]") {
  const std::filesystem::path cwd = "/work/here";
  CollectOptions c;
  c.env.repo = "../crate";
  CHECK(path_base(c, cwd) == "/work/crate");
  c.env.repo = "/abs/repo";
  CHECK(path_base(c, cwd) == "/abs/repo");
  AnalyzeOptions a;
  a.env.repo = "../crate";
  CHECK(path_base(a, cwd) == cwd);

  EnvironmentOptions env;
  auto def = config_location(env, "/b");
  CHECK(def.path == "/b/.cargo/bench_history.toml");
  CHECK_FALSE(def.explicitly_named);
  env.config = "conf/x.toml";
  auto named = config_location(env, "/b");
  CHECK(named.path == "/b/conf/x.toml");
  CHECK(named.explicitly_named);
}

TEST_CASE("Storage selection precedence and its error messages", "[app][storage]") {
  probe::MapEnvironment env;
  const std::filesystem::path base = "/base";
  config::AzureStorageConfig azure{"acct", "cont", std::nullopt};

  auto explicit_local = select_storage(OptionalPathFlag::with("s"), {}, &azure, env, base);
  REQUIRE(explicit_local.is_local());
  CHECK(std::get<LocalStorageChoice>(explicit_local.backend).root == "/base/s");
  CHECK_FALSE(std::get<LocalStorageChoice>(explicit_local.backend).from_environment);

  auto check_error = [&](const OptionalPathFlag& local, const OptionalPathFlag& cache,
                         const config::AzureStorageConfig* az, const std::string& message) {
    try {
      select_storage(local, cache, az, env, base);
      FAIL("expected: " << message);
    } catch (const Error& e) {
      CHECK(e.message() == message);
    }
  };
  const std::string bare_local = "--local was given without a path and CARGO_BENCH_HISTORY_STORAGE is unset or empty";
  check_error(OptionalPathFlag::bare(), {}, &azure, bare_local);
  env.set("CARGO_BENCH_HISTORY_STORAGE", "");
  check_error(OptionalPathFlag::bare(), {}, &azure, bare_local);
  env.set("CARGO_BENCH_HISTORY_STORAGE", "rel/store");
  auto from_env = select_storage(OptionalPathFlag::bare(), {}, &azure, env, base);
  REQUIRE(from_env.is_local());
  CHECK(std::get<LocalStorageChoice>(from_env.backend).root == "/base/rel/store");
  CHECK(std::get<LocalStorageChoice>(from_env.backend).from_environment);

  auto cloud = select_storage({}, OptionalPathFlag::with("cache"), &azure, env, base);
  REQUIRE_FALSE(cloud.is_local());
  const auto& a = std::get<AzureStorageChoice>(cloud.backend);
  CHECK(a.account == "acct");
  CHECK(a.container == "cont");
  CHECK(a.endpoint == "https://acct.blob.core.windows.net");
  CHECK(a.cache_dir == std::filesystem::path("/base/cache"));

  check_error({}, OptionalPathFlag::bare(), &azure,
              "--cache was given without a path and CARGO_BENCH_HISTORY_CACHE is unset or empty");
  env.set("CARGO_BENCH_HISTORY_CACHE", "/var/cache/bh");
  auto cached = select_storage({}, OptionalPathFlag::bare(), &azure, env, base);
  CHECK(std::get<AzureStorageChoice>(cached.backend).cache_dir == std::filesystem::path("/var/cache/bh"));

  check_error({}, {}, nullptr,
              "no storage configured: pass --local=<path> (or set CARGO_BENCH_HISTORY_STORAGE and pass a bare "
              "--local) or configure a cloud storage backend in the configuration file");
  check_error(OptionalPathFlag::with("s"), OptionalPathFlag::with("c"), nullptr,
              "the argument '--cache[=<PATH>]' cannot be used with '--local[=<PATH>]'");

  // The Azure store validates its endpoint before any credential or network use.
  config::AzureStorageConfig plain_http{"acct", "cont", std::string("http://127.0.0.1:9")};
  auto insecure = select_storage({}, {}, &plain_http, env, base);
  CHECK(std::get<AzureStorageChoice>(insecure.backend).endpoint == "http://127.0.0.1:9");
  try {
    open_store(insecure, "p", env);
    FAIL("an http endpoint must be refused");
  } catch (const Error& e) {
    CHECK(e.message() == "Azure Entra ID authentication requires an https endpoint");
  }
}

TEST_CASE("open_store opens a working LocalStore for a local choice", "[app][storage]") {
  bhtest::TempDir dir;
  probe::MapEnvironment env;
  auto choice = select_storage(OptionalPathFlag::with("store"), {}, nullptr, env, dir.path());
  CHECK(choice.describe() == "local storage at " + (dir.path() / "store").string());
  auto store = open_store(choice, "p", env);
  const auto key = codec::clean_key("p", Engine::criterion, "t", "m", "c");
  CHECK(store->put(key, "{\"a\":1}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(store->get(key) == std::optional<std::string>("{\"a\":1}"));
  CHECK(std::filesystem::exists(dir.path() / "store" / key));
}

TEST_CASE("list_discriminant_sets returns distinct sorted partitions and skips non-data keys", "[app][list]") {
  bhtest::TempDir dir;
  storage::LocalStore store(dir.path());
  const std::string commit = "abc";
  store.put(codec::clean_key("p", Engine::criterion, "t1", "m1", commit), "{}", storage::CollisionPolicy::refuse);
  store.put(codec::dirty_key("p", Engine::criterion, "t1", "m1", commit, 5), "{}", storage::CollisionPolicy::refuse);
  store.put(codec::partition_blessing_key("p", Engine::alloc_tracker, "T2", "m2", commit, 7), "{}", storage::CollisionPolicy::refuse);
  store.put(codec::clean_key("p", Engine::all_the_time, "t1", "m1", commit), "{}", storage::CollisionPolicy::refuse);
  store.put(codec::cache_epoch_key("p"), "{}", storage::CollisionPolicy::refuse);
  store.put(codec::project_blessing_key("p", commit, 9), "{}", storage::CollisionPolicy::refuse);
  store.put("v1/p/objects/criterion/t1/m1/abc/notes.txt", "{}", storage::CollisionPolicy::refuse);
  store.put(codec::clean_key("p2", Engine::callgrind, "t1", "m1", commit), "{}", storage::CollisionPolicy::refuse);

  auto sets = list_discriminant_sets(store, "p", {});
  REQUIRE(sets.size() == 3);
  CHECK(sets[0].label() == "all_the_time/t1/m1");
  CHECK(sets[1].label() == "alloc_tracker/t2/m2");
  CHECK(sets[2].label() == "criterion/t1/m1");

  const auto engines = [](std::vector<std::string> names) {
    return analysis::resolve_filter(analysis::FilterAxis::engine, names);
  };
  FilterOptions f;
  f.target_triples = {"T1"};
  f.engine = engines({"criterion", "all_the_time"});
  auto filtered = list_discriminant_sets(store, "p", f);
  REQUIRE(filtered.size() == 2);
  CHECK(filtered[0].engine == Engine::all_the_time);

  f = {};
  f.machine_keys = {"M2", "all"};  // `all` anywhere unconstrains the axis
  CHECK(list_discriminant_sets(store, "p", f).size() == 3);
  f.engine = engines({"ALLOC_TRACKER"});
  REQUIRE(list_discriminant_sets(store, "p", f).size() == 1);

  CHECK(list_discriminant_sets(store, "nobody", {}).empty());
  try {
    engines({"iai"});  // where the --engine values are given, before any store is listed
    FAIL("an unknown engine must be rejected");
  } catch (const Error& err) {
    CHECK(err.message() == "unknown engine \"iai\"; expected one of: criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest, or all");
  }
}

TEST_CASE("Discriminant listings render the text, Markdown and JSON forms of the spec", "[app][list]") {
  std::vector<DiscriminantSet> sets{{Engine::callgrind, "x86_64-unknown-linux-gnu", "k1"},
                                    {Engine::criterion, "x86_64-unknown-linux-gnu", "k\"2"}};
  CHECK(report::render_discriminants_text(sets) ==
        "Discriminant sets:\n  - callgrind/x86_64-unknown-linux-gnu/k1\n  - criterion/x86_64-unknown-linux-gnu/k\"2\n");
  CHECK(report::render_discriminants_text({}) == "No discriminant sets found.\n");
  CHECK(report::render_discriminants_markdown({}) == "# Discriminant sets\n\nNo discriminant sets found.\n");
  CHECK(report::render_discriminants_markdown(sets) ==
        "# Discriminant sets\n\n| Engine | Target triple | Machine key |\n| --- | --- | --- |\n"
        "| callgrind | x86_64-unknown-linux-gnu | k1 |\n| criterion | x86_64-unknown-linux-gnu | k\"2 |\n");
  CHECK(report::render_discriminants_json({}) == "[]");
  CHECK(report::render_discriminants_json({sets[1]}) ==
        "[\n  {\n    \"engine\": \"criterion\",\n    \"target_triple\": \"x86_64-unknown-linux-gnu\",\n"
        "    \"machine_key\": \"k\\\"2\"\n  }\n]");
}

TEST_CASE("Commands run through the library write to the given streams", "[app][commands]") {
  bhtest::TempDir dir;
  probe::MapEnvironment env;
  std::ostringstream out, err;
  Invocation inv{env, dir.path(), out, err, "/", std::nullopt, false};

  SECTION("machine-key prints the key of the probed hardware") {
    run_command(MachineKeyOptions{true}, inv);
    CHECK(out.str().size() == 17);
    CHECK(err.str().rfind("[bench-history] machine-key components: version=mk3, processors=", 0) == 0);
  }
  SECTION("install writes under the invocation's working directory, once") {
    run_command(InstallOptions{}, inv);
    CHECK(std::filesystem::exists(dir.path() / ".cargo" / "bench_history.toml"));
    out.str("");
    run_command(InstallOptions{}, inv);
    CHECK(out.str().rfind("Configuration already exists at ", 0) == 0);
  }
  SECTION("list discriminants with a bare --local reads the invocation's environment") {
    storage::LocalStore store(dir.path() / "s");
    store.put(codec::clean_key(dir.path().filename().string(), Engine::criterion, "t", "m", "c"), "{}", storage::CollisionPolicy::refuse);
    env.set("CARGO_BENCH_HISTORY_STORAGE", (dir.path() / "s").string());
    ListOptions l;
    l.subject = ListSubject::discriminants;
    l.env.local = OptionalPathFlag::bare();
    run_command(l, inv);
    CHECK(out.str() == "Discriminant sets:\n  - criterion/t/m\n\n");
  }
  SECTION("import validates before it touches storage") {
    ImportOptions import;
    CHECK_THROWS_WITH(run_command(import, inv), Catch::Contains("import needs something to store"));
    import.target_dir = "target";
    import.env.local = OptionalPathFlag::with(dir.path() / "s");
    CHECK_THROWS_WITH(run_command(import, inv), Catch::Contains("target directory"));
    CHECK(out.str().empty());
  }
}
