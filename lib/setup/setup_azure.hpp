#pragma once
// `setup-azure` as a library operation (docs/setup-azure.md,
// docs/formats.md#listings-and-command-messages): export the deployment bundle (`--out-dir`), or
// materialize it in a temporary directory, run `deploy.sh` with the Azure CLI, relay its output and
// print the values the workflows need.

#include <filesystem>
#include <iosfwd>
#include <optional>
#include <string>

#include "benchhist/probe/environment.hpp"
#include "setup/setup_azure_request.hpp"
#include "setup/setup_inputs.hpp"

namespace benchhist::setup {

// What execution mode takes from the outside world; passed in so tests can substitute a fake
// `az` (through PATH) and a scratch temporary root.
struct SetupRuntime {
  const probe::Environment* env = nullptr;  // PATH lookup of `az` and `bash`; nullptr = the process environment
  std::optional<std::filesystem::path> temp_root;  // nullopt = the system temporary directory
};

// The four values printed as `name=value` lines after a deployment (docs/setup-azure.md).
struct SetupAzureResult {
  std::string storage_account;
  std::string container;
  std::string client_id;
  std::string tenant_id;
};

// Runs the command. Export mode writes the bundle and the
// docs/formats.md#listings-and-command-messages sentence to `out` and returns nullopt. Execution
// mode writes the script's stdout to `out`, its stderr to `err`, then the four `name=value` lines
// to `out`, and returns them. Errors: Error{usage} for invalid options (validate_setup_azure),
// Error{io} when `az` or `bash` is missing (the hint says to install the Azure CLI or use
// --out-dir), Error{io} when deploy.sh fails (exit code in the cause).
// The temporary directory is removed in every case.
std::optional<SetupAzureResult> run_setup_azure(const SetupAzureRequest& options, std::ostream& out,
                                                std::ostream& err, const SetupRuntime& runtime = {});
// The same with inputs already validated (validate_setup_azure), as the command line hands them
// over: the rules are checked once, where the values are given.
std::optional<SetupAzureResult> run_setup_azure(const SetupAzureInputs& inputs, std::ostream& out,
                                                std::ostream& err, const SetupRuntime& runtime = {});

// Parses the `storage_account=`, `container=`, `client_id=`, `tenant_id=` lines of the
// script's stdout; nullopt unless all four are present and non-empty.
std::optional<SetupAzureResult> parse_setup_output(std::string_view script_stdout);

}  // namespace benchhist::setup
