// setup-azure option validation (docs/setup-azure.md).

#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "setup/setup_inputs.hpp"
#include "setup_test_support.hpp"

using benchhist::Error;
using benchhist::ErrorKind;
using namespace benchhist::setup;
using setup_test::full_options;

namespace {

// The usage error validate_setup_azure throws for these options.
Error usage_error(const benchhist::setup::SetupAzureRequest& o) {
  try {
    validate_setup_azure(o);
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    return e;
  }
  FAIL("expected a usage error");
  throw std::logic_error("unreachable");
}

}  // namespace

TEST_CASE("storage account names are 3 to 24 lowercase letters or digits", "[setup][inputs]") {
  CHECK_FALSE(check_storage_account_name("abc"));
  CHECK_FALSE(check_storage_account_name("benchhistory0123456789ab"));  // 24
  CHECK(check_storage_account_name("ab"));
  CHECK(check_storage_account_name("benchhistory0123456789abc"));  // 25
  CHECK(check_storage_account_name("BenchHistory"));
  CHECK(check_storage_account_name("bench-history"));
  CHECK(check_storage_account_name("bench_history"));

  auto o = full_options();
  o.storage_account = "Bench";
  auto e = usage_error(o);
  CHECK(e.subject() == "--storage-account");
  CHECK(e.message().find("--storage-account") != std::string::npos);
  CHECK(e.message().find("3-24 characters, lowercase letters and digits only") != std::string::npos);
}

TEST_CASE("container names follow the blob container rules", "[setup][inputs]") {
  CHECK_FALSE(check_container_name("bench-history"));
  CHECK_FALSE(check_container_name("abc"));
  CHECK_FALSE(check_container_name(std::string(63, 'a')));
  CHECK(check_container_name("ab"));
  CHECK(check_container_name(std::string(64, 'a')));
  CHECK(check_container_name("-bench"));
  CHECK(check_container_name("bench-"));
  CHECK(check_container_name("bench--history"));
  CHECK(check_container_name("Bench"));
  CHECK(check_container_name("bench_history"));

  auto o = full_options();
  o.container = "bench--history";
  auto e = usage_error(o);
  CHECK(e.subject() == "--container");
  CHECK(e.message().find("without '--'") != std::string::npos);
}

TEST_CASE("execution mode requires every deployment value and names the missing option", "[setup][inputs]") {
  using Member = std::optional<std::string> benchhist::setup::SetupAzureRequest::*;
  const std::vector<std::pair<Member, std::string>> required = {
      {&benchhist::setup::SetupAzureRequest::subscription_id, "--subscription-id"},
      {&benchhist::setup::SetupAzureRequest::resource_group, "--resource-group"},
      {&benchhist::setup::SetupAzureRequest::location, "--location"},
      {&benchhist::setup::SetupAzureRequest::storage_account, "--storage-account"},
      {&benchhist::setup::SetupAzureRequest::github_owner, "--github-owner"},
      {&benchhist::setup::SetupAzureRequest::github_repository, "--github-repository"},
      {&benchhist::setup::SetupAzureRequest::history_branch, "--history-branch"},
  };
  for (const auto& [member, name] : required) {
    INFO(name);
    auto o = full_options();
    o.*member = std::nullopt;
    auto e = usage_error(o);
    CHECK(e.subject() == name);
    CHECK(e.message() == name + " is required unless --out-dir is given");
    CHECK(e.hint().find("--out-dir") != std::string::npos);
  }
}

TEST_CASE("execution mode names every missing deployment value at once", "[setup][inputs]") {
  auto o = full_options();
  o.location = std::nullopt;
  o.github_owner = std::nullopt;
  o.history_branch = std::nullopt;
  auto e = usage_error(o);
  CHECK(e.subject() == "--location");
  CHECK(e.message() == "required unless --out-dir is given: --location, --github-owner, --history-branch");
  CHECK(e.hint() == "pass --location, --github-owner, --history-branch, or use --out-dir to export the bundle and "
                    "fill parameters.json later");
  // Nothing given at all: all seven.
  const auto none = usage_error(benchhist::setup::SetupAzureRequest{});
  CHECK(none.message() ==
        "required unless --out-dir is given: --subscription-id, --resource-group, --location, --storage-account, "
        "--github-owner, --github-repository, --history-branch");
}

TEST_CASE("export mode accepts missing deployment values and keeps them unknown", "[setup][inputs]") {
  benchhist::setup::SetupAzureRequest o;
  o.out_dir = "bundle";
  auto in = validate_setup_azure(o);
  CHECK(in.export_only());
  CHECK_FALSE(in.subscription_id);
  CHECK_FALSE(in.storage_account);
  CHECK_FALSE(in.managed_identity);  // derived by the template once the account is filled
  CHECK(in.container == "bench-history");
}

