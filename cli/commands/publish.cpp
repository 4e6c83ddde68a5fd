// `publish history|pr|failure` (docs/github.md): analysis results to GitHub.

#include <utility>

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
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
      {"failed", 0, Kind::flag, "", "pr: say that the run stopped before it produced a result (needs --run-url)"},
      {"commit", 0, Kind::value, "SHA", "pr, failure: the commit concerned [default: $GITHUB_SHA]"},
      {"ref", 0, Kind::value, "NAME", "failure: the branch the failed run was for [default: $GITHUB_REF_NAME]"},
      {"run-url", 0, Kind::value, "URL", "The workflow run to link (required for failure)"},
      {"artifact-url", 0, Kind::value, "URL", "The report bundle to link [default: the run's artifacts]"},
      {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
  };
  c.positionals = {{"TARGET", "What to publish: history, pr or failure", true, false}};
  return c;
}

app::PublishTarget target(const Parsed& p) {
  static const std::pair<std::string_view, app::PublishTarget> targets[] = {
      {"history", app::PublishTarget::history}, {"pr", app::PublishTarget::pr}, {"failure", app::PublishTarget::failure}};
  const auto& t = p.positionals.at(0);
  for (const auto& [name, value] : targets)
    if (t == name) return value;
  fail("invalid value '" + t + "' for '<TARGET>'\n  [possible values: history, pr, failure]", p.spec);
}

Runner build(const Parsed& p) {
  app::PublishOptions o;
  o.target = target(p);
  o.config = p.path("config");
  o.verbose = p.flag("verbose");
  o.json = p.path("json");
  o.markdown = p.path("markdown");
  if (auto c = p.value("collection-complete")) o.collection_complete = p.boolean("collection-complete", *c);
  if (p.vm.count("pr")) o.pull_request = p.number("pr", 0);
  o.pending = p.flag("pending");
  o.nothing_benchmarked = p.flag("nothing-benchmarked");
  o.failed = p.flag("failed");
  o.commit = p.value("commit");
  o.ref = p.value("ref");
  o.run_url = p.value("run-url");
  o.artifact_url = p.value("artifact-url");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef publish_command{spec, build};

}  // namespace benchhist::cli
