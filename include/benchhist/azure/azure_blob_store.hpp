#pragma once
// The Azure Blob backend (docs/formats.md#azure-backend, #write-semantics, #read-through-cache): an
// ObjectStore over one blob container, authenticated with Entra ID bearer tokens. Bodies are gzip
// at this boundary (docs/formats.md#gzip-body-encoding).
//
// Overwrites of existing keys and deletes arm a pending-invalidation flag; flush() then
// writes the project's cache-epoch marker once, so every machine's read-through cache
// (CachedStore) is invalidated.

#include <atomic>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/azure/blob_client.hpp"
#include "benchhist/azure/credential.hpp"
#include "benchhist/https/retry.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::azure {

struct AzureStoreOptions {
  std::shared_ptr<https::HttpClient> http;  // null = a private pooled client
  SystemClock now;                   // null = system clock (marker epoch, x-ms-date, tokens)
  std::size_t list_page_size = 0;    // 0 = service default
  CredentialOptions credential;      // used only when no credential is passed in
  // A missing container lists as empty for the commands that create it (collect, backfill,
  // import); for the ones that only read it, a mistyped container name must not look like an
  // empty history, so list() throws Error{not_found} naming it.
  bool container_must_exist = false;
};

// `https://<account>.blob.core.windows.net` when `endpoint` is absent; otherwise the
// endpoint without trailing '/'.
// Throws Error{config} (subject = endpoint) when the endpoint is not a valid https URL without a
// query: `invalid Azure endpoint "<e>"` or `Azure Entra ID authentication requires an https endpoint`.
std::string effective_account_url(std::string_view account, const std::optional<std::string>& endpoint);

class AzureBlobStore final : public storage::ObjectStore {
 public:
  // `credential` null = make_default_credential(env, options.credential). `env` is only read
  // during construction. No request is sent here.
  // Throws Error{config} for a bad endpoint (see effective_account_url).
  AzureBlobStore(std::string account, std::string container, std::optional<std::string> endpoint,
                 std::string project_id, std::shared_ptr<TokenCredential> credential,
                 const probe::Environment& env, https::RetryPolicy retry = {}, AzureStoreOptions options = {});

  // put/get/list/remove throw Error{auth} for HTTP 401/403 or no token, Error{network} for other
  // failures (after retries), with subject = key; put also Error{already_exists} (refuse, key
  // taken), get Error{decode} (not gzip); Error{invalid_key} for a bad key; Error{config} when TLS
  // verification fails.
  storage::PutOutcome put(std::string_view key, std::string_view json, storage::CollisionPolicy policy) override;
  std::optional<std::string> get(std::string_view key) override;
  std::vector<std::string> list(std::string_view prefix) override;
  // Lists the project's cache-invalidation marker: at most one name, any failure of list().
  void check_access() override;
  bool remove(std::string_view key) override;
  // Writes the cache-epoch marker once when an overwrite or delete armed the flag; a
  // failure re-arms it.
  // Throws Error{network, auth} `could not write Azure cache-invalidation marker "<key>"`
  // (subject = marker key).
  void flush() override;
  std::string describe() const override;

  bool invalidation_pending() const noexcept { return pending_invalidation_.load(); }
  const std::string& marker_key() const noexcept { return marker_key_; }
  const std::string& account() const noexcept { return account_; }
  const std::string& container() const noexcept { return container_; }
  BlobClient& client() noexcept { return *client_; }

 private:
  std::string account_;
  std::string container_;
  std::string account_url_;
  std::string marker_key_;
  SystemClock now_;
  std::unique_ptr<BlobClient> client_;
  std::atomic<bool> pending_invalidation_{false};
  bool container_must_exist_ = false;
};

}  // namespace benchhist::azure
