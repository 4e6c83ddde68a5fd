// Validation of the `setup-azure` options (docs/setup-azure.md). Beyond the spec's rules
// (storage account, container, non-blank, no control characters, required-unless-`--out-dir`,
// custom principal pairing, `--current-user` conflicts) the names Azure and GitHub would
// reject anyway are checked here, so the failure names the option instead of surfacing from a
// half-finished deployment.

#include "setup/setup_inputs.hpp"

#include <cctype>
#include <utility>

#include "benchhist/error.hpp"

namespace benchhist::setup {
namespace {

bool is_alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }
bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

[[noreturn]] void fail(std::string_view option, const std::string& what) {
  throw Error(ErrorKind::usage, "invalid value for " + std::string(option) + ": " + what, std::string(option));
}

// docs/setup-azure.md: "Text values must be non-blank and free of control characters."
void check_text(std::string_view option, std::string_view value) {
  bool blank = true;
  for (char c : value) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) fail(option, "control characters are not allowed");
    if (!std::isspace(u)) blank = false;
  }
  if (blank) fail(option, "the value must not be blank");
}

std::optional<std::string> checked(std::string_view option, const std::optional<std::string>& value,
                                   bool required, std::optional<std::string> (*rule)(std::string_view)) {
  if (!value) {
    if (required)
      throw Error(ErrorKind::usage, std::string(option) + " is required unless --out-dir is given", std::string(option),
                  {}, "pass " + std::string(option) + ", or use --out-dir to export the bundle and fill parameters.json later");
    return std::nullopt;
  }
  check_text(option, *value);
  if (rule) {
    if (auto problem = rule(*value)) fail(option, "\"" + *value + "\": " + *problem);
  }
  return value;
}

std::optional<std::string> check_subscription(std::string_view v) {
  // A GUID or a subscription name (az accepts both); quotes and backslashes would not survive
  // the plain-text lookup deploy.sh does in parameters.json.
  for (char c : v)
    if (c == '"' || c == '\\') return "quotes and backslashes are not allowed";
  return std::nullopt;
}

std::optional<std::string> check_resource_group(std::string_view v) {
  // Azure: 1–90 characters, letters, digits, `-`, `_`, `.`, `(`, `)`; not ending in `.`.
  const std::string allowed = "1-90 letters, digits, '-', '_', '.', '(' or ')', not ending in '.'";
  if (v.size() > 90) return allowed;
  for (char c : v)
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.' && c != '(' && c != ')') return allowed;
  if (v.back() == '.') return allowed;
  return std::nullopt;
}

std::optional<std::string> check_location(std::string_view v) {
  // Region names as `az account list-locations` spells them (`westeurope`, `eastus2`).
  for (char c : v)
    if (!is_alnum(c)) return "a region name of letters and digits only, such as westeurope";
  return std::nullopt;
}

std::optional<std::string> check_identity(std::string_view v) {
  // Azure user-assigned identity names: 3–128 characters, letters, digits, `-`, `_`, starting
  // with a letter or digit.
  const std::string allowed = "3-128 letters, digits, '-' or '_', starting with a letter or digit";
  if (v.size() < 3 || v.size() > 128 || !is_alnum(v.front())) return allowed;
  for (char c : v)
    if (!is_alnum(c) && c != '-' && c != '_') return allowed;
  return std::nullopt;
}

std::optional<std::string> check_owner(std::string_view v) {
  // GitHub user/organization names: 1–39 letters, digits or single inner hyphens.
  const std::string allowed = "a GitHub user or organization name (1-39 letters, digits or inner single '-')";
  if (v.size() > 39 || v.front() == '-' || v.back() == '-' || v.find("--") != std::string_view::npos) return allowed;
  for (char c : v)
    if (!is_alnum(c) && c != '-') return allowed;
  return std::nullopt;
}

std::optional<std::string> check_repository(std::string_view v) {
  // The repository name only (the owner is --github-owner): letters, digits, `-`, `_`, `.`.
  if (v.find('/') != std::string_view::npos) return "the repository name without the owner (no '/')";
  const std::string allowed = "a GitHub repository name (up to 100 letters, digits, '-', '_' or '.')";
  if (v.size() > 100 || v == "." || v == "..") return allowed;
  for (char c : v)
    if (!is_alnum(c) && c != '-' && c != '_' && c != '.') return allowed;
  return std::nullopt;
}

std::optional<std::string> check_branch(std::string_view v) {
  // git check-ref-format rules that matter for `refs/heads/<branch>` in the federation subject.
  const std::string allowed =
      "a branch name as git allows it (no spaces, '~', '^', ':', '?', '*', '[', '\\', '..' or '@{', "
      "no leading/trailing '/', not ending in '.' or '.lock'); give the name without refs/heads/";
  if (v.rfind("refs/", 0) == 0) return allowed;
  for (char c : v)
    if (c == ' ' || c == '~' || c == '^' || c == ':' || c == '?' || c == '*' || c == '[' || c == '\\') return allowed;
  if (v.find("..") != std::string_view::npos || v.find("@{") != std::string_view::npos ||
      v.find("//") != std::string_view::npos || v.front() == '/' || v.back() == '/' || v.back() == '.' ||
      v == "@" || (v.size() >= 5 && v.substr(v.size() - 5) == ".lock"))
    return allowed;
  return std::nullopt;
}

