// `setup-azure` (docs/setup-azure.md): Azure storage and a GitHub-federated identity.

#include "../command.hpp"
#include "benchhist/error.hpp"
#include "setup/setup_inputs.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"setup-azure",
                "Provision Azure storage and a GitHub-federated identity, or export the deployment bundle",
                {}, {}, false, false};
  c.opts = {
      {"out-dir", 0, Kind::value, "PATH", "Export the deployment bundle into PATH (absent or empty) and probe nothing"},
      {"subscription-id", 0, Kind::value, "ID", "Azure subscription (required unless --out-dir)"},
      {"resource-group", 0, Kind::value, "NAME", "Resource group, created or reused (required unless --out-dir)"},
      {"location", 0, Kind::value, "REGION", "Region for new resources (required unless --out-dir)"},
      {"storage-account", 0, Kind::value, "NAME", "Storage account: 3-24 lowercase letters or digits (required unless --out-dir)"},
      {"container", 0, Kind::value, "NAME", "Blob container [default: bench-history]"},
      {"managed-identity", 0, Kind::value, "NAME", "Managed identity [default: id-<storage-account>-bench-history]"},
      {"github-owner", 0, Kind::value, "OWNER", "GitHub owner (required unless --out-dir)"},
      {"github-repository", 0, Kind::value, "NAME", "GitHub repository without owner (required unless --out-dir)"},
      {"history-branch", 0, Kind::value, "BRANCH", "Branch allowed to use the identity (required unless --out-dir)"},
      {"custom-principal-id", 0, Kind::value, "ID", "Extra Entra user or group granted access (with --custom-principal-type)"},
      {"custom-principal-type", 0, Kind::value, "TYPE", "user or group (with --custom-principal-id)"},
      {"current-user", 0, Kind::flag, "", "Grant the Azure CLI signed-in user access"},
      {"verbose", 0, Kind::flag, "", "Print notes about each step on stderr"},
  };
  return c;
}

// The flags as setup's own request; its rules are checked once, by setup::validate_setup_azure.
setup::SetupAzureRequest request(const Parsed& p) {
  setup::SetupAzureRequest o;
  o.out_dir = p.path("out-dir");
  o.subscription_id = p.value("subscription-id");
  o.resource_group = p.value("resource-group");
  o.location = p.value("location");
  o.storage_account = p.value("storage-account");
  if (auto c = p.value("container")) o.container = *c;
  o.managed_identity = p.value("managed-identity");
  o.github_owner = p.value("github-owner");
  o.github_repository = p.value("github-repository");
  o.history_branch = p.value("history-branch");
  o.custom_principal_id = p.value("custom-principal-id");
  o.custom_principal_type = p.value("custom-principal-type");
  o.current_user = p.flag("current-user");
  o.verbose = p.flag("verbose");
  return o;
}

Runner build(const Parsed& p) {
  app::SetupAzureOptions inputs;
  try {
    inputs = setup::validate_setup_azure(request(p));
  } catch (const Error& e) {
    fail(argument_message(e), p.spec);  // an argument error, printed with the usage
  }
  return library_command(p, std::move(inputs));
}

}  // namespace

extern const CommandDef setup_azure_command{spec, build};

}  // namespace benchhist::cli
