// CachedStore (docs/formats.md#read-through-cache): an on-disk read-through mirror in front of a
// cloud store.

#include "benchhist/storage/cached_store.hpp"

#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"

namespace benchhist::storage {

CachedStore::CachedStore(std::shared_ptr<ObjectStore> cloud, std::shared_ptr<ObjectStore> mirror,
                         std::string project_id)
    : cloud_(std::move(cloud)), mirror_(std::move(mirror)), project_(std::move(project_id)) {
  if (!cloud_ || !mirror_) throw Error(ErrorKind::internal, "CachedStore needs a cloud store and a mirror");
}

CachedStore::CachedStore(std::shared_ptr<ObjectStore> cloud, const std::filesystem::path& cache_dir,
                         std::string_view account, std::string_view container, std::string project_id)
    : CachedStore(std::move(cloud), std::make_shared<LocalStore>(mirror_root(cache_dir, account, container)),
                  std::move(project_id)) {}

std::filesystem::path CachedStore::mirror_root(const std::filesystem::path& cache_dir, std::string_view account,
                                               std::string_view container) {
  return cache_dir / codec::sanitize_segment(account) / codec::sanitize_segment(container);
}

CachedStore::SyncResult CachedStore::synchronize() {
  const std::string marker = codec::cache_epoch_key(project_);
  SyncResult result;
  result.cloud_epoch = cloud_->get(marker).value_or(std::string(kGenesisEpoch));
  result.mirror_epoch = mirror_->get(marker);
  if (result.mirror_epoch == result.cloud_epoch) return *(last_sync_ = result);
  // Something was overwritten or deleted since this mirror was filled (or it is new): drop
  // this project's objects only, then remember the epoch they are now consistent with.
  for (const auto& key : mirror_->list(codec::project_data_prefix(project_))) {
    if (mirror_->remove(key)) ++result.removed;
  }
  result.wiped = true;
  mirror_->put(marker, result.cloud_epoch, CollisionPolicy::overwrite);
  return *(last_sync_ = result);
}

std::string CachedStore::activity() const {
  std::string out = "read-through cache: ";
  if (last_sync_)
    out += "epoch " + last_sync_->cloud_epoch + " (mirror " + last_sync_->mirror_epoch.value_or("none") + ", " +
           std::to_string(last_sync_->removed) + " objects wiped); ";
  const auto t = tally();
  out += std::to_string(t.hits) + " hits, " + std::to_string(t.misses) + " misses";
  if (t.mirror_write_failures > 0)
    out += " (" + std::to_string(t.mirror_write_failures) + " not mirrored: the cache directory could not be written)";
  return out;
}

PutOutcome CachedStore::put(std::string_view key, std::string_view json, CollisionPolicy policy) {
  return cloud_->put(key, json, policy);
}

std::optional<std::string> CachedStore::get(std::string_view key) {
  try {
    if (auto hit = mirror_->get(key)) {
      ++hits_;  // objects are immutable per key: a mirrored body is trusted forever
      return hit;
    }
  } catch (const Error& e) {
    // A damaged mirror file (e.g. truncated by a full disk) or an unreadable cache directory
    // is only a cache miss: the cloud copy is authoritative and rewriting the mirror below
    // repairs it.
    if (e.kind() != ErrorKind::decode && e.kind() != ErrorKind::io) throw;
  }
  auto body = cloud_->get(key);
  ++misses_;
  if (body) {
    try {
      mirror_->put(key, *body, CollisionPolicy::overwrite);
    } catch (const Error& e) {
      // A mirror that cannot be written (full or read-only cache disk) only costs the next
      // command a miss: the body from the cloud is authoritative and is returned regardless.
      if (e.kind() != ErrorKind::io) throw;
      ++mirror_write_failures_;
    }
  }
  return body;
}

std::vector<std::string> CachedStore::list(std::string_view prefix) { return cloud_->list(prefix); }

bool CachedStore::remove(std::string_view key) {
  bool removed = cloud_->remove(key);
  mirror_->remove(key);  // keep this machine's mirror honest right away
  return removed;
}

void CachedStore::flush() { cloud_->flush(); }

std::string CachedStore::describe() const {
  return cloud_->describe() + " (read-through cache at " + mirror_->describe() + ")";
}

}  // namespace benchhist::storage
