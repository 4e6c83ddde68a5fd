#pragma once
// Microsoft Entra ID credentials for Azure Storage (docs/formats.md#azure-backend). No static
// secrets: tokens come from GitHub OIDC federation, workload identity, a managed identity or an
// existing Azure CLI login (chain order: docs/azure.md). No token, assertion or request
// token ever appears in an error message.

#include <chrono>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/https/client.hpp"
#include "benchhist/https/retry.hpp"
#include "benchhist/probe/environment.hpp"

namespace benchhist::azure {

using SystemClock = std::function<std::chrono::system_clock::time_point()>;

inline constexpr std::string_view kStorageScope = "https://storage.azure.com/.default";
inline constexpr std::string_view kStorageResource = "https://storage.azure.com/";

struct AccessToken {
  std::string token;
  std::chrono::system_clock::time_point expires_on;
};

// One way of obtaining a token. acquire() always contacts its source (no caching: see
// TokenCache).
// acquire() throws Error{auth} when the source rejects or is not configured, Error{network} when
// it cannot be reached (after retries); the subject is the endpoint without its query.
class TokenCredential {
 public:
  virtual ~TokenCredential() = default;
  virtual AccessToken acquire(std::string_view scope) = 0;
  // Short human name for messages, e.g. "GitHub OIDC federation".
  virtual std::string name() const = 0;
};

struct CredentialOptions {
  std::shared_ptr<https::HttpClient> http;  // null = a private client
  SystemClock now;                   // null = system_clock::now
  https::RetryPolicy retry = https::RetryPolicy::token_default();
  // Managed identity endpoint when IDENTITY_ENDPOINT is not set.
  std::string imds_endpoint = "http://169.254.169.254/metadata/identity/oauth2/token";
  // How long the IMDS probe may take to connect before the chain moves on.
  std::chrono::milliseconds imds_connect_timeout{1000};
  bool try_managed_identity = true;
  bool try_azure_cli = true;
  std::string az_program = "az";  // looked up on PATH
};

// GitHub Actions OIDC federation: needs ACTIONS_ID_TOKEN_REQUEST_URL, ACTIONS_ID_TOKEN_REQUEST_TOKEN,
// AZURE_CLIENT_ID and AZURE_TENANT_ID (AZURE_AUTHORITY_HOST optional). Each acquisition fetches
// a fresh GitHub ID token (audience api://AzureADTokenExchange) and exchanges it as a client
// assertion at <authority>/<tenant>/oauth2/v2.0/token. Null when the variables are incomplete.
std::shared_ptr<TokenCredential> make_github_oidc_credential(const probe::Environment& env,
                                                             const CredentialOptions& options);

// Workload identity: AZURE_FEDERATED_TOKEN_FILE + AZURE_CLIENT_ID + AZURE_TENANT_ID; the file
// is re-read on every acquisition (it is rotated). Null when the variables are incomplete.
std::shared_ptr<TokenCredential> make_workload_identity_credential(const probe::Environment& env,
                                                                   const CredentialOptions& options);

// Managed identity: IDENTITY_ENDPOINT + IDENTITY_HEADER (App Service style) when set, else
// IMDS (options.imds_endpoint). AZURE_CLIENT_ID selects a user-assigned identity.
std::shared_ptr<TokenCredential> make_managed_identity_credential(const probe::Environment& env,
                                                                  const CredentialOptions& options);

// `az account get-access-token --resource https://storage.azure.com/ -o json`.
std::shared_ptr<TokenCredential> make_azure_cli_credential(const probe::Environment& env,
                                                           const CredentialOptions& options);

// The chain of docs/azure.md: GitHub OIDC when fully configured (exclusively: its failure is
// final, docs/formats.md#azure-backend), else workload identity when configured (exclusively), else
// the developer chain managed identity -> Azure CLI, where a source that is unavailable passes
// to the next and the first one that works is remembered. Never throws itself: the chain is tried
// on the first acquire(), which throws Error{auth} "could not initialize Entra ID credential"
// (cause = each attempt) when nothing is usable.
std::shared_ptr<TokenCredential> make_default_credential(const probe::Environment& env,
                                                         const CredentialOptions& options = {});

// Caches one token per scope until `refresh_margin` before its expiry (default 5 minutes).
// Acquisition is serialized by a mutex, so a burst of parallel callers triggers one
// acquisition; a token that reached the margin mid-command is renewed transparently.
class TokenCache {
 public:
  // Throws Error{internal} when credential is null.
  explicit TokenCache(std::shared_ptr<TokenCredential> credential, SystemClock now = {},
                      std::chrono::seconds refresh_margin = std::chrono::minutes(5));
  // The bearer token for `scope`.
  // Throws what the credential's acquire() throws (Error{auth, network}) when it must renew.
  std::string token(std::string_view scope);
  // Forget cached tokens (e.g. after the service rejected one).
  void invalidate();
  // How many times the credential was asked (for tests and verbose notes).
  std::size_t acquisitions() const;
  const TokenCredential& credential() const noexcept { return *credential_; }

 private:
  struct Entry {
    std::string scope;
    AccessToken token;
  };
  std::shared_ptr<TokenCredential> credential_;
  SystemClock now_;
  std::chrono::seconds margin_;
  mutable std::mutex mutex_;
  std::vector<Entry> entries_;
  std::size_t acquisitions_ = 0;
};

}  // namespace benchhist::azure
