// Entra ID credentials (docs/formats.md#azure-backend). Secrets (ID tokens, assertions, access
// tokens, the GitHub request token) are only ever placed in request headers/bodies, never in
// messages.

#include "benchhist/azure/credential.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <ctime>
#include <fstream>
#include <random>
#include <sstream>

#include "benchhist/azure/responses.hpp"
#include "benchhist/error.hpp"
#include "benchhist/probe/process.hpp"

namespace benchhist::azure {

namespace json = boost::json;
using std::chrono::system_clock;

namespace {

system_clock::time_point now_of(const SystemClock& clock) { return clock ? clock() : system_clock::now(); }

std::shared_ptr<https::HttpClient> http_of(const CredentialOptions& o) {
  return o.http ? o.http : https::make_http_client();
}

std::string strip_query(const std::string& url) { return url.substr(0, url.find('?')); }

std::string authority_host(const probe::Environment& env) {
  std::string host = env.non_empty("AZURE_AUTHORITY_HOST").value_or("https://login.microsoftonline.com");
  while (!host.empty() && host.back() == '/') host.pop_back();
  return host;
}

std::string rejection_detail(const https::HttpResponse& r) { return token_rejection_detail(r.status, r.body); }

// One token-endpoint request with the token retry policy (docs/azure.md#retries): transient
// failures are retried with bounded backoff, rejections are final, exhaustion is a failure.
https::HttpResponse token_request(https::HttpClient& http, const CredentialOptions& o, const https::HttpRequest& req,
                           const std::string& what) {
  std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const int attempts = std::max(1, o.retry.max_attempts);
  std::string last;
  for (int attempt = 1;; ++attempt) {
    std::optional<std::chrono::milliseconds> retry_after;
    try {
      https::HttpResponse r = http.send(req);
      if (r.status >= 200 && r.status < 300) return r;
      if (!https::is_transient_status(r.status))
        throw Error(ErrorKind::auth, what + " was rejected", strip_query(req.url), rejection_detail(r),
                    "check that the identity exists and is allowed to access the storage account");
      last = rejection_detail(r);
      if (auto ra = r.header("Retry-After")) retry_after = https::parse_retry_after(*ra, now_of(o.now));
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::network) throw;
      last = e.what();
    }
    if (attempt >= attempts)
      throw Error(ErrorKind::network, what + " failed after " + std::to_string(attempt) + " attempts",
                  strip_query(req.url), last, "the token service may be unavailable; try again later");
    o.retry.wait(o.retry.delay_after(attempt, retry_after, unit(rng)));
  }
}

// `hint` is the answering source's own: what to check differs between GitHub and the Azure CLI.
json::object parse_object(const std::string& body, const std::string& what, const std::string& subject,
                          std::string_view hint) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object())
    throw Error(ErrorKind::auth, what + " returned a response that is not a JSON object", subject, {}, std::string(hint));
  return v.as_object();
}

constexpr std::string_view github_oidc_hint = "make sure the workflow has `permissions: id-token: write`";
constexpr std::string_view azure_cli_hint =
    "run `az account get-access-token --resource https://storage.azure.com/` to see what it answers; `az login` "
    "again if it fails";

// The Azure CLI's `expires_on` (Unix seconds, number or numeric string) when plausible
// (1970..2255): anything else is "unknown", and out-of-range values would overflow the clock.
std::optional<long long> number_field(const json::object& o, std::string_view name) {
  constexpr long long max_seconds = 9'000'000'000LL;  // 2255-03-14: the ns clock ends in 2262
  auto* v = o.if_contains(name);
  if (!v) return std::nullopt;
  std::optional<long long> n;
  if (v->is_int64()) n = v->as_int64();
  else if (v->is_uint64() && v->as_uint64() <= static_cast<std::uint64_t>(max_seconds)) n = static_cast<long long>(v->as_uint64());
  else if (v->is_double() && v->as_double() >= 0 && v->as_double() <= static_cast<double>(max_seconds))
    n = static_cast<long long>(v->as_double());
  else if (v->is_string()) {
    const auto s = v->as_string();
    long long parsed = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
    if (!s.empty() && ec == std::errc{} && end == s.data() + s.size()) n = parsed;
  }
  if (n && (*n < 0 || *n > max_seconds)) return std::nullopt;
  return n;
}

