// AzureBlobStore: ObjectStore semantics (docs/formats.md#azure-backend, #write-semantics) over
// BlobClient, with the exact messages of docs/formats.md#error-messages, each naming the key.

#include "benchhist/azure/azure_blob_store.hpp"

#include <algorithm>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::azure {

namespace {

constexpr const char* kPermissionHint =
    "grant the identity the \"Storage Blob Data Contributor\" role on the storage account or container";

ErrorKind kind_of(const BlobReply& r) {
  return r.status == 401 || r.status == 403 ? ErrorKind::auth : ErrorKind::network;
}

std::string hint_of(const BlobReply& r) {
  return r.status == 401 || r.status == 403 ? access_hint(r) : "check the storage account and container settings";
}

// Re-raise a lower-level failure under the operation's message, keeping its detail. A failure
// without a hint of its own (a listing answered 404 ResourceNotFound for a wrong account path)
// points at the settings that address the service.
[[noreturn]] void rethrow_as(const Error& e, const std::string& message, std::string_view key) {
  std::string cause = e.message();
  if (!e.cause().empty()) cause += ": " + e.cause();
  std::string hint = e.hint();
  if (hint.empty())
    hint = e.kind() == ErrorKind::auth ? kPermissionHint
                                       : "check `account`, `container` and `endpoint` in [storage.azure] of the "
                                         "configuration file";
  throw Error(e.kind(), message, std::string(key), cause, hint);
}

[[noreturn]] void fail(const BlobReply& r, const std::string& message, std::string_view key) {
  throw Error(kind_of(r), message, std::string(key), r.describe(), hint_of(r));
}

// A put into a missing container tried to create it; that failure is its own
// docs/formats.md#error-messages message, not the put's.
void check_container(const BlobReply& r, const std::string& container) {
  if (!r.container_creation_failed) return;
  throw Error(r.status == 401 || r.status == 403 ? ErrorKind::auth : ErrorKind::network,
              "could not create Azure blob container", container, r.describe(),
              "check that the identity may create containers, or create \"" + container + "\" yourself");
}

bool reports_existing(const BlobReply& r) {
  // 409 BlobAlreadyExists is what Azure and Azurite send; 412 is the generic failed-precondition
  // answer some endpoints give to If-None-Match: * on an existing blob.
  return (r.status == 409 && r.error_code == "BlobAlreadyExists") || r.status == 412;
}

}  // namespace

std::string effective_account_url(std::string_view account, const std::optional<std::string>& endpoint) {
  if (!endpoint) return "https://" + std::string(account) + ".blob.core.windows.net";
  std::string e = *endpoint;
  while (!e.empty() && e.back() == '/') e.pop_back();
  https::Url url;
  try {
    url = https::Url::parse(e);
  } catch (const Error& err) {
    throw Error(ErrorKind::config, "invalid Azure endpoint \"" + *endpoint + "\"", *endpoint, err.cause(),
                "set [storage.azure] endpoint to the full account URL, e.g. https://<account>.blob.core.windows.net");
  }
  if (url.scheme != "https")
    throw Error(ErrorKind::config, "Azure Entra ID authentication requires an https endpoint", *endpoint,
                "[storage.azure] endpoint is \"" + *endpoint + "\"",
                "set [storage.azure] endpoint to an https:// URL (Azurite too: start it with --cert and --key)");
  if (e.find('?') != std::string::npos)
    throw Error(ErrorKind::config, "invalid Azure endpoint \"" + *endpoint + "\"", *endpoint,
                "the endpoint must not carry a query string (no SAS tokens: Entra ID only)");
  return e;
}

AzureBlobStore::AzureBlobStore(std::string account, std::string container, std::optional<std::string> endpoint,
                               std::string project_id, std::shared_ptr<TokenCredential> credential,
                               const probe::Environment& env, https::RetryPolicy retry, AzureStoreOptions options)
    : account_(std::move(account)),
      container_(std::move(container)),
      account_url_(effective_account_url(account_, endpoint)),
      marker_key_(codec::cache_epoch_key(project_id)),
      now_(options.now),
      container_must_exist_(options.container_must_exist) {
  if (!credential) {
    CredentialOptions co = options.credential;
    if (!co.http) co.http = options.http;
    if (!co.now) co.now = options.now;
    credential = make_default_credential(env, co);
  }
  auto http = options.http ? options.http : https::make_http_client();
  auto tokens = std::make_shared<TokenCache>(std::move(credential), options.now);
  BlobClientOptions bo;
  bo.list_page_size = options.list_page_size;
  bo.now = options.now;
  client_ = std::make_unique<BlobClient>(account_url_, container_, std::move(tokens), std::move(http),
                                         std::move(retry), bo);
}

