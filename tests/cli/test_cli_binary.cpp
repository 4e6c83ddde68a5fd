// The real `cargo-bench-history` binary run as a subprocess: the process contract of
// docs/formats.md#process-contract (exit codes, stdout/stderr split, help), argument errors,
// storage selection (docs/formats.md#storage-selection), machine-key (docs/formats.md#machine-key),
// install (docs/formats.md#listings-and-command-messages), list discriminants and the commands this
// build does not implement yet.

#include <catch2/catch.hpp>

#include <cstdlib>
#include <regex>
#include <sstream>

#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "cli_support.hpp"

using bhtest::contains;
using bhtest::run_cli;
using bhtest::TempDir;

namespace {

const std::vector<std::string> visible_commands = {"install", "collect", "backfill", "analyze",
                                                   "examine", "list", "prune", "bless",
                                                   "unbless", "machine-key", "setup-azure", "import"};

// An argument error: exit 1, message on stderr naming `names`, nothing on stdout, and not
// the runtime `Error:` form.
void require_usage_error(const bhtest::CliResult& r, const std::vector<std::string>& names) {
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("error: ", 0) == 0);
  for (const auto& n : names) CHECK(contains(r.err, n));
}

void require_runtime_error(const bhtest::CliResult& r, const std::string& message) {
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(r.err.rfind("Error: " + message + "\n", 0) == 0);
}

}  // namespace

TEST_CASE("Running without a subcommand prints the full help on stderr and exits 1", "[cli]") {
  TempDir dir;
  auto r = run_cli({}, dir.path());
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "Commands:"));
  for (const auto& c : visible_commands) CHECK(contains(r.err, "  " + c + " "));
}

TEST_CASE("--help and -h print the help on stdout and exit 0", "[cli]") {
  TempDir dir;
  for (const std::string flag : {"--help", "-h"}) {
    auto r = run_cli({flag}, dir.path());
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(contains(r.out, "Commands:"));
    CHECK(contains(r.out, "machine-key"));
    CHECK(contains(r.out, "Print this machine's hardware fingerprint"));
  }
}

TEST_CASE("A Cargo invocation's leading bench-history argument is dropped", "[cli]") {
  TempDir dir;
  auto help = run_cli({"bench-history", "--help"}, dir.path());
  CHECK(help.exit_code == 0);
  CHECK(help.out == run_cli({"--help"}, dir.path()).out);
  auto bare = run_cli({"bench-history"}, dir.path());
  CHECK(bare.exit_code == 1);
  CHECK(contains(bare.err, "Commands:"));
  auto key = run_cli({"bench-history", "machine-key"}, dir.path());
  CHECK(key.exit_code == 0);
  CHECK(std::regex_match(key.out, std::regex("[0-9a-f]{16}\n")));
}

TEST_CASE("Unknown subcommands are usage errors", "[cli]") {
  TempDir dir;
  require_usage_error(run_cli({"frobnicate"}, dir.path()), {"'frobnicate'"});
  require_usage_error(run_cli({"help"}, dir.path()), {"'help'"});
  // A near miss names what was probably meant; a word like none of them gets no tip.
  const auto typo = run_cli({"anaylze"}, dir.path());
  require_usage_error(typo, {"'anaylze'", "\n\n  tip: a similar subcommand exists: 'analyze'\n\nUsage:"});
  CHECK_FALSE(contains(run_cli({"frobnicate"}, dir.path()).err, "tip:"));
  const auto option = run_cli({"analyze", "--locl=./store"}, dir.path());
  require_usage_error(option, {"unexpected argument '--locl=./store' found", "tip: a similar argument exists: '--local'"});
  CHECK_FALSE(contains(run_cli({"analyze", "--frobnicate"}, dir.path()).err, "tip:"));
  // git's range spelling for backfill's two ends (two or three dots) gets the two-argument form.
  for (const char* range : {"HEAD~11..HEAD~1", "HEAD~11...HEAD~1"}) {
    const auto r = run_cli({"backfill", range}, dir.path());
    require_usage_error(r, {"the following required arguments were not provided:\n  <TO>",
                            "\n\n  tip: <FROM> and <TO> are two arguments, not a git range: 'HEAD~11 HEAD~1'"});
  }
  CHECK_FALSE(contains(run_cli({"backfill", "HEAD~11"}, dir.path()).err, "tip:"));
  for (const char* half : {"HEAD~11..", "HEAD~11...", "..HEAD"})  // no second end to show
    CHECK_FALSE(contains(run_cli({"backfill", half}, dir.path()).err, "tip:"));
}

TEST_CASE("The command list starts every description in one column, the longest name's", "[cli]") {
  TempDir dir;
  const auto r = run_cli({"--help"}, dir.path());
  std::size_t column = 0, rows = 0;
  std::istringstream in(r.out);
  bool listing = false;
  for (std::string line; std::getline(in, line);) {
    if (line == "Commands:" || line == "Options:") {
      listing = true;
      continue;
    }
    if (!listing || line.empty()) {
      listing = listing && !line.empty();
      continue;
    }
    const auto gap = line.find("  ", 2);  // after the name (`-h, --help` holds one space)
    const auto text = line.find_first_not_of(' ', gap);
    INFO(line);
    if (column == 0) column = text;
    CHECK(text == column);
    ++rows;
  }
  CHECK(rows >= visible_commands.size() + 2);  // every command (the list above names most) and two options
  CHECK(column == std::string("  backfill-range  ").size());
}

