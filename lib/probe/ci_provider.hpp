#pragma once
// Which CI system a run came from (docs/formats.md#ci-provider), from an Environment so tests need
// not touch the process environment.

#include "benchhist/model/run.hpp"
#include "benchhist/probe/environment.hpp"

namespace benchhist::probe {

// GITHUB_ACTIONS == "true" → github_actions (run_id = GITHUB_RUN_ID); else TF_BUILD set (any
// value) → azure_devops (run_id = BUILD_BUILDID, pull_request =
// SYSTEM_PULLREQUEST_PULLREQUESTID); else local with no ids.
EnvContext detect_ci_provider(const Environment& env);

}  // namespace benchhist::probe
