// AzureBlobStore and CachedStore against a real (emulated) Blob service: Azurite over HTTPS
// with Entra ID bearer tokens minted by the local token server.
#include <catch2/catch.hpp>

#include <chrono>
#include <fstream>
#include <iostream>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/timestamp.hpp"
#include "benchhist/storage/cached_store.hpp"
#include "benchhist/storage/local_store.hpp"
#include "harness.hpp"

using namespace benchhist;
using namespace benchhist::azure;
using namespace benchhist::https;
using bhtest::harness;

namespace {
std::string key_for(const std::string& project, const std::string& machine, int i) {
  return "v1/" + project + "/objects/criterion/x86_64-unknown-linux-gnu/" + machine + "/c" + std::to_string(i) +
         "/clean.json";
}
std::string body_for(int i, const std::string& tag = "a") {
  return "{\"n\":" + std::to_string(i) + ",\"tag\":\"" + tag + "\"}";
}
}  // namespace

TEST_CASE("put, get, list and remove follow the object-store contract", "[azure][store]") {
  auto store = bhtest::make_store(bhtest::unique_container("basic"));
  const auto k1 = key_for("proj", "ci", 1), k2 = key_for("proj", "ci", 2), k3 = key_for("proj", "ci-pool", 3);

  SECTION("a missing container reads as empty") {
    CHECK(store->get(k1) == std::nullopt);
    CHECK(store->list("v1/").empty());
    CHECK_FALSE(store->remove(k1));
  }
  SECTION("objects round-trip as plain JSON, stored as gzip with Content-Encoding gzip") {
    CHECK(store->put(k1, body_for(1), storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
    CHECK(store->get(k1) == body_for(1));
    auto raw = store->client().get_blob(k1);
    REQUIRE(raw.ok());
    REQUIRE(raw.body.size() > 10);
    CHECK(raw.body.substr(0, 4) == std::string("\x1f\x8b\x08\x00", 4));  // never auto-decompressed
    bool gzip_header = false;
    for (const auto& [name, value] : raw.headers)
      if (iequals(name, "Content-Encoding") && value == "gzip") gzip_header = true;
    CHECK(gzip_header);
    CHECK_FALSE(store->invalidation_pending());  // creating a new key never arms it
  }
  SECTION("listing is by prefix, sorted, and respects the trailing separator") {
    store->put(k3, body_for(3), storage::CollisionPolicy::refuse);
    store->put(k2, body_for(2), storage::CollisionPolicy::refuse);
    store->put(k1, body_for(1), storage::CollisionPolicy::refuse);
    CHECK(store->list("v1/proj/objects/criterion/x86_64-unknown-linux-gnu/ci/") == std::vector<std::string>{k1, k2});
    // Byte order: "ci-pool/" sorts before "ci/" ('-' < '/').
    CHECK(store->list("v1/proj/objects/") == std::vector<std::string>{k3, k1, k2});
    CHECK(store->list("v1/other/").empty());
  }
  SECTION("remove deletes, reports absence, and arms the invalidation flag") {
    store->put(k1, body_for(1), storage::CollisionPolicy::refuse);
    CHECK(store->remove(k1));
    CHECK(store->invalidation_pending());
    CHECK(store->get(k1) == std::nullopt);
    CHECK_FALSE(store->remove(k1));
  }
  SECTION("keys that violate the grammar are refused before any request") {
    for (std::string bad : {"v1//x", "v1/../x", "/v1/x", "v1/./x", ""}) {
      try {
        store->put(bad, "{}", storage::CollisionPolicy::refuse);
        FAIL("accepted " << bad);
      } catch (const Error& e) {
        CHECK(e.kind() == ErrorKind::invalid_key);
        CHECK(e.message() == "invalid storage key: " + bad);
      }
    }
  }
}

TEST_CASE("collision policies refuse, skip or overwrite an existing object", "[azure][store]") {
  auto store = bhtest::make_store(bhtest::unique_container("policy"));
  const auto k = key_for("proj", "ci", 7);
  REQUIRE(store->put(k, body_for(7, "first"), storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);

  try {
    store->put(k, body_for(7, "second"), storage::CollisionPolicy::refuse);
    FAIL("a second write-once put succeeded");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::already_exists);
    CHECK(e.message() == "object already exists: " + k);
    CHECK(e.subject() == k);
  }
  CHECK(store->put(k, body_for(7, "second"), storage::CollisionPolicy::skip_existing) == storage::PutOutcome::skipped_existing);
  CHECK(store->get(k) == body_for(7, "first"));
  CHECK_FALSE(store->invalidation_pending());

  CHECK(store->put(k, body_for(7, "third"), storage::CollisionPolicy::overwrite) == storage::PutOutcome::replaced);
  CHECK(store->get(k) == body_for(7, "third"));
  CHECK(store->invalidation_pending());
  // A new key under the overwrite policy is a plain create and stays unarmed... but the flag
  // is already armed from above, so check with a fresh store instance.
  auto other = bhtest::make_store(store->container());
  CHECK(other->put(key_for("proj", "ci", 8), "{}", storage::CollisionPolicy::overwrite) == storage::PutOutcome::stored);
  CHECK_FALSE(other->invalidation_pending());
  other->flush();
  CHECK(other->get(other->marker_key()) == std::nullopt);  // nothing armed: no marker

  store->flush();
  CHECK_FALSE(store->invalidation_pending());
  CHECK(store->marker_key() == "v1/proj/_cache-epoch");
  auto epoch = store->get(store->marker_key());
  REQUIRE(epoch);
  CHECK(parse_rfc3339(*epoch).has_value());
  // A second flush with nothing armed writes nothing.
  store->flush();
  CHECK(store->get(store->marker_key()) == epoch);
  // The marker lives outside objects/, so data listings never see it.
  CHECK(store->list("v1/proj/objects/").size() == 2);
}

TEST_CASE("a conditional create answered BlobAlreadyExists is the collision signal", "[azure][store]") {
  auto store = bhtest::make_store(bhtest::unique_container("conflict"));
  const auto k = key_for("proj", "ci", 1);
  store->put(k, "{}", storage::CollisionPolicy::refuse);
  auto reply = store->client().put_block_blob(k, codec::gzip_compress("{}"), /*if_none_match=*/true);
  CHECK(reply.status == 409);
  CHECK(reply.error_code == "BlobAlreadyExists");
  // Concurrent write-once puts of one new key: exactly one wins.
  const auto fresh = key_for("proj", "ci", 2);
  std::atomic<int> stored{0}, collided{0};
  bhtest::parallel_for(8, 8, [&](std::size_t i) {
    try {
      store->put(fresh, body_for(static_cast<int>(i)), storage::CollisionPolicy::refuse);
      ++stored;
    } catch (const Error& e) {
      if (e.kind() == ErrorKind::already_exists) ++collided;
    }
  });
  CHECK(stored == 1);
  CHECK(collided == 7);
}

TEST_CASE("a stored body that is not gzip fails loudly naming the blob", "[azure][store]") {
  auto store = bhtest::make_store(bhtest::unique_container("plain"));
  const auto k = key_for("proj", "ci", 1);
  REQUIRE(store->client().put_block_blob(k, "{\"plain\":true}", false).ok());
  try {
    store->get(k);
    FAIL("plaintext was accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::decode);
    CHECK(e.message() == "could not decompress Azure blob \"" + k + "\"");
    CHECK(e.subject() == k);
  }
}

TEST_CASE("listing follows every page when there are more blobs than one page holds", "[azure][store]") {
  AzureStoreOptions options;
  options.list_page_size = 7;
  auto store = bhtest::make_store(bhtest::unique_container("pages"), "proj", false, {}, options);
  std::vector<std::string> expected;
  for (int i = 0; i < 30; ++i) expected.push_back(key_for("proj", "ci", i));
  bhtest::parallel_for(expected.size(), 8, [&](std::size_t i) { store->put(expected[i], "{}", storage::CollisionPolicy::refuse); });
  std::sort(expected.begin(), expected.end());
  CHECK(store->list("v1/proj/") == expected);
  CHECK(store->list("v1/proj/objects/criterion/x86_64-unknown-linux-gnu/ci/c1").size() == 11);  // c1, c10..c19
}

TEST_CASE("a store that must exist names a missing container instead of listing an empty history",
          "[azure][store]") {
  const auto container = bhtest::unique_container("mustexist");
  AzureStoreOptions options;
  options.container_must_exist = true;
  auto reader = bhtest::make_store(container, "proj", false, {}, options);
  try {
    reader->list("v1/proj/");
    FAIL("listing a missing container should fail for a reader");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(e.subject() == container);
    CHECK_THAT(e.message(), Catch::StartsWith("the Azure container \"" + container + "\" does not exist at https://"));
    CHECK_THAT(e.hint(), Catch::Contains("[storage.azure]"));
  }
  // Once a writer has created it, an empty container is an empty history, not an error.
  auto writer = bhtest::make_store(container);
  CHECK(writer->list("v1/proj/").empty());
  CHECK(writer->put(key_for("proj", "ci", 1), "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(reader->list("v1/proj/").size() == 1);
  CHECK(reader->list("v1/other/").empty());
}

TEST_CASE("an endpoint naming another account path fails with a hint at the settings", "[azure][store]") {
  auto& h = harness();
  AzureBlobStore store("devstoreaccount1", bhtest::unique_container("wrongpath"), h.endpoint() + "x", "proj", nullptr,
                       h.oidc_env());
  try {
    store.list("v1/proj/");
    FAIL("listing through a wrong account path should fail");
  } catch (const Error& e) {
    INFO(e.message() << " / " << e.cause());
    CHECK_THAT(e.cause(), Catch::Contains("404"));
    CHECK(e.hint() == "check `account`, `container` and `endpoint` in [storage.azure] of the configuration file");
  }
}

TEST_CASE("the first upload creates the missing container", "[azure][store]") {
  const auto container = bhtest::unique_container("autocreate");
  auto store = bhtest::make_store(container);
  auto probe = store->client().get_blob("x");
  CHECK(probe.error_code == "ContainerNotFound");
  CHECK(store->put(key_for("proj", "ci", 1), "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(store->list("v1/").size() == 1);
  // Creating it again is a success (ContainerAlreadyExists).
  CHECK(store->client().create_container().ok());
}

TEST_CASE("the read-through cache serves hits locally and is invalidated by another writer's overwrite",
          "[azure][cache]") {
  const auto container = bhtest::unique_container("cache");
  const auto cache_dir = bhtest::scratch_dir("cache-dir");
  auto writer = bhtest::make_store(container, "Proj");  // raw project id; sanitized to "proj"
  const auto k1 = key_for("proj", "ci", 1), k2 = key_for("proj", "ci", 2);
  writer->put(k1, body_for(1), storage::CollisionPolicy::refuse);
  writer->put(k2, body_for(2), storage::CollisionPolicy::refuse);
  // Another project's mirrored objects must survive this project's invalidation.
  const auto other_key = key_for("other", "ci", 1);
  writer->put(other_key, body_for(9), storage::CollisionPolicy::refuse);

  auto open_reader = [&](const std::string& project) {
    std::shared_ptr<storage::ObjectStore> cloud = bhtest::make_store(container, project);
    return std::make_unique<storage::CachedStore>(cloud, cache_dir, "devstoreaccount1", container, project);
  };
  const auto root = storage::CachedStore::mirror_root(cache_dir, "devstoreaccount1", container);
  CHECK(root == cache_dir / "devstoreaccount1" / container);

  {
    auto other = open_reader("other");
    other->synchronize();
    CHECK(other->get(other_key) == body_for(9));
  }
  auto reader = open_reader("Proj");
  auto sync = reader->synchronize();
  CHECK(sync.cloud_epoch == "genesis");
  CHECK_FALSE(sync.mirror_epoch);
  CHECK(sync.wiped);
  CHECK(reader->get(k1) == body_for(1));
  CHECK(reader->get(k2) == body_for(2));
  CHECK(reader->get(key_for("proj", "ci", 3)) == std::nullopt);
  CHECK(reader->tally().hits == 0);
  CHECK(reader->tally().misses == 3);
  CHECK(std::filesystem::exists(root / k1));  // mirrored like the local backend
  CHECK(reader->get(k1) == body_for(1));
  CHECK(reader->tally().hits == 1);
  CHECK(reader->list("v1/proj/objects/").size() == 2);  // lists always ask the cloud

  // Unchanged epoch: the mirror is reused as is.
  auto again = open_reader("Proj");
  auto sync2 = again->synchronize();
  CHECK(sync2.mirror_epoch == std::optional<std::string>("genesis"));
  CHECK_FALSE(sync2.wiped);
  CHECK(again->get(k2) == body_for(2));
  CHECK(again->tally().hits == 1);

  // Another machine (no cache) overwrites k1 and deletes k2; its flush bumps the marker.
  writer->put(k1, body_for(1, "remeasured"), storage::CollisionPolicy::overwrite);
  writer->remove(k2);
  writer->flush();

  // Without synchronizing, a stale hit would be served: that is exactly what the marker fixes.
  auto later = open_reader("Proj");
  auto sync3 = later->synchronize();
  CHECK(sync3.wiped);
  CHECK(sync3.removed == 2);
  CHECK(sync3.cloud_epoch != "genesis");
  CHECK(later->get(k1) == body_for(1, "remeasured"));
  CHECK(later->get(k2) == std::nullopt);
  CHECK(later->tally().misses == 2);
  CHECK(std::filesystem::exists(root / other_key));  // only this project was wiped

  // A damaged mirror file is a miss that repairs itself, never an error or a wrong body.
  std::ofstream(root / k1, std::ios::binary | std::ios::trunc) << "garbage";
  CHECK(later->get(k1) == body_for(1, "remeasured"));
  CHECK(later->tally().misses == 3);
  CHECK(later->get(k1) == body_for(1, "remeasured"));
  CHECK(later->tally().hits == 1);
}

TEST_CASE("a warm cache loads 2,000 small objects much faster than the cloud", "[azure][cache][measure]") {
  const auto container = bhtest::unique_container("measure");
  const auto cache_dir = bhtest::scratch_dir("measure-cache");
  auto writer = bhtest::make_store(container);
  constexpr std::size_t n = 2000;
  std::vector<std::string> keys;
  for (std::size_t i = 0; i < n; ++i) keys.push_back(key_for("proj", "m" + std::to_string(i % 10), static_cast<int>(i)));
  bhtest::parallel_for(n, 16, [&](std::size_t i) { writer->put(keys[i], body_for(static_cast<int>(i)), storage::CollisionPolicy::refuse); });

  auto load = [&](storage::CachedStore& store) {
    auto start = std::chrono::steady_clock::now();
    store.synchronize();
    auto listed = store.list("v1/proj/objects/");
    REQUIRE(listed.size() == n);
    std::atomic<std::size_t> found{0};
    bhtest::parallel_for(listed.size(), 16, [&](std::size_t i) {
      if (store.get(listed[i])) ++found;
    });
    REQUIRE(found == n);
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  };
  std::shared_ptr<storage::ObjectStore> cloud = bhtest::make_store(container);
  storage::CachedStore cold_store(cloud, cache_dir, "devstoreaccount1", container, "proj");
  double cold = load(cold_store);
  CHECK(cold_store.tally().misses == n);
  storage::CachedStore warm_store(cloud, cache_dir, "devstoreaccount1", container, "proj");
  double warm = load(warm_store);
  CHECK(warm_store.tally().hits == n);
  CHECK(warm_store.tally().misses == 0);
  std::cout << "[azure measure] load of " << n << " objects: cold " << cold << " s, warm " << warm
            << " s, ratio " << cold / warm << "x\n";
  CHECK(warm < cold);
}
