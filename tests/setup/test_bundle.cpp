// The setup-azure deployment bundle: template, parameters, deploy.sh, README, export rules.

#include <boost/json.hpp>
#include <catch2/catch.hpp>
#include <regex>
#include <set>

#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "setup/deployment_bundle.hpp"
#include "setup/setup_azure.hpp"
#include "setup_test_support.hpp"

using benchhist::Error;
using benchhist::ErrorKind;
using namespace benchhist::setup;
using namespace setup_test;
namespace json = boost::json;

namespace {

json::object parse_object(const std::string& text) {
  json::value v = json::parse(text);
  REQUIRE(v.is_object());
  return v.as_object();
}

std::vector<json::object> resources_of_type(const json::object& tpl, std::string_view type) {
  std::vector<json::object> out;
  for (const auto& r : tpl.at("resources").as_array())
    if (r.as_object().at("type").as_string() == type) out.push_back(r.as_object());
  return out;
}

std::string str(const json::value& v) { return std::string(v.as_string()); }

// The `## Values the workflows need` section's bullet lines.
std::vector<std::string> workflow_value_bullets(const std::string& readme) {
  const std::string heading = "## Values the workflows need\n";
  auto start = readme.find(heading);
  REQUIRE(start != std::string::npos);
  start += heading.size();
  auto end = readme.find("\n## ", start);
  std::istringstream section(readme.substr(start, end == std::string::npos ? std::string::npos : end - start));
  std::vector<std::string> bullets;
  for (std::string line; std::getline(section, line);)
    if (line.rfind("- ", 0) == 0) bullets.push_back(line);
  return bullets;
}

}  // namespace

TEST_CASE("the ARM template parses and declares the locked-down storage account and container", "[setup][bundle]") {
  const auto tpl = parse_object(render_template());
  CHECK(str(tpl.at("$schema")).find("deploymentTemplate.json") != std::string::npos);

  auto accounts = resources_of_type(tpl, "Microsoft.Storage/storageAccounts");
  REQUIRE(accounts.size() == 1);
  const auto& props = accounts[0].at("properties").as_object();
  CHECK(props.at("supportsHttpsTrafficOnly").as_bool() == true);
  CHECK(str(props.at("minimumTlsVersion")) == "TLS1_2");
  CHECK(props.at("allowSharedKeyAccess").as_bool() == false);
  CHECK(props.at("allowBlobPublicAccess").as_bool() == false);
  CHECK(str(accounts[0].at("name")) == "[parameters('storageAccountName')]");

  auto containers = resources_of_type(tpl, "Microsoft.Storage/storageAccounts/blobServices/containers");
  REQUIRE(containers.size() == 1);
  CHECK(str(containers[0].at("name")).find("parameters('containerName')") != std::string::npos);
  CHECK(str(containers[0].at("properties").at("publicAccess")) == "None");
}

TEST_CASE("the template federates the identity with the history branch and pull requests", "[setup][bundle]") {
  const auto tpl = parse_object(render_template());
  REQUIRE(resources_of_type(tpl, "Microsoft.ManagedIdentity/userAssignedIdentities").size() == 1);
  const auto& vars = tpl.at("variables").as_object();
  CHECK(str(vars.at("branchSubject")) ==
        "[format('repo:{0}/{1}:ref:refs/heads/{2}', parameters('githubOwner'), parameters('githubRepository'), "
        "parameters('historyBranch'))]");
  CHECK(str(vars.at("pullRequestSubject")) ==
        "[format('repo:{0}/{1}:pull_request', parameters('githubOwner'), parameters('githubRepository'))]");
  CHECK(str(vars.at("githubIssuer")) == "https://token.actions.githubusercontent.com");
  CHECK(str(vars.at("githubAudience")) == "api://AzureADTokenExchange");

  auto creds = resources_of_type(tpl, "Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials");
  REQUIRE(creds.size() == 2);
  std::set<std::string> subjects;
  for (const auto& c : creds) {
    const auto& p = c.at("properties").as_object();
    subjects.insert(str(p.at("subject")));
    CHECK(str(p.at("issuer")) == "[variables('githubIssuer')]");
    CHECK(p.at("audiences").as_array().size() == 1);
  }
  CHECK(subjects == std::set<std::string>{"[variables('branchSubject')]", "[variables('pullRequestSubject')]"});
  // Azure refuses concurrent credential writes on one identity: the second waits for the first.
  CHECK(creds[1].at("dependsOn").as_array().size() == 2);
}

