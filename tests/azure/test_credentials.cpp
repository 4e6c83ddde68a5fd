// Entra ID credentials against the local token server, end to end through Azurite.
#include <catch2/catch.hpp>

#include <fstream>
#include <thread>

#include "benchhist/azure/credential.hpp"
#include "benchhist/error.hpp"
#include "harness.hpp"

using namespace benchhist;
using namespace benchhist::azure;
using bhtest::harness;
using namespace std::chrono_literals;

namespace {
const std::string kKey = "v1/proj/objects/criterion/x86_64-unknown-linux-gnu/ci/c1/clean.json";

std::string b64url(const std::string& in) {
  static const char* t = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::string out;
  std::size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8 | (unsigned char)in[i + 2];
    for (int s = 18; s >= 0; s -= 6) out += t[(v >> s) & 63];
  }
  if (in.size() - i == 1) {
    unsigned v = (unsigned char)in[i] << 16;
    out += t[(v >> 18) & 63];
    out += t[(v >> 12) & 63];
  } else if (in.size() - i == 2) {
    unsigned v = (unsigned char)in[i] << 16 | (unsigned char)in[i + 1] << 8;
    for (int s = 18; s >= 6; s -= 6) out += t[(v >> s) & 63];
  }
  return out;
}

// An unsigned JWT of the shape Azurite's `--oauth basic` accepts.
std::string mint_jwt(long long lifetime) {
  long long now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
  std::string claims = "{\"iss\":\"https://sts.windows.net/cli-tenant/\",\"aud\":\"https://storage.azure.com\",\"nbf\":" +
                       std::to_string(now - 60) + ",\"iat\":" + std::to_string(now - 60) +
                       ",\"exp\":" + std::to_string(now + lifetime) + "}";
  return b64url("{\"alg\":\"RS256\",\"typ\":\"JWT\"}") + "." + b64url(claims) + ".c2ln";
}

std::unique_ptr<AzureBlobStore> store_with(const probe::Environment& env, const std::string& container,
                                           CredentialOptions co = {}) {
  AzureStoreOptions options;
  options.credential = std::move(co);
  return std::make_unique<AzureBlobStore>("devstoreaccount1", container, harness().endpoint(), "proj", nullptr, env,
                                          bhtest::fast_retry(3), options);
}

struct TokenServerSettings {
  // Restores the token server's defaults when a test ends, pass or fail.
  ~TokenServerSettings() {
    harness().configure(harness().token_port,
                        R"({"lifetime":3600,"jwt_lifetime":null,"fail_oidc":0,"fail_exchange":0,"reject_exchange":false,"aud":"https://storage.azure.com"})");
  }
};
}  // namespace

TEST_CASE("GitHub OIDC federation exchanges a fresh ID token, and a burst of requests acquires once",
          "[azure][credential]") {
  auto& h = harness();
  h.reset(h.token_port);
  auto store = bhtest::make_store(bhtest::unique_container("burst"));
  store->put(kKey, "{}", storage::CollisionPolicy::refuse);
  bhtest::parallel_for(48, 16, [&](std::size_t) { CHECK(store->get(kKey) == std::string("{}")); });
  auto stats = h.stats(h.token_port);
  CHECK(bhtest::json_int(stats, "oidc") == 1);
  CHECK(bhtest::json_int(stats, "exchange") == 1);
  CHECK(stats.find("\"last_audience\":\"api://AzureADTokenExchange\"") != std::string::npos);
  CHECK(stats.find("\"last_scope\":\"https://storage.azure.com/.default\"") != std::string::npos);
}

