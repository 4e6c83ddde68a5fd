// publish, backfill-range and affected: options → the publish and automation areas.

#include "app/automation_commands.hpp"

#include <fstream>
#include <ostream>
#include <sstream>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/automation/affected_packages.hpp"
#include "benchhist/automation/backfill_range.hpp"
#include "benchhist/automation/changed_files.hpp"
#include "benchhist/automation/step_output.hpp"
#include "benchhist/collect/bench_command.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/publish/github_client.hpp"
#include "benchhist/publish/publication.hpp"
#include "command_support.hpp"

namespace benchhist::app {

using namespace detail;

namespace {

std::string read_input(const std::filesystem::path& path, const char* label) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  if (in) ss << in.rdbuf();
  if (!in)
    throw Error(ErrorKind::io, std::string("could not read the ") + label + " at " + path.string(), path.string(), {},
                "pass the file analyze wrote (check the path and the working directory)");
  return ss.str();
}

// The configuration and project id, resolved like the query commands: against the working
// directory (docs/formats.md#storage-selection), so publish and analyze run in one directory agree.
CommandContext project_context(const std::optional<std::filesystem::path>& config,
                               const std::optional<std::filesystem::path>& repo, bool verbose, const Invocation& inv,
                               const std::filesystem::path& base) {
  EnvironmentOptions env;
  env.config = config;
  env.repo = repo;
  env.verbose = verbose;
  return open_context(env, nullptr, inv, base, false);
}

publish::ReportFacts report_facts(const PublishOptions& o, const Invocation& inv, const std::string& project,
                                  AnalysisMode mode) {
  const auto path = inv.cwd / *o.json;
  auto facts = publish::read_report_facts(read_input(path, "JSON report"), path.string());
  // The trunk's issue shows history; a pull request's comment shows its branch against the base.
  // The other mode's report would put a feature branch's commit on the trunk issue, or the
  // trunk's drift on a pull request.
  if (facts.mode != mode)
    throw Error(ErrorKind::usage,
                "the JSON report at " + path.string() + " is a " + std::string(to_string(facts.mode)) +
                    "-mode report, but `publish " + (mode == AnalysisMode::history ? "history" : "pr") +
                    "` publishes " + std::string(to_string(mode)) + "-mode reports",
                path.string(), {},
                mode == AnalysisMode::history
                    ? "publish the report analyze wrote on the default branch (history mode), or use `publish pr` "
                      "for a pull request's report"
                    : "publish the report analyze wrote for the pull request's head (branch mode), or use `publish "
                      "history` for the default branch's report");
  if (facts.project != project)
    throw Error(ErrorKind::usage,
                "the JSON report at " + path.string() + " is for project \"" + facts.project +
                    "\", but this directory's project id is \"" + project + "\"",
                path.string(), {},
                "run publish in the directory (or with the --config) analyze used, so the issue and comment name the "
                "right project");
  return facts;
}

std::optional<std::string> non_empty(const std::optional<std::string>& v) {
  return v && !v->empty() ? v : std::nullopt;
}

}  // namespace

void run_publish(const PublishOptions& o, const Invocation& inv) {
  const bool v = o.verbose;
  auto ctx = project_context(o.config, std::nullopt, v, inv, inv.cwd);
  auto target = publish::GitHubTarget::from_environment(inv.env);
  note(inv, v, "GitHub API " + target.api_url + ", repository " + target.repository());
  publish::GitHubClient github(target, https::make_http_client());
  publish::PublicationLinks links{non_empty(o.run_url), non_empty(o.artifact_url), std::nullopt};
  // Actions sets GITHUB_SERVER_URL (github.com or the Enterprise host); without it, no guess.
  if (const auto server = non_empty(inv.env.get("GITHUB_SERVER_URL")); server && server->starts_with("https://"))
    links.commit_url_base = *server + "/" + target.repository() + "/commit/";

  publish::PublicationResult result;
  switch (o.target) {
    case PublishTarget::history: {
      publish::HistoryPublication p;
      p.facts = report_facts(o, inv, ctx.project, AnalysisMode::history);
      p.markdown = read_input(inv.cwd / *o.markdown, "Markdown report");
      p.collection_complete = o.collection_complete;
      p.links = links;
      note(inv, v, "publication state: " +
                       std::string(publish::to_string(publish::publication_state(p.facts, p.collection_complete))));
      result = publish::publish_history(github, p);
      break;
    }
    case PublishTarget::pr: {
      publish::PrPublication p;
      p.project = ctx.project;
      p.pull_request = *o.pull_request;
      p.commit = non_empty(o.commit).has_value() ? non_empty(o.commit) : non_empty(inv.env.get("GITHUB_SHA"));
      p.links = links;
      if (o.pending) {
        p.kind = publish::PrPublicationKind::pending;
      } else if (o.nothing_benchmarked) {
        p.kind = publish::PrPublicationKind::nothing_benchmarked;
      } else if (o.failed) {
        p.kind = publish::PrPublicationKind::failed;
      } else {
        p.kind = publish::PrPublicationKind::result;
        p.facts = report_facts(o, inv, ctx.project, AnalysisMode::branch);
        p.markdown = read_input(inv.cwd / *o.markdown, "Markdown report");
        p.collection_complete = o.collection_complete;
      }
      result = publish::publish_pr(github, p);
      break;
    }
    case PublishTarget::failure: {
      publish::FailurePublication p;
      p.project = ctx.project;
      p.commit = non_empty(o.commit).has_value() ? non_empty(o.commit) : non_empty(inv.env.get("GITHUB_SHA"));
      p.ref = non_empty(o.ref).has_value() ? non_empty(o.ref) : non_empty(inv.env.get("GITHUB_REF_NAME"));
      p.links = links;
      result = publish::publish_failure(github, p);
      break;
    }
  }
  note(inv, v, "GitHub exchanges: " + std::to_string(github.exchanges()));
  inv.out << result.message << '\n';
  if (result.url) inv.out << *result.url << '\n';
}

