#pragma once
// The storage boundary: a flat namespace of string keys mapping to immutable objects, with
// list-by-prefix (docs/formats.md#store). Callers hand in and get back plain JSON text; every
// backend gzips at this boundary (docs/formats.md#gzip-body-encoding). Implementations: LocalStore
// (a directory), AzureBlobStore (a blob container) and CachedStore (a read-through mirror in front
// of a cloud store).
//
// All member functions must be safe to call concurrently from several threads: analysis
// fetches objects in parallel.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::storage {

// What to do when a put finds the key already stored (docs/formats.md#write-semantics).
enum class CollisionPolicy {
  refuse,         // throw Error{already_exists}; nothing written
  skip_existing,  // leave the stored object; nothing written
  overwrite,      // replace the stored object atomically
};

enum class PutOutcome {
  stored,            // the key was new and now holds the object
  skipped_existing,  // skip_existing found an object; nothing written
  replaced,          // overwrite replaced an existing object
};

class ObjectStore {
 public:
  virtual ~ObjectStore() = default;

  // Every member below may also throw Error{io} (local) or Error{network, auth} (cloud) when the
  // backend cannot be read or written; the subject names the key, prefix or path.

  // Stores `json` under `key`. With CollisionPolicy::refuse a write-once put is race-free:
  // of several concurrent writers of one new key exactly one succeeds and the others throw.
  // Throws Error{already_exists} (subject = key) when policy is refuse and the key is taken;
  // Error{invalid_key} for a key that violates the grammar (nothing touched).
  virtual PutOutcome put(std::string_view key, std::string_view json, CollisionPolicy policy) = 0;

  // The plain JSON text stored under `key`, or nullopt when there is none.
  // Throws Error{decode} naming the key/path when the stored bytes are not valid gzip;
  // Error{invalid_key} for a bad key.
  virtual std::optional<std::string> get(std::string_view key) = 0;

  // Every key starting with `prefix` (plain string comparison), sorted ascending by bytes.
  // A missing root/container lists as empty (a cloud store opened for reading only may refuse a
  // missing container instead: azure::AzureStoreOptions::container_must_exist).
  // Throws Error{invalid_key} (local store) when the prefix's complete segments are not plain names.
  virtual std::vector<std::string> list(std::string_view prefix) = 0;

  // Deletes `key`; false when there was nothing to delete.
  // Throws Error{invalid_key} for a bad key.
  virtual bool remove(std::string_view key) = 0;

  // Finishes a command's writes (the cloud backend flushes its cache-invalidation marker
  // here, docs/formats.md#write-semantics, #read-through-cache). Safe to call more than once; a
  // no-op for local stores.
  // Throws Error{network, auth} (cloud) when the marker cannot be written.
  virtual void flush() {}

  // One cheap request that fails as the first real one would (an unreachable endpoint, missing
  // credentials, a wrong account path, a read-only local directory), for a command about to spend
  // minutes running benchmarks before it touches the store. A no-op by default.
  virtual void check_access() {}

  // A human description for messages and verbose notes, e.g. `local store at /x/bench-history`.
  virtual std::string describe() const = 0;

  // What the store did during the command worth a verbose note (a read-through cache's epochs
  // and hit/miss tally); empty when there is nothing to say.
  virtual std::string activity() const { return {}; }
};

}  // namespace benchhist::storage
