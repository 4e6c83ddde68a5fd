// `setup-azure` execution (docs/setup-azure.md, docs/formats.md#listings-and-command-messages).

#include "setup/setup_azure.hpp"


#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <system_error>
#include <vector>

#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"
#include "platform/platform.hpp"
#include "setup/deployment_bundle.hpp"
#include "setup/setup_inputs.hpp"

namespace benchhist::setup {
namespace {

namespace fs = std::filesystem;

// PATH lookup through the given environment (not getenv), so tests can put a fake `az` first.
std::optional<fs::path> find_on_path(std::string_view program, const std::string& path_var) {
  std::size_t start = 0;
  while (start <= path_var.size()) {
    std::size_t end = path_var.find(':', start);
    if (end == std::string::npos) end = path_var.size();
    std::string dir = path_var.substr(start, end - start);
    if (dir.empty()) dir = ".";  // POSIX: an empty PATH entry is the working directory
    const fs::path candidate = fs::path(dir) / program;
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return candidate;
    start = end + 1;
  }
  return std::nullopt;
}

// The execution-mode scratch directory; removed on every exit path (docs/setup-azure.md).
class TempDir {
 public:
  explicit TempDir(const fs::path& root) {
    try {
      path_ = platform::make_unique_directory(root, "bench-history-setup-");
    } catch (const std::system_error& e) {
      throw Error(ErrorKind::io, "could not create a temporary directory under " + root.string(), root.string(),
                  e.code().message(), "check that the temporary directory exists and is writable (TMPDIR)");
    }
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

bool is_result_line(std::string_view line) {
  for (std::string_view name : {"storage_account=", "container=", "client_id=", "tenant_id="})
    if (line.substr(0, name.size()) == name) return true;
  return false;
}

void print_result(std::ostream& out, const SetupAzureResult& r) {
  out << "storage_account=" << r.storage_account << "\n"
      << "container=" << r.container << "\n"
      << "client_id=" << r.client_id << "\n"
      << "tenant_id=" << r.tenant_id << "\n";
}

}  // namespace

std::optional<SetupAzureResult> parse_setup_output(std::string_view text) {
  SetupAzureResult r;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    auto take = [&](std::string_view name, std::string& into) {
      if (line.substr(0, name.size()) == name) into = std::string(line.substr(name.size()));
    };
    take("storage_account=", r.storage_account);
    take("container=", r.container);
    take("client_id=", r.client_id);
    take("tenant_id=", r.tenant_id);
    start = end + 1;
  }
  if (r.storage_account.empty() || r.container.empty() || r.client_id.empty() || r.tenant_id.empty())
    return std::nullopt;
  return r;
}

std::optional<SetupAzureResult> run_setup_azure(const SetupAzureRequest& options, std::ostream& out,
                                                std::ostream& err, const SetupRuntime& runtime) {
  return run_setup_azure(validate_setup_azure(options), out, err, runtime);
}

std::optional<SetupAzureResult> run_setup_azure(const SetupAzureInputs& inputs, std::ostream& out,
                                                std::ostream& err, const SetupRuntime& runtime) {
  const auto bundle = render_bundle(inputs);

  if (inputs.export_only()) {
    // docs/setup-azure.md: export probes no tools or credentials.
    write_bundle(*inputs.out_dir, bundle);
    const bool placeholders = render_parameters(inputs).find(placeholder_prefix) != std::string::npos;
    out << "Exported the Azure deployment bundle to " << inputs.out_dir->string()
        << "; no tools or credentials were probed. Review README.md, "
        << (placeholders ? "fill the <REPLACE: ...> values in parameters.json" : "check parameters.json")
        << ", then run `bash deploy.sh` in that directory (Azure CLI required).\n";
    return std::nullopt;
  }

  probe::ProcessEnvironment process_env;
  const probe::Environment& env = runtime.env ? *runtime.env : process_env;
  const std::string path_var = env.get("PATH").value_or("/usr/bin:/bin");
  if (!find_on_path("az", path_var))
    throw Error(ErrorKind::io, "the Azure CLI (az) was not found on PATH", "az", {},
                "install the Azure CLI (https://learn.microsoft.com/cli/azure/install-azure-cli) and sign in with "
                "`az login`, or pass --out-dir to export the deployment bundle and run it elsewhere");
  const auto bash = find_on_path("bash", path_var);
  if (!bash)
    throw Error(ErrorKind::io, "bash was not found on PATH; deploy.sh needs it", "bash", {},
                "install bash, or pass --out-dir to export the deployment bundle and run it elsewhere");

  std::error_code ec;
  const fs::path temp_root = runtime.temp_root ? *runtime.temp_root : fs::temp_directory_path(ec);
  if (temp_root.empty())
    throw Error(ErrorKind::io, "could not determine the temporary directory", {}, ec.message(), "set TMPDIR");
  TempDir temp(temp_root);
  write_bundle(temp.path(), bundle);

  probe::ProcessSpec spec;
  spec.argv = {bash->string(), (temp.path() / deploy_script_name).string(), "--parameters-file",
               (temp.path() / parameters_file_name).string()};
  if (inputs.current_user) spec.argv.emplace_back("--current-user");
  if (inputs.verbose) spec.argv.emplace_back("--verbose");
  spec.cwd = temp.path();
  spec.env_changes["PATH"] = path_var;  // the child finds the same `az` we checked
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  const probe::ProcessResult result = probe::run_process(spec);

  // docs/formats.md#listings-and-command-messages: the script's stdout, then its stderr; the four
  // values are printed last, once.
  std::size_t start = 0;
  while (start < result.out.size()) {
    std::size_t end = result.out.find('\n', start);
    if (end == std::string::npos) end = result.out.size();
    std::string_view line(result.out.data() + start, end - start);
    if (!is_result_line(line)) out << line << "\n";
    start = end + 1;
  }
  err << result.err;
  err.flush();

  if (!result.success())
    throw Error(ErrorKind::io, "the Azure deployment script deploy.sh failed", "deploy.sh",
                result.exited ? "exit code " + std::to_string(result.exit_code)
                              : "terminated by signal " + std::to_string(result.signal),
                "read the messages above (sign in with `az login`, check permissions to create role assignments, "
                "or pick another storage account name if it is taken), then re-run; --out-dir exports the "
                "bundle for inspection");
  auto values = parse_setup_output(result.out);
  if (!values)
    throw Error(ErrorKind::io, "the Azure deployment script deploy.sh did not report the deployed values", "deploy.sh",
                "expected storage_account=, container=, client_id= and tenant_id= lines on its stdout",
                "look up the outputs with `az deployment group show` in the Azure portal or CLI");
  print_result(out, *values);
  return values;
}

}  // namespace benchhist::setup
