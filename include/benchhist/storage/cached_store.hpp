#pragma once
// Read-through cache in front of a cloud store (docs/formats.md#read-through-cache). Gets are
// served from an on-disk mirror laid out like the local backend; misses are fetched from the cloud
// and mirrored. Lists and writes always go to the cloud. Before a load, synchronize() compares
// the cloud's cache-epoch marker with the mirror's copy and wipes the project's mirrored
// objects when they differ.

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/storage/object_store.hpp"

namespace benchhist::storage {

class CachedStore final : public ObjectStore {
 public:
  // `mirror` is any store (normally a LocalStore at mirror_root(...)); `project_id` is raw
  // (it is sanitized for the marker key and the wiped prefix).
  // Throws Error{internal} when either store is null.
  CachedStore(std::shared_ptr<ObjectStore> cloud, std::shared_ptr<ObjectStore> mirror,
              std::string project_id);
  // A LocalStore mirror at mirror_root(cache_dir, account, container).
  CachedStore(std::shared_ptr<ObjectStore> cloud, const std::filesystem::path& cache_dir,
              std::string_view account, std::string_view container, std::string project_id);

  // <cache_dir>/<sanitized account>/<sanitized container>/ — the endpoint is not part of it.
  static std::filesystem::path mirror_root(const std::filesystem::path& cache_dir,
                                           std::string_view account, std::string_view container);

  struct SyncResult {
    std::string cloud_epoch;                  // "genesis" when the cloud has no marker
    std::optional<std::string> mirror_epoch;  // nullopt when the mirror had none
    bool wiped = false;                       // the project's mirrored objects were removed
    std::size_t removed = 0;
  };
  // Run before each load (docs/formats.md#read-through-cache "Synchronize before each load").
  // Throws what the cloud's or the mirror's get/list/remove/put throw (network, auth, io, decode).
  SyncResult synchronize();

  struct Tally {
    std::size_t hits = 0;
    std::size_t misses = 0;
    std::size_t mirror_write_failures = 0;  // misses whose body could not be mirrored
  };
  Tally tally() const noexcept { return {hits_.load(), misses_.load(), mirror_write_failures_.load()}; }

  // `read-through cache: epoch <cloud> (mirror <epoch|none>, <n> objects wiped); <h> hits, <m> misses`
  std::string activity() const override;

  PutOutcome put(std::string_view key, std::string_view json, CollisionPolicy policy) override;
  // A damaged or unreadable mirror copy (decode, io) and a mirror that cannot be written (io) are
  // only misses. Throws what the cloud's get throws, and the mirror's non-io/decode errors.
  std::optional<std::string> get(std::string_view key) override;
  std::vector<std::string> list(std::string_view prefix) override;
  bool remove(std::string_view key) override;
  void flush() override;
  std::string describe() const override;

  static constexpr std::string_view kGenesisEpoch = "genesis";

 private:
  std::shared_ptr<ObjectStore> cloud_;
  std::shared_ptr<ObjectStore> mirror_;
  std::string project_;
  std::atomic<std::size_t> hits_{0};
  std::atomic<std::size_t> misses_{0};
  std::atomic<std::size_t> mirror_write_failures_{0};
  std::optional<SyncResult> last_sync_;  // for activity(); set by synchronize()
};

}  // namespace benchhist::storage
