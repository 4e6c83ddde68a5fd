// `analyze` (docs/cli.md#commands, docs/pipeline.md): the stored history → the reports.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
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
  return c;
}

Runner build(const Parsed& p) {
  app::AnalyzeOptions o;
  read_query_groups(p, o);
  o.prefixes = p.positionals;
  o.markdown_summary = p.path("markdown-summary");
  o.outcome = p.path("outcome");
  if (auto f = p.value("fail-on")) {
    if (*f != "regression")
      fail("invalid value '" + *f + "' for '--fail-on <WHAT>'\n  [possible values: regression]", p.spec);
    o.fail_on = app::FailOn::regression;
  }
  o.html = p.path("html");
  o.skip_unreadable = p.flag("skip-unreadable");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef analyze_command{spec, build};

}  // namespace benchhist::cli
