#pragma once
// The command layer of `cargo-bench-history` (docs/command-layer.md): every command is one file
// under cli/commands/ declaring its flags and help (a CommandSpec) and turning the parsed flags
// into the library's own request type (a Runner), registered by one line of the table in
// cli/meson.build. This header holds what the command files share: the flag model, the parsed
// values, the option groups of docs/formats.md#option-groups and their typed conversions.

#include <boost/program_options/variables_map.hpp>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/commands.hpp"
#include "app/options.hpp"
#include "benchhist/error.hpp"

namespace benchhist::cli {

enum class Kind { flag, value, multi, path_flag };

struct Opt {
  std::string name;        // long name without dashes
  char short_name = 0;     // e.g. 'p'
  Kind kind = Kind::flag;
  std::string value_name;  // e.g. PATH
  std::string help;
  bool required = false;
  std::string display() const;
};

struct Positional {
  std::string name;  // e.g. FROM, PREFIX
  std::string help;
  bool required = false;
  bool multiple = false;
  std::string display() const;
};

// What `--help` shows is exactly what parses: both come from this.
struct CommandSpec {
  std::string name;
  std::string about;  // one line, for the command list
  std::vector<Opt> opts;
  std::vector<Positional> positionals;
  bool trailing = false;  // `-- <ARGS>...` forwarded to cargo bench
  bool hidden = false;
};

// The subject of an argument error (benchhist::Error, kind usage): main prints it as
// `error: <message>`, a blank line and the usage (the hint), not as a runtime error.
inline constexpr std::string_view command_line_subject = "<command line>";

// Throws the argument error of `message` for command `c` (nullptr: no command chosen yet).
[[noreturn]] void fail(const std::string& message, const CommandSpec* c);
// A library usage error as the message of an argument error: the usage replaces the hint, so
// the library's hint (what to do next) is kept in the message.
std::string argument_message(const Error& e);

// The flags of one command line, read back by name with their types.
struct Parsed {
  const CommandSpec* spec = nullptr;
  boost::program_options::variables_map vm;
  std::vector<std::string> positionals;
  std::vector<std::string> trailing;  // after `--` (collect, backfill, bisect)

  bool given(const std::string& n) const { return vm.count(n) > 0; }
  bool flag(const std::string& n) const;
  std::optional<std::string> value(const std::string& n) const;
  std::vector<std::string> multi(const std::string& n) const;
  std::optional<std::filesystem::path> path(const std::string& n) const;
  app::OptionalPathFlag path_flag(const std::string& n) const;
  bool boolean(const std::string& n, const std::string& v) const;
  std::uint32_t number(const std::string& n, std::uint32_t fallback) const;

  // The first value the library's own parser refused (--since, --engine). It is reported after
  // the option rules (library_command), so refusing an option outright wins over judging its
  // value, and before anything runs.
  mutable std::optional<Error> value_error;
  void defer(const Error& e) const {
    if (!value_error) value_error = e;
  }
};

// A command ready to run: its request is built and checked.
using Runner = std::function<int(const app::Invocation&)>;

// One command of the table: its flags and help, and their conversion into a request.
struct CommandDef {
  CommandSpec (*spec)();
  Runner (*build)(const Parsed&);
};

// ---- option groups (docs/formats.md#option-groups) ----------------------------------------------

// What `--repo` decides (docs/cli.md#commands): for the commands that measure a repository it is
// also where the configuration file and relative paths are found; for the others only where git
// runs. Its help says which.
enum class RepoRole { measured, queried };
void add_environment(std::vector<Opt>& o, RepoRole role);
void add_cache(std::vector<Opt>& o);
void add_filters(std::vector<Opt>& o);
// `--context`'s help names what the commit is for in this command (analyzed, blessed, ...).
inline constexpr const char* analyzed_context_help = "Commit to analyze [default: HEAD]";
void add_context_base(std::vector<Opt>& o, const std::string& context_help = analyzed_context_help);
void add_since(std::vector<Opt>& o, const std::string& help);
void add_output(std::vector<Opt>& o);
// The shared groups of the read commands (analyze, examine, list, prune, bisect); their values
// are read back by read_query_groups.
void add_query_groups(std::vector<Opt>& o, const std::string& since_help,
                      const std::string& context_help = analyzed_context_help, RepoRole role = RepoRole::queried);
void add_scope(std::vector<Opt>& o);
void add_features(std::vector<Opt>& o);
void add_bench_command(std::vector<Opt>& o);
extern const std::string since_help;

// ---- typed conversions ----------------------------------------------------------------------------

app::EnvironmentOptions environment(const Parsed& p);
// The filters, the engine axis resolved (analysis::resolve_filter).
app::FilterOptions filters(const Parsed& p);
// --context, --base, --since (parsed: analysis::parse_since) and --no-dirty into the library's
// selection request; the run completes the rest (project, default branch, filters, now).
analysis::SelectionRequest selection(const Parsed& p);
app::OutputOptions output(const Parsed& p);
// --metric as the model's MetricKind (parse_metric_kind); nullopt when not given.
std::optional<MetricKind> metric(const Parsed& p);
// The values of add_query_groups' flags into any request that carries those groups (the
// selection first: of two bad values, --since is the one reported).
template <class Options>
void read_query_groups(const Parsed& p, Options& o) {
  o.env = environment(p);
  o.cache.cache = p.path_flag("cache");
  o.selection = selection(p);
  o.filters = filters(p);
  o.output = output(p);
}
// The scope group, the features group and the `--` arguments of a measuring command.
app::MeasureScope scope(const Parsed& p);

// The runner of a library command. The option rules of app::validate are checked now and
// reported as argument errors; then a value the library's parser refused while the flags were
// converted (Parsed::value_error) is thrown as the library's own error — both before any
// configuration, store, git or probe is touched.
Runner library_command(const Parsed& p, app::Command command);

}  // namespace benchhist::cli