TEST_CASE("Every command prints its own help with its full flag set on stdout", "[cli]") {
  TempDir dir;
  const std::map<std::string, std::vector<std::string>> expected = {
      {"install", {"--config <PATH>", "--verbose"}},
      {"collect", {"--local[=<PATH>]", "--repo <PATH>", "--no-store", "--skip-existing", "--overwrite",
                   "--best-of <N>", "-p, --package <NAME>", "--exclude <NAME>", "--bench <NAME>",
                   "--workspace", "--features <FEATURES>", "--all-features", "--no-default-features",
                   "[-- <ARGS>...]",
                   "Repository (project) directory; the configuration file and relative paths are found there too"}},
      {"backfill", {"<FROM>", "<TO>", "--ignore-errors", "--max-commits <N>", "--best-of <N>"}},
      {"analyze", {"[PREFIX]...", "--cache[=<PATH>]", "--engine <NAME>", "--target-triple <TRIPLE>",
                   "--machine-key <KEY>", "--context <REF>", "--base <REF>", "--since <WHEN>",
                   "--no-text", "--markdown <PATH>", "--json <PATH>", "--no-dirty",
                   "--markdown-summary <PATH>", "--outcome <PATH>", "--html <PATH>",
                   // --repo does not move the configuration file or relative paths for a query command
                   "Repository whose git history is read [default: the working directory]; relative paths resolve "
                   "against the working directory, and so does the configuration file unless only the repository "
                   "has one"}},
      {"examine", {"--benchmark <ID>", "--metric <NAME>", "--no-dirty", "--html <PATH>"}},
      {"list", {"<SUBJECT>", "runs, discriminants or blessings", "--all"}},
      {"prune", {"[COMMIT]...", "--dry-run", "--prune-base", "--clean", "--dirty", "--all",
                 "--include-blessings"}},
      {"bless", {"[PREFIX]...", "--all", "--context <REF>"}},
      {"unbless", {"--context <REF>", "--base <REF>"}},
      {"machine-key", {"--verbose"}},
      {"setup-azure", {"--out-dir <PATH>", "--subscription-id <ID>", "--storage-account <NAME>",
                       "--container <NAME>", "--current-user", "--custom-principal-type <TYPE>"}},
  };
  for (const auto& [command, flags] : expected) {
    auto r = run_cli({command, "--help"}, dir.path());
    INFO(command << " help:\n" << r.out);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    for (const auto& f : flags) CHECK(contains(r.out, f));
  }
  // Help wins even when required arguments are missing.
  CHECK(run_cli({"backfill", "-h"}, dir.path()).exit_code == 0);
}

TEST_CASE("Conflicting or invalid arguments are usage errors naming the argument", "[cli]") {
  TempDir dir;
  const auto& d = dir.path();
  require_usage_error(run_cli({"collect", "--skip-existing", "--overwrite"}, d), {"--skip-existing", "--overwrite"});
  require_usage_error(run_cli({"collect", "--workspace", "-p", "a"}, d), {"--workspace", "--package"});
  require_usage_error(run_cli({"backfill", "a", "b", "--exclude", "x", "--package", "y"}, d),
                      {"--exclude", "--package"});
  require_usage_error(run_cli({"analyze", "--cache=/c", "--local=/l"}, d), {"--cache", "--local"});
  require_usage_error(run_cli({"list", "discriminants", "--cache", "--local"}, d), {"--cache", "--local"});
  require_usage_error(run_cli({"prune", "--clean", "--dirty"}, d), {"--clean", "--dirty"});
  require_usage_error(run_cli({"prune", "--dirty", "--all"}, d), {"--dirty", "--all"});
  require_usage_error(run_cli({"prune"}, d), {"prune requires a deletion scope"});
  require_usage_error(run_cli({"bless", "--all", "criterion/x"}, d), {"--all", "[PREFIX]"});
  require_usage_error(run_cli({"bless", ""}, d), {"a benchmark-id prefix must not be empty"});
  require_usage_error(run_cli({"collect", "--best-of", "0"}, d), {"'0'", "--best-of"});
  require_usage_error(run_cli({"collect", "--best-of", "many"}, d), {"'many'", "--best-of"});
  require_usage_error(run_cli({"backfill", "a", "b", "--max-commits", "0"}, d), {"'0'", "--max-commits"});
  require_usage_error(run_cli({"backfill", "a"}, d), {"<TO>"});
  require_usage_error(run_cli({"list"}, d), {"<SUBJECT>"});
  require_usage_error(run_cli({"list", "partitions"}, d), {"'partitions'", "runs, discriminants, blessings"});
  require_usage_error(run_cli({"examine", "--metric", "wall_time"}, d), {"--benchmark <ID>"});
  require_usage_error(run_cli({"analyze", "--no-such-flag"}, d), {"'--no-such-flag'"});
  require_usage_error(run_cli({"analyze", "--verb"}, d), {"'--verb'"});  // no abbreviations
  require_usage_error(run_cli({"analyze", "--engine"}, d), {"--engine"});
  require_usage_error(run_cli({"machine-key", "--local=/x"}, d), {"'--local"});
  require_usage_error(run_cli({"machine-key", "--local"}, d), {"unexpected argument '--local' found"});
  require_usage_error(run_cli({"collect", "--cache"}, d), {"unexpected argument '--cache' found"});
  require_usage_error(run_cli({"install", "extra"}, d), {"'extra'"});
  require_usage_error(run_cli({"setup-azure", "--out-dir", "x", "--current-user"}, d),
                      {"--current-user", "--out-dir"});
  require_usage_error(run_cli({"setup-azure", "--location", "westeurope"}, d), {"--subscription-id"});
  require_usage_error(run_cli({"list", "discriminants", "--local="}, d), {"--local"});
  require_usage_error(run_cli({"list", "runs", "--html", "x.html"}, d), {"unexpected argument '--html' found"});
  require_usage_error(run_cli({"analyze", "--html"}, d), {"--html"});
}