TEST_CASE("the template grants Storage Blob Data Contributor to the identity and optional principals",
          "[setup][bundle]") {
  const auto tpl = parse_object(render_template());
  CHECK(str(tpl.at("variables").at("storageBlobDataContributorRoleId")).find("ba92f5b4-2d11-453d-a403-e96b0029c9fe") !=
        std::string::npos);
  auto grants = resources_of_type(tpl, "Microsoft.Authorization/roleAssignments");
  REQUIRE(grants.size() == 3);
  std::set<std::string> principals;
  for (const auto& g : grants) {
    CHECK(str(g.at("scope")) == "[variables('containerScope')]");
    CHECK(str(g.at("properties").at("roleDefinitionId")) == "[variables('storageBlobDataContributorRoleId')]");
    principals.insert(str(g.at("properties").at("principalId")));
  }
  CHECK(principals.count("[reference(variables('identityId'), '2023-01-31').principalId]") == 1);
  CHECK(principals.count("[parameters('customPrincipalId')]") == 1);
  CHECK(principals.count("[parameters('currentUserPrincipalId')]") == 1);
  CHECK_FALSE(grants[0].contains("condition"));  // the workflow identity is always granted
  CHECK(grants[1].contains("condition"));
  CHECK(grants[2].contains("condition"));

  const auto& outputs = tpl.at("outputs").as_object();
  for (const char* name : {"storageAccountName", "containerName", "managedIdentityClientId", "tenantId"})
    CHECK(outputs.contains(name));
}

TEST_CASE("every parameter the template references is declared", "[setup][bundle]") {
  const std::string text = render_template();
  const auto tpl = parse_object(text);
  const auto& declared = tpl.at("parameters").as_object();
  std::regex ref(R"(parameters\('([A-Za-z]+)'\))");
  int refs = 0;
  for (std::sregex_iterator it(text.begin(), text.end(), ref), end; it != end; ++it, ++refs) {
    INFO((*it)[1].str());
    CHECK(declared.contains((*it)[1].str()));
  }
  CHECK(refs > 10);
  std::regex var_ref(R"(variables\('([A-Za-z]+)'\))");
  const auto& vars = tpl.at("variables").as_object();
  for (std::sregex_iterator it(text.begin(), text.end(), var_ref), end; it != end; ++it) {
    INFO((*it)[1].str());
    CHECK(vars.contains((*it)[1].str()));
  }
}

TEST_CASE("parameters.json carries every option value and matches the template's parameters", "[setup][bundle]") {
  auto o = full_options();
  o.container = "perf-data";
  o.custom_principal_id = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  o.custom_principal_type = "group";
  const auto params = parse_object(render_parameters(validate_setup_azure(o)));
  const auto& p = params.at("parameters").as_object();
  auto value = [&](const char* name) { return str(p.at(name).at("value")); };
  CHECK(value("subscriptionId") == "00000000-1111-2222-3333-444444444444");
  CHECK(value("resourceGroupName") == "rg-bench-history");
  CHECK(value("location") == "westeurope");
  CHECK(value("storageAccountName") == "benchacct01");
  CHECK(value("containerName") == "perf-data");
  CHECK(value("managedIdentityName") == "id-benchacct01-bench-history");
  CHECK(value("githubOwner") == "octo-org");
  CHECK(value("githubRepository") == "widgets.rs");
  CHECK(value("historyBranch") == "main");
  CHECK(value("customPrincipalId") == "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee");
  CHECK(value("customPrincipalType") == "Group");

  // ARM rejects parameters the template does not declare, and needs those without defaults.
  const auto tpl = parse_object(render_template());
  const auto& declared = tpl.at("parameters").as_object();
  for (const auto& kv : p) CHECK(declared.contains(kv.key()));
  for (const auto& kv : declared) {
    INFO(std::string(kv.key()));
    if (!kv.value().as_object().contains("defaultValue")) CHECK(p.contains(kv.key()));
  }
  CHECK(render_parameters(validate_setup_azure(o)).find(placeholder_prefix) == std::string::npos);
}

