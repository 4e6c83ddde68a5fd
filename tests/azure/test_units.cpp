// Pure functions of the Azure area (no network).
#include <catch2/catch.hpp>

#include "benchhist/azure/azure_blob_store.hpp"
#include "benchhist/azure/blob_client.hpp"
#include "benchhist/azure/http.hpp"
#include "benchhist/azure/retry.hpp"
#include "benchhist/error.hpp"
#include "harness.hpp"

using namespace benchhist;
using namespace benchhist::azure;
using namespace std::chrono_literals;

TEST_CASE("URLs split into scheme, host, port and target", "[azure][unit]") {
  auto u = Url::parse("https://127.0.0.1:10000/devstoreaccount1/c?restype=container");
  CHECK(u.scheme == "https");
  CHECK(u.host == "127.0.0.1");
  CHECK(u.port == 10000);
  CHECK(u.target == "/devstoreaccount1/c?restype=container");
  CHECK(u.origin() == "https://127.0.0.1:10000");
  auto d = Url::parse("HTTPS://acct.blob.core.windows.net");
  CHECK(d.port == 443);
  CHECK(d.target == "/");
  CHECK(d.origin() == "https://acct.blob.core.windows.net");
  CHECK(Url::parse("http://[::1]:8080/x").host == "::1");
  CHECK_THROWS_AS(Url::parse("ftp://x"), Error);
  CHECK_THROWS_AS(Url::parse("https://host:99999/"), Error);
  CHECK_THROWS_AS(Url::parse("no-scheme"), Error);
}

TEST_CASE("blob URLs encode each key segment and keep the separators", "[azure][unit]") {
  auto cache = std::shared_ptr<TokenCache>();
  BlobClient client("https://127.0.0.1:1/devstoreaccount1/", "bench", cache, make_http_client(), {});
  CHECK(client.container_url() == "https://127.0.0.1:1/devstoreaccount1/bench");
  CHECK(client.blob_url("v1/p/objects/a b/c%d/clean.json") ==
        "https://127.0.0.1:1/devstoreaccount1/bench/v1/p/objects/a%20b/c%25d/clean.json");
  CHECK(url_encode("api://AzureADTokenExchange") == "api%3A%2F%2FAzureADTokenExchange");
}

TEST_CASE("the account URL defaults to the public endpoint and must be https", "[azure][unit]") {
  CHECK(effective_account_url("acct", std::nullopt) == "https://acct.blob.core.windows.net");
  CHECK(effective_account_url("acct", std::string("https://127.0.0.1:1/devstoreaccount1/")) ==
        "https://127.0.0.1:1/devstoreaccount1");
  try {
    effective_account_url("acct", std::string("http://127.0.0.1:1/devstoreaccount1"));
    FAIL("an http endpoint was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::config);
    CHECK(e.message() == "Azure Entra ID authentication requires an https endpoint");
  }
  try {
    effective_account_url("acct", std::string("not a url"));
    FAIL("garbage was accepted");
  } catch (const Error& e) {
    CHECK(e.message() == "invalid Azure endpoint \"not a url\"");
  }
  CHECK_THROWS_AS(effective_account_url("acct", std::string("https://a.example/?sv=2020&sig=x")), Error);
}

TEST_CASE("only 408, 429 and 5xx gateway/server statuses are transient", "[azure][unit]") {
  for (int s : {408, 429, 500, 502, 503, 504}) CHECK(is_transient_status(s));
  for (int s : {200, 201, 400, 401, 403, 404, 409, 412, 501}) CHECK_FALSE(is_transient_status(s));
}

TEST_CASE("backoff grows exponentially within jitter, is capped, and Retry-After wins", "[azure][unit]") {
  RetryPolicy p;
  p.initial_delay = 100ms;
  p.max_delay = 1000ms;
  p.jitter = 0.25;
  CHECK(p.delay_after(1, std::nullopt, 0.5) == 100ms);
  CHECK(p.delay_after(2, std::nullopt, 0.5) == 200ms);
  CHECK(p.delay_after(3, std::nullopt, 0.0) == 300ms);  // 400 - 25 %
  CHECK(p.delay_after(3, std::nullopt, 0.999) <= 500ms);
  CHECK(p.delay_after(10, std::nullopt, 0.5) == 1000ms);
  CHECK(p.delay_after(1, 700ms, 0.5) == 700ms);
  CHECK(p.delay_after(1, 5000ms, 0.5) == 1000ms);
  auto now = std::chrono::system_clock::from_time_t(784111777);  // Sun, 06 Nov 1994 08:49:37 GMT
  CHECK(parse_retry_after("3", now) == 3000ms);
  CHECK(parse_retry_after(" 0 ", now) == 0ms);
  CHECK(parse_retry_after("Sun, 06 Nov 1994 08:49:47 GMT", now) == 10000ms);
  CHECK_FALSE(parse_retry_after("soon", now));
  CHECK_FALSE(parse_retry_after("-1", now));
}

TEST_CASE("a missing Azurite install fails the suite with the setup instruction", "[azure][unit]") {
  try {
    bhtest::require_azurite("/nonexistent/node_modules/.bin/azurite-blob");
    FAIL("a missing Azurite was accepted");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("npm install --prefix tests/azure") != std::string::npos);
  }
  CHECK_NOTHROW(bhtest::require_azurite(std::filesystem::path(BH_SOURCE_DIR) / "tests/azure/node_modules/.bin/azurite-blob"));
}