storage::PutOutcome AzureBlobStore::put(std::string_view key, std::string_view json, storage::CollisionPolicy policy) {
  codec::validate_key(key);
  const std::string body = codec::gzip_compress(json);
  const std::string create_msg = "could not conditionally create Azure blob \"" + std::string(key) + "\"";
  BlobReply created;
  try {
    created = client_->put_block_blob(key, body, /*if_none_match=*/true);
  } catch (const Error& e) {
    rethrow_as(e, create_msg, key);
  }
  check_container(created, container_);
  if (created.ok()) return storage::PutOutcome::stored;
  if (!reports_existing(created)) fail(created, create_msg, key);

  if (created.maybe_applied_before) {
    // An earlier try may have created the blob and lost its answer: if what is stored is
    // byte-identical to our body it is our own write, so nothing is written twice and no
    // spurious collision is reported.
    try {
      auto existing = client_->get_blob(key);
      if (existing.ok() && existing.body == body) return storage::PutOutcome::stored;
    } catch (const Error&) {
      // Fall through to the policy: the collision is real as far as we can tell.
    }
  }
  switch (policy) {
    case storage::CollisionPolicy::refuse:
      throw Error(ErrorKind::already_exists, "object already exists: " + std::string(key), std::string(key), "",
                  "pass --overwrite to replace it or --skip-existing to keep it");
    case storage::CollisionPolicy::skip_existing:
      return storage::PutOutcome::skipped_existing;
    case storage::CollisionPolicy::overwrite:
      break;
  }
  const std::string overwrite_msg = "could not overwrite Azure blob \"" + std::string(key) + "\"";
  BlobReply replaced;
  try {
    replaced = client_->put_block_blob(key, body, /*if_none_match=*/false);
  } catch (const Error& e) {
    // The upload may have happened before the failure: invalidate caches to be safe.
    pending_invalidation_ = true;
    rethrow_as(e, overwrite_msg, key);
  }
  check_container(replaced, container_);
  if (!replaced.ok()) fail(replaced, overwrite_msg, key);
  pending_invalidation_ = true;  // docs/formats.md#azure-backend: an overwrite of an existing key
  return storage::PutOutcome::replaced;
}

std::optional<std::string> AzureBlobStore::get(std::string_view key) {
  codec::validate_key(key);
  const std::string msg = "could not download Azure blob \"" + std::string(key) + "\"";
  BlobReply r;
  try {
    r = client_->get_blob(key);
  } catch (const Error& e) {
    rethrow_as(e, msg, key);
  }
  if (r.status == 404) return std::nullopt;  // BlobNotFound or ContainerNotFound
  if (!r.ok()) fail(r, msg, key);
  try {
    return codec::gunzip(r.body);
  } catch (const Error& e) {
    throw Error(ErrorKind::decode, "could not decompress Azure blob \"" + std::string(key) + "\"", std::string(key),
                e.message(), "the blob was not written by this tool; remove or rewrite it");
  }
}

std::vector<std::string> AzureBlobStore::list(std::string_view prefix) {
  std::optional<std::vector<std::string>> listed;
  try {
    listed = client_->list_blobs(prefix);
  } catch (const Error& e) {
    rethrow_as(e, "could not list Azure blobs with prefix \"" + std::string(prefix) + "\"", prefix);
  }
  if (!listed && container_must_exist_)
    throw Error(ErrorKind::not_found,
                "the Azure container \"" + container_ + "\" does not exist at " + account_url_, container_, {},
                "check `container` (and `account` or `endpoint`) in the [storage.azure] table of the configuration "
                "file; a new container is created by `collect`, `backfill` or `import`");
  std::vector<std::string> names = listed ? std::move(*listed) : std::vector<std::string>{};
  std::erase_if(names, [&](const std::string& n) { return !n.starts_with(prefix); });
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void AzureBlobStore::check_access() { list(marker_key_); }

bool AzureBlobStore::remove(std::string_view key) {
  codec::validate_key(key);
  const std::string msg = "could not delete Azure blob \"" + std::string(key) + "\"";
  BlobReply r;
  try {
    r = client_->delete_blob(key);
  } catch (const Error& e) {
    pending_invalidation_ = true;  // the delete may have happened
    rethrow_as(e, msg, key);
  }
  if (r.status == 404) {
    // A lost answer to an earlier try that did delete still changed the store.
    if (r.maybe_applied_before) {
      pending_invalidation_ = true;
      return true;
    }
    return false;
  }
  if (!r.ok()) fail(r, msg, key);
  pending_invalidation_ = true;
  return true;
}

void AzureBlobStore::flush() {
  if (!pending_invalidation_.exchange(false)) return;
  const std::string msg = "could not write Azure cache-invalidation marker \"" + marker_key_ + "\"";
  auto now = now_ ? now_() : std::chrono::system_clock::now();
  const std::string body = codec::gzip_compress(format_rfc3339(std::chrono::time_point_cast<std::chrono::nanoseconds>(now)));
  BlobReply r;
  try {
    r = client_->put_block_blob(marker_key_, body, /*if_none_match=*/false);
  } catch (const Error& e) {
    pending_invalidation_ = true;
    rethrow_as(e, msg, marker_key_);
  }
  if (!r.ok()) {
    pending_invalidation_ = true;
    check_container(r, container_);
    fail(r, msg, marker_key_);
  }
}

std::string AzureBlobStore::describe() const {
  return "Azure blob container \"" + container_ + "\" at " + account_url_;
}

}  // namespace benchhist::azure