TEST_CASE("values not given in export mode become clearly marked placeholders", "[setup][bundle]") {
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = "bundle";
  o.github_owner = "octo-org";
  const auto params = parse_object(render_parameters(validate_setup_azure(o)));
  const auto& p = params.at("parameters").as_object();
  for (const char* name : {"subscriptionId", "resourceGroupName", "location", "storageAccountName", "githubRepository",
                           "historyBranch"}) {
    INFO(name);
    CHECK(str(p.at(name).at("value")).rfind("<REPLACE: ", 0) == 0);
  }
  CHECK(str(p.at("githubOwner").at("value")) == "octo-org");
  CHECK(str(p.at("containerName").at("value")) == "bench-history");
  CHECK(str(p.at("managedIdentityName").at("value")).empty());
  CHECK(str(p.at("customPrincipalId").at("value")).empty());
}

TEST_CASE("deploy.sh is strict bash that passes shellcheck", "[setup][bundle]") {
  const std::string shellcheck = BH_SHELLCHECK;
  REQUIRE_FALSE(shellcheck.empty());  // shellcheck must be installed for this suite
  REQUIRE(std::filesystem::exists(shellcheck));
  ScratchDir dir;
  const std::string script = render_deploy_script();
  CHECK(script.rfind("#!/usr/bin/env bash\n", 0) == 0);
  CHECK(script.find("\nset -euo pipefail\n") != std::string::npos);
  CHECK(script.find("az deployment group create") != std::string::npos);
  write_file(dir.path() / "deploy.sh", script);
  benchhist::probe::ProcessSpec spec;
  spec.argv = {shellcheck, "--shell=bash", "--severity=style", (dir.path() / "deploy.sh").string()};
  spec.capture_stderr = true;
  auto r = benchhist::probe::run_process(spec);
  INFO(r.out << r.err);
  CHECK(r.success());
}

TEST_CASE("the README lists exactly the values the workflows need", "[setup][bundle]") {
  const std::string readme = render_readme(validate_setup_azure(full_options()));
  auto bullets = workflow_value_bullets(readme);
  REQUIRE(bullets.size() == 4);
  CHECK(bullets[0].rfind("- `AZURE_CLIENT_ID`", 0) == 0);
  CHECK(bullets[1].rfind("- `AZURE_TENANT_ID`", 0) == 0);
  CHECK(bullets[2].find("storage account: `benchacct01`") != std::string::npos);
  CHECK(bullets[3].find("container: `bench-history`") != std::string::npos);
  CHECK(readme.find("[storage.azure]\naccount = \"benchacct01\"\ncontainer = \"bench-history\"\n") != std::string::npos);
  // The concrete federation subjects, so a reviewer sees exactly which runs may sign in.
  CHECK(readme.find("repo:octo-org/widgets.rs:ref:refs/heads/main") != std::string::npos);
  CHECK(readme.find("repo:octo-org/widgets.rs:pull_request") != std::string::npos);
  for (const char* file : {"azuredeploy.json", "parameters.json", "deploy.sh", "README.md"})
    CHECK(readme.find(std::string("`") + file + "`") != std::string::npos);
}

