// argv → a command of the table with Boost.Program_options. Every command registers its full flag
// set (docs/formats.md#option-groups groups + docs/cli.md#commands per-command options); help text
// is generated from the same spec, so what `--help` shows is exactly what parses.

#include "arguments.hpp"

#include <algorithm>
#include <boost/program_options.hpp>

#include "benchhist/error.hpp"
#include "benchhist/report/closest.hpp"
#include "command_table.hpp"
#include "usage.hpp"

namespace po = boost::program_options;

namespace benchhist::cli {
namespace {

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  else s += "  ";
  return s;
}

bool has_path_flag(const CommandSpec& spec, const std::string& name) {
  for (const auto& o : spec.opts)
    if (o.name == name && o.kind == Kind::path_flag) return true;
  return false;
}

// Splits off the arguments after `--` and marks bare `--local`/`--cache`.
std::vector<std::string> split_trailing(const CommandSpec& spec, const std::vector<std::string>& raw, Parsed& r) {
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
  return args;
}

po::options_description describe(const CommandSpec& spec) {
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
  return desc;
}

// The candidate a typo most likely meant (`anaylze` → `analyze`, `--locl` → `--local`): the
// closest by edit distance, if it is within a third of the typed length (at least one edit).
std::optional<std::string> near_miss(std::string_view typed, const std::vector<std::string>& candidates) {
  std::optional<std::string> best;
  std::size_t best_distance = std::max<std::size_t>(1, typed.size() / 3) + 1;
  for (const auto& c : candidates)
    if (const std::size_t d = report::edit_distance(typed, c); d < best_distance) {
      best = c;
      best_distance = d;
    }
  return best;
}

void store(const CommandSpec& spec, const std::vector<std::string>& args, Parsed& r) {
  const auto desc = describe(spec);
  po::positional_options_description pos;
  pos.add("__positional", -1);
  const int style = po::command_line_style::default_style & ~po::command_line_style::allow_guessing;
  try {
    po::store(po::command_line_parser(args).options(desc).positional(pos).style(style).run(), r.vm);
  } catch (const po::unknown_option& e) {
    const std::string typed = e.get_option_name();
    std::vector<std::string> names{"--help"};
    for (const auto& o : spec.opts) names.push_back("--" + o.name);
    const auto meant = typed.starts_with("--") ? near_miss(typed.substr(0, typed.find('=')), names) : std::nullopt;
    fail("unexpected argument '" + typed + "' found" +
             (meant ? "\n\n  tip: a similar argument exists: '" + *meant + "'" : std::string()),
         &spec);
  } catch (const po::error& e) {
    std::string m = e.what();
    // Bare-flag markers must never leak into messages.
    if (auto i = m.find(bare_marker); i != std::string::npos) m.erase(i, std::string(bare_marker).size());
    fail(m, &spec);
  }
  if (r.vm.count("__positional")) r.positionals = r.vm["__positional"].as<std::vector<std::string>>();
}

void check_arity(const CommandSpec& spec, const Parsed& r) {
  const bool unbounded = std::any_of(spec.positionals.begin(), spec.positionals.end(),
                                     [](const Positional& p) { return p.multiple; });
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
    // `backfill A..B`: git's range spelling, where the command takes its two ends.
    if (spec.positionals.size() == 2 && r.positionals.size() == 1) {
      const std::string& given = r.positionals.front();
      const auto dots = given.find("..");
      const std::size_t rest = dots == std::string::npos ? 0 : given.size() > dots + 2 && given[dots + 2] == '.' ? dots + 3 : dots + 2;
      if (dots != std::string::npos && dots > 0 && given.size() > rest) {
        m += "\n\n  tip: " + spec.positionals[0].display() + " and " + spec.positionals[1].display() +
             " are two arguments, not a git range: '" + given.substr(0, dots) + " " + given.substr(rest) + "'";
      }
    }
    fail(m, &spec);
  }
}

// Whether `arg` is an option that takes the next argument as its value (`--engine all`).
bool takes_value(const CommandSpec& spec, const std::string& arg) {
  return std::any_of(spec.opts.begin(), spec.opts.end(), [&](const Opt& o) {
    const bool valued = o.kind == Kind::value || o.kind == Kind::multi;
    return valued && (arg == "--" + o.name || (o.short_name && arg == std::string("-") + o.short_name));
  });
}

