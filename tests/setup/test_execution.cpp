// setup-azure execution mode: the real deploy.sh runs against a fake `az` first on PATH that
// records its arguments and answers with canned values.

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/probe/process.hpp"
#include "setup/setup_azure.hpp"
#include "setup_test_support.hpp"

using benchhist::Error;
using benchhist::ErrorKind;
using namespace benchhist::setup;
using namespace setup_test;

namespace {

constexpr const char* client_id = "c1c1c1c1-0000-4000-8000-000000000001";
constexpr const char* tenant_id = "7e7e7e7e-0000-4000-8000-000000000002";
constexpr const char* user_id = "0b0b0b0b-0000-4000-8000-000000000003";

struct FakeAz {
  ScratchDir scratch;
  fs::path bin = scratch.path() / "bin";
  fs::path log = scratch.path() / "az.log";
  fs::path temp_root = scratch.path() / "tmp";
  benchhist::probe::MapEnvironment env;

  // group_exists: what `az group exists` answers; fail_deployment: `deployment group create` fails.
  explicit FakeAz(bool group_exists = false, bool fail_deployment = false) {
    fs::create_directories(bin);
    fs::create_directories(temp_root);
    std::string script = "#!/bin/bash\n"
                         "printf '%s\\n' \"$*\" >> '" + log.string() + "'\n"
                         "query=''; prev=''\n"
                         "for a in \"$@\"; do if [[ $prev == --query ]]; then query=$a; fi; prev=$a; done\n"
                         "case \"$1 $2 $3\" in\n"
                         "  'account set '*) ;;\n"
                         "  'group exists '*) echo " + std::string(group_exists ? "true" : "false") + " ;;\n"
                         "  'group create '*) ;;\n"
                         "  'ad signed-in-user show') echo " + user_id + " ;;\n"
                         "  'deployment group create')\n" +
                         (fail_deployment ? "    echo 'ERROR: StorageAccountAlreadyTaken' >&2; exit 3 ;;\n"
                                          : "    ;;\n") +
                         "  'deployment group show')\n"
                         "    case $query in\n"
                         "      properties.outputs.storageAccountName.value) echo benchacct01 ;;\n"
                         "      properties.outputs.containerName.value) echo bench-history ;;\n"
                         "      properties.outputs.managedIdentityClientId.value) echo " + client_id + " ;;\n"
                         "      properties.outputs.tenantId.value) echo " + tenant_id + " ;;\n"
                         "      *) echo '{\"properties\": {\"provisioningState\": \"Succeeded\"}}' ;;\n"
                         "    esac ;;\n"
                         "  *) echo \"fake az: unexpected: $*\" >&2; exit 9 ;;\n"
                         "esac\n";
    write_file(bin / "az", script);
    fs::permissions(bin / "az", fs::perms::owner_all);
    env.set("PATH", bin.string() + ":/usr/bin:/bin");
  }

  SetupRuntime runtime() const { return SetupRuntime{&env, temp_root}; }

  std::vector<std::string> calls() const {
    std::istringstream in(read_file(log));
    std::vector<std::string> lines;
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
  }

  std::optional<std::string> call_starting(std::string_view prefix) const {
    for (const auto& c : calls())
      if (c.rfind(prefix, 0) == 0) return c;
    return std::nullopt;
  }
};

}  // namespace

TEST_CASE("execution runs deploy.sh with az and prints the four workflow values", "[setup][execution]") {
  FakeAz az;
  std::ostringstream out, err;
  auto result = run_setup_azure(full_options(), out, err, az.runtime());
  INFO(err.str());
  REQUIRE(result);
  CHECK(result->storage_account == "benchacct01");
  CHECK(result->container == "bench-history");
  CHECK(result->client_id == client_id);
  CHECK(result->tenant_id == tenant_id);
  CHECK(out.str() == std::string("storage_account=benchacct01\ncontainer=bench-history\nclient_id=") + client_id +
                         "\ntenant_id=" + tenant_id + "\n");
  CHECK(err.str().find("Creating resource group rg-bench-history in westeurope") != std::string::npos);

  const auto set = az.call_starting("account set");
  REQUIRE(set);
  CHECK(set->find("--subscription 00000000-1111-2222-3333-444444444444") != std::string::npos);
  const auto create_group = az.call_starting("group create");
  REQUIRE(create_group);
  CHECK(create_group->find("--name rg-bench-history --location westeurope") != std::string::npos);
  const auto deploy = az.call_starting("deployment group create");
  REQUIRE(deploy);
  CHECK(deploy->find("--resource-group rg-bench-history") != std::string::npos);
  CHECK(deploy->find("azuredeploy.json") != std::string::npos);
  CHECK(deploy->find("--parameters @") != std::string::npos);
  CHECK(deploy->find("currentUserPrincipalId") == std::string::npos);  // no --current-user: template default
  CHECK(az.call_starting("ad signed-in-user") == std::nullopt);

  // The temporary bundle directory is gone.
  CHECK(dir_entries(az.temp_root).empty());
}