TEST_CASE("--local takes its value only with '=': a separate token is a positional", "[cli]") {
  TempDir dir;
  // `./store` becomes a second positional of `list`, which takes only one.
  require_usage_error(run_cli({"list", "discriminants", "--local", "./store"}, dir.path()), {"'./store'"});
}

TEST_CASE("Arguments after -- are forwarded to cargo bench, not parsed", "[cli]") {
  TempDir dir;
  // A git repository (collect probes its state before running anything) without a Cargo.toml:
  // cargo itself fails, which proves the flags reached it unparsed.
  REQUIRE(std::system(("git init -q '" + dir.path().string() + "'").c_str()) == 0);
  auto r = run_cli({"collect", "--no-store", "--", "--not-a-flag", "-x"}, dir.path(), {{"TMPDIR", dir.path().string()}});
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 1);
  CHECK(r.out.empty());
  CHECK(contains(r.err, "\nError: engine \"cargo bench\" failed with exit code 101\n"));
  CHECK(r.err.rfind("error: ", 0) != 0);  // not a usage error of ours
  // The failing command's log (its tail is shown) names the arguments cargo was given.
  CHECK(contains(r.err, "=== cargo bench --workspace -- --not-a-flag -x in "));
  // backfill parses the passthrough too, then needs storage before anything else.
  auto b = run_cli({"backfill", "v1", "v2", "--best-of", "3", "--", "--exact"}, dir.path());
  require_runtime_error(b, "no storage configured: pass --local=<path> (or set CARGO_BENCH_HISTORY_STORAGE and pass a "
                           "bare --local) or configure a cloud storage backend in the configuration file");
}

TEST_CASE("import and --bench-command parse their options and refuse what cannot work", "[cli]") {
  TempDir dir;
  // Usage errors, before anything runs.
  require_usage_error(run_cli({"import"}, dir.path()), {"import needs something to store", "--target-dir"});
  require_usage_error(run_cli({"import", "a.json", "--overwrite", "--skip-existing"}, dir.path()),
                      {"--skip-existing", "--overwrite"});
  require_usage_error(run_cli({"collect", "--bench-command", "make bench", "--bench", "x"}, dir.path()),
                      {"--bench-command <COMMAND>", "--bench <NAME>"});
  require_usage_error(run_cli({"backfill", "a", "b", "--bench-command", "make bench", "--features", "f"}, dir.path()),
                      {"--bench-command <COMMAND>", "--features <FEATURES>"});
  require_usage_error(run_cli({"collect", "--bench-command", " "}, dir.path()), {"--bench-command"});
  // Runtime errors name what to fix; nothing is created.
  require_runtime_error(run_cli({"import", "--local=" + (dir.path() / "s").string(), "missing.json"}, dir.path()),
                        "the report " + (dir.path() / "missing.json").string() + " does not exist");
  require_runtime_error(run_cli({"import", "--local=" + (dir.path() / "s").string(), "--target-dir", "nope"}, dir.path()),
                        "the target directory " + (dir.path() / "nope").string() + " does not exist");
  CHECK(std::filesystem::is_empty(dir.path()));
  // A report file given as --target-dir is named for what it is.
  bhtest::write_file(dir.path() / "hf.json", "{}");
  const auto file_as_dir =
      run_cli({"import", "--local=" + (dir.path() / "s").string(), "--target-dir", "hf.json"}, dir.path());
  require_runtime_error(file_as_dir, "the target directory " + (dir.path() / "hf.json").string() +
                                         " is a file, not a directory");
  CHECK(contains(file_as_dir.err, "a report file is named without an option (import <FILE>)"));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "s"));
  std::filesystem::remove(dir.path() / "hf.json");
  // The help names the new options.
  auto help = run_cli({"import", "--help"}, dir.path());
  CHECK(contains(help.out, "--commit <REF>"));
  CHECK(contains(help.out, "[REPORT]..."));
  auto collect_help = run_cli({"collect", "--help"}, dir.path());
  CHECK(contains(collect_help.out, "--bench-command <COMMAND>"));
  CHECK(contains(collect_help.out, "--target-triple <TRIPLE>"));
  CHECK(contains(run_cli({"backfill", "--help"}, dir.path()).out, "--bench-command <COMMAND>"));
}

