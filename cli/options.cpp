// argv → app::Command with Boost.Program_options. Every command registers its full flag set
// (docs/formats.md#option-groups groups + docs/cli.md#commands per-command options); help text is
// generated from the same table, so what `--help` shows is exactly what parses.

#include "options.hpp"

#include <algorithm>
#include <boost/program_options.hpp>
#include <charconv>
#include <functional>
#include <map>

#include "benchhist/error.hpp"
#include "benchhist/version.hpp"

namespace po = boost::program_options;

namespace benchhist::cli {
namespace {

// `--local`/`--cache` without `=` are rewritten to `--flag=<this>` before parsing, so that
// `--local ./x` stays a bare flag followed by a positional (docs/formats.md#storage-selection).
constexpr const char* bare_marker = "\x1f" "bare";

enum class Kind { flag, value, multi, path_flag };

struct Opt {
  std::string name;        // long name without dashes
  char short_name = 0;     // e.g. 'p'
  Kind kind = Kind::flag;
  std::string value_name;  // e.g. PATH
  std::string help;
  bool required = false;

  std::string display() const {
    std::string s = "--" + name;
    if (kind == Kind::path_flag) s += "[=<" + value_name + ">]";
    else if (kind != Kind::flag) s += " <" + value_name + ">";
    return s;
  }
};

struct Positional {
  std::string name;  // e.g. FROM, PREFIX
  std::string help;
  bool required = false;
  bool multiple = false;
  std::string display() const {
    std::string s = required ? "<" + name + ">" : "[" + name + "]";
    return multiple ? s + "..." : s;
  }
};

struct CommandSpec {
  std::string name;
  std::string about;  // one line, for the command list
  std::vector<Opt> opts;
  std::vector<Positional> positionals;
  bool trailing = false;  // `-- <ARGS>...` forwarded to cargo bench
  bool hidden = false;
};

// ---- option groups (docs/formats.md#option-groups)
// -------------------------------------------------------

void add_environment(std::vector<Opt>& o) {
  o.push_back({"config", 0, Kind::value, "PATH", "Configuration file [default: .cargo/bench_history.toml]"});
  o.push_back({"repo", 0, Kind::value, "PATH", "Repository (project) directory [default: the working directory]"});
  o.push_back({"local", 0, Kind::path_flag, "PATH",
               "Use local storage at PATH; a bare --local reads CARGO_BENCH_HISTORY_STORAGE (the value is taken only with '=')"});
  o.push_back({"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"});
}
void add_cache(std::vector<Opt>& o) {
  o.push_back({"cache", 0, Kind::path_flag, "PATH",
               "Read-through cache directory for the cloud backend; a bare --cache reads CARGO_BENCH_HISTORY_CACHE (conflicts with --local)"});
}
void add_filters(std::vector<Opt>& o) {
  o.push_back({"engine", 0, Kind::multi, "NAME",
               "Engine filter (criterion, callgrind, alloc_tracker, all_the_time, google_benchmark, hyperfine, catch2, bmf, libtest, or all); repeatable"});
  o.push_back({"target-triple", 0, Kind::multi, "TRIPLE",
               "Target triple filter, or all [default: the toolchain host]; repeatable"});
  o.push_back({"machine-key", 0, Kind::multi, "KEY",
               "Machine key filter, or all [default: this machine]; repeatable"});
}
void add_context_base(std::vector<Opt>& o) {
  o.push_back({"context", 0, Kind::value, "REF", "Commit to analyze [default: HEAD]"});
  o.push_back({"base", 0, Kind::value, "REF", "Comparison base [default: the detected base branch]"});
}
void add_since(std::vector<Opt>& o, const std::string& help) {
  o.push_back({"since", 0, Kind::value, "WHEN", help});
}
void add_output(std::vector<Opt>& o) {
  o.push_back({"no-text", 0, Kind::flag, "", "Do not print the text report"});
  o.push_back({"markdown", 0, Kind::value, "PATH", "Write a Markdown report to PATH"});
  o.push_back({"json", 0, Kind::value, "PATH", "Write a JSON report to PATH"});
}
// The shared groups of the read commands (analyze, examine, list, prune;
// docs/formats.md#option-groups).
void add_query_groups(std::vector<Opt>& o, const std::string& since_help) {
  add_environment(o);
  add_cache(o);
  add_filters(o);
  add_context_base(o);
  add_since(o, since_help);
  add_output(o);
}
void add_scope(std::vector<Opt>& o) {
  o.push_back({"workspace", 0, Kind::flag, "", "Benchmark every workspace member (conflicts with --package)"});
  o.push_back({"package", 'p', Kind::multi, "NAME", "Package to benchmark; repeatable"});
  o.push_back({"exclude", 0, Kind::multi, "NAME", "Package to exclude; repeatable (conflicts with --package)"});
  o.push_back({"bench", 0, Kind::multi, "NAME", "Benchmark target to run; repeatable"});
}
void add_features(std::vector<Opt>& o) {
  o.push_back({"features", 0, Kind::multi, "FEATURES", "Features to enable, forwarded verbatim; repeatable"});
  o.push_back({"all-features", 0, Kind::flag, "", "Enable all features"});
  o.push_back({"no-default-features", 0, Kind::flag, "", "Disable the default features"});
}

// collect/backfill: any benchmark command instead of cargo bench (docs/bench-command.md).
void add_bench_command(std::vector<Opt>& o) {
  o.push_back({"bench-command", 0, Kind::value, "COMMAND",
               "Run this shell command instead of cargo bench; its Google Benchmark JSON reports go to "
               "$BENCHHIST_OUTPUT_DIR [default: [collect] bench_command]"});
  o.push_back({"target-triple", 0, Kind::value, "TRIPLE",
               "Target triple to record and partition by [default: the C++ compiler's (--bench-command) or the toolchain host]"});
}

const std::string since_help =
    "Keep commits at or after WHEN: RFC 3339, YYYY-MM-DD, or a span such as \"6 months\" "
    "[default: six months in history mode]";

std::vector<CommandSpec> build_specs() {
  std::vector<CommandSpec> specs;
  {
    CommandSpec c{"install", "Write a starter configuration file (.cargo/bench_history.toml)", {}, {}, false, false};
    c.opts.push_back({"config", 0, Kind::value, "PATH", "Where to write [default: .cargo/bench_history.toml]"});
    c.opts.push_back({"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"});
    specs.push_back(c);
  }
  {
    CommandSpec c{"collect", "Run the benchmarks at the current commit and store their results", {}, {}, true, false};
    add_environment(c.opts);
    add_scope(c.opts);
    add_features(c.opts);
    c.opts.push_back({"no-store", 0, Kind::flag, "", "Run and harvest, store nothing (skips storage selection)"});
    c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace an existing stored result"});
    c.opts.push_back({"skip-existing", 0, Kind::flag, "", "Succeed without writing when a result exists (conflicts with --overwrite)"});
    c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times and keep the per-metric minimum [default: 1]"});
    add_bench_command(c.opts);
    specs.push_back(c);
  }
  {
    CommandSpec c{"backfill", "Measure a first-parent range of past commits in isolated worktrees", {}, {}, true, false};
    add_environment(c.opts);
    add_scope(c.opts);
    add_features(c.opts);
    c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace existing stored results"});
    c.opts.push_back({"ignore-errors", 0, Kind::flag, "", "Continue past commits whose benchmarks fail"});
    c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times per commit and keep the per-metric minimum [default: 1]"});
    c.opts.push_back({"max-commits", 0, Kind::value, "N", "Attempt at most N commits in this pass [default: unlimited]"});
    add_bench_command(c.opts);
    c.positionals = {{"FROM", "Oldest commit of the range (inclusive)", true, false},
                     {"TO", "Newest commit of the range (inclusive)", true, false}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"analyze", "Analyze the stored history for regressions and drift", {}, {}, false, false};
    add_query_groups(c.opts, since_help);
    c.opts.push_back({"no-dirty", 0, Kind::flag, "", "Ignore dirty snapshots"});
    c.opts.push_back({"markdown-summary", 0, Kind::value, "PATH", "Write a condensed Markdown summary to PATH"});
    c.opts.push_back({"outcome", 0, Kind::value, "PATH", "Write the analysis outcome token to PATH"});
    c.opts.push_back({"fail-on", 0, Kind::value, "WHAT",
                      "Exit with status 2 when the report has this (regression) [default: findings are advisory]"});
    c.opts.push_back({"html", 0, Kind::value, "PATH", "Write a self-contained HTML report with charts to PATH"});
    c.opts.push_back({"skip-unreadable", 0, Kind::flag, "",
                      "Analyze around stored objects that cannot be read, listing their keys in the report"});
    c.positionals = {{"PREFIX", "Benchmark-id prefixes to analyze [default: all benchmarks]", false, true}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"examine", "Print every stored data point of one benchmark metric", {}, {}, false, false};
    add_query_groups(c.opts, since_help);
    c.opts.push_back({"benchmark", 0, Kind::value, "ID", "Qualified benchmark id", true});
    c.opts.push_back({"metric", 0, Kind::value, "NAME", "Metric name, e.g. instruction_count", true});
    c.opts.push_back({"no-dirty", 0, Kind::flag, "", "Ignore dirty snapshots"});
    c.opts.push_back({"html", 0, Kind::value, "PATH", "Write a self-contained HTML page with the chart to PATH"});
    c.opts.push_back({"skip-unreadable", 0, Kind::flag, "",
                      "Examine around stored objects that cannot be read, listing their keys in the output"});
    specs.push_back(c);
  }
  {
    CommandSpec c{"list", "List stored runs, discriminant sets or blessings", {}, {}, false, false};
    add_query_groups(c.opts, since_help);
    c.opts.push_back({"no-dirty", 0, Kind::flag, "", "Ignore dirty snapshots"});
    c.opts.push_back({"all", 0, Kind::flag, "", "With `blessings`: the most recent blessing of each benchmark in the window"});
    c.opts.push_back({"skip-unreadable", 0, Kind::flag, "",
                      "With `runs`: list around stored objects that cannot be read, naming their keys"});
    c.positionals = {{"SUBJECT", "What to list: runs, discriminants or blessings", true, false}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"prune", "Delete stored runs and blessings of branch commits", {}, {}, false, false};
    add_query_groups(c.opts, "Only prune commits at or after WHEN [default: no cutoff]");
    c.opts.push_back({"dry-run", 0, Kind::flag, "", "Show the plan, delete nothing"});
    c.opts.push_back({"prune-base", 0, Kind::flag, "", "Allow deleting history of the base branch"});
    c.opts.push_back({"clean", 0, Kind::flag, "", "Delete clean runs"});
    c.opts.push_back({"dirty", 0, Kind::flag, "", "Delete dirty snapshots"});
    c.opts.push_back({"all", 0, Kind::flag, "", "Delete clean runs and dirty snapshots"});
    c.opts.push_back({"include-blessings", 0, Kind::flag, "", "Also delete blessing records"});
    c.positionals = {{"COMMIT", "Commit-id prefixes to prune [default: every selected commit]", false, true}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"bless", "Accept a level shift at a commit (re-baseline benchmarks)", {}, {}, false, false};
    add_environment(c.opts);
    add_filters(c.opts);
    add_context_base(c.opts);
    c.opts.push_back({"all", 0, Kind::flag, "", "Bless every benchmark (conflicts with prefixes)"});
    c.positionals = {{"PREFIX", "Benchmark-id prefixes to bless", false, true}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"unbless", "Remove the blessings recorded at a commit", {}, {}, false, false};
    add_environment(c.opts);
    add_filters(c.opts);
    add_context_base(c.opts);
    specs.push_back(c);
  }
  {
    CommandSpec c{"machine-key", "Print this machine's hardware fingerprint", {}, {}, false, false};
    c.opts.push_back({"verbose", 0, Kind::flag, "", "Also print the hashed components on stderr"});
    specs.push_back(c);
  }
  {
    CommandSpec c{"setup-azure",
                  "Provision Azure storage and a GitHub-federated identity, or export the deployment bundle",
                  {}, {}, false, false};
    c.opts = {
        {"out-dir", 0, Kind::value, "PATH", "Export the deployment bundle into PATH (absent or empty) and probe nothing"},
        {"subscription-id", 0, Kind::value, "ID", "Azure subscription (required unless --out-dir)"},
        {"resource-group", 0, Kind::value, "NAME", "Resource group, created or reused (required unless --out-dir)"},
        {"location", 0, Kind::value, "REGION", "Region for new resources (required unless --out-dir)"},
        {"storage-account", 0, Kind::value, "NAME", "Storage account: 3-24 lowercase letters or digits (required unless --out-dir)"},
        {"container", 0, Kind::value, "NAME", "Blob container [default: bench-history]"},
        {"managed-identity", 0, Kind::value, "NAME", "Managed identity [default: id-<storage-account>-bench-history]"},
        {"github-owner", 0, Kind::value, "OWNER", "GitHub owner (required unless --out-dir)"},
        {"github-repository", 0, Kind::value, "NAME", "GitHub repository without owner (required unless --out-dir)"},
        {"history-branch", 0, Kind::value, "BRANCH", "Branch allowed to use the identity (required unless --out-dir)"},
        {"custom-principal-id", 0, Kind::value, "ID", "Extra Entra user or group granted access (with --custom-principal-type)"},
        {"custom-principal-type", 0, Kind::value, "TYPE", "user or group (with --custom-principal-id)"},
        {"current-user", 0, Kind::flag, "", "Grant the Azure CLI signed-in user access"},
        {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
    };
    specs.push_back(c);
  }
  {
    CommandSpec c{"publish", "Publish analysis results to GitHub: the findings issue, a pull-request comment, a failure alert",
                  {}, {}, false, false};
    c.opts = {
        {"config", 0, Kind::value, "PATH", "Configuration file naming the project [default: .cargo/bench_history.toml]"},
        {"json", 0, Kind::value, "PATH", "history, pr: the JSON report written by analyze --json"},
        {"markdown", 0, Kind::value, "PATH", "history, pr: the Markdown to show (the workflows pass --markdown-summary's)"},
        {"collection-complete", 0, Kind::value, "BOOL",
         "history, pr: true when every expected platform collected (required for an all-clear) [default: false]"},
        {"pr", 0, Kind::value, "N", "pr: the pull-request number"},
        {"pending", 0, Kind::flag, "", "pr: post or reset the comment as pending"},
        {"nothing-benchmarked", 0, Kind::flag, "", "pr: say that no package with benchmarks is affected"},
        {"commit", 0, Kind::value, "SHA", "pr, failure: the commit concerned [default: $GITHUB_SHA]"},
        {"ref", 0, Kind::value, "NAME", "failure: the branch the failed run was for [default: $GITHUB_REF_NAME]"},
        {"run-url", 0, Kind::value, "URL", "The workflow run to link (required for failure)"},
        {"artifact-url", 0, Kind::value, "URL", "The report bundle to link [default: the run's artifacts]"},
        {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
    };
    c.positionals = {{"TARGET", "What to publish: history, pr or failure", true, false}};
    specs.push_back(c);
  }
  {
    CommandSpec c{"backfill-range", "Prepare the backfill workflow's commit range ($GITHUB_OUTPUT lines)", {}, {}, false,
                  false};
    c.opts = {
        {"config", 0, Kind::value, "PATH", "Configuration file naming the project [default: .cargo/bench_history.toml]"},
        {"repo", 0, Kind::value, "PATH", "Repository (project) directory [default: the working directory]"},
        {"lookback", 0, Kind::value, "DURATION", "Rolling window back from now, e.g. \"14 days\" or P14D (nonzero)"},
        {"minimum-age", 0, Kind::value, "DURATION", "The end is the newest first-parent commit at least this old (may be 0)"},
        {"from", 0, Kind::value, "REF", "Explicit range start (with --to; not with the durations)"},
        {"to", 0, Kind::value, "REF", "Range end; with the durations it overrides the age-based choice"},
        {"max-commits", 0, Kind::value, "N", "Attempts per platform job; empty = unlimited"},
        {"ignore-errors", 0, Kind::value, "BOOL", "Continue past failing commits: true or false [default: false]"},
        {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
    };
    specs.push_back(c);
  }
  {
    CommandSpec c{"affected", "List the workspace packages a pull request affects ($GITHUB_OUTPUT lines)", {}, {}, false,
                  false};
    c.opts = {
        {"repo", 0, Kind::value, "PATH", "Project directory holding the workspace [default: the working directory]"},
        {"base", 0, Kind::value, "REF", "The pull request's base (its merge base with --head is compared)", true},
        {"head", 0, Kind::value, "REF", "The pull request's head [default: HEAD]"},
        {"exclude", 0, Kind::multi, "NAME", "Package never to select; repeatable"},
        {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
    };
    specs.push_back(c);
  }
  {
    CommandSpec c{"bisect", "Pin each change-point finding to the commit that caused it, measuring unmeasured commits",
                  {}, {}, true, false};
    add_environment(c.opts);
    add_cache(c.opts);
    add_filters(c.opts);
    add_context_base(c.opts);
    add_since(c.opts, since_help);
    add_output(c.opts);
    c.opts.push_back({"benchmark", 0, Kind::value, "ID", "Only the findings of this qualified benchmark id"});
    c.opts.push_back({"metric", 0, Kind::value, "NAME", "Only the findings of this metric, e.g. wall_time"});
    c.opts.push_back({"max-builds", 0, Kind::value, "N", "Measure at most N times in this invocation [default: 16]"});
    c.opts.push_back({"repeat", 0, Kind::value, "N",
                      "Measure each window's ends N times again first, and re-measure an ambiguous value up to N times [default: 2]"});
    c.opts.push_back({"dry-run", 0, Kind::flag, "", "Print each window and the commit it would measure first; measure nothing"});
    c.opts.push_back({"overwrite", 0, Kind::flag, "", "Also store re-measurements of commits already stored"});
    add_scope(c.opts);
    add_features(c.opts);
    c.opts.push_back({"ignore-errors", 0, Kind::flag, "",
                      "Bisect around a commit whose benchmarks fail instead of ending its window there"});
    c.opts.push_back({"best-of", 0, Kind::value, "N", "Run the suite N times per measurement and keep the per-metric minimum [default: 1]"});
    c.opts.push_back({"bench-command", 0, Kind::value, "COMMAND",
                      "Run this shell command instead of cargo bench, as backfill does [default: [collect] bench_command]"});
    specs.push_back(c);
  }
  {
    CommandSpec c{"import", "Store results produced elsewhere: a target directory or Google Benchmark JSON reports",
                  {}, {}, false, false};
    add_environment(c.opts);
    c.opts.push_back({"target-dir", 0, Kind::value, "PATH", "Target directory whose engine output to store (criterion, callgrind, alloc_tracker, all_the_time)"});
    c.opts.push_back({"target-triple", 0, Kind::value, "TRIPLE",
                      "Target triple to record and partition by [default: as collect would probe it]"});
    c.opts.push_back({"commit", 0, Kind::value, "REF", "Commit to record the results at [default: HEAD]"});
    c.opts.push_back({"dirty", 0, Kind::flag, "", "Store as a dirty snapshot"});
    c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace an existing stored result"});
    c.opts.push_back({"skip-existing", 0, Kind::flag, "", "Succeed without writing when a result exists (conflicts with --overwrite)"});
    c.positionals = {{"REPORT",
                      "Report files (Google Benchmark JSON, hyperfine JSON, Catch2 XML, BMF, cargo bench #[bench] output), "
                      "or directories holding them",
                      false, true}};
    specs.push_back(c);
  }
  return specs;
}

const std::vector<CommandSpec>& specs() {
  static const std::vector<CommandSpec> s = build_specs();
  return s;
}

const CommandSpec* find_spec(const std::string& name) {
  for (const auto& s : specs())
    if (s.name == name) return &s;
  return nullptr;
}

// ---- help ----------------------------------------------------------------------------------

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  else s += "  ";
  return s;
}

std::string usage_line(const CommandSpec& c) {
  std::string u = "Usage: cargo bench-history " + c.name + " [OPTIONS]";
  for (const auto& p : c.positionals) u += " " + p.display();
  for (const auto& o : c.opts)
    if (o.required) u += " " + o.display();
  if (c.trailing) u += " [-- <ARGS>...]";
  return u;
}

std::string command_help(const CommandSpec& c) {
  std::string h = c.about + "\n\n" + usage_line(c) + "\n";
  std::size_t width = 8;
  for (const auto& p : c.positionals) width = std::max(width, p.display().size() + 4);
  for (const auto& o : c.opts) width = std::max(width, o.display().size() + 8);
  width = std::min<std::size_t>(width, 40);
  if (!c.positionals.empty() || c.trailing) {
    h += "\nArguments:\n";
    for (const auto& p : c.positionals) h += "  " + pad(p.display(), width + 4) + p.help + "\n";
    if (c.trailing) h += "  " + pad("[ARGS]...", width + 4) + "Arguments forwarded to `cargo bench` after `--`\n";
  }
  h += "\nOptions:\n";
  for (const auto& o : c.opts) {
    std::string flags = o.short_name ? std::string("-") + o.short_name + ", " : "    ";
    h += "  " + pad(flags + o.display(), width + 4) + o.help + "\n";
  }
  h += "  " + pad("-h, --help", width + 4) + "Print help\n";
  return h;
}

// ---- parsing -------------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& message, const CommandSpec* c) {
  std::string usage = c ? usage_line(*c) + "\n\nFor more information, try '--help'."
                        : std::string("Usage: cargo bench-history <COMMAND>\n\nFor more information, try '--help'.");
  throw UsageError(message, usage);
}

struct Parsed {
  const CommandSpec* spec = nullptr;
  po::variables_map vm;
  std::vector<std::string> positionals;
  std::vector<std::string> trailing;

  bool flag(const std::string& n) const { return vm.count(n) && vm[n].as<bool>(); }
  std::optional<std::string> value(const std::string& n) const {
    if (!vm.count(n)) return std::nullopt;
    return vm[n].as<std::string>();
  }
  std::vector<std::string> multi(const std::string& n) const {
    if (!vm.count(n)) return {};
    return vm[n].as<std::vector<std::string>>();
  }
  std::optional<std::filesystem::path> path(const std::string& n) const {
    auto v = value(n);
    if (!v) return std::nullopt;
    return std::filesystem::path(*v);
  }
  app::OptionalPathFlag path_flag(const std::string& n) const {
    auto v = value(n);
    if (!v) return {};
    if (*v == bare_marker) return app::OptionalPathFlag::bare();
    if (v->empty()) fail("a value is required for '--" + n + "=<PATH>' but none was supplied", spec);
    return app::OptionalPathFlag::with(*v);
  }
  bool boolean(const std::string& n, const std::string& v) const {
    if (v == "true") return true;
    if (v == "false") return false;
    fail("invalid value '" + v + "' for '--" + n + " <BOOL>'\n  [possible values: true, false]", spec);
  }
  std::uint32_t number(const std::string& n, std::uint32_t fallback) const {
    auto v = value(n);
    if (!v) return fallback;
    std::uint32_t out = 0;
    auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
    if (v->empty() || ec != std::errc() || p != v->data() + v->size())
      fail("invalid value '" + *v + "' for '--" + n + " <N>': expected a positive integer", spec);
    return out;
  }
};

bool has_path_flag(const CommandSpec& spec, const std::string& name) {
  for (const auto& o : spec.opts)
    if (o.name == name && o.kind == Kind::path_flag) return true;
  return false;
}

Parsed parse_command(const CommandSpec& spec, const std::vector<std::string>& raw) {
  Parsed r;
  r.spec = &spec;
  std::vector<std::string> args;
  bool after_dashes = false;
  for (const auto& a : raw) {
    if (after_dashes) {
      r.trailing.push_back(a);
    } else if (a == "--") {
      after_dashes = true;
    } else if ((a == "--local" || a == "--cache") && has_path_flag(spec, a.substr(2))) {
      args.push_back(a + "=" + bare_marker);
    } else {
      args.push_back(a);
    }
  }

  po::options_description desc;
  for (const auto& o : spec.opts) {
    std::string names = o.name + (o.short_name ? std::string(",") + o.short_name : std::string());
    switch (o.kind) {
      case Kind::flag: desc.add_options()(names.c_str(), po::bool_switch()); break;
      case Kind::value:
      case Kind::path_flag: desc.add_options()(names.c_str(), po::value<std::string>()); break;
      case Kind::multi: desc.add_options()(names.c_str(), po::value<std::vector<std::string>>()->composing()); break;
    }
  }
  desc.add_options()("__positional", po::value<std::vector<std::string>>());
  po::positional_options_description pos;
  pos.add("__positional", -1);

  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).style(style).run(), r.vm);
  } catch (const po::unknown_option& e) {
    fail("unexpected argument '" + e.get_option_name() + "' found", &spec);
  } catch (const po::error& e) {
    std::string m = e.what();
    // Bare-flag markers must never leak into messages.
    if (auto i = m.find(bare_marker); i != std::string::npos) m.erase(i, std::string(bare_marker).size());
    fail(m, &spec);
  }
  if (r.vm.count("__positional")) r.positionals = r.vm["__positional"].as<std::vector<std::string>>();

