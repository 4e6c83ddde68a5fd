#pragma once
// What `setup-azure` is asked to do (docs/setup-azure.md): the values as the user gave them,
// before validate_setup_azure (setup_inputs.hpp) checks them against the Azure and GitHub
// naming rules. Setup's own request type, so the area depends on nothing above it; the command
// layer fills it from the command line.

#include <filesystem>
#include <optional>
#include <string>

namespace benchhist::setup {

struct SetupAzureRequest {
  std::optional<std::filesystem::path> out_dir;  // export-only mode
  std::optional<std::string> subscription_id;
  std::optional<std::string> resource_group;
  std::optional<std::string> location;
  std::optional<std::string> storage_account;
  std::string container = "bench-history";
  std::optional<std::string> managed_identity;  // default id-<storage-account>-bench-history
  std::optional<std::string> github_owner;
  std::optional<std::string> github_repository;
  std::optional<std::string> history_branch;
  std::optional<std::string> custom_principal_id;
  std::optional<std::string> custom_principal_type;  // user | group
  bool current_user = false;
  bool verbose = false;
};

}  // namespace benchhist::setup
