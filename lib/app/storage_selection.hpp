#pragma once
// Storage backend selection (docs/formats.md#storage-selection): which store a storage-backed
// command uses, and opening it. Precedence: `--local=<path>` > bare `--local`
// (CARGO_BENCH_HISTORY_STORAGE) > configured `[storage.azure]` (with `--cache`) > error. `--local`
// always beats a configured cloud backend. Relative paths resolve against the command's base
// directory (app::path_base).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "app/options.hpp"
#include "benchhist/config/config.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::app {

inline constexpr std::string_view storage_env_var = "CARGO_BENCH_HISTORY_STORAGE";
inline constexpr std::string_view cache_env_var = "CARGO_BENCH_HISTORY_CACHE";

// A local directory store.
struct LocalStorageChoice {
  std::filesystem::path root;     // absolute when the base was absolute
  bool from_environment = false;  // bare `--local` read CARGO_BENCH_HISTORY_STORAGE
};

// The configured Azure Blob container, optionally behind a read-through cache.
struct AzureStorageChoice {
  std::string account;
  std::string container;
  std::string endpoint;  // effective endpoint (`https://<account>.blob.core.windows.net` default)
  std::optional<std::filesystem::path> cache_dir;
  bool cache_from_environment = false;  // bare `--cache` read CARGO_BENCH_HISTORY_CACHE
};

struct StorageChoice {
  std::variant<LocalStorageChoice, AzureStorageChoice> backend;
  std::string reason;  // why this backend was chosen, for `--verbose`

  bool is_local() const noexcept { return std::holds_alternative<LocalStorageChoice>(backend); }
  // e.g. `local storage at /x/bench-history` or `Azure container c in account a (https://…)`.
  std::string describe() const;
};

// Chooses the backend. `azure` is the configuration's `[storage.azure]` table (nullptr when
// absent); `base` is the command's path base. Throws Error{config} with the exact messages of
// docs/formats.md#storage-selection, #error-messages for a bare flag whose variable is unset or
// empty and when nothing is configured, and Error{usage} when `--cache` is combined with `--local`.
// `config_file` (and whether it exists) names, in that error's hint, the configuration the
// command read: it may come from --config or from a directory above, so "the configuration file"
// alone would leave the user guessing which one.
StorageChoice select_storage(const OptionalPathFlag& local, const OptionalPathFlag& cache,
                             const config::AzureStorageConfig* azure, const probe::Environment& env,
                             const std::filesystem::path& base, const std::filesystem::path& config_file = {},
                             bool config_file_found = false);

// A local store path must be a directory, and a command that only reads (or deletes) must find
// it: a new store is created only by the commands that write runs (collect, backfill, import;
// bless, which accepts stored results, must find it too). Throws Error{usage} naming the path when it is a file (or not a directory), and
// Error{not_found} naming it when `must_exist` and it does not exist. Cloud choices pass.
void check_local_store_path(const StorageChoice& choice, bool must_exist);

// Opens the chosen store: a LocalStore for local choices; for Azure an AzureBlobStore
// (credentials from `env`, docs/formats.md#azure-backend), behind a CachedStore synchronized once
// when a cache directory was chosen (docs/formats.md#read-through-cache). `project_id` (raw) names
// the cache-invalidation marker. In a build without the Azure backend an Azure choice throws
// Error{config} saying so. `must_exist`: the command only reads the store, so a missing Azure
// container is an error naming it (azure::AzureStoreOptions::container_must_exist), as a missing
// local directory is for check_local_store_path.
std::unique_ptr<storage::ObjectStore> open_store(const StorageChoice& choice, std::string_view project_id,
                                        const probe::Environment& env, bool must_exist = false);

}  // namespace benchhist::app