TEST_CASE("Runtime argument checks still run before a command reports it is unavailable", "[cli]") {
  TempDir dir;
  require_runtime_error(run_cli({"analyze", "--engine", "criterium"}, dir.path()),
                        "unknown engine \"criterium\"; expected one of: criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest, or all");
  require_runtime_error(run_cli({"examine", "--benchmark", "", "--metric", "wall_time"}, dir.path()),
                        "--benchmark must not be empty");
  require_runtime_error(run_cli({"examine", "--benchmark", "a", "--metric", "time"}, dir.path()),
                        "unknown metric \"time\"; expected one of: wall_time, processor_time, instruction_count, "
                        "conditional_branches, indirect_branches, allocated_bytes, allocation_count, peak_outstanding_bytes");
  auto bless = run_cli({"bless"}, dir.path());
  require_runtime_error(bless, "bless requires at least one benchmark-id prefix (or pass --all); for example "
                               "`bless read_cell`");
  require_runtime_error(run_cli({"list", "runs", "--all"}, dir.path()),
                        "--all applies only to `list blessings`, not to `list runs`");
}

TEST_CASE("machine-key prints only the key on stdout; --verbose adds the component line", "[cli]") {
  TempDir dir;
  auto plain = run_cli({"machine-key"}, dir.path());
  CHECK(plain.exit_code == 0);
  CHECK(plain.err.empty());
  CHECK(std::regex_match(plain.out, std::regex("[0-9a-f]{16}\n")));

  auto verbose = run_cli({"machine-key", "--verbose"}, dir.path());
  CHECK(verbose.exit_code == 0);
  CHECK(verbose.out == plain.out);
  INFO(verbose.err);
  CHECK(std::regex_match(verbose.err,
                         std::regex("\\[bench-history\\] machine-key components: version=mk3, processors=[1-9][0-9]*, "
                                    "memory_regions=[1-9][0-9]*, processor_models=[^\n]+\n"
                                    // then why each component is hashed, and what is not
                                    "(\\[bench-history\\]   [a-z_ ]+: [^\n]+\n){5}")));
  // It touches no repository, config or storage.
  CHECK(std::filesystem::is_empty(dir.path()));
}

TEST_CASE("install writes the starter configuration once and never overwrites it", "[cli]") {
  TempDir dir;
  const auto file = dir.path() / ".cargo" / "bench_history.toml";
  auto first = run_cli({"install"}, dir.path());
  INFO(first.err);
  CHECK(first.exit_code == 0);
  CHECK(first.out.rfind("Wrote a starter configuration to " + file.string() + ".\n", 0) == 0);
  CHECK(bhtest::contains(first.out, "Next steps:"));
  REQUIRE(std::filesystem::exists(file));
  CHECK_FALSE(bhtest::read_file(file).empty());

  bhtest::write_file(file, "# edited by the user\n");
  auto second = run_cli({"install"}, dir.path());
  CHECK(second.exit_code == 0);
  CHECK(second.out == "Configuration already exists at " + file.string() + "; leaving it unchanged.\n");
  CHECK(bhtest::read_file(file) == "# edited by the user\n");

  auto custom = run_cli({"install", "--config", "conf/bh.toml"}, dir.path());
  CHECK(custom.exit_code == 0);
  CHECK(std::filesystem::exists(dir.path() / "conf" / "bh.toml"));
  // A file no command finds by itself: the next steps name it in every command.
  CHECK(contains(custom.out, "cargo bench-history collect --config conf/bh.toml --local=./bench-history\n"));
  CHECK(contains(custom.out, "cargo bench-history analyze --config conf/bh.toml --local=./bench-history\n"));
  CHECK(contains(custom.out, "Pass --config conf/bh.toml to every command"));
  CHECK_FALSE(contains(first.out, "--config"));
  // A path a shell would split is quoted, so the steps paste as they are.
  auto spaced = run_cli({"install", "--config", "my dir/it's.toml"}, dir.path());
  CHECK(contains(spaced.out, "collect --config 'my dir/it'\\''s.toml' --local=./bench-history\n"));
  // A link whose target is gone is not "already there": every other command refuses to read it.
  std::filesystem::create_symlink(dir.path() / "gone.toml", dir.path() / "link.toml");
  auto dangling = run_cli({"install", "--config", "link.toml"}, dir.path());
  CHECK(dangling.exit_code == 1);
  CHECK(contains(dangling.err, "is a symbolic link to " + (dir.path() / "gone.toml").string() + ", which does not exist"));
}

