#pragma once
// Options of the CI automation commands behind the GitHub workflows (docs/github.md): `publish`,
// `backfill-range` and `affected`. Part of the option model of app/options.hpp; library callers
// fill them and call app::run_command like any other command.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/automation/backfill_range.hpp"

namespace benchhist::app {

enum class PublishTarget { history, pr, failure };

// `publish history|pr|failure`: talks to the GitHub REST API at $GITHUB_API_URL for
// $GITHUB_REPOSITORY with $GITHUB_TOKEN. The configuration (`--config`, cwd-relative like the
// query commands) supplies the project id that names the issues and the comment marker.
struct PublishOptions {
  PublishTarget target = PublishTarget::history;
  std::optional<std::filesystem::path> config;
  bool verbose = false;
  std::optional<std::filesystem::path> json;      // history, pr result: `analyze --json` output
  std::optional<std::filesystem::path> markdown;  // history, pr result: the Markdown shown
  bool collection_complete = false;               // history, pr result: every platform collected
  std::optional<std::string> run_url;
  std::optional<std::string> artifact_url;
  std::optional<std::uint64_t> pull_request;      // pr: --pr N
  bool pending = false;                           // pr: --pending
  bool nothing_benchmarked = false;               // pr: --nothing-benchmarked
  bool failed = false;                            // pr: --failed
  std::optional<std::string> commit;              // pr pending/nothing/failed, failure: the commit
  std::optional<std::string> ref;                 // failure: the branch/ref name
};

// `backfill-range`: the backfill workflow's range preparation — the library's own request
// (automation/backfill_range.hpp; its `now` is set when the command runs) plus where it runs.
struct BackfillRangeOptions {
  std::optional<std::filesystem::path> config;
  std::optional<std::filesystem::path> repo;
  bool verbose = false;
  automation::BackfillRangeRequest range;
};

// `affected`: the workspace packages a pull request's benchmarks must cover
// (automation/affected_packages.hpp).
struct AffectedOptions {
  std::optional<std::filesystem::path> config;  // names a [collect] bench_command project (as backfill-range)
  std::optional<std::filesystem::path> repo;  // the project directory (cargo metadata runs here)
  bool verbose = false;
  std::string base;                           // required: the pull request's base ref
  std::string head = "HEAD";
  std::vector<std::string> excludes;          // --exclude, repeatable
};

}  // namespace benchhist::app
