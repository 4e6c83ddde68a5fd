#pragma once
// The validated inputs of `setup-azure` (docs/setup-azure.md): every option checked against
// the Azure/GitHub naming rules before anything is written or run, so a typo fails here with
// the option named instead of minutes later inside an Azure deployment.

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "benchhist/config/azure_names.hpp"
#include "setup/setup_azure_request.hpp"

namespace benchhist::setup {

// Marks a value the user must fill in before running an exported bundle; deploy.sh refuses to
// run while any value still starts with it.
inline constexpr std::string_view placeholder_prefix = "<REPLACE:";

enum class PrincipalType { user, group };
std::string_view arm_principal_type(PrincipalType t) noexcept;  // "User" / "Group"

struct CustomPrincipal {
  std::string id;  // Entra object id (GUID)
  PrincipalType type = PrincipalType::user;
};

// Validated values. In export mode (`out_dir` set) the values not given are nullopt and are
// written as marked placeholders; in execution mode every required value is present.
struct SetupAzureInputs {
  std::optional<std::filesystem::path> out_dir;
  std::optional<std::string> subscription_id;
  std::optional<std::string> resource_group;
  std::optional<std::string> location;
  std::optional<std::string> storage_account;
  std::string container;
  // Explicit or defaulted `id-<storage-account>-bench-history`; nullopt only when neither the
  // name nor the storage account is known (export mode; the template then derives it).
  std::optional<std::string> managed_identity;
  std::optional<std::string> github_owner;
  std::optional<std::string> github_repository;
  std::optional<std::string> history_branch;
  std::optional<CustomPrincipal> custom_principal;
  bool current_user = false;
  bool verbose = false;

  bool export_only() const noexcept { return out_dir.has_value(); }
};

// Checks every rule of docs/setup-azure.md and returns the resolved values. Throws
// Error{ErrorKind::usage} whose message names the option and what it allows (subject = the
// option, e.g. `--storage-account`).
SetupAzureInputs validate_setup_azure(const SetupAzureRequest& options);

// The name rules are the configuration's (config/azure_names.hpp): one definition for both.
using config::check_container_name;
using config::check_storage_account_name;

}  // namespace benchhist::setup