TEST_CASE("install from a subdirectory leaves the repository's configuration in charge", "[cli]") {
  // A second file in the subdirectory would be nearest, and every command run there would lose
  // the repository's project id, backend and ignore prefixes.
  TempDir dir;
  bhtest::git_out(dir.path(), "init -q");
  const auto root_file = dir.path() / ".cargo" / "bench_history.toml";
  bhtest::write_file(root_file, "[project]\nid = \"rootid\"\n");
  std::filesystem::create_directories(dir.path() / "sub");
  const auto r = run_cli({"install"}, dir.path() / "sub");
  CHECK(r.exit_code == 0);
  CHECK(r.out == "Configuration already exists at " + root_file.string() + "; leaving it unchanged. Commands run in " +
                     (dir.path() / "sub").string() +
                     " read it; to give this directory a file of its own instead, pass --config "
                     ".cargo/bench_history.toml.\n");
  CHECK_FALSE(std::filesystem::exists(dir.path() / "sub" / ".cargo"));
  // Asked for explicitly, it is written.
  const auto own = run_cli({"install", "--config", ".cargo/bench_history.toml"}, dir.path() / "sub");
  CHECK(own.exit_code == 0);
  CHECK(std::filesystem::exists(dir.path() / "sub" / ".cargo" / "bench_history.toml"));
  CHECK_FALSE(contains(own.out, "--config"));
}

TEST_CASE("install reports a configuration file it cannot write", "[cli]") {
  TempDir dir;
  bhtest::write_file(dir.path() / "blocker", "a file, not a directory\n");
  auto r = run_cli({"install", "--config", "blocker/bench_history.toml"}, dir.path());
  require_runtime_error(r, "failed to write the configuration file to " +
                               (dir.path() / "blocker" / "bench_history.toml").string());
  // The cause says why, without repeating the message.
  CHECK(std::count(r.err.begin(), r.err.end(), '\n') >= 2);
  CHECK(r.err.find("failed to write the configuration file") == r.err.rfind("failed to write the configuration file"));
}

namespace {

// A store holding runs of three partitions plus keys a data listing must skip.
void fill_store(const std::filesystem::path& root, const std::string& project) {
  using benchhist::Engine;
  benchhist::storage::LocalStore store(root);
  const std::string body = "{}";
  const std::string c1 = "4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", c2 = "0123456789abcdef0123456789abcdef01234567";
  store.put(benchhist::codec::clean_key(project, Engine::criterion, "x86_64-unknown-linux-gnu", "a1b2c3d4e5f60718", c1), body,
            benchhist::storage::CollisionPolicy::refuse);
  store.put(benchhist::codec::clean_key(project, Engine::criterion, "x86_64-unknown-linux-gnu", "a1b2c3d4e5f60718", c2), body,
            benchhist::storage::CollisionPolicy::refuse);
  store.put(benchhist::codec::dirty_key(project, Engine::callgrind, "X86_64-PC-Windows-MSVC", "ffff000011112222", c1, 1700000000),
            body, benchhist::storage::CollisionPolicy::refuse);
  store.put(benchhist::codec::clean_key(project, Engine::all_the_time, "aarch64-apple-darwin", "a1b2c3d4e5f60718", c2), body,
            benchhist::storage::CollisionPolicy::refuse);
  // Not data: cache marker and a project-level blessing; and another project's run.
  store.put(benchhist::codec::cache_epoch_key(project), "\"2026-01-01T00:00:00Z\"", benchhist::storage::CollisionPolicy::refuse);
  store.put(benchhist::codec::project_blessing_key(project, c1, 1700000000000000000), body, benchhist::storage::CollisionPolicy::refuse);
  store.put(benchhist::codec::clean_key("other", Engine::alloc_tracker, "x86_64-unknown-linux-gnu", "k", c1), body,
            benchhist::storage::CollisionPolicy::refuse);
}

const std::string all_sets_text =
    "Discriminant sets:\n"
    "  - all_the_time/aarch64-apple-darwin/a1b2c3d4e5f60718\n"
    "  - callgrind/x86_64-pc-windows-msvc/ffff000011112222\n"
    "  - criterion/x86_64-unknown-linux-gnu/a1b2c3d4e5f60718\n"
    "\n";

}  // namespace

