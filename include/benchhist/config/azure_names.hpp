#pragma once
// Azure Storage's naming rules for the two names a configuration gives ([storage.azure]
// `account` and `container`) and `setup-azure` takes (--storage-account, --container): a name the
// service would refuse is caught where it is typed, not as an HTTP 400 or 404 after a run.
// Header-only.

#include <optional>
#include <string>
#include <string_view>

namespace benchhist::config {

namespace detail {
constexpr bool is_lower_alnum(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
}  // namespace detail

// nullopt when `name` is a valid storage account name, else what is allowed.
inline std::optional<std::string> check_storage_account_name(std::string_view name) {
  const std::string allowed = "3-24 characters, lowercase letters and digits only";
  if (name.size() < 3 || name.size() > 24) return allowed;
  for (char c : name)
    if (!detail::is_lower_alnum(c)) return allowed;
  return std::nullopt;
}

// nullopt when `name` is a valid blob container name, else what is allowed.
inline std::optional<std::string> check_container_name(std::string_view name) {
  const std::string allowed =
      "3-63 characters, lowercase letters, digits and '-', not starting or ending with '-' and without '--'";
  if (name.size() < 3 || name.size() > 63) return allowed;
  for (char c : name)
    if (!detail::is_lower_alnum(c) && c != '-') return allowed;
  if (name.front() == '-' || name.back() == '-' || name.find("--") != std::string_view::npos) return allowed;
  return std::nullopt;
}

}  // namespace benchhist::config