TEST_CASE("a token reaching its refresh margin is renewed transparently mid-command", "[azure][credential]") {
  auto& h = harness();
  TokenServerSettings restore;
  // Tokens valid for 302 s: the 5-minute margin leaves 2 s of reuse.
  h.configure(h.token_port, R"({"lifetime":302})");
  h.reset(h.token_port);
  auto store = bhtest::make_store(bhtest::unique_container("renew"));
  store->put(kKey, "{}", storage::CollisionPolicy::refuse);
  CHECK(store->get(kKey) == std::string("{}"));
  CHECK(bhtest::json_int(h.stats(h.token_port), "exchange") == 1);
  std::this_thread::sleep_for(2500ms);
  CHECK(store->get(kKey) == std::string("{}"));
  CHECK(bhtest::json_int(h.stats(h.token_port), "exchange") == 2);
}

TEST_CASE("a token cache renews on its injected clock and serializes acquisition", "[azure][credential]") {
  struct Counting final : TokenCredential {
    std::atomic<int> calls{0};
    std::chrono::system_clock::time_point* now;
    AccessToken acquire(std::string_view) override {
      ++calls;
      std::this_thread::sleep_for(20ms);  // a slow acquisition invites duplicate requests
      return {"t" + std::to_string(calls.load()), *now + 1h};
    }
    std::string name() const override { return "counting"; }
  };
  auto now = std::chrono::system_clock::time_point(std::chrono::hours(1000));
  auto cred = std::make_shared<Counting>();
  cred->now = &now;
  TokenCache cache(cred, [&] { return now; });
  bhtest::parallel_for(16, 16, [&](std::size_t) { CHECK(cache.token("s") == "t1"); });
  CHECK(cred->calls == 1);
  now += 54min;  // 6 minutes left: still outside the 5-minute margin
  CHECK(cache.token("s") == "t1");
  now += 2min;   // inside the margin
  CHECK(cache.token("s") == "t2");
  CHECK(cache.acquisitions() == 2);
  CHECK(cache.token("other") == "t3");  // cached per scope
}

TEST_CASE("a rejected token exchange is final, not retried, and leaks no secret", "[azure][credential]") {
  auto& h = harness();
  TokenServerSettings restore;
  h.configure(h.token_port, R"({"reject_exchange":true})");
  h.reset(h.token_port);
  auto env = h.oidc_env();
  auto store = store_with(env, bhtest::unique_container("reject"));
  try {
    store->get(kKey);
    FAIL("a rejected credential was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "could not download Azure blob \"" + kKey + "\"");
    std::string all = std::string(e.what()) + e.hint();
    CHECK(all.find("invalid_client") != std::string::npos);
    CHECK(all.find("test-request-token") == std::string::npos);
    CHECK(all.find("github-id-token") == std::string::npos);
    CHECK(all.find("Trace ID") == std::string::npos);  // only the first line of the description
  }
  auto stats = h.stats(h.token_port);
  CHECK(bhtest::json_int(stats, "exchange") == 1);
  CHECK(bhtest::json_int(stats, "oidc") == 1);
}

TEST_CASE("transient token-service failures are retried within a bounded budget", "[azure][credential]") {
  auto& h = harness();
  TokenServerSettings restore;
  auto env = h.oidc_env();
  CredentialOptions co;
  co.retry = bhtest::fast_retry(3);
  h.configure(h.token_port, R"({"fail_oidc":2})");
  h.reset(h.token_port);
  auto store = store_with(env, bhtest::unique_container("flaky-token"), co);
  CHECK(store->get(kKey) == std::nullopt);
  CHECK(bhtest::json_int(h.stats(h.token_port), "oidc") == 3);

  h.configure(h.token_port, R"({"fail_exchange":5})");
  h.reset(h.token_port);
  auto exhausted = store_with(env, bhtest::unique_container("dead-token"), co);
  try {
    exhausted->get(kKey);
    FAIL("an unavailable token service was not reported");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::network);
    CHECK(std::string(e.what()).find("failed after 3 attempts") != std::string::npos);
  }
  CHECK(bhtest::json_int(h.stats(h.token_port), "exchange") == 3);
}