TEST_CASE("list discriminants lists the partitions of the project's store", "[cli][list]") {
  TempDir dir;
  const auto store = dir.path() / "store";
  bhtest::write_file(dir.path() / ".cargo" / "bench_history.toml", "[project]\nid = \"WordCount\"\n");
  fill_store(store, "WordCount");

  auto r = run_cli({"list", "discriminants", "--local=store"}, dir.path());
  INFO(r.err);
  CHECK(r.exit_code == 0);
  // The effective selection, as every query announces it; the listing never auto-detects.
  CHECK(r.err == "[bench-history] selection: engine=all, target-triple=all, machine-key=all\n");
  CHECK(r.out == all_sets_text);

  SECTION("filters are unioned per axis and matched case-insensitively on sanitized segments") {
    auto f = run_cli({"list", "discriminants", "--local=store", "--engine", "CRITERION", "--engine", "callgrind",
                      "--target-triple", "X86_64-PC-Windows-MSVC", "--target-triple", "x86_64-unknown-linux-gnu"},
                     dir.path());
    CHECK(f.exit_code == 0);
    CHECK(f.out ==
          "Discriminant sets:\n"
          "  - callgrind/x86_64-pc-windows-msvc/ffff000011112222\n"
          "  - criterion/x86_64-unknown-linux-gnu/a1b2c3d4e5f60718\n\n");
    auto all = run_cli({"list", "discriminants", "--local=store", "--machine-key", "A1B2C3D4E5F60718",
                        "--machine-key", "All"},
                       dir.path());
    CHECK(all.out == all_sets_text);
    auto none = run_cli({"list", "discriminants", "--local=store", "--machine-key", "nope"}, dir.path());
    CHECK(none.exit_code == 0);
    CHECK(none.out == "No discriminant sets found.\n\n");
    // The empty listing names the filter that emptied it, with the values stored on its axis.
    CHECK(contains(none.err,
                   "No stored discriminant set passes the filters: --machine-key nope matches no stored "
                   "set (stored: a1b2c3d4e5f60718 and ffff000011112222). Pass one of the stored values"));
    // Each filter matches some set, only not together.
    auto apart = run_cli({"list", "discriminants", "--local=store", "--engine", "callgrind", "--target-triple",
                          "x86_64-unknown-linux-gnu"},
                         dir.path());
    CHECK(apart.out == "No discriminant sets found.\n\n");
    CHECK(contains(apart.err, "no set matches all of them at once"));
  }
  SECTION("--json and --markdown write files; --no-text keeps stdout empty") {
    auto w = run_cli({"list", "discriminants", "--local=store", "--no-text", "--json", "out/sets.json",
                      "--markdown", "out/sets.md", "--engine", "callgrind"},
                     dir.path());
    INFO(w.err);
    CHECK(w.exit_code == 0);
    CHECK(w.out.empty());
    CHECK(bhtest::read_file(dir.path() / "out" / "sets.json") ==
          "[\n  {\n    \"engine\": \"callgrind\",\n    \"target_triple\": \"x86_64-pc-windows-msvc\",\n"
          "    \"machine_key\": \"ffff000011112222\"\n  }\n]");
    CHECK(bhtest::read_file(dir.path() / "out" / "sets.md") ==
          "# Discriminant sets\n\n| Engine | Target triple | Machine key |\n| --- | --- | --- |\n"
          "| callgrind | x86_64-pc-windows-msvc | ffff000011112222 |\n");
  }
  SECTION("--no-text without a file output is refused at the edge, naming every file output the command has") {
    require_usage_error(run_cli({"list", "discriminants", "--local=store", "--no-text"}, dir.path()),
                        {"error: no output selected: --no-text suppresses the text report, so request at least one of "
                         "--markdown <path> or --json <path>\n"});
    require_usage_error(run_cli({"examine", "--local=store", "--benchmark", "b", "--metric", "wall_time", "--no-text"},
                                dir.path()),
                        {"request at least one of --markdown <path>, --json <path> or --html <path>\n"});
    require_usage_error(run_cli({"analyze", "--local=store", "--no-text"}, dir.path()),
                        {"request at least one of --markdown <path>, --json <path>, --markdown-summary <path>, "
                         "--outcome <path> or --html <path>\n"});
    CHECK(run_cli({"analyze", "--local=nowhere", "--no-text", "--outcome", "o.txt"}, dir.path()).err.find(
              "no output selected") == std::string::npos);
  }
  SECTION("'-' as a report path is refused instead of becoming a file named '-'") {
    auto c = run_cli({"list", "discriminants", "--local=store", "--json", "-"}, dir.path());
    CHECK(c.exit_code == 1);
    CHECK(contains(c.err, "would be a file named '-': report options take a file path; to print the report, pass "
                          "/dev/stdout with --no-text"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "-"));
  }
  SECTION("a report aimed at /dev/stdout or /dev/stderr appends to the file the shell redirected to") {
    // `--json /dev/stdout >> $GITHUB_STEP_SUMMARY` reopened the name with truncation: the file
    // lost what earlier steps had written and the report landed at its start.
    const std::string sh = "cd '" + dir.path().string() + "' && unset CARGO_BENCH_HISTORY_STORAGE; " +
                           "printf 'EARLIER\\n' > log; '" + BH_CLI_PATH +
                           "' list discriminants --local=store --no-text --engine callgrind --json /dev/stdout >> log 2>/dev/null && " +
                           "echo AFTER >> log && '" + BH_CLI_PATH +
                           "' list discriminants --local=store --no-text --engine callgrind --markdown /dev/stderr "
                           "2>> log && echo END >> log";
    REQUIRE(std::system(sh.c_str()) == 0);
    CHECK(bhtest::read_file(dir.path() / "log") ==
          "EARLIER\n[\n  {\n    \"engine\": \"callgrind\",\n    \"target_triple\": \"x86_64-pc-windows-msvc\",\n"
          "    \"machine_key\": \"ffff000011112222\"\n  }\n]AFTER\n"
          "[bench-history] selection: engine=callgrind, target-triple=all, machine-key=all\n"
          "# Discriminant sets\n\n| Engine | Target triple | Machine key |\n| --- | --- | --- |\n"
          "| callgrind | x86_64-pc-windows-msvc | ffff000011112222 |\nEND\n");
    // A pipe is written to as it is (no truncation to attempt); /dev/null takes the report.
    auto null = run_cli({"list", "discriminants", "--local=store", "--no-text", "--json", "/dev/null"}, dir.path());
    CHECK(null.exit_code == 0);
    CHECK(null.out.empty());
  }
  SECTION("an empty path value is refused at the edge, not taken as the working directory") {
    require_usage_error(run_cli({"list", "discriminants", "--local=store", "--config", ""}, dir.path()),
                        {"error: a value is required for '--config <PATH>' but an empty one was supplied\n"});
    require_usage_error(run_cli({"list", "discriminants", "--local=store", "--json", ""}, dir.path()),
                        {"'--json <PATH>' but an empty one was supplied"});
  }
  SECTION("two outputs aimed at one file are refused before anything is written") {
    auto c = run_cli({"list", "discriminants", "--local=store", "--json", "x.out", "--markdown", "./x.out"}, dir.path());
    CHECK(c.exit_code == 1);
    CHECK(contains(c.err, "have conflicting output destinations"));
    CHECK_FALSE(std::filesystem::exists(dir.path() / "x.out"));
  }
  SECTION("an unknown engine name is an error") {
    require_runtime_error(run_cli({"list", "discriminants", "--local=store", "--engine", "gungraun"}, dir.path()),
                          "unknown engine \"gungraun\"; expected one of: criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest, or all");
  }
}