// `--local ./store` (a space, as most options take their value) leaves the path as a stray
// positional, or worse a benchmark prefix: the value of a path flag is taken only with '='. A path-like
// word right after a bare path flag is refused saying so.
void check_path_flag_values(const CommandSpec& spec, const std::vector<std::string>& args) {
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] == "--") return;
    if (!args[i].starts_with("--")) continue;
    const auto opt = std::find_if(spec.opts.begin(), spec.opts.end(), [&](const Opt& o) {
      return o.kind == Kind::path_flag && args[i] == "--" + o.name;
    });
    if (opt == spec.opts.end()) continue;
    const std::string& next = args[i + 1];
    // A command without positionals has no other use for the word either; one with a fixed number
    // of positionals has none once they are all given (`list runs --local store`).
    const bool path_like = next.starts_with("/") || next.starts_with("./") || next.starts_with("../") ||
                           next.starts_with("~") || next == "." || next == "..";
    const bool unbounded = std::any_of(spec.positionals.begin(), spec.positionals.end(),
                                       [](const Positional& p) { return p.multiple; });
    std::size_t words = 0;  // positionals given before the flag's would-be value, options' values aside
    for (std::size_t j = 0; j < i; ++j)
      if (!args[j].starts_with("-") && (j == 0 || !takes_value(spec, args[j - 1]))) ++words;
    const bool no_room = !unbounded && words >= spec.positionals.size();
    if (path_like || (no_room && !next.empty() && !next.starts_with("-")))
      fail("unexpected argument '" + next + "' found: --" + opt->name + " takes its path only with '=': write --" +
               opt->name + "=" + next,
           &spec);
  }
}

Parsed parse_command(const CommandSpec& spec, const std::vector<std::string>& raw) {
  Parsed r;
  r.spec = &spec;
  check_path_flag_values(spec, raw);
  const auto args = split_trailing(spec, raw, r);
  store(spec, args, r);
  if (!spec.trailing) {
    // Outside collect/backfill/bisect, `--` only ends option parsing (clap semantics).
    r.positionals.insert(r.positionals.end(), r.trailing.begin(), r.trailing.end());
    r.trailing.clear();
  }
  check_arity(spec, r);
  return r;
}

}  // namespace

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

std::string top_level_help() {
  std::string h =
      "Keep a long-lived history of benchmark results (Rust engines, Google Benchmark, hyperfine, Catch2, BMF, libtest) and\n"
      "detect regressions and drift\n"
      "\n"
      "Usage: cargo bench-history <COMMAND> [OPTIONS]\n"
      "\n"
      "Commands:\n";
  std::size_t width = 0;  // the longest visible name, so every description starts in one column
  for (const auto& e : command_table())
    if (!e.spec.hidden) width = std::max(width, e.spec.name.size());
  for (const auto& e : command_table())
    if (!e.spec.hidden) h += "  " + pad(e.spec.name, width + 2) + e.spec.about + "\n";
  h += "\nOptions:\n  " + pad("-h, --help", width + 2) + "Print help (see a command's options with `<COMMAND> --help`)\n  " +
       pad("-V, --version", width + 2) + "Print the version\n";
  return h;
}

ParseOutcome parse_arguments(const std::vector<std::string>& args) {
  if (args.empty()) return {};  // caller prints the full help on stderr and exits 1
  const std::string& first = args.front();
  if (first == "--help" || first == "-h") return {{}, top_level_help()};
  // `--version` and `-V` are the `version` command's other spellings.
  const bool version_flag = first == "--version" || first == "-V";
  if (!version_flag && !first.empty() && first[0] == '-') fail("unexpected argument '" + first + "' found", nullptr);
  const TableEntry* entry = find_command(version_flag ? "version" : first);
  if (!entry) {
    std::vector<std::string> names;
    for (const auto& e : command_table())
      if (!e.spec.hidden) names.push_back(e.spec.name);
    const auto meant = near_miss(first, names);
    fail("unrecognized subcommand '" + first + "'" +
             (meant ? "\n\n  tip: a similar subcommand exists: '" + *meant + "'" : std::string()),
         nullptr);
  }

  std::vector<std::string> rest(args.begin() + 1, args.end());
  // Help wins over every other argument error, as long as it comes before `--`.
  for (const auto& a : rest) {
    if (a == "--") break;
    if (a == "--help" || a == "-h") return {{}, command_help(entry->spec)};
  }
  return {entry->def->build(parse_command(entry->spec, rest)), {}};
}

}  // namespace benchhist::cli