  if (!spec.trailing) {
    // Outside collect/backfill, `--` only ends option parsing (clap semantics).
    r.positionals.insert(r.positionals.end(), r.trailing.begin(), r.trailing.end());
    r.trailing.clear();
  }

  // Positional arity.
  std::size_t min = 0;
  bool unbounded = false;
  for (const auto& p : spec.positionals) {
    if (p.required) ++min;
    if (p.multiple) unbounded = true;
  }
  if (!unbounded && r.positionals.size() > spec.positionals.size())
    fail("unexpected argument '" + r.positionals[spec.positionals.size()] + "' found", &spec);
  std::vector<std::string> missing;
  for (std::size_t i = r.positionals.size(); i < spec.positionals.size(); ++i)
    if (spec.positionals[i].required) missing.push_back(spec.positionals[i].display());
  for (const auto& o : spec.opts)
    if (o.required && !r.vm.count(o.name)) missing.push_back(o.display());
  if (!missing.empty()) {
    std::string m = "the following required arguments were not provided:";
    for (const auto& x : missing) m += "\n  " + x;
    fail(m, &spec);
  }
  return r;
}

app::EnvironmentOptions environment(const Parsed& p) {
  app::EnvironmentOptions e;
  e.config = p.path("config");
  e.repo = p.path("repo");
  e.local = p.path_flag("local");
  e.verbose = p.flag("verbose");
  return e;
}
app::FilterOptions filters(const Parsed& p) {
  return {p.multi("engine"), p.multi("target-triple"), p.multi("machine-key")};
}
app::CommitSelection selection(const Parsed& p) {
  return {p.value("context"), p.value("base"), p.value("since")};
}
app::OutputOptions output(const Parsed& p) {
  return {p.flag("no-text"), p.path("markdown"), p.path("json")};
}
app::BenchmarkScope scope(const Parsed& p) {
  return {p.flag("workspace"), p.multi("package"), p.multi("exclude"), p.multi("bench")};
}
app::Features features(const Parsed& p) {
  return {p.multi("features"), p.flag("all-features"), p.flag("no-default-features")};
}

app::Command build(const Parsed& p) {
  const std::string& name = p.spec->name;
  if (name == "install") return app::InstallOptions{p.path("config"), p.flag("verbose")};
  if (name == "collect") {
    app::CollectOptions o;
    o.env = environment(p);
    o.scope = scope(p);
    o.features = features(p);
    o.no_store = p.flag("no-store");
    o.overwrite = p.flag("overwrite");
    o.skip_existing = p.flag("skip-existing");
    o.best_of = p.number("best-of", 1);
    o.cargo_args = p.trailing;
    o.bench_command = p.value("bench-command");
    o.target_triple = p.value("target-triple");
    return o;
  }
  if (name == "bisect") {
    app::BisectOptions o;
    o.env = environment(p);
    o.cache.cache = p.path_flag("cache");
    o.filters = filters(p);
    o.selection = selection(p);
    o.output = output(p);
    o.benchmark = p.value("benchmark");
    o.metric = p.value("metric");
    o.max_builds = p.number("max-builds", 16);
    o.repeat = p.number("repeat", 2);
    o.dry_run = p.flag("dry-run");
    o.overwrite = p.flag("overwrite");
    o.scope = scope(p);
    o.features = features(p);
    o.cargo_args = p.trailing;
    o.ignore_errors = p.flag("ignore-errors");
    o.best_of = p.number("best-of", 1);
    o.bench_command = p.value("bench-command");
    return o;
  }
  if (name == "backfill") {
    app::BackfillOptions o;
    o.env = environment(p);
    o.scope = scope(p);
    o.features = features(p);
    o.from = p.positionals.at(0);
    o.to = p.positionals.at(1);
    o.overwrite = p.flag("overwrite");
    o.ignore_errors = p.flag("ignore-errors");
    o.best_of = p.number("best-of", 1);
    if (p.vm.count("max-commits")) o.max_commits = p.number("max-commits", 0);
    o.cargo_args = p.trailing;
    o.bench_command = p.value("bench-command");
    o.target_triple = p.value("target-triple");
    return o;
  }
  if (name == "analyze") {
    app::AnalyzeOptions o;
    o.env = environment(p);
    o.cache.cache = p.path_flag("cache");
    o.filters = filters(p);
    o.selection = selection(p);
    o.output = output(p);
    o.prefixes = p.positionals;
    o.no_dirty = p.flag("no-dirty");
    o.markdown_summary = p.path("markdown-summary");
    o.outcome = p.path("outcome");
    if (auto f = p.value("fail-on")) {
      if (*f != "regression")
        fail("invalid value '" + *f + "' for '--fail-on <WHAT>'\n  [possible values: regression]", p.spec);
      o.fail_on = app::FailOn::regression;
    }
    o.html = p.path("html");
    o.skip_unreadable = p.flag("skip-unreadable");
    return o;
  }
  if (name == "examine") {
    app::ExamineOptions o;
    o.env = environment(p);
    o.cache.cache = p.path_flag("cache");
    o.filters = filters(p);
    o.selection = selection(p);
    o.output = output(p);
    o.benchmark = *p.value("benchmark");
    o.metric = *p.value("metric");
    o.no_dirty = p.flag("no-dirty");
    o.html = p.path("html");
    o.skip_unreadable = p.flag("skip-unreadable");
    return o;
  }
  if (name == "list") {
    app::ListOptions o;
    o.env = environment(p);
    o.cache.cache = p.path_flag("cache");
    o.filters = filters(p);
    o.selection = selection(p);
    o.output = output(p);
    auto subject = app::parse_list_subject(p.positionals.at(0));
    if (!subject)
      fail("invalid value '" + p.positionals.at(0) +
               "' for '<SUBJECT>'\n  [possible values: runs, discriminants, blessings]",
           p.spec);
    o.subject = *subject;
    o.no_dirty = p.flag("no-dirty");
    o.all = p.flag("all");
    o.skip_unreadable = p.flag("skip-unreadable");
    return o;
  }
  if (name == "prune") {
    app::PruneOptions o;
    o.env = environment(p);
    o.cache.cache = p.path_flag("cache");
    o.filters = filters(p);
    o.selection = selection(p);
    o.output = output(p);
    o.commits = p.positionals;
    o.dry_run = p.flag("dry-run");
    o.prune_base = p.flag("prune-base");
    std::vector<std::string> actions;
    for (const char* a : {"clean", "dirty", "all"})
      if (p.flag(a)) actions.push_back(a);
    if (actions.size() > 1) fail("the argument '--" + actions[0] + "' cannot be used with '--" + actions[1] + "'", p.spec);
    if (p.flag("clean")) o.scope = app::PruneScope::clean;
    if (p.flag("dirty")) o.scope = app::PruneScope::dirty;
    if (p.flag("all")) o.scope = app::PruneScope::all;
    o.include_blessings = p.flag("include-blessings");
    return o;
  }
  if (name == "bless") {
    app::BlessOptions o;
    o.env = environment(p);
    o.filters = filters(p);
    o.context = p.value("context");
    o.base = p.value("base");
    o.prefixes = p.positionals;
    o.all = p.flag("all");
    return o;
  }
  if (name == "unbless") {
    app::UnblessOptions o;
    o.env = environment(p);
    o.filters = filters(p);
    o.context = p.value("context");
    o.base = p.value("base");
    return o;
  }
  if (name == "machine-key") return app::MachineKeyOptions{p.flag("verbose")};
  if (name == "publish") {
    app::PublishOptions o;
    const auto& t = p.positionals.at(0);
    if (t == "history") o.target = app::PublishTarget::history;
    else if (t == "pr") o.target = app::PublishTarget::pr;
    else if (t == "failure") o.target = app::PublishTarget::failure;
    else fail("invalid value '" + t + "' for '<TARGET>'\n  [possible values: history, pr, failure]", p.spec);
    o.config = p.path("config");
    o.verbose = p.flag("verbose");
    o.json = p.path("json");
    o.markdown = p.path("markdown");
    if (auto c = p.value("collection-complete")) o.collection_complete = p.boolean("collection-complete", *c);
    if (p.vm.count("pr")) o.pull_request = p.number("pr", 0);
    o.pending = p.flag("pending");
    o.nothing_benchmarked = p.flag("nothing-benchmarked");
    o.commit = p.value("commit");
    o.ref = p.value("ref");
    o.run_url = p.value("run-url");
    o.artifact_url = p.value("artifact-url");
    return o;
  }
  if (name == "backfill-range") {
    app::BackfillRangeOptions o;
    o.config = p.path("config");
    o.repo = p.path("repo");
    o.verbose = p.flag("verbose");
    o.lookback = p.value("lookback").value_or("");
    o.minimum_age = p.value("minimum-age").value_or("");
    o.from = p.value("from").value_or("");
    o.to = p.value("to").value_or("");
    o.max_commits = p.value("max-commits").value_or("");
    o.ignore_errors = p.value("ignore-errors").value_or("");
    return o;
  }
  if (name == "affected") {
    app::AffectedOptions o;
    o.repo = p.path("repo");
    o.verbose = p.flag("verbose");
    o.base = *p.value("base");
    o.head = p.value("head").value_or("HEAD");
    o.excludes = p.multi("exclude");
    return o;
  }
  if (name == "setup-azure") {
    app::SetupAzureOptions o;
    o.out_dir = p.path("out-dir");
    o.subscription_id = p.value("subscription-id");
    o.resource_group = p.value("resource-group");
    o.location = p.value("location");
    o.storage_account = p.value("storage-account");
    if (auto c = p.value("container")) o.container = *c;
    o.managed_identity = p.value("managed-identity");
    o.github_owner = p.value("github-owner");
    o.github_repository = p.value("github-repository");
    o.history_branch = p.value("history-branch");
    o.custom_principal_id = p.value("custom-principal-id");
    o.custom_principal_type = p.value("custom-principal-type");
    o.current_user = p.flag("current-user");
    o.verbose = p.flag("verbose");
    return o;
  }
  app::ImportOptions o;
  o.env = environment(p);
  o.target_dir = p.path("target-dir");
  for (const auto& r : p.positionals) o.reports.emplace_back(r);
  o.target_triple = p.value("target-triple");
  o.commit = p.value("commit");
  o.dirty = p.flag("dirty");
  o.overwrite = p.flag("overwrite");
  o.skip_existing = p.flag("skip-existing");
  return o;
}

}  // namespace