TEST_CASE("Outside a repository the project id defaults to the working directory's name", "[cli][list]") {
  TempDir dir;
  const auto project_dir = dir.path() / "My Project";
  std::filesystem::create_directories(project_dir);
  fill_store(dir.path() / "store", "My Project");
  auto r = run_cli({"list", "discriminants", "--local=../store"}, project_dir);
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.out == all_sets_text);
}

TEST_CASE("Storage selection follows --local=<path>, then bare --local, then the configuration", "[cli][storage]") {
  TempDir dir;
  const auto d = dir.path();
  bhtest::write_file(d / ".cargo" / "bench_history.toml", "[project]\nid = \"p\"\n");
  fill_store(d / "explicit", "p");
  std::filesystem::create_directories(d / "from-env");  // an empty store

  SECTION("an explicit path beats the environment variable") {
    auto r = run_cli({"list", "discriminants", "--local=explicit"}, d, {{"CARGO_BENCH_HISTORY_STORAGE", "from-env"}});
    CHECK(r.exit_code == 0);
    CHECK(r.out == all_sets_text);
  }
  SECTION("a bare --local reads CARGO_BENCH_HISTORY_STORAGE") {
    auto r = run_cli({"list", "discriminants", "--local"}, d, {{"CARGO_BENCH_HISTORY_STORAGE", "explicit"}});
    CHECK(r.exit_code == 0);
    CHECK(r.out == all_sets_text);
    auto e = run_cli({"list", "discriminants", "--local"}, d, {{"CARGO_BENCH_HISTORY_STORAGE", (d / "from-env").string()}});
    CHECK(e.exit_code == 0);
    CHECK(e.out == "No discriminant sets found.\n\n");
    CHECK(contains(e.err, "No runs are stored for project"));
  }
  SECTION("a bare --local with the variable unset or empty is an error") {
    const std::string msg = "--local was given without a path and CARGO_BENCH_HISTORY_STORAGE is unset or empty";
    require_runtime_error(run_cli({"list", "discriminants", "--local"}, d), msg);
    require_runtime_error(run_cli({"list", "discriminants", "--local"}, d, {{"CARGO_BENCH_HISTORY_STORAGE", ""}}), msg);
  }
  SECTION("without --local and without a configured backend there is no storage") {
    const auto none = run_cli({"list", "discriminants"}, d, {{"CARGO_BENCH_HISTORY_STORAGE", "explicit"}});
    require_runtime_error(none, "no storage configured: pass --local=<path> (or set CARGO_BENCH_HISTORY_STORAGE and "
                                "pass a bare --local) or configure a cloud storage backend in the configuration file");
    // The hint names the file this command read (or looked for), since it may come from anywhere above.
    CHECK(contains(none.err, "hint: the configuration this command read, " +
                                 (d / ".cargo" / "bench_history.toml").string() + ", has no [storage.azure] table: add one"));
    std::filesystem::remove_all(d / ".cargo");
    const auto missing = run_cli({"list", "discriminants"}, d);
    CHECK(contains(missing.err, "hint: no configuration file was found (looked for " +
                                    (d / ".cargo" / "bench_history.toml").string() +
                                    "): write one with `cargo bench-history install`"));
  }
  SECTION("a configured Azure backend is chosen without --local, and --local overrides it") {
    // A plain-http endpoint is refused by the Azure backend before any network use, which
    // proves the Azure backend was chosen without touching the network.
    bhtest::write_file(d / ".cargo" / "bench_history.toml",
                       "[project]\nid = \"p\"\n[storage.azure]\naccount = \"acct\"\ncontainer = \"bench\"\n"
                       "endpoint = \"http://127.0.0.1:9\"\n");
    auto azure = run_cli({"list", "discriminants"}, d);
    require_runtime_error(azure, "Azure Entra ID authentication requires an https endpoint");
    auto bare_cache = run_cli({"list", "discriminants", "--cache"}, d);
    require_runtime_error(bare_cache, "--cache was given without a path and CARGO_BENCH_HISTORY_CACHE is unset or empty");
    auto local = run_cli({"list", "discriminants", "--local=explicit"}, d);
    CHECK(local.exit_code == 0);
    CHECK(local.out == all_sets_text);
  }
  SECTION("a missing --config file is an error naming it") {
    auto r = run_cli({"list", "discriminants", "--local=explicit", "--config", "missing.toml"}, d);
    CHECK(r.exit_code == 1);
    CHECK(contains(r.err, "Error: failed to read configuration at"));
    CHECK(contains(r.err, "missing.toml"));
  }
  SECTION("--verbose notes go to stderr with the prefix, stdout is unchanged") {
    auto r = run_cli({"list", "discriminants", "--local=explicit", "--verbose"}, d);
    CHECK(r.exit_code == 0);
    CHECK(r.out == all_sets_text);
    CHECK(contains(r.err, "[bench-history] storage: local storage at " + (d / "explicit").string()));
    CHECK(contains(r.err, "[bench-history] project id: p"));
  }
}

