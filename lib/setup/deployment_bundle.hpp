#pragma once
// The `setup-azure` deployment bundle (docs/setup-azure.md): an ARM template, the
// Azure CLI deploy script, the filled parameters file and a README. The same bundle is
// exported with `--out-dir` and materialized in a temporary directory for execution mode, so
// what a reviewer reads is exactly what runs.
//
// Decision: the seed ships Bicep + PowerShell (`deploy.ps1`); this port ships an ARM JSON
// template (parseable and checkable here, deployable by `az` without the Bicep CLI) and a bash
// script for the Azure CLI (`deploy.sh`), which is what CI runners and most shells have.

#include <filesystem>
#include <string>
#include <vector>

#include "setup/setup_inputs.hpp"

namespace benchhist::setup {

inline constexpr const char* template_file_name = "azuredeploy.json";
inline constexpr const char* parameters_file_name = "parameters.json";
inline constexpr const char* deploy_script_name = "deploy.sh";
inline constexpr const char* readme_file_name = "README.md";

struct BundleFile {
  std::filesystem::path name;  // relative to the bundle directory
  std::string content;
  bool executable = false;
};

// The bundle for these inputs (values not given become marked placeholders).
std::vector<BundleFile> render_bundle(const SetupAzureInputs& inputs);

// The individual files (also used by tests).
std::string render_template();  // independent of the inputs: everything comes from parameters
std::string render_parameters(const SetupAzureInputs& inputs);
std::string render_deploy_script();
std::string render_readme(const SetupAzureInputs& inputs);

// Writes the bundle into `dir`, which must be absent or an empty directory (created with its
// parents when absent). A non-empty directory or a file is refused with Error{usage} naming
// `--out-dir` before anything is written; a write failure is Error{io} naming the file.
void write_bundle(const std::filesystem::path& dir, const std::vector<BundleFile>& files);

}  // namespace benchhist::setup