TEST_CASE("the OIDC flow needs all four variables, otherwise the developer chain is used", "[azure][credential]") {
  auto env = harness().oidc_env();
  CHECK(make_github_oidc_credential(env, {}) != nullptr);
  probe::MapEnvironment partial = env;
  partial.set("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "");
  CHECK(make_github_oidc_credential(partial, {}) == nullptr);
  CHECK(make_workload_identity_credential(partial, {}) == nullptr);
}

TEST_CASE("a workload identity federated token file is exchanged like the GitHub assertion", "[azure][credential]") {
  auto& h = harness();
  auto dir = bhtest::scratch_dir("wi");
  {
    std::ofstream(dir / "token") << "federated-assertion\n";
  }
  probe::MapEnvironment env;
  env.set("AZURE_FEDERATED_TOKEN_FILE", (dir / "token").string());
  env.set("AZURE_CLIENT_ID", "test-client-id");
  env.set("AZURE_TENANT_ID", "wi-tenant");
  env.set("AZURE_AUTHORITY_HOST", h.token_origin() + "/");
  auto store = store_with(env, bhtest::unique_container("wi"));
  CHECK(store->put(kKey, "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
}

TEST_CASE("a managed identity endpoint named by IDENTITY_ENDPOINT provides tokens", "[azure][credential]") {
  auto& h = harness();
  h.reset(h.token_port);
  probe::MapEnvironment env;
  env.set("IDENTITY_ENDPOINT", h.token_origin() + "/msi");
  env.set("IDENTITY_HEADER", "test-identity-header");
  CredentialOptions co;
  co.try_azure_cli = false;
  auto store = store_with(env, bhtest::unique_container("msi"), co);
  CHECK(store->put(kKey, "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(bhtest::json_int(h.stats(h.token_port), "msi") == 1);
}

TEST_CASE("the Azure CLI is the fallback when no managed identity answers", "[azure][credential]") {
  auto dir = bhtest::scratch_dir("az");
  const auto script = dir / "az";
  {
    std::ofstream out(script);
    out << "#!/bin/sh\necho \"$@\" > '" << (dir / "args").string() << "'\n"
        << "echo '{\"accessToken\":\"" << mint_jwt(3600) << "\",\"expires_on\":" << (std::time(nullptr) + 3600)
        << ",\"tokenType\":\"Bearer\"}'\n";
  }
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  probe::MapEnvironment env;  // nothing federated configured
  CredentialOptions co;
  co.imds_endpoint = "http://127.0.0.1:1/metadata/identity/oauth2/token";  // refused at once
  co.az_program = script.string();
  auto store = store_with(env, bhtest::unique_container("cli"), co);
  CHECK(store->put(kKey, "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  std::ifstream args(dir / "args");
  std::string line;
  std::getline(args, line);
  CHECK(line == "account get-access-token --resource https://storage.azure.com/ -o json");

  // An answer that is not JSON: the hint is the Azure CLI's own, not another source's.
  const auto garbled = dir / "az-garbled";
  {
    std::ofstream out(garbled);
    out << "#!/bin/sh\necho 'Please run az login'\n";
  }
  std::filesystem::permissions(garbled, std::filesystem::perms::owner_all);
  CredentialOptions garbled_options = co;
  garbled_options.az_program = garbled.string();
  try {
    make_azure_cli_credential(env, garbled_options)->acquire("https://storage.azure.com/.default");
    FAIL("an answer that is not JSON gave a token");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "the Azure CLI returned a response that is not a JSON object");
    CHECK_THAT(e.hint(), Catch::StartsWith("run `az account get-access-token"));
  }

  co.az_program = (dir / "missing-az").string();
  auto nothing = store_with(env, bhtest::unique_container("none"), co);
  try {
    nothing->get(kKey);
    FAIL("no credential source was reported as working");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    std::string what = e.what();
    CHECK(what.find("could not initialize Entra ID credential") != std::string::npos);
    CHECK(what.find("managed identity") != std::string::npos);
    CHECK(what.find("Azure CLI") != std::string::npos);
  }
}