TEST_CASE("the managed identity defaults to id-<account>-bench-history", "[setup][inputs]") {
  auto in = validate_setup_azure(full_options());
  REQUIRE(in.managed_identity);
  CHECK(*in.managed_identity == "id-benchacct01-bench-history");

  auto o = full_options();
  o.managed_identity = "my_identity-1";
  CHECK(*validate_setup_azure(o).managed_identity == "my_identity-1");
  o.managed_identity = "-bad";
  CHECK(usage_error(o).subject() == "--managed-identity");
}

TEST_CASE("blank values and control characters are refused for every text option", "[setup][inputs]") {
  using Member = std::optional<std::string> benchhist::setup::SetupAzureRequest::*;
  const std::vector<std::pair<Member, std::string>> texts = {
      {&benchhist::setup::SetupAzureRequest::subscription_id, "--subscription-id"},
      {&benchhist::setup::SetupAzureRequest::resource_group, "--resource-group"},
      {&benchhist::setup::SetupAzureRequest::location, "--location"},
      {&benchhist::setup::SetupAzureRequest::managed_identity, "--managed-identity"},
      {&benchhist::setup::SetupAzureRequest::github_owner, "--github-owner"},
      {&benchhist::setup::SetupAzureRequest::history_branch, "--history-branch"},
  };
  for (const auto& [member, name] : texts) {
    INFO(name);
    auto o = full_options();
    o.*member = "   ";
    auto blank = usage_error(o);
    CHECK(blank.subject() == name);
    CHECK(blank.message().find("must not be blank") != std::string::npos);
    o.*member = "main\x01x";
    auto control = usage_error(o);
    CHECK(control.subject() == name);
    CHECK(control.message().find("control characters") != std::string::npos);
  }
  auto o = full_options();
  o.container = "";
  CHECK(usage_error(o).subject() == "--container");
}

TEST_CASE("GitHub owner, repository and branch must be usable in a federation subject", "[setup][inputs]") {
  auto o = full_options();
  o.github_repository = "octo-org/widgets";
  auto e = usage_error(o);
  CHECK(e.subject() == "--github-repository");
  CHECK(e.message().find("without the owner") != std::string::npos);

  o = full_options();
  o.github_owner = "octo_org";
  CHECK(usage_error(o).subject() == "--github-owner");

  for (const char* bad : {"refs/heads/main", "feature branch", "a..b", "main.lock", "/main", "x~1"}) {
    INFO(bad);
    o = full_options();
    o.history_branch = bad;
    CHECK(usage_error(o).subject() == "--history-branch");
  }
  o = full_options();
  o.history_branch = "release/v2.x";
  CHECK(*validate_setup_azure(o).history_branch == "release/v2.x");
}

TEST_CASE("resource group and location names are checked", "[setup][inputs]") {
  auto o = full_options();
  o.resource_group = "rg.";
  CHECK(usage_error(o).subject() == "--resource-group");
  o.resource_group = "rg(bench)_history-1.x";
  CHECK_NOTHROW(validate_setup_azure(o));
  o.location = "west europe";
  CHECK(usage_error(o).subject() == "--location");
}

TEST_CASE("a custom principal needs both its id and its type", "[setup][inputs]") {
  auto o = full_options();
  o.custom_principal_id = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  auto e = usage_error(o);
  CHECK(e.subject() == "--custom-principal-id");
  CHECK(e.message() == "--custom-principal-id requires --custom-principal-type");

  o = full_options();
  o.custom_principal_type = "group";
  e = usage_error(o);
  CHECK(e.message() == "--custom-principal-type requires --custom-principal-id");

  o.custom_principal_id = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  o.custom_principal_type = "Group";
  auto in = validate_setup_azure(o);
  REQUIRE(in.custom_principal);
  CHECK(in.custom_principal->type == PrincipalType::group);
  CHECK(arm_principal_type(in.custom_principal->type) == "Group");

  o.custom_principal_type = "service";
  e = usage_error(o);
  CHECK(e.subject() == "--custom-principal-type");
  CHECK(e.message().find("expected user or group") != std::string::npos);

  o.custom_principal_type = "user";
  o.custom_principal_id = "not-a-guid";
  e = usage_error(o);
  CHECK(e.subject() == "--custom-principal-id");
  CHECK(e.message().find("GUID") != std::string::npos);
}

TEST_CASE("--current-user conflicts with --out-dir and with a custom principal", "[setup][inputs]") {
  auto o = full_options();
  o.current_user = true;
  CHECK(validate_setup_azure(o).current_user);

  o.out_dir = "bundle";
  auto e = usage_error(o);
  CHECK(e.subject() == "--current-user");
  CHECK(e.message() == "--current-user conflicts with --out-dir");

  o = full_options();
  o.current_user = true;
  o.custom_principal_id = "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee";
  o.custom_principal_type = "user";
  e = usage_error(o);
  CHECK(e.message().find("--current-user conflicts with --custom-principal-id") != std::string::npos);
}
