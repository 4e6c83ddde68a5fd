#pragma once
// The local filesystem backend (docs/formats.md#local-backend): key segments are path components
// under a root directory; bodies are gzip (docs/formats.md#gzip-body-encoding) even though names
// end in `.json`.
//
// Write-once is race-free here, stronger than docs/formats.md#local-backend's "existence check then
// rename": the gzip bytes go to `.cbh-tmp-<pid>-<unix_nanos>-<counter>` in the target directory,
// are fsynced, and are then published with link(2) (renameat2(RENAME_NOREPLACE) where hard links
// are not supported), which fails with EEXIST if any other writer got there first. So of several
// concurrent writers of one new key exactly one wins, and a process killed at any instant
// leaves either no object or a whole one; the only debris is a temp file, which list() never
// returns and put() deletes once it is older than the stale-temp age (default one hour).
//
// Every key is validated (validate_key) before the filesystem is touched, and a key whose
// directory resolves outside the root through a symbolic link is refused; symbolic links
// are never followed for objects and never walked by list().
//
// Thread-safe: no mutable state besides an atomic temp-name counter.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/storage/object_store.hpp"

namespace benchhist::storage {

struct LocalStoreOptions {
  // Temp files older than this are deleted by put() in the directory it writes to.
  std::chrono::seconds stale_temp_age{3600};
  // fsync the object before publishing it and its directory after. Off, a put is ~100x
  // faster but an OS crash or power loss (not a killed process) may leave an empty object;
  // only for re-fetchable data such as the read-through cache mirror
  // (docs/formats.md#read-through-cache).
  bool durable = true;
  // For a reader: list() refuses a root that does not exist (require_root) instead of listing it
  // as empty, so a mistyped path is not taken for a store with nothing in it yet. Writers leave
  // it off: the first put makes the root.
  bool root_must_exist = false;
};

class LocalStore final : public ObjectStore {
 public:
  explicit LocalStore(std::filesystem::path root, LocalStoreOptions options = {});

  const std::filesystem::path& root() const noexcept { return root_; }

  // refuse: throws Error{already_exists} (subject = key) when the key is taken
  //   (also when a concurrent writer won the race); nothing of ours is left behind.
  // skip_existing: PutOutcome::skipped_existing when the key is taken (also on a lost race).
  // overwrite: atomically renames over the target (stored when it was new, else replaced).
  // Throws Error{io} naming the path on I/O failure (the temp file is removed), and
  // Error{invalid_key} for a bad or reserved key or one leading outside the root via a symlink.
  PutOutcome put(std::string_view key, std::string_view json, CollisionPolicy policy) override;

  // nullopt when no file exists at the key.
  // Throws Error{decode} (subject = path) when the file is not a valid gzip body (the file is left
  // untouched); Error{io} when it cannot be read; Error{invalid_key} as for put.
  std::optional<std::string> get(std::string_view key) override;

  // docs/formats.md#local-backend: walk from the deepest directory named by the prefix's complete
  // (`/`-terminated) segments, skip `.cbh-tmp-*` files and symbolic links, keep valid keys starting
  // with `prefix`, sorted by bytes. A missing root or directory lists as empty (a missing root
  // throws instead with LocalStoreOptions::root_must_exist).
  // Throws Error{invalid_key} when the prefix's complete segments are not plain names (or lead
  // outside the root); Error{io} when a directory cannot be read.
  std::vector<std::string> list(std::string_view prefix) override;

  // false when there was no file at the key. Empty directories are left behind
  // (docs/formats.md#local-backend).
  // Throws Error{invalid_key} as for put; Error{io} when the file cannot be removed.
  bool remove(std::string_view key) override;

  // Whether a put could write here, before a command spends minutes running benchmarks: the
  // root, or while it does not exist yet its nearest existing ancestor (where the first put makes
  // it), must take a new file — a probe file with the temp prefix, removed at once. Nothing is
  // created. A subdirectory of the root that cannot be written is still found by put() only.
  // Throws Error{io} naming the root, the OS error as the cause.
  void check_access() override;

  // That the root is a directory that exists. Throws Error{not_found} (subject = root) when
  // nothing is there, Error{usage} when something other than a directory is; both messages name
  // the root, and the hints say a new store is made by collect, backfill or import.
  void require_root() const;

  // `local store at <root>`
  std::string describe() const override;

  // The file that holds `key` (validated; not checked for existence).
  // Throws Error{invalid_key} for a bad key or one whose segment starts with temp_prefix.
  std::filesystem::path path_of(std::string_view key) const;

  // Temp-file name prefix; files starting with it are never objects.
  static constexpr std::string_view temp_prefix = ".cbh-tmp-";

 private:
  void check_inside_root(const std::filesystem::path& dir, std::string_view key) const;
  void make_parent_dirs(const std::filesystem::path& target, std::string_view key) const;
  bool make_parent_dirs_once(const std::filesystem::path& rel, std::string_view key, const std::string& for_key,
                             bool last) const;
  std::filesystem::path write_temp(const std::filesystem::path& target, std::string_view body);
  void remove_stale_temps(const std::filesystem::path& dir) const noexcept;
  void remove_empty_parents(std::filesystem::path dir) const noexcept;

  std::filesystem::path root_;
  LocalStoreOptions options_;
  std::atomic<std::uint64_t> counter_{0};
};

}  // namespace benchhist::storage
