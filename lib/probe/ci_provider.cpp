// CI provider detection (docs/formats.md#ci-provider).

#include "probe/ci_provider.hpp"

namespace benchhist::probe {

EnvContext detect_ci_provider(const Environment& env) {
  EnvContext ctx;
  // Exactly "true": GitHub sets it so; anything else is a user's stray variable.
  if (env.get("GITHUB_ACTIONS") == std::optional<std::string>("true")) {
    ctx.provider = CiProvider::github_actions;
    ctx.run_id = env.get("GITHUB_RUN_ID");
    return ctx;
  }
  if (env.get("TF_BUILD")) {
    ctx.provider = CiProvider::azure_devops;
    ctx.run_id = env.get("BUILD_BUILDID");
    ctx.pull_request = env.get("SYSTEM_PULLREQUEST_PULLREQUESTID");
    return ctx;
  }
  return ctx;
}

}  // namespace benchhist::probe
