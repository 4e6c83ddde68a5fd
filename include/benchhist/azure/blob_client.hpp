#pragma once
// The Azure Blob REST operations the backend needs (docs/formats.md#azure-backend), with
// bearer-token authentication, a pinned x-ms-version, retries of transient failures and container
// auto-creation. Interpretation of statuses into store semantics is AzureBlobStore's job;
// this layer returns what the service said after the retry budget.

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/azure/credential.hpp"
#include "benchhist/https/client.hpp"
#include "benchhist/https/retry.hpp"

namespace benchhist::azure {

inline constexpr std::string_view kBlobApiVersion = "2021-12-02";

// What the service finally answered to one logical operation.
struct BlobReply {
  int status = 0;
  std::string error_code;  // x-ms-error-code (or the XML <Code>), empty on success
  std::string error_detail;  // the body's <AuthenticationErrorDetail>, when the service gave one
  std::string body;
  https::HeaderList headers;      // of the final answer
  int attempts = 0;        // HTTP tries made, including the first
  // True when an earlier try of this operation may have reached the service (it was sent
  // but no answer came back, or a 5xx came back): the final answer may reflect our own
  // earlier try, e.g. BlobAlreadyExists after our first PUT was applied but its reply lost.
  bool maybe_applied_before = false;
  // True when a put found no container and creating it failed; `status` and `error_code`
  // are then the creation's answer (the store reports it as its own error).
  bool container_creation_failed = false;

  bool ok() const noexcept { return status >= 200 && status < 300; }
  // "HTTP 409 BlobAlreadyExists" style detail for error causes, with the authentication detail
  // after a colon when there is one.
  std::string describe() const;
};

// What to do about a 401/403 answer: a token the service did not accept (AuthenticationFailed,
// InvalidAuthenticationInfo, NoAuthenticationInformation: expired, for another audience or
// tenant) needs another token; any other refusal (AuthorizationPermissionMismatch, …) a role.
std::string access_hint(const BlobReply& reply);

struct BlobClientOptions {
  std::size_t list_page_size = 0;  // maxresults per list page; 0 = service default (5000)
  SystemClock now;                 // for x-ms-date and Retry-After dates; null = system clock
};

// Thread-safe.
class BlobClient {
 public:
  // `account_url` is the full account endpoint (https://<account>.blob.core.windows.net, or
  // https://127.0.0.1:<port>/devstoreaccount1 for Azurite's path style).
  BlobClient(std::string account_url, std::string container, std::shared_ptr<TokenCache> tokens,
             std::shared_ptr<https::HttpClient> http, https::RetryPolicy retry, BlobClientOptions options = {});

  // account_url/container/<url-encoded segments joined by '/'>.
  std::string blob_url(std::string_view key) const;
  const std::string& container_url() const noexcept { return container_url_; }

  // PUT Block Blob with Content-Encoding: gzip (`gzip_body` is uploaded as is). With
  // `if_none_match` the request carries If-None-Match: * (conditional create). On
  // ContainerNotFound the container is created and the upload retried once.
  // put_block_blob, get_blob, delete_blob and create_container throw what execute() throws.
  BlobReply put_block_blob(std::string_view key, std::string_view gzip_body, bool if_none_match);
  // GET; the body is returned exactly as stored (never decompressed).
  BlobReply get_blob(std::string_view key);
  BlobReply delete_blob(std::string_view key);
  // Every blob name starting with `prefix`, following NextMarker through all pages.
  // Throws Error{auth} for 401/403, Error{network} for another failed status or a malformed page,
  // with the service detail; and what execute() throws.
  // nullopt when the container does not exist (the store decides what that means).
  std::optional<std::vector<std::string>> list_blobs(std::string_view prefix);
  // PUT container; ContainerAlreadyExists counts as success.
  BlobReply create_container();

  // Runs one request with authentication and the retry policy. Non-transient statuses are
  // returned.
  // Throws Error{network} when the budget is exhausted on transient failures ("... after N
  // attempts"), Error{auth} when no token can be obtained, Error{config} when TLS verification fails.
  BlobReply execute(const std::string& method, const std::string& url, https::HeaderList headers,
                    std::string_view body);

  TokenCache& tokens() noexcept { return *tokens_; }

 private:
  std::string account_url_;
  std::string container_;
  std::string container_url_;
  std::shared_ptr<TokenCache> tokens_;
  std::shared_ptr<https::HttpClient> http_;
  https::RetryPolicy retry_;
  BlobClientOptions options_;
};

}  // namespace benchhist::azure