std::string top_level_help() {
  std::string h =
      "Keep a long-lived history of benchmark results (Rust engines, Google Benchmark) and detect regressions and drift\n"
      "\n"
      "Usage: cargo bench-history <COMMAND> [OPTIONS]\n"
      "\n"
      "Commands:\n";
  for (const auto& c : specs())
    if (!c.hidden) h += "  " + pad(c.name, 13) + c.about + "\n";
  h += "\nOptions:\n  -h, --help     Print help (see a command's options with `<COMMAND> --help`)\n"
       "  -V, --version  Print the version\n";
  return h;
}

ParseOutcome parse_arguments(const std::vector<std::string>& args) {
  if (args.empty()) return {};  // caller prints the full help on stderr and exits 1
  const std::string& first = args.front();
  if (first == "--help" || first == "-h") return {std::nullopt, top_level_help()};
  if (first == "--version" || first == "-V") return {std::nullopt, "cargo-bench-history " + std::string(tool_version) + "\n"};
  if (!first.empty() && first[0] == '-') fail("unexpected argument '" + first + "' found", nullptr);
  const CommandSpec* spec = find_spec(first);
  if (!spec) fail("unrecognized subcommand '" + first + "'", nullptr);

  std::vector<std::string> rest(args.begin() + 1, args.end());
  // Help wins over every other argument error, as long as it comes before `--`.
  for (const auto& a : rest) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") return {std::nullopt, command_help(*spec)};
  }
  Parsed parsed = parse_command(*spec, rest);
  app::Command command = build(parsed);
  try {
    app::validate(command);
  } catch (const Error& e) {
    fail(e.message(), spec);
  }
  return {std::move(command), {}};
}

}  // namespace benchhist::cli