TEST_CASE("setup-azure --out-dir exports the deployment bundle without probing any tool", "[cli]") {
  TempDir dir;
  auto r = run_cli({"setup-azure", "--out-dir", "bundle", "--storage-account", "benchhist01"}, dir.path());
  INFO("stderr: " << r.err);
  CHECK(r.exit_code == 0);
  for (const char* f : {"azuredeploy.json", "parameters.json", "deploy.sh", "README.md"})
    CHECK(std::filesystem::is_regular_file(dir.path() / "bundle" / f));
  CHECK(contains(r.out, "bundle"));
  // A second export into the now non-empty directory is refused and leaves it as it was.
  auto again = run_cli({"setup-azure", "--out-dir", "bundle"}, dir.path());
  CHECK(again.exit_code == 1);
}

TEST_CASE("a path after a bare --local or --cache is refused with the '=' spelling it needs", "[cli]") {
  TempDir dir;
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"collect", "--local", "./bench-history"},
        {"collect", "--local", "bench-history"},
        {"analyze", "--local", "/srv/store", "parse/"},
        {"analyze", "--cache", "../cache"}}) {
    const auto r = run_cli(args, dir.path());
    INFO(args[0] << " " << args[1] << " " << args[2]);
    require_usage_error(r, {"unexpected argument '" + args[2] + "' found: " + args[1] +
                            " takes its path only with '=': write " + args[1] + "=" + args[2]});
  }
  // Once a command's fixed positionals are all given, a bare word after --local has no other use.
  require_usage_error(run_cli({"list", "runs", "--local", "bh"}, dir.path()),
                      {"unexpected argument 'bh' found: --local takes its path only with '=': write --local=bh"});
  require_usage_error(run_cli({"list", "--engine", "all", "runs", "--local", "bh"}, dir.path()),
                      {"write --local=bh"});
  CHECK_FALSE(contains(run_cli({"list", "--local", "runs"}, dir.path()).err, "takes its path only with '='"));
  // A word that may be a benchmark prefix is left to the command, and -- ends the options.
  CHECK_FALSE(contains(run_cli({"analyze", "--local", "parse/"}, dir.path()).err, "takes its path only with '='"));
  CHECK_FALSE(contains(run_cli({"collect", "--local=s", "--", "--local", "./x"}, dir.path()).err,
                       "takes its path only with '='"));
}

TEST_CASE("install refuses a --config that is a directory and tells how to keep the first collect clean", "[cli]") {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / ".cargo");
  const auto r = run_cli({"install", "--config=.cargo"}, dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "the configuration path " + (dir.path() / ".cargo").string() + " is a directory, not a file"));
  CHECK(contains(r.err, "--config " + (dir.path() / ".cargo" / "bench_history.toml").string()));
  // A path ending in '/' names a directory before it exists: refused, and nothing is created.
  const auto slash = run_cli({"install", "--config", "newdir/"}, dir.path());
  CHECK(slash.exit_code == 1);
  CHECK(contains(slash.err, "names a directory (it ends in '/'), not a file"));
  CHECK(contains(slash.err, "--config " + (dir.path() / "newdir" / "bench_history.toml").string()));
  CHECK_FALSE(std::filesystem::exists(dir.path() / "newdir"));
  const auto ok = run_cli({"install"}, dir.path());
  CHECK(ok.exit_code == 0);
  CHECK(contains(ok.out, "add /bench-history/ to .gitignore"));
}