std::string form_encode(std::initializer_list<std::pair<std::string_view, std::string_view>> fields) {
  std::string out;
  for (const auto& [k, v] : fields) {
    if (!out.empty()) out += '&';
    out += https::url_encode(k);
    out += '=';
    out += https::url_encode(v);
  }
  return out;
}

// Exchanges a federated assertion for an access token at <authority>/<tenant>/oauth2/v2.0/token.
AccessToken exchange_assertion(https::HttpClient& http, const CredentialOptions& o, const std::string& authority,
                               const std::string& tenant, const std::string& client_id,
                               const std::string& assertion, std::string_view scope) {
  https::HttpRequest req;
  req.method = "POST";
  req.url = authority + "/" + https::url_encode(tenant) + "/oauth2/v2.0/token";
  req.headers = {{"Content-Type", "application/x-www-form-urlencoded"}, {"Accept", "application/json"}};
  req.body = form_encode({{"client_id", client_id},
                          {"scope", scope},
                          {"grant_type", "client_credentials"},
                          {"client_assertion_type", "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"},
                          {"client_assertion", assertion}});
  auto r = token_request(http, o, req, "the Entra ID token exchange");
  return parse_token_response(r.body, now_of(o.now), "the Entra ID token exchange", strip_query(req.url));
}

class GitHubOidcCredential final : public TokenCredential {
 public:
  GitHubOidcCredential(const probe::Environment& env, CredentialOptions o)
      : o_(std::move(o)),
        http_(http_of(o_)),
        request_url_(*env.non_empty("ACTIONS_ID_TOKEN_REQUEST_URL")),
        request_token_(*env.non_empty("ACTIONS_ID_TOKEN_REQUEST_TOKEN")),
        client_id_(*env.non_empty("AZURE_CLIENT_ID")),
        tenant_(*env.non_empty("AZURE_TENANT_ID")),
        authority_(authority_host(env)) {}

  AccessToken acquire(std::string_view scope) override {
    // A fresh GitHub ID token per acquisition: they are short-lived
    // (docs/formats.md#azure-backend).
    https::HttpRequest req;
    req.url = request_url_ + (request_url_.find('?') == std::string::npos ? "?" : "&") +
              "audience=" + https::url_encode("api://AzureADTokenExchange");
    req.headers = {{"Authorization", "Bearer " + request_token_}, {"Accept", "application/json"}};
    auto r = token_request(*http_, o_, req, "the GitHub OIDC token request");
    auto obj = parse_object(r.body, "the GitHub OIDC token request", strip_query(req.url), github_oidc_hint);
    auto* v = obj.if_contains("value");
    if (!v || !v->is_string() || v->as_string().empty())
      throw Error(ErrorKind::auth, "the GitHub OIDC token request returned no token", strip_query(req.url), "",
                  std::string(github_oidc_hint));
    return exchange_assertion(*http_, o_, authority_, tenant_, client_id_, std::string(v->as_string()), scope);
  }
  std::string name() const override { return "GitHub OIDC federation"; }

 private:
  CredentialOptions o_;
  std::shared_ptr<https::HttpClient> http_;
  std::string request_url_, request_token_, client_id_, tenant_, authority_;
};

class WorkloadIdentityCredential final : public TokenCredential {
 public:
  WorkloadIdentityCredential(const probe::Environment& env, CredentialOptions o)
      : o_(std::move(o)),
        http_(http_of(o_)),
        token_file_(*env.non_empty("AZURE_FEDERATED_TOKEN_FILE")),
        client_id_(*env.non_empty("AZURE_CLIENT_ID")),
        tenant_(*env.non_empty("AZURE_TENANT_ID")),
        authority_(authority_host(env)) {}