std::optional<std::string> check_guid(std::string_view v) {
  const std::string allowed = "an Entra object id (GUID, xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx)";
  if (v.size() != 36) return allowed;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
    if (dash ? v[i] != '-' : !is_hex(v[i])) return allowed;
  }
  return std::nullopt;
}

}  // namespace

std::string_view arm_principal_type(PrincipalType t) noexcept { return t == PrincipalType::group ? "Group" : "User"; }

SetupAzureInputs validate_setup_azure(const SetupAzureRequest& o) {
  SetupAzureInputs in;
  if (o.out_dir) {
    if (o.out_dir->empty()) fail("--out-dir", "the path must not be empty");
    check_text("--out-dir", o.out_dir->string());
    in.out_dir = *o.out_dir;
  }
  const bool required = !o.out_dir;

  // Conflicts first: they are about the shape of the invocation, not about one value.
  if (o.current_user && o.out_dir)
    throw Error(ErrorKind::usage, "--current-user conflicts with --out-dir", "--current-user", {},
                "--current-user grants the signed-in Azure CLI user at deployment time; run the exported "
                "deploy.sh with --current-user instead");
  if (o.current_user && (o.custom_principal_id || o.custom_principal_type))
    throw Error(ErrorKind::usage, "--current-user conflicts with --custom-principal-id/--custom-principal-type",
                "--current-user", {}, "grant either the signed-in user or one custom principal");
  if (o.custom_principal_id.has_value() != o.custom_principal_type.has_value()) {
    const char* given = o.custom_principal_id ? "--custom-principal-id" : "--custom-principal-type";
    const char* missing = o.custom_principal_id ? "--custom-principal-type" : "--custom-principal-id";
    throw Error(ErrorKind::usage, std::string(given) + " requires " + missing, given, {},
                "pass both --custom-principal-id <GUID> and --custom-principal-type user|group, or neither");
  }

  // Execution mode provisions real resources and needs every identifying value: name all the
  // missing ones at once, so a first run is not seven corrections long.
  if (required) {
    std::string missing, first;
    for (const auto& [name, value] :
         {std::pair{"--subscription-id", &o.subscription_id}, std::pair{"--resource-group", &o.resource_group},
          std::pair{"--location", &o.location}, std::pair{"--storage-account", &o.storage_account},
          std::pair{"--github-owner", &o.github_owner}, std::pair{"--github-repository", &o.github_repository},
          std::pair{"--history-branch", &o.history_branch}}) {
      if (value->has_value()) continue;
      if (first.empty()) first = name;
      missing += (missing.empty() ? "" : ", ") + std::string(name);
    }
    if (!missing.empty())
      throw Error(ErrorKind::usage,
                  missing == first ? first + " is required unless --out-dir is given"
                                   : "required unless --out-dir is given: " + missing,
                  first, {}, "pass " + missing + ", or use --out-dir to export the bundle and fill parameters.json later");
  }
  in.subscription_id = checked("--subscription-id", o.subscription_id, required, check_subscription);
  in.resource_group = checked("--resource-group", o.resource_group, required, check_resource_group);
  in.location = checked("--location", o.location, required, check_location);
  in.storage_account = checked("--storage-account", o.storage_account, required, check_storage_account_name);
  in.container = *checked("--container", o.container, true, check_container_name);
  in.managed_identity = checked("--managed-identity", o.managed_identity, false, check_identity);
  if (!in.managed_identity && in.storage_account) in.managed_identity = "id-" + *in.storage_account + "-bench-history";
  in.github_owner = checked("--github-owner", o.github_owner, required, check_owner);
  in.github_repository = checked("--github-repository", o.github_repository, required, check_repository);
  in.history_branch = checked("--history-branch", o.history_branch, required, check_branch);

  if (o.custom_principal_id) {
    CustomPrincipal p;
    p.id = *checked("--custom-principal-id", o.custom_principal_id, true, check_guid);
    std::string type = *checked("--custom-principal-type", o.custom_principal_type, true, nullptr);
    for (auto& c : type) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (type == "user")
      p.type = PrincipalType::user;
    else if (type == "group")
      p.type = PrincipalType::group;
    else
      fail("--custom-principal-type", "\"" + *o.custom_principal_type + "\": expected user or group");
    in.custom_principal = p;
  }
  in.current_user = o.current_user;
  in.verbose = o.verbose;
  return in;
}

}  // namespace benchhist::setup