TEST_CASE("an existing resource group is reused, not created", "[setup][execution]") {
  FakeAz az(/*group_exists=*/true);
  std::ostringstream out, err;
  REQUIRE(run_setup_azure(full_options(), out, err, az.runtime()));
  CHECK(az.call_starting("group create") == std::nullopt);
  CHECK(err.str().find("Reusing resource group rg-bench-history") != std::string::npos);
}

TEST_CASE("--current-user grants the signed-in Azure CLI user through the template", "[setup][execution]") {
  FakeAz az;
  auto o = full_options();
  o.current_user = true;
  std::ostringstream out, err;
  REQUIRE(run_setup_azure(o, out, err, az.runtime()));
  CHECK(az.call_starting("ad signed-in-user show"));
  const auto deploy = az.call_starting("deployment group create");
  REQUIRE(deploy);
  CHECK(deploy->find(std::string("currentUserPrincipalId=") + user_id) != std::string::npos);
}

TEST_CASE("a missing Azure CLI is a clear error that suggests --out-dir", "[setup][execution]") {
  ScratchDir scratch;
  fs::create_directories(scratch.path() / "empty-bin");
  fs::create_directories(scratch.path() / "tmp");
  benchhist::probe::MapEnvironment env;
  env.set("PATH", (scratch.path() / "empty-bin").string());
  std::ostringstream out, err;
  try {
    run_setup_azure(full_options(), out, err, SetupRuntime{&env, scratch.path() / "tmp"});
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "the Azure CLI (az) was not found on PATH");
    CHECK(e.hint().find("install the Azure CLI") != std::string::npos);
    CHECK(e.hint().find("--out-dir") != std::string::npos);
  }
  CHECK(dir_entries(scratch.path() / "tmp").empty());
  CHECK(out.str().empty());
}

TEST_CASE("a failing deployment relays az's message, fails, and still removes the temp directory",
          "[setup][execution]") {
  FakeAz az(false, /*fail_deployment=*/true);
  std::ostringstream out, err;
  try {
    run_setup_azure(full_options(), out, err, az.runtime());
    FAIL("expected an error");
  } catch (const Error& e) {
    CHECK(e.message() == "the Azure deployment script deploy.sh failed");
    CHECK(e.cause() == "exit code 3");
  }
  CHECK(err.str().find("StorageAccountAlreadyTaken") != std::string::npos);
  CHECK(out.str().find("client_id=") == std::string::npos);
  CHECK(dir_entries(az.temp_root).empty());
}

TEST_CASE("invalid options fail before any tool runs", "[setup][execution]") {
  FakeAz az;
  auto o = full_options();
  o.storage_account = "Not_Valid";
  std::ostringstream out, err;
  CHECK_THROWS_AS(run_setup_azure(o, out, err, az.runtime()), Error);
  CHECK_FALSE(fs::exists(az.log));
  CHECK(dir_entries(az.temp_root).empty());
}

TEST_CASE("the script's result lines are parsed only when all four are present", "[setup][execution]") {
  auto r = parse_setup_output("noise\nstorage_account=a\r\ncontainer=b\nclient_id=c\ntenant_id=d\n");
  REQUIRE(r);
  CHECK(r->storage_account == "a");
  CHECK(r->tenant_id == "d");
  CHECK_FALSE(parse_setup_output("storage_account=a\ncontainer=b\nclient_id=c\n"));
  CHECK_FALSE(parse_setup_output("storage_account=a\ncontainer=b\nclient_id=\ntenant_id=d\n"));
}

TEST_CASE("--verbose traces the script and makes az verbose", "[setup][execution]") {
  FakeAz az;
  auto o = full_options();
  o.verbose = true;
  std::ostringstream out, err;
  REQUIRE(run_setup_azure(o, out, err, az.runtime()));
  const auto deploy = az.call_starting("deployment group create");
  REQUIRE(deploy);
  CHECK(deploy->find("--verbose") != std::string::npos);
  CHECK(err.str().find("+ az deployment group create") != std::string::npos);  // set -x trace
  CHECK(out.str().find("client_id=") != std::string::npos);
}

TEST_CASE("an exported bundle still deploys after parameters.json is reformatted", "[setup][execution]") {
  FakeAz az;
  auto o = full_options();
  o.out_dir = az.scratch.path() / "bundle";
  std::ostringstream out, err;
  run_setup_azure(o, out, err);
  // Editors and `az` tooling rewrite JSON freely; deploy.sh must still find its three values.
  const auto compact = boost::json::serialize(boost::json::parse(read_file(*o.out_dir / "parameters.json")));
  REQUIRE(compact.find('\n') == std::string::npos);
  write_file(*o.out_dir / "parameters.json", compact);
  benchhist::probe::ProcessSpec spec;
  spec.argv = {"/bin/bash", (*o.out_dir / "deploy.sh").string()};
  spec.env_changes["PATH"] = *az.env.get("PATH");
  spec.capture_stderr = true;
  auto r = benchhist::probe::run_process(spec);
  INFO(r.err);
  REQUIRE(r.success());
  CHECK(r.out.find(std::string("client_id=") + client_id + "\n") != std::string::npos);
  const auto create_group = az.call_starting("group create");
  REQUIRE(create_group);
  CHECK(create_group->find("--name rg-bench-history --location westeurope") != std::string::npos);
}
