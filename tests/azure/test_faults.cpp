// Retries through a misbehaving network: the fault proxy (fixtures.js) sits between the store
// and Azurite and drops, delays or throttles a share of requests.
#include <catch2/catch.hpp>

#include <algorithm>
#include <fstream>

#include "benchhist/error.hpp"
#include "benchhist/storage/cached_store.hpp"
#include "harness.hpp"

using namespace benchhist;
using namespace benchhist::azure;
using namespace benchhist::https;
using bhtest::harness;
using namespace std::chrono_literals;

namespace {
struct ProxyFaults {
  explicit ProxyFaults(const std::string& json) {
    harness().configure(harness().proxy_port, json);
    harness().reset(harness().proxy_port);
  }
  ~ProxyFaults() {
    harness().configure(harness().proxy_port,
                        R"({"drop_before":0,"drop_after":0,"busy":0,"delay":0,"refuse_container_create":false})");
  }
};

std::string key_for(int i) {
  return "v1/proj/objects/callgrind/x86_64-unknown-linux-gnu/ci/" + std::to_string(1000 + i) + "/clean.json";
}
}  // namespace

TEST_CASE("operations succeed through dropped, delayed and throttled requests and nothing is written twice",
          "[azure][faults]") {
  auto& h = harness();
  const auto container = bhtest::unique_container("faults");
  // Create the container up front so the per-key counts below only see blob uploads.
  REQUIRE(bhtest::make_store(container)->client().create_container().ok());
  ProxyFaults faults(
      R"({"drop_before":0.1,"drop_after":0.1,"busy":0.12,"delay":0.08,"delay_ms":3000,"retry_after":"1","seed":7})");
  auto waits = std::make_shared<std::vector<long long>>();
  AzureStoreOptions options;
  HttpClientOptions http;
  // The proxy's 3 s delays become client timeouts; an undelayed request must finish well within
  // the timeout even when Azurite shares a busy machine (at 600 ms, a starved run timed out
  // undelayed requests until the retry budget ran out).
  http.request_timeout = 1500ms;
  options.http = make_http_client(http);
  auto store = bhtest::make_store(container, "proj", /*through_proxy=*/true, bhtest::fast_retry(10, waits), options);

  constexpr int n = 60;
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(key_for(i));
  bhtest::parallel_for(keys.size(), 8, [&](std::size_t i) {
    // refuse: a retried create that finds its own earlier write must not report a collision.
    CHECK(store->put(keys[i], "{\"i\":" + std::to_string(i) + "}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  });
  bhtest::parallel_for(keys.size(), 8, [&](std::size_t i) {
    CHECK(store->get(keys[i]) == "{\"i\":" + std::to_string(i) + "}");
  });
  auto listed = store->list("v1/proj/");
  CHECK(listed.size() == static_cast<std::size_t>(n));

  auto stats = h.stats(h.proxy_port);
  INFO(stats.substr(0, stats.find("\"created\"")));
  CHECK(bhtest::json_int(stats, "dropped_before") > 0);
  CHECK(bhtest::json_int(stats, "dropped_after") > 0);
  CHECK(bhtest::json_int(stats, "busy") > 0);
  CHECK(bhtest::json_int(stats, "delayed") > 0);
  for (const auto& k : keys) {
    // Exactly one upload per key was accepted by the service.
    CHECK(stats.find("\"/devstoreaccount1/" + container + "/" + k + "\":1") != std::string::npos);
  }
  std::string all_waits;
  for (auto w : *waits) all_waits += std::to_string(w) + " ";
  INFO(all_waits);
  // Retry-After: 1 was honoured (the hook sees the 1000 ms requests).
  CHECK(std::count(waits->begin(), waits->end(), 1000) > 0);
  CHECK(*std::max_element(waits->begin(), waits->end()) <= 2000);
}

TEST_CASE("an exhausted retry budget fails with a message naming the key and the attempts", "[azure][faults]") {
  const auto container = bhtest::unique_container("exhaust");
  ProxyFaults faults(R"({"busy":1.0,"retry_after":"0"})");
  auto store = bhtest::make_store(container, "proj", true, bhtest::fast_retry(3));
  const auto k = key_for(1);
  try {
    store->get(k);
    FAIL("a permanently busy service was reported as success");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::network);
    CHECK(e.message() == "could not download Azure blob \"" + k + "\"");
    CHECK(e.subject() == k);
    CHECK(e.cause().find("gave up after 3 attempts") != std::string::npos);
    CHECK(e.cause().find("HTTP 503 ServerBusy") != std::string::npos);
  }
  try {
    store->put(k, "{}", storage::CollisionPolicy::refuse);
    FAIL("a permanently busy service accepted a write");
  } catch (const Error& e) {
    CHECK(e.message() == "could not conditionally create Azure blob \"" + k + "\"");
  }
  CHECK(bhtest::json_int(harness().stats(harness().proxy_port), "requests") == 6);
}

TEST_CASE("authentication rejections are not retried", "[azure][faults]") {
  auto& h = harness();
  h.configure(h.token_port, R"({"aud":"https://someone-else.example"})");
  ProxyFaults faults("{}");
  auto store = bhtest::make_store(bhtest::unique_container("authz"), "proj", true, bhtest::fast_retry(5));
  const auto k = key_for(2);
  try {
    store->get(k);
    FAIL("a token for another audience was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "could not download Azure blob \"" + k + "\"");
    INFO(e.what());
    // Azurite answers 403 AuthenticationFailed, Azure 401 InvalidAuthenticationInfo.
    CHECK((e.cause().find("HTTP 401") != std::string::npos || e.cause().find("HTTP 403") != std::string::npos));
    // A token the service refused needs another token, not a role; the service says why.
    CHECK(e.hint().find("did not accept the access token") != std::string::npos);
    CHECK(e.cause().find("audience") != std::string::npos);  // Azurite: "Invalid token audience."
  }
  // A refused listing says the same, not to check the account settings.
  try {
    store->list("v1/proj/");
    FAIL("a listing with a token for another audience was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "could not list Azure blobs with prefix \"v1/proj/\"");
    CHECK(e.hint().find("did not accept the access token") != std::string::npos);
  }
  h.configure(h.token_port, R"({"aud":"https://storage.azure.com"})");
  CHECK(bhtest::json_int(h.stats(h.proxy_port), "requests") == 2);
}

TEST_CASE("a container that cannot be created is reported as such, not as the upload", "[azure][faults]") {
  ProxyFaults faults(R"({"refuse_container_create":true})");
  const auto container = bhtest::unique_container("nocreate");
  auto store = bhtest::make_store(container, "proj", /*through_proxy=*/true, bhtest::fast_retry(3));
  const auto k = key_for(3);
  try {
    store->put(k, "{}", storage::CollisionPolicy::refuse);
    FAIL("a put into a container that could not be created succeeded");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::auth);
    CHECK(e.message() == "could not create Azure blob container");
    CHECK(e.subject() == container);
    CHECK(e.cause().find("HTTP 403") != std::string::npos);
    CHECK(e.hint().find("create \"" + container + "\" yourself") != std::string::npos);
  }
  // Nothing was created: the blob PUT found no container, creation was refused.
  CHECK_FALSE(store->get(k).has_value());
}

TEST_CASE("TLS is verified against the host name, never skipped", "[azure][faults]") {
  auto& h = harness();
  // The certificate names only IP:127.0.0.1, so "localhost" must fail verification.
  auto env = h.oidc_env();
  AzureBlobStore store("devstoreaccount1", "tls", "https://localhost:" + std::to_string(h.azurite_port) + "/devstoreaccount1",
                       "proj", nullptr, env, bhtest::fast_retry(4));
  try {
    store.get(key_for(3));
    FAIL("a certificate for another name was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::config);  // deterministic: not retried as a network failure
    CHECK(e.message() == "could not download Azure blob \"" + key_for(3) + "\"");
    CHECK(e.cause().find("gave up") == std::string::npos);
    CHECK(std::string(e.what()).find("certificate verify failed") != std::string::npos);
  }
}

TEST_CASE("the cache's write path: uploads through a faulty network are stored once, mirror writes that fail or are cut short lose nothing",
          "[azure][faults][cache]") {
  auto& h = harness();
  const auto container = bhtest::unique_container("cachefaults");
  const auto cache_dir = bhtest::scratch_dir("cachefaults-dir");
  REQUIRE(bhtest::make_store(container)->client().create_container().ok());
  constexpr int n = 24;
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(key_for(i));
  const auto body = [](std::size_t i) { return "{\"i\":" + std::to_string(i) + "}"; };
  {
    ProxyFaults faults(R"({"drop_before":0.15,"drop_after":0.15,"busy":0.1,"delay":0,"seed":16})");
    std::shared_ptr<storage::ObjectStore> cloud =
        bhtest::make_store(container, "proj", /*through_proxy=*/true, bhtest::fast_retry(12));
    storage::CachedStore store(cloud, cache_dir, "devstoreaccount1", container, "proj");
    store.synchronize();
    bhtest::parallel_for(keys.size(), 6, [&](std::size_t i) {
      // An upload whose reply was lost is retried; its own earlier write is not a collision.
      CHECK(store.put(keys[i], body(i), storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
    });
    store.flush();
    bhtest::parallel_for(keys.size(), 6, [&](std::size_t i) { CHECK(store.get(keys[i]) == body(i)); });
    const auto stats = h.stats(h.proxy_port);
    CHECK(bhtest::json_int(stats, "dropped_after") > 0);
    for (const auto& k : keys) {
      INFO(k);
      CHECK(stats.find("\"/devstoreaccount1/" + container + "/" + k + "\":1") != std::string::npos);
    }
  }
  const auto root = storage::CachedStore::mirror_root(cache_dir, "devstoreaccount1", container);
  // A mirror write cut short (a killed process): its temp file, and a file truncated by a
  // full disk. Neither is ever served; the next read repairs the mirror from the cloud.
  std::ofstream(root / keys[0], std::ios::binary | std::ios::trunc) << "\x1f\x8b\x08";
  std::ofstream((root / keys[1]).parent_path() / ".cbh-tmp-1-2-3", std::ios::binary) << "\x1f\x8b";
  std::shared_ptr<storage::ObjectStore> cloud = bhtest::make_store(container, "proj");
  {
    storage::CachedStore store(cloud, cache_dir, "devstoreaccount1", container, "proj");
    store.synchronize();
    for (std::size_t i = 0; i < keys.size(); ++i) CHECK(store.get(keys[i]) == body(i));
    CHECK(store.tally().misses == 1);  // only the truncated one
    CHECK(store.get(keys[0]) == body(0));
    CHECK(store.tally().hits == keys.size());
  }
  // A cache directory that cannot be written: reads still answer from the cloud.
  {
    const auto ro = bhtest::scratch_dir("cachefaults-blocked");
    std::ofstream(ro / "devstoreaccount1") << "a file where the mirror's directory belongs";
    storage::CachedStore store(cloud, ro, "devstoreaccount1", container, "proj");
    for (std::size_t i = 0; i < 3; ++i) CHECK(store.get(keys[i]) == body(i));
    CHECK(store.tally().mirror_write_failures == 3);
    CHECK_THAT(store.activity(), Catch::Contains("3 not mirrored"));
  }
}