TEST_CASE("export writes the bundle into an absent directory and says what to do next", "[setup][bundle]") {
  ScratchDir scratch;
  auto o = full_options();
  o.out_dir = scratch.path() / "nested" / "bundle";
  std::ostringstream out, err;
  auto result = run_setup_azure(o, out, err);
  CHECK_FALSE(result);
  auto names = dir_entries(*o.out_dir);
  std::sort(names.begin(), names.end());
  CHECK(names == std::vector<std::string>{"README.md", "azuredeploy.json", "deploy.sh", "parameters.json"});
  auto perms = std::filesystem::status(*o.out_dir / "deploy.sh").permissions();
  CHECK((perms & std::filesystem::perms::owner_exec) != std::filesystem::perms::none);
  CHECK(read_file(*o.out_dir / "azuredeploy.json") == render_template());
  CHECK(out.str().find(o.out_dir->string()) != std::string::npos);
  CHECK(out.str().find("no tools or credentials were probed") != std::string::npos);
  CHECK(out.str().find("README.md") != std::string::npos);
  CHECK(out.str().find("bash deploy.sh") != std::string::npos);
  CHECK(err.str().empty());
}

TEST_CASE("export into an existing empty directory works", "[setup][bundle]") {
  ScratchDir scratch;
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = scratch.path();
  std::ostringstream out, err;
  run_setup_azure(o, out, err);
  CHECK(dir_entries(scratch.path()).size() == 4);
  CHECK(out.str().find("fill the <REPLACE: ...> values in parameters.json") != std::string::npos);
}

TEST_CASE("a non-empty output directory is refused and left untouched", "[setup][bundle]") {
  ScratchDir scratch;
  write_file(scratch.path() / "parameters.json", "mine");
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = scratch.path();
  std::ostringstream out, err;
  try {
    run_setup_azure(o, out, err);
    FAIL("expected a refusal");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(e.message() == "--out-dir " + scratch.path().string() + " is not empty");
    CHECK(e.hint().find("nothing was written") != std::string::npos);
  }
  CHECK(dir_entries(scratch.path()) == std::vector<std::string>{"parameters.json"});
  CHECK(read_file(scratch.path() / "parameters.json") == "mine");

  o.out_dir = scratch.path() / "parameters.json";  // a file, not a directory
  CHECK_THROWS_AS(run_setup_azure(o, out, err), Error);
  CHECK(read_file(scratch.path() / "parameters.json") == "mine");
}

TEST_CASE("the exported deploy.sh refuses to run while placeholders remain", "[setup][bundle]") {
  ScratchDir scratch;
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = scratch.path() / "bundle";
  std::ostringstream out, err;
  run_setup_azure(o, out, err);
  // A fake az that must never be reached.
  std::filesystem::create_directory(scratch.path() / "bin");
  write_file(scratch.path() / "bin" / "az", "#!/bin/sh\necho called >> \"$0.log\"\n");
  std::filesystem::permissions(scratch.path() / "bin" / "az", std::filesystem::perms::owner_all);
  benchhist::probe::ProcessSpec spec;
  spec.argv = {"/bin/bash", (*o.out_dir / "deploy.sh").string()};
  spec.env_changes["PATH"] = (scratch.path() / "bin").string() + ":/usr/bin:/bin";
  spec.capture_stderr = true;
  auto r = benchhist::probe::run_process(spec);
  CHECK_FALSE(r.success());
  CHECK(r.err.find("<REPLACE: ...> placeholders") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(scratch.path() / "bin" / "az.log"));
}

TEST_CASE("an export without values shows parameter names where values will go", "[setup][bundle]") {
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = "bundle";
  o.github_owner = "octo-org";
  const std::string readme = render_readme(validate_setup_azure(o));
  CHECK(readme.find("repo:octo-org/<githubRepository>:ref:refs/heads/<historyBranch>") != std::string::npos);
  CHECK(readme.find("account = \"<storageAccountName>\"") != std::string::npos);
  CHECK(readme.find("Names in `<angle brackets>`") != std::string::npos);
  CHECK(workflow_value_bullets(readme).size() == 4);
}