void run_backfill_range(const BackfillRangeOptions& o, const Invocation& inv) {
  // Like backfill itself: relative paths and the default project id follow --repo
  // (docs/formats.md#storage-selection).
  const auto base = o.repo ? (inv.cwd / *o.repo).lexically_normal() : inv.cwd;
  auto ctx = project_context(o.config, o.repo, o.verbose, inv, base);
  auto git = analysis::open_git_topology(base);
  automation::BackfillRangeRequest req = o.range;
  req.now = now();  // the one clock snapshot
  const auto plan = automation::prepare_backfill_range(*git, req);
  announce(inv, plan.explanation);
  inv.out << automation::format_step_outputs({
      {"eligible", plan.eligible ? "true" : "false"},
      {"from", plan.from},
      {"to", plan.to},
      {"commits", std::to_string(plan.commits)},
      {"project", ctx.project},
      {"max-commits", plan.max_commits ? std::to_string(*plan.max_commits) : std::string()},
      {"ignore-errors", plan.ignore_errors ? "true" : "false"},
      {"explanation", plan.explanation},
  });
}

void run_affected(const AffectedOptions& o, const Invocation& inv) {
  const auto dir = o.repo ? (inv.cwd / *o.repo).lexically_normal() : inv.cwd;
  // A project measured by a benchmark command is no Cargo workspace to choose packages in.
  const auto ctx = project_context(o.config, o.repo, o.verbose, inv, dir);
  if (ctx.config.bench_command && !o.excludes.empty())
    throw Error(ErrorKind::usage,
                "the argument '--exclude <NAME>' cannot be used with the benchmark command of " +
                    ctx.config.path.string() + " ([collect] bench_command): the command measures the whole project",
                "--exclude", {},
                "remove --exclude (the workflow's `exclude` input), and leave benchmarks out in the command itself");
  const auto changes = automation::changed_files_since_merge_base(dir, o.base, o.head);
  note(inv, o.verbose, "merge base of " + o.base + " and " + o.head + ": " + changes.merge_base + "; " +
                           std::to_string(changes.paths.size()) + " changed file(s)");
  if (ctx.config.bench_command) {
    const auto sel = automation::select_whole_project(changes, ctx.config.path);
    announce(inv, sel.explanation);
    inv.out << automation::format_step_outputs({
        {"any", sel.any() ? "true" : "false"},
        {"packages", ""},
        {"count", "0"},
        {"workspace-wide", sel.workspace_wide ? "true" : "false"},
        {"merge-base", changes.merge_base},
        {"explanation", sel.explanation},
    });
    return;
  }
  const auto workspace = automation::read_cargo_workspace(dir, collect::cargo_program(inv.env));
  note(inv, o.verbose, "workspace " + workspace.root.string() + " with " + std::to_string(workspace.members.size()) +
                           " package(s)");
  const auto sel = automation::select_affected_packages(workspace, changes, o.excludes);
  announce(inv, sel.explanation);
  // A typo in the workflow's `exclude` input would otherwise exclude nothing without a word.
  if (!sel.unknown_excludes.empty()) {
    std::vector<std::string> members;
    for (const auto& m : workspace.members) members.push_back(m.name);
    announce(inv, "warning: --exclude " + joined(sel.unknown_excludes) + (sel.unknown_excludes.size() == 1 ? " names" : " name") +
                      " no package of the workspace (its packages: " + joined(members) +
                      "), so nothing was excluded for it: check the spelling");
  }
  std::string packages;
  for (const auto& p : sel.packages) packages += (packages.empty() ? "" : " ") + p;
  inv.out << automation::format_step_outputs({
      {"any", sel.any() ? "true" : "false"},
      {"packages", packages},
      {"count", std::to_string(sel.packages.size())},
      {"workspace-wide", sel.workspace_wide ? "true" : "false"},
      {"merge-base", changes.merge_base},
      {"explanation", sel.explanation},
  });
}

}  // namespace benchhist::app
