// `examine` (docs/cli.md#commands): every stored data point of one benchmark metric.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"examine", "Print every stored data point of one benchmark metric", {}, {}, false, false};
  add_query_groups(c.opts, since_help);
  c.opts.push_back({"benchmark", 0, Kind::value, "ID", "Qualified benchmark id", true});
  c.opts.push_back({"metric", 0, Kind::value, "NAME", "Metric name, e.g. instruction_count", true});
  c.opts.push_back({"no-dirty", 0, Kind::flag, "", "Ignore dirty snapshots"});
  c.opts.push_back({"html", 0, Kind::value, "PATH", "Write a self-contained HTML page with the chart to PATH"});
  c.opts.push_back({"skip-unreadable", 0, Kind::flag, "",
                    "Examine around stored objects that cannot be read, listing their keys in the output"});
  return c;
}

Runner build(const Parsed& p) {
  app::ExamineOptions o;
  read_query_groups(p, o);
  o.benchmark = *p.value("benchmark");
  o.metric = *metric(p);  // required: the parser refuses the command without it
  o.html = p.path("html");
  o.skip_unreadable = p.flag("skip-unreadable");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef examine_command{spec, build};

}  // namespace benchhist::cli
