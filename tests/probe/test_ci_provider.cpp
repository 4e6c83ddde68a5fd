#include <catch2/catch.hpp>

#include "probe/ci_provider.hpp"

using namespace benchhist;
using Vars = std::map<std::string, std::string, std::less<>>;

TEST_CASE("no CI variables means a local run with no ids", "[probe][ci]") {
  auto ctx = probe::detect_ci_provider(probe::MapEnvironment{});
  CHECK(ctx.provider == CiProvider::local);
  CHECK_FALSE(ctx.run_id);
  CHECK_FALSE(ctx.pull_request);
}

TEST_CASE("GitHub Actions is detected only when GITHUB_ACTIONS is exactly true", "[probe][ci]") {
  probe::MapEnvironment env(Vars{{"GITHUB_ACTIONS", "true"}, {"GITHUB_RUN_ID", "12345"}});
  auto ctx = probe::detect_ci_provider(env);
  CHECK(ctx.provider == CiProvider::github_actions);
  CHECK(ctx.run_id == "12345");
  CHECK_FALSE(ctx.pull_request);

  CHECK(probe::detect_ci_provider(probe::MapEnvironment(Vars{{"GITHUB_ACTIONS", "TRUE"}})).provider == CiProvider::local);
  CHECK(probe::detect_ci_provider(probe::MapEnvironment(Vars{{"GITHUB_ACTIONS", "1"}})).provider == CiProvider::local);

  auto no_id = probe::detect_ci_provider(probe::MapEnvironment(Vars{{"GITHUB_ACTIONS", "true"}}));
  CHECK(no_id.provider == CiProvider::github_actions);
  CHECK_FALSE(no_id.run_id);
}

TEST_CASE("Azure DevOps is detected by TF_BUILD with any value", "[probe][ci]") {
  probe::MapEnvironment env(Vars{{"TF_BUILD", ""}, {"BUILD_BUILDID", "77"}, {"SYSTEM_PULLREQUEST_PULLREQUESTID", "9"}});
  auto ctx = probe::detect_ci_provider(env);
  CHECK(ctx.provider == CiProvider::azure_devops);
  CHECK(ctx.run_id == "77");
  CHECK(ctx.pull_request == "9");

  auto bare = probe::detect_ci_provider(probe::MapEnvironment(Vars{{"TF_BUILD", "True"}}));
  CHECK(bare.provider == CiProvider::azure_devops);
  CHECK_FALSE(bare.run_id);
  CHECK_FALSE(bare.pull_request);
}

TEST_CASE("GitHub Actions is checked before Azure DevOps", "[probe][ci]") {
  probe::MapEnvironment env(Vars{{"GITHUB_ACTIONS", "true"}, {"GITHUB_RUN_ID", "1"}, {"TF_BUILD", "True"},
                      {"SYSTEM_PULLREQUEST_PULLREQUESTID", "9"}});
  auto ctx = probe::detect_ci_provider(env);
  CHECK(ctx.provider == CiProvider::github_actions);
  CHECK_FALSE(ctx.pull_request);
  // A non-"true" GITHUB_ACTIONS falls through to the next check.
  CHECK(probe::detect_ci_provider(probe::MapEnvironment(Vars{{"GITHUB_ACTIONS", "false"}, {"TF_BUILD", "x"}})).provider ==
        CiProvider::azure_devops);
}