  AccessToken acquire(std::string_view scope) override {
    std::ifstream in(token_file_, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    std::string assertion = ss.str();
    while (!assertion.empty() && (assertion.back() == '\n' || assertion.back() == '\r' || assertion.back() == ' '))
      assertion.pop_back();
    if (!in || assertion.empty())
      throw Error(ErrorKind::auth, "could not read the federated token file at " + token_file_, token_file_, "",
                  "check AZURE_FEDERATED_TOKEN_FILE");
    return exchange_assertion(*http_, o_, authority_, tenant_, client_id_, assertion, scope);
  }
  std::string name() const override { return "workload identity"; }

 private:
  CredentialOptions o_;
  std::shared_ptr<https::HttpClient> http_;
  std::string token_file_, client_id_, tenant_, authority_;
};

std::string resource_of(std::string_view scope) {
  // "https://storage.azure.com/.default" -> "https://storage.azure.com/"
  std::string s(scope);
  if (s.size() > 8 && s.ends_with("/.default")) s.resize(s.size() - 8);
  return s;
}

class ManagedIdentityCredential final : public TokenCredential {
 public:
  ManagedIdentityCredential(const probe::Environment& env, CredentialOptions o) : o_(std::move(o)) {
    client_id_ = env.non_empty("AZURE_CLIENT_ID").value_or("");
    if (auto ep = env.non_empty("IDENTITY_ENDPOINT")) {
      endpoint_ = *ep;
      header_ = env.non_empty("IDENTITY_HEADER").value_or("");
      app_service_ = true;
      http_ = http_of(o_);
    } else {
      endpoint_ = o_.imds_endpoint;
      // IMDS is absent off Azure: a short connect timeout keeps the chain snappy there.
      https::HttpClientOptions ho;
      ho.connect_timeout = o_.imds_connect_timeout;
      ho.request_timeout = std::chrono::seconds(30);
      http_ = https::make_http_client(ho);
    }
  }

  AccessToken acquire(std::string_view scope) override {
    https::HttpRequest req;
    std::string query = app_service_ ? "api-version=2019-08-01" : "api-version=2018-02-01";
    query += "&resource=" + https::url_encode(resource_of(scope));
    if (!client_id_.empty()) query += "&client_id=" + https::url_encode(client_id_);
    req.url = endpoint_ + (endpoint_.find('?') == std::string::npos ? "?" : "&") + query;
    if (app_service_) req.headers = {{"X-IDENTITY-HEADER", header_}};
    else req.headers = {{"Metadata", "true"}};
    auto r = token_request(*http_, o_, req, "the managed identity token request");
    return parse_token_response(r.body, now_of(o_.now), "the managed identity token request", strip_query(req.url));
  }
  std::string name() const override { return "managed identity"; }

 private:
  CredentialOptions o_;
  std::shared_ptr<https::HttpClient> http_;
  std::string endpoint_, header_, client_id_;
  bool app_service_ = false;
};

class AzureCliCredential final : public TokenCredential {
 public:
  explicit AzureCliCredential(CredentialOptions o) : o_(std::move(o)) {}

  AccessToken acquire(std::string_view scope) override {
    probe::ProcessSpec spec;
    spec.argv = {o_.az_program, "account", "get-access-token", "--resource", resource_of(scope), "-o", "json"};
    spec.capture_stderr = true;
    probe::ProcessResult r;
    try {
      r = probe::run_process(spec);
    } catch (const Error& e) {
      throw Error(ErrorKind::auth, "the Azure CLI (" + o_.az_program + ") is not installed", o_.az_program,
                  e.cause(), "install the Azure CLI and run `az login`");
    }
    if (!r.success()) {
      std::string first = r.err.substr(0, r.err.find('\n'));
      if (first.size() > 300) first = first.substr(0, 300);
      throw Error(ErrorKind::auth, "the Azure CLI could not provide a token", o_.az_program,
                  first.empty() ? "exit code " + std::to_string(r.exit_code) : first, "run `az login`");
    }
    auto obj = parse_object(r.out, "the Azure CLI", o_.az_program, azure_cli_hint);
    auto* t = obj.if_contains("accessToken");
    if (!t || !t->is_string() || t->as_string().empty())
      throw Error(ErrorKind::auth, "the Azure CLI returned no access token", o_.az_program, {},
                  std::string(azure_cli_hint));
    AccessToken token{std::string(t->as_string()), now_of(o_.now) + std::chrono::minutes(10)};
    if (auto on = number_field(obj, "expires_on")) {
      token.expires_on = system_clock::time_point(std::chrono::seconds(*on));
    } else if (auto* s = obj.if_contains("expiresOn"); s && s->is_string()) {
      // Older CLIs: local time "YYYY-MM-DD HH:MM:SS.ffffff".
      std::tm tm{};
      std::string text(s->as_string());
      if (strptime(text.c_str(), "%Y-%m-%d %H:%M:%S", &tm)) {
        tm.tm_isdst = -1;
        token.expires_on = system_clock::from_time_t(std::mktime(&tm));
      }
    }
    return token;
  }
  std::string name() const override { return "Azure CLI"; }

