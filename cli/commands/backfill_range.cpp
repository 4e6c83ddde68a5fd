// `backfill-range` (docs/github.md): the backfill workflow's commit range.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
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
  return c;
}

Runner build(const Parsed& p) {
  app::BackfillRangeOptions o;
  o.config = p.path("config");
  o.repo = p.path("repo");
  o.verbose = p.flag("verbose");
  // The workflow inputs keep their spelling; the library validates them (empty = not given).
  o.range.lookback = p.value("lookback").value_or("");
  o.range.minimum_age = p.value("minimum-age").value_or("");
  o.range.from = p.value("from").value_or("");
  o.range.to = p.value("to").value_or("");
  o.range.max_commits = p.value("max-commits").value_or("");
  o.range.ignore_errors = p.value("ignore-errors").value_or("");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef backfill_range_command{spec, build};

}  // namespace benchhist::cli
