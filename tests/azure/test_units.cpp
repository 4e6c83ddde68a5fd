// Pure functions of the Azure area (no network).
#include <catch2/catch.hpp>

#include "benchhist/azure/azure_blob_store.hpp"
#include "benchhist/azure/blob_client.hpp"
#include "benchhist/https/client.hpp"
#include "benchhist/azure/responses.hpp"
#include "benchhist/https/retry.hpp"
#include "benchhist/error.hpp"
#include "harness.hpp"

using namespace benchhist;
using namespace benchhist::azure;
using namespace benchhist::https;
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
    // The key to change is named, as for an invalid URL.
    CHECK(e.cause() == "[storage.azure] endpoint is \"http://127.0.0.1:1/devstoreaccount1\"");
    CHECK_THAT(e.hint(), Catch::StartsWith("set [storage.azure] endpoint to an https:// URL"));
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

TEST_CASE("token responses: an expiry the clock cannot hold means an unknown lifetime, a token with control bytes is refused",
          "[azure][unit][responses]") {
  using namespace std::chrono;
  const system_clock::time_point now{seconds(1787306400)};
  const auto parse = [&](const std::string& body) {
    return parse_token_response(body, now, "the token request", "https://login.example/t/oauth2/v2.0/token");
  };
  // fuzz_token_response finding: expires_on in 2280 overflowed the nanosecond clock (UB).
  CHECK(parse(R"({"access_token":"t","expires_on":"9787392800"})").expires_on == now + minutes(10));
  CHECK(parse(R"({"access_token":"t","expires_on":1e300})").expires_on == now + minutes(10));
  CHECK(parse(R"({"access_token":"t","expires_in":-5})").expires_on == now + minutes(10));
  CHECK(parse(R"({"access_token":"t","expires_in":"3599"})").expires_on == now + seconds(3599));
  CHECK(parse(R"({"access_token":"t","expires_on":"1787392800"})").expires_on == system_clock::time_point(seconds(1787392800)));
  try {
    parse(R"({"access_token":"a\r\nX-Injected: 1"})");
    FAIL("a token with CR LF must be refused");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "the token request returned a malformed access token");
    CHECK(e.subject() == "https://login.example/t/oauth2/v2.0/token");
  }
  // A 2xx answer without a token came from something that is not a token service.
  for (const char* body : {"[]", R"({"token_type":"Bearer"})"}) {
    INFO(body);
    try {
      parse(body);
      FAIL("an answer without a token was taken");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::auth);
      CHECK_THAT(e.hint(), Catch::StartsWith("check AZURE_CLIENT_ID and AZURE_TENANT_ID"));
    }
  }
  CHECK(token_rejection_detail(400, R"({"error":"bad\u001b[31m","error_description":"line one\nline two"})") ==
        "HTTP 400 bad?[31m: line one");
}

TEST_CASE("List Blobs pages: names and markers decode; a truncated or mangled page is an error naming the container",
          "[azure][unit][responses]") {
  const auto page = parse_list_blobs_page(
      R"(<?xml version="1.0"?><EnumerationResults><Blobs><Blob><Name>a&amp;b</Name></Blob>)"
      R"(<Blob><Name Encoded="true">c%2Fd%C3%A9</Name></Blob></Blobs><NextMarker>m&#x41;</NextMarker></EnumerationResults>)",
      "bench");
  CHECK(page.names == std::vector<std::string>{"a&b", "c/d\xC3\xA9"});
  CHECK(page.next_marker == "mA");
  for (const std::string& bad : {
           std::string(R"(<?xml version="1.0"?><EnumerationResults><Blobs><Blob><Name>a</Name></Blob>)"),  // truncated
           std::string("<html>proxy login</html>"),
           std::string(R"(<EnumerationResults><Blobs><Blob><Name>a&#xZZ;</Name></Blob></Blobs></EnumerationResults>)"),
           std::string(R"(<EnumerationResults><Blobs><Blob><Name>a&#0;</Name></Blob></Blobs></EnumerationResults>)"),
           std::string(R"(<EnumerationResults><Blobs><Blob><Name Encoded="true">a%zz</Name></Blob></Blobs></EnumerationResults>)"),
       }) {
    INFO(bad);
    try {
      parse_list_blobs_page(bad, "bench");
      FAIL("a malformed page must be refused");
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::network);
      CHECK(e.message() == "the blob listing of bench is malformed");
    }
  }
  CHECK(parse_error_code("<Error><Code>BlobAlreadyExists</Code></Error>") == "BlobAlreadyExists");
  CHECK(parse_error_code("<Error><Code>Bad\x1b[2J</Code></Error>").empty());
  CHECK(parse_error_code("not xml").empty());
  // Entra ID's reason for refusing a token (the text Azure and Azurite send).
  const std::string expired =
      "<Error><Code>AuthenticationFailed</Code><Message>Server failed to authenticate the request.\nRequestId:x</Message>"
      "<AuthenticationErrorDetail>Lifetime validation failed. The token is expired.</AuthenticationErrorDetail></Error>";
  CHECK(parse_authentication_detail(expired) == "Lifetime validation failed. The token is expired.");
  CHECK(parse_authentication_detail("<Error><AuthenticationErrorDetail>a\x1b[2J</AuthenticationErrorDetail></Error>").empty());
  CHECK(parse_authentication_detail("<Error><Code>AuthorizationPermissionMismatch</Code></Error>").empty());
  CHECK(parse_authentication_detail("<Error><AuthenticationErrorDetail>Issuer validation failed.\nTrace: 1\n"
                                    "</AuthenticationErrorDetail></Error>") == "Issuer validation failed.");
  CHECK(parse_authentication_detail("<Error><AuthenticationErrorDetail>" + std::string(400, 'x') +
                                    "</AuthenticationErrorDetail></Error>") == std::string(300, 'x'));
}

TEST_CASE("a refused token and a missing role get different hints", "[azure][units]") {
  BlobReply expired;
  expired.status = 403;
  expired.error_code = "AuthenticationFailed";
  expired.error_detail = "Lifetime validation failed. The token is expired.";
  CHECK(expired.describe() == "HTTP 403 AuthenticationFailed: Lifetime validation failed. The token is expired.");
  CHECK(access_hint(expired).find("did not accept the access token") != std::string::npos);
  for (const char* code : {"InvalidAuthenticationInfo", "NoAuthenticationInformation"}) {
    BlobReply r;
    r.status = 401;
    r.error_code = code;
    CHECK(access_hint(r).find("did not accept the access token") != std::string::npos);
  }
  BlobReply role;
  role.status = 403;
  role.error_code = "AuthorizationPermissionMismatch";
  CHECK(role.describe() == "HTTP 403 AuthorizationPermissionMismatch");
  CHECK(access_hint(role).find("Storage Blob Data Contributor") != std::string::npos);
}