 private:
  CredentialOptions o_;
};

// Tries sources in order until one works, then sticks to it.
class ChainCredential final : public TokenCredential {
 public:
  explicit ChainCredential(std::vector<std::shared_ptr<TokenCredential>> chain) : chain_(std::move(chain)) {}

  AccessToken acquire(std::string_view scope) override {
    std::lock_guard lock(mutex_);
    if (chosen_) return chosen_->acquire(scope);
    std::string causes;
    for (auto& c : chain_) {
      try {
        AccessToken t = c->acquire(scope);
        chosen_ = c;
        return t;
      } catch (const Error& e) {
        if (!causes.empty()) causes += "; ";
        causes += c->name() + ": " + e.what();
      }
    }
    throw Error(ErrorKind::auth, "could not initialize Entra ID credential", "",
                causes.empty() ? "no credential source is enabled" : causes,
                "in GitHub Actions grant `id-token: write` and set AZURE_CLIENT_ID and AZURE_TENANT_ID; "
                "locally run `az login`");
  }
  std::string name() const override { return chosen_ ? chosen_->name() : "developer credential chain"; }

 private:
  std::vector<std::shared_ptr<TokenCredential>> chain_;
  std::mutex mutex_;
  std::shared_ptr<TokenCredential> chosen_;
};

}  // namespace

std::shared_ptr<TokenCredential> make_github_oidc_credential(const probe::Environment& env, const CredentialOptions& o) {
  for (auto var : {"ACTIONS_ID_TOKEN_REQUEST_URL", "ACTIONS_ID_TOKEN_REQUEST_TOKEN", "AZURE_CLIENT_ID", "AZURE_TENANT_ID"})
    if (!env.non_empty(var)) return nullptr;
  return std::make_shared<GitHubOidcCredential>(env, o);
}

std::shared_ptr<TokenCredential> make_workload_identity_credential(const probe::Environment& env, const CredentialOptions& o) {
  for (auto var : {"AZURE_FEDERATED_TOKEN_FILE", "AZURE_CLIENT_ID", "AZURE_TENANT_ID"})
    if (!env.non_empty(var)) return nullptr;
  return std::make_shared<WorkloadIdentityCredential>(env, o);
}

std::shared_ptr<TokenCredential> make_managed_identity_credential(const probe::Environment& env, const CredentialOptions& o) {
  return std::make_shared<ManagedIdentityCredential>(env, o);
}

std::shared_ptr<TokenCredential> make_azure_cli_credential(const probe::Environment&, const CredentialOptions& o) {
  return std::make_shared<AzureCliCredential>(o);
}

std::shared_ptr<TokenCredential> make_default_credential(const probe::Environment& env, const CredentialOptions& o) {
  // GitHub OIDC, when fully configured, is exclusive: its failure must not silently fall back
  // to another identity (docs/formats.md#azure-backend).
  if (auto c = make_github_oidc_credential(env, o)) return c;
  if (auto c = make_workload_identity_credential(env, o)) return c;
  std::vector<std::shared_ptr<TokenCredential>> chain;
  if (o.try_managed_identity) chain.push_back(make_managed_identity_credential(env, o));
  if (o.try_azure_cli) chain.push_back(make_azure_cli_credential(env, o));
  return std::make_shared<ChainCredential>(std::move(chain));
}

TokenCache::TokenCache(std::shared_ptr<TokenCredential> credential, SystemClock now, std::chrono::seconds refresh_margin)
    : credential_(std::move(credential)), now_(std::move(now)), margin_(refresh_margin) {
  if (!credential_) throw Error(ErrorKind::internal, "TokenCache needs a credential");
}

std::string TokenCache::token(std::string_view scope) {
  // Holding the lock across the acquisition is the point: parallel callers wait for the one
  // acquisition instead of each starting their own.
  std::lock_guard lock(mutex_);
  auto now = now_of(now_);
  for (auto& e : entries_) {
    if (e.scope != scope) continue;
    if (now + margin_ < e.token.expires_on) return e.token.token;
    e.token = credential_->acquire(scope);
    ++acquisitions_;
    return e.token.token;
  }
  entries_.push_back({std::string(scope), credential_->acquire(scope)});
  ++acquisitions_;
  return entries_.back().token.token;
}

void TokenCache::invalidate() {
  std::lock_guard lock(mutex_);
  entries_.clear();
}

std::size_t TokenCache::acquisitions() const {
  std::lock_guard lock(mutex_);
  return acquisitions_;
}

}  // namespace benchhist::azure
