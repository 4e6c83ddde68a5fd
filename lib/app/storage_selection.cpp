// Backend selection, docs/formats.md#storage-selection.

#include "app/storage_selection.hpp"

#include "benchhist/config/config.hpp"
#include "benchhist/error.hpp"
#include "benchhist/storage/local_store.hpp"

#include "benchhist/azure/azure_blob_store.hpp"
#include "benchhist/storage/cached_store.hpp"

namespace benchhist::app {
namespace {

std::filesystem::path resolve(const std::filesystem::path& base, const std::filesystem::path& p) {
  return (base / p).lexically_normal();
}

// A bare `--local`/`--cache` reads its variable; unset and empty are the same error.
std::filesystem::path from_env(const probe::Environment& env, std::string_view var, std::string_view flag) {
  auto v = env.non_empty(var);
  if (!v)
    throw Error(ErrorKind::config,
                std::string(flag) + " was given without a path and " + std::string(var) +
                    " is unset or empty",
                std::string(var), {},
                "pass " + std::string(flag) + "=<path> or set " + std::string(var) + " to a directory");
  return std::filesystem::path(*v);
}

}  // namespace

std::string StorageChoice::describe() const {
  if (auto* l = std::get_if<LocalStorageChoice>(&backend)) return "local storage at " + l->root.string();
  const auto& a = std::get<AzureStorageChoice>(backend);
  std::string s = "Azure container \"" + a.container + "\" in account \"" + a.account + "\" (" +
                  a.endpoint + ")";
  if (a.cache_dir) s += " with a read-through cache at " + a.cache_dir->string();
  return s;
}

StorageChoice select_storage(const OptionalPathFlag& local, const OptionalPathFlag& cache,
                             const config::AzureStorageConfig* azure, const probe::Environment& env,
                             const std::filesystem::path& base, const std::filesystem::path& config_file,
                             bool config_file_found) {
  if (local.present && cache.present)
    throw Error(ErrorKind::usage, "the argument '--cache[=<PATH>]' cannot be used with '--local[=<PATH>]'",
                "--cache", {}, "the cache only applies to the cloud backend; drop --cache");
  if (local.path) {
    return {LocalStorageChoice{resolve(base, *local.path), false},
            "--local=<path> selects local storage (it overrides any configured cloud backend)"};
  }
  if (local.present) {
    auto root = from_env(env, storage_env_var, "--local");
    return {LocalStorageChoice{resolve(base, root), true},
            "bare --local selects local storage at " + std::string(storage_env_var)};
  }
  if (azure) {
    AzureStorageChoice a;
    a.account = azure->account;
    a.container = azure->container;
    a.endpoint = azure->effective_endpoint();
    if (cache.path) {
      a.cache_dir = resolve(base, *cache.path);
    } else if (cache.present) {
      a.cache_dir = resolve(base, from_env(env, cache_env_var, "--cache"));
      a.cache_from_environment = true;
    }
    return {std::move(a), "no --local given; using the [storage.azure] backend of the configuration"};
  }
  std::string hint;
  if (!config_file.empty())
    hint = config_file_found
               ? "the configuration this command read, " + config_file.string() +
                     ", has no [storage.azure] table: add one (docs/configuration.md), or pass --local=<path>"
               : "no configuration file was found (looked for " + config_file.string() +
                     "): write one with `cargo bench-history install` and fill in its [storage.azure] table, name "
                     "another with --config <path>, or pass --local=<path>";
  throw Error(ErrorKind::config,
              "no storage configured: pass --local=<path> (or set CARGO_BENCH_HISTORY_STORAGE and pass a "
              "bare --local) or configure a cloud storage backend in the configuration file",
              config_file.string(), {}, hint);
}

void check_local_store_path(const StorageChoice& choice, bool must_exist) {
  const auto* l = std::get_if<LocalStorageChoice>(&choice.backend);
  if (!l) return;
  const std::string where = l->from_environment ? std::string(storage_env_var) : std::string("--local");
  try {
    storage::LocalStore(l->root).require_root();
  } catch (const Error& e) {
    // The library's check, with the hint naming where the path came from.
    if (e.kind() == ErrorKind::usage)
      throw e.with_hint("point " + where + " at the store's directory (or at a new directory, which collect creates)");
    if (must_exist)
      throw e.with_hint("check the " + where + " path (a relative path resolves against the working directory); "
                        "a new store is created by `collect`, `backfill` or `import`");
  }
}

std::unique_ptr<storage::ObjectStore> open_store(const StorageChoice& choice, std::string_view project_id,
                                        const probe::Environment& env, bool must_exist) {
  if (auto* l = std::get_if<LocalStorageChoice>(&choice.backend))
    return std::make_unique<storage::LocalStore>(l->root);
  const auto& a = std::get<AzureStorageChoice>(choice.backend);
  azure::AzureStoreOptions options;
  options.container_must_exist = must_exist;
  if (!a.cache_dir)
    return std::make_unique<azure::AzureBlobStore>(a.account, a.container, a.endpoint, std::string(project_id),
                                                   nullptr, env, https::RetryPolicy{}, options);
  auto cloud = std::make_shared<azure::AzureBlobStore>(a.account, a.container, a.endpoint, std::string(project_id),
                                                       nullptr, env, https::RetryPolicy{}, options);
  auto cached = std::make_unique<storage::CachedStore>(std::move(cloud), *a.cache_dir, a.account, a.container,
                                              std::string(project_id));
  // One synchronization per command, before anything is read (docs/formats.md#read-through-cache).
  cached->synchronize();
  return cached;
}

}  // namespace benchhist::app
