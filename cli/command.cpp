// What the command files share: the flag model, the parsed values read back with their types, the
// option groups (docs/formats.md#option-groups) and their conversion into the library's types.

#include "command.hpp"

#include <charconv>
#include <chrono>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/since.hpp"
#include "benchhist/error.hpp"
#include "usage.hpp"

namespace benchhist::cli {

std::string Opt::display() const {
  std::string s = "--" + name;
  if (kind == Kind::path_flag) s += "[=<" + value_name + ">]";
  else if (kind != Kind::flag) s += " <" + value_name + ">";
  return s;
}

std::string Positional::display() const {
  std::string s = required ? "<" + name + ">" : "[" + name + "]";
  return multiple ? s + "..." : s;
}

void fail(const std::string& message, const CommandSpec* c) {
  std::string usage = c ? usage_line(*c) + "\n\nFor more information, try '--help'."
                        : std::string("Usage: cargo bench-history <COMMAND>\n\nFor more information, try '--help'.");
  throw Error(ErrorKind::usage, message, std::string(command_line_subject), {}, std::move(usage));
}

std::string argument_message(const Error& e) {
  return e.hint().empty() ? e.message() : e.message() + "; " + e.hint();
}

// ---- Parsed ---------------------------------------------------------------------------------------

bool Parsed::flag(const std::string& n) const { return vm.count(n) && vm[n].as<bool>(); }

std::optional<std::string> Parsed::value(const std::string& n) const {
  if (!vm.count(n)) return std::nullopt;
  return vm[n].as<std::string>();
}

std::vector<std::string> Parsed::multi(const std::string& n) const {
  if (!vm.count(n)) return {};
  return vm[n].as<std::vector<std::string>>();
}

std::optional<std::filesystem::path> Parsed::path(const std::string& n) const {
  auto v = value(n);
  if (!v) return std::nullopt;
  // An empty path (`--config ""`, an unset variable in a script) would resolve to the working
  // directory and fail later as something else.
  if (v->empty()) fail("a value is required for '--" + n + " <PATH>' but an empty one was supplied", spec);
  return std::filesystem::path(*v);
}

app::OptionalPathFlag Parsed::path_flag(const std::string& n) const {
  auto v = value(n);
  if (!v) return {};
  if (*v == bare_marker) return app::OptionalPathFlag::bare();
  if (v->empty()) fail("a value is required for '--" + n + "=<PATH>' but none was supplied", spec);
  return app::OptionalPathFlag::with(*v);
}

bool Parsed::boolean(const std::string& n, const std::string& v) const {
  if (v == "true") return true;
  if (v == "false") return false;
  fail("invalid value '" + v + "' for '--" + n + " <BOOL>'\n  [possible values: true, false]", spec);
}

std::uint32_t Parsed::number(const std::string& n, std::uint32_t fallback) const {
  auto v = value(n);
  if (!v) return fallback;
  std::uint32_t out = 0;
  auto [p, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (v->empty() || ec != std::errc() || p != v->data() + v->size())
    fail("invalid value '" + *v + "' for '--" + n + " <N>': expected a positive integer", spec);
  return out;
}

// ---- option groups --------------------------------------------------------------------------------

void add_environment(std::vector<Opt>& o, RepoRole role) {
  o.push_back({"config", 0, Kind::value, "PATH", "Configuration file [default: .cargo/bench_history.toml]"});
  o.push_back({"repo", 0, Kind::value, "PATH",
               role == RepoRole::measured
                   ? "Repository (project) directory; the configuration file and relative paths are found there too "
                     "[default: the working directory]"
                   : "Repository whose git history is read [default: the working directory]; relative paths resolve "
                     "against the working directory, and so does the configuration file unless only the repository "
                     "has one"});
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
void add_context_base(std::vector<Opt>& o, const std::string& context_help) {
  o.push_back({"context", 0, Kind::value, "REF", context_help});
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
void add_query_groups(std::vector<Opt>& o, const std::string& since_help, const std::string& context_help,
                      RepoRole role) {
  add_environment(o, role);
  add_cache(o);
  add_filters(o);
  add_context_base(o, context_help);
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
               "Run this shell command instead of cargo bench; it writes its reports (Google Benchmark JSON, hyperfine "
               "JSON, Catch2 XML, BMF, libtest output) to $BENCHHIST_OUTPUT_DIR [default: [collect] bench_command]"});
  o.push_back({"target-triple", 0, Kind::value, "TRIPLE",
               "Target triple to record and partition by [default: the C++ compiler's (--bench-command) or the toolchain host]"});
}

const std::string since_help =
    "Keep commits at or after WHEN: RFC 3339, YYYY-MM-DD, or a span such as \"6 months\" "
    "[default: six months in history mode]";

// ---- typed conversions ----------------------------------------------------------------------------

app::EnvironmentOptions environment(const Parsed& p) {
  app::EnvironmentOptions e;
  e.config = p.path("config");
  e.repo = p.path("repo");
  e.local = p.path_flag("local");
  e.verbose = p.flag("verbose");
  return e;
}
app::FilterOptions filters(const Parsed& p) {
  app::FilterOptions f;
  try {
    f.engine = analysis::resolve_filter(analysis::FilterAxis::engine, p.multi("engine"));
  } catch (const Error& e) {
    p.defer(e);
  }
  f.target_triples = p.multi("target-triple");
  f.machine_keys = p.multi("machine-key");
  return f;
}

namespace {

// --since as the library's value. A span is also resolved once against the clock, so one
// reaching past the representable range fails here too; the selection resolves it against its
// own now when it runs.
std::optional<analysis::Since> since(const Parsed& p) {
  const auto text = p.value("since");
  if (!text) return std::nullopt;
  try {
    analysis::Since s = analysis::parse_since(*text);
    (void)s.cutoff(std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now()));
    return s;
  } catch (const Error& e) {
    p.defer(e);
    return analysis::Since{};  // still given, for the option rules; never run
  }
}

}  // namespace

analysis::SelectionRequest selection(const Parsed& p) {
  analysis::SelectionRequest s;
  s.context_ref = p.value("context");
  s.base_ref = p.value("base");
  s.since = since(p);
  s.allow_dirty = !p.flag("no-dirty");
  return s;
}
app::OutputOptions output(const Parsed& p) {
  return {p.flag("no-text"), p.path("markdown"), p.path("json")};
}
std::optional<MetricKind> metric(const Parsed& p) {
  const auto text = p.value("metric");
  if (!text) return std::nullopt;
  if (const auto kind = parse_metric_kind(*text)) return kind;
  p.defer(Error(ErrorKind::usage,
                "unknown metric \"" + *text + "\"; expected one of: " + std::string(metric_names_list), "--metric", {},
                "pass a metric as the reports print it, e.g. wall_time or instruction_count"));
  return MetricKind{};  // still given, for the option rules; never run
}
app::MeasureScope scope(const Parsed& p) {
  app::MeasureScope s;
  s.workspace = p.flag("workspace");
  s.cargo.packages = p.multi("package");
  s.cargo.excludes = p.multi("exclude");
  s.cargo.benches = p.multi("bench");
  s.cargo.features = p.multi("features");
  s.cargo.all_features = p.flag("all-features");
  s.cargo.no_default_features = p.flag("no-default-features");
  s.cargo.passthrough = p.trailing;
  return s;
}

Runner library_command(const Parsed& p, app::Command command) {
  try {
    app::validate(command);
  } catch (const Error& e) {
    fail(e.message(), p.spec);
  }
  if (p.value_error) throw *p.value_error;
  return [command = std::move(command)](const app::Invocation& inv) { return app::run_command(command, inv); };
}

}  // namespace benchhist::cli
