#include <catch2/catch.hpp>

#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"

using namespace benchhist;

TEST_CASE("sanitize_segment reproduces every example of formats.md 1.2", "[key]") {
  CHECK(codec::sanitize_segment("Team-App") == "team-app");
  CHECK(codec::sanitize_segment("team/app") == "team_app");
  CHECK(codec::sanitize_segment("weird:name") == "weird_name");
  CHECK(codec::sanitize_segment("with space") == "with_space");
  CHECK(codec::sanitize_segment("") == "_");
  CHECK(codec::sanitize_segment("..") == "_");
  CHECK(codec::sanitize_segment("X86_64-PC-Windows-MSVC") == "x86_64-pc-windows-msvc");
}

TEST_CASE("sanitize_segment replaces one underscore per Unicode scalar", "[key]") {
  CHECK(codec::sanitize_segment("caf\xC3\xA9") == "caf_");                 // é: 2 bytes, 1 scalar
  CHECK(codec::sanitize_segment("a\xF0\x9F\x9A\x80" "b") == "a_b");        // 4-byte emoji
  CHECK(codec::sanitize_segment("\xE2\x82\xAC" "5") == "_5");              // €: 3 bytes
  CHECK(codec::sanitize_segment(".") == "_");
  CHECK(codec::sanitize_segment("...") == "_");
  CHECK(codec::sanitize_segment(".a.") == ".a.");
  CHECK(codec::sanitize_segment("a\\b") == "a_b");
  CHECK(codec::sanitize_segment(std::string_view("a\0b", 3)) == "a_b");
}

TEST_CASE("a value longer than a store's name once sanitized cannot be a segment", "[key]") {
  CHECK_FALSE(codec::overlong_segment(std::string(255, 'a')));
  // 255 scalars of two bytes each are 255 characters in the store.
  std::string accented;
  for (int i = 0; i < 255; ++i) accented += "\xC3\xA9";
  CHECK_FALSE(codec::overlong_segment(accented));
  CHECK(codec::overlong_segment(accented + "x") ==
        "is 256 characters long; it names a directory of the store, which takes at most 255");
}

TEST_CASE("sanitize_segment maps each byte of invalid UTF-8 to one underscore", "[key]") {
  CHECK(codec::sanitize_segment("a\xFF" "b") == "a_b");
  CHECK(codec::sanitize_segment("\xC3") == "_");                 // truncated 2-byte sequence
  CHECK(codec::sanitize_segment("\xC0\xAF") == "__");            // overlong '/'
  CHECK(codec::sanitize_segment("\xED\xA0\x80") == "___");       // UTF-16 surrogate
  CHECK(codec::sanitize_segment("\xE2\x82" "x") == "__x");       // truncated 3-byte sequence
  CHECK(codec::sanitize_segment("\xF4\x90\x80\x80") == "____");  // above U+10FFFF
}

TEST_CASE("sanitize_segment is idempotent on its own output", "[key]") {
  for (std::string_view raw : {"Team-App", "caf\xC3\xA9", "", "..", "a/b/../c", "x\xFFy"}) {
    const std::string once = codec::sanitize_segment(raw);
    CHECK(codec::sanitize_segment(once) == once);
  }
}

TEST_CASE("builders sanitize raw values into the key grammar", "[key]") {
  CHECK(codec::clean_key("WordCount", Engine::callgrind, "x86_64-unknown-linux-gnu", "a1b2c3d4e5f60718",
                  "4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39") ==
        "v1/wordcount/objects/callgrind/x86_64-unknown-linux-gnu/a1b2c3d4e5f60718/"
        "4f2a1c9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39/clean.json");
  CHECK(codec::dirty_key("team/app", Engine::criterion, "X86_64-PC-Windows-MSVC", "CI Pool", "abc", 1787306400) ==
        "v1/team_app/objects/criterion/x86_64-pc-windows-msvc/ci_pool/abc/dirty-1787306400.json");
  CHECK(codec::partition_blessing_key("p", Engine::alloc_tracker, "t", "m", "c", 17) ==
        "v1/p/objects/alloc_tracker/t/m/c/bless-17.json");
  CHECK(codec::project_blessing_key("p", "4F2A", 1787306400123456789) ==
        "v1/p/objects/blessings/4f2a/bless-1787306400123456789.json");
  CHECK(codec::cache_epoch_key("Team App") == "v1/team_app/_cache-epoch");
  CHECK(codec::project_data_prefix("..") == "v1/_/objects/");
  const DiscriminantSet set{Engine::all_the_time, "x86_64-unknown-linux-gnu", "ci"};
  CHECK(codec::partition_prefix("p", set) == "v1/p/objects/all_the_time/x86_64-unknown-linux-gnu/ci/");
  CHECK(codec::commit_prefix("p", set, "ABC") == "v1/p/objects/all_the_time/x86_64-unknown-linux-gnu/ci/abc/");
  CHECK(codec::project_blessings_prefix("p") == "v1/p/objects/blessings/");
  // A `/` in a raw value can never split the key.
  CHECK(codec::clean_key("a/b", Engine::criterion, "t/u", "m/n", "../..") == "v1/a_b/objects/criterion/t_u/m_n/.._../clean.json");
}

TEST_CASE("a partition prefix of machine key ci does not match machine key ci-pool", "[key]") {
  const std::string ci = codec::partition_prefix("p", {Engine::criterion, "t", "ci"});
  const std::string pool_key = codec::clean_key("p", Engine::criterion, "t", "ci-pool", "c");
  CHECK_FALSE(std::string_view(pool_key).starts_with(ci));
  CHECK(std::string_view(codec::clean_key("p", Engine::criterion, "t", "ci", "c")).starts_with(ci));
}

TEST_CASE("parse_data_key parses every data object kind and round-trips through str", "[key]") {
  const std::string clean = codec::clean_key("p", Engine::criterion, "x86_64-unknown-linux-gnu", "mk", "abc");
  auto k = codec::parse_data_key(clean);
  REQUIRE(k);
  CHECK(k->project == "p");
  CHECK(k->engine == Engine::criterion);
  CHECK(k->target_triple == "x86_64-unknown-linux-gnu");
  CHECK(k->machine_key == "mk");
  CHECK(k->commit == "abc");
  CHECK(k->kind == codec::ObjectKind::clean);
  CHECK(k->timestamp == 0);
  CHECK(k->str() == clean);
  CHECK(k->set() == DiscriminantSet{Engine::criterion, "x86_64-unknown-linux-gnu", "mk"});

  const std::string dirty = codec::dirty_key("p", Engine::callgrind, "t", "m", "c", 1700000000);
  k = codec::parse_data_key(dirty);
  REQUIRE(k);
  CHECK(k->kind == codec::ObjectKind::dirty);
  CHECK(k->timestamp == 1700000000);
  CHECK(k->engine == Engine::callgrind);
  CHECK(k->str() == dirty);

  const std::string neg = codec::dirty_key("p", Engine::callgrind, "t", "m", "c", -5);
  k = codec::parse_data_key(neg);
  REQUIRE(k);
  CHECK(k->timestamp == -5);
  CHECK(k->str() == neg);

  const std::string bless = codec::partition_blessing_key("p", Engine::all_the_time, "t", "m", "c", 1787306400);
  k = codec::parse_data_key(bless);
  REQUIRE(k);
  CHECK(k->kind == codec::ObjectKind::partition_blessing);
  CHECK(k->timestamp == 1787306400);
  CHECK(k->engine == Engine::all_the_time);
  CHECK(k->str() == bless);

  k = codec::parse_data_key("v1/p/objects/alloc_tracker/t/m/unknown/clean.json");
  REQUIRE(k);
  CHECK(k->engine == Engine::alloc_tracker);
  CHECK(k->commit == codec::unknown_commit);
}

TEST_CASE("parse_data_key compares the engine segment case-insensitively", "[key]") {
  const auto k = codec::parse_data_key("v1/p/objects/CallGrind/t/m/c/clean.json");
  REQUIRE(k);
  CHECK(k->engine == Engine::callgrind);
}

TEST_CASE("parse_data_key ignores junk keys instead of failing", "[key]") {
  for (std::string_view junk : {
           "",
           "v1/p/_cache-epoch",
           "v1/p/objects/blessings/abc/bless-1787306400123456789.json",  // project-level: 6 segments
           "v2/p/objects/criterion/t/m/c/clean.json",                    // future layout
           "v1/p/data/criterion/t/m/c/clean.json",
           "v1/p/objects/perf/t/m/c/clean.json",                         // unknown engine
           "v1/p/objects/criterion/t/m/c/clean.json.bak",
           "v1/p/objects/criterion/t/m/c/.cbh-tmp-12-34-0",              // temp file
           "v1/p/objects/criterion/t/m/c/dirty-.json",
           "v1/p/objects/criterion/t/m/c/dirty-12a.json",
           "v1/p/objects/criterion/t/m/c/dirty-99999999999999999999.json",  // beyond i64
           "v1/p/objects/criterion/t/m/c/dirty-+5.json",                 // not canonical
           "v1/p/objects/criterion/t/m/c/dirty-007.json",
           "v1/p/objects/criterion/t/m/c/bless-x.json",
           "v1/p/objects/criterion/t/m/c/notes.txt",
           "v1/p/objects/criterion/t/m/c/extra/clean.json",               // 9 segments
           "v1/p/objects/criterion/t//c/clean.json",                     // empty segment
           "/v1/p/objects/criterion/t/m/clean.json",
           "v1/p/objects/criterion/t/m/c/clean.json/",
       }) {
    INFO(junk);
    CHECK_FALSE(codec::parse_data_key(junk).has_value());
  }
}

TEST_CASE("parse_data_key accepts only valid keys, so a listed name it parses never fails get()", "[key]") {
  // fuzz_storage_key finding: a listing (a blob name may hold any byte) with a NUL byte in a
  // segment parsed as a data key that validate_key then refused.
  using namespace std::string_literals;
  for (const std::string& bad : {
           "v1/wordcount/objects/callgrind/x86_64-unknow\x0b\0\0\0nu/m/c/clean.json"s,
           "v1/p/objects/criterion/t/m\\k/c/clean.json"s,  // backslash
           "v1/p/objects/criterion/C:/m/c/clean.json"s,     // drive prefix
           "v1/p/objects/criterion/t/m/../clean.json"s,
       }) {
    INFO(bad);
    CHECK_FALSE(codec::is_valid_key(bad));
    CHECK_FALSE(codec::parse_data_key(bad).has_value());
  }
  CHECK(codec::parse_data_key("v1/p/objects/criterion/t/m/c/clean.json").has_value());
  // The same for project-level blessing keys (fuzz_storage_key, second finding).
  CHECK_FALSE(codec::parse_project_blessing_key("v1/p\xff\x01\0\0\0\0\0\0/objects/blessings/4f2a1c9d/bless-1787306401043526789.json"s));
  CHECK_FALSE(codec::parse_project_blessing_key("v1/p/objects/blessings/C:/bless-1.json"s));
  CHECK(codec::parse_project_blessing_key("v1/p/objects/blessings/4f2a1c9d/bless-1.json") == std::optional<std::string>("4f2a1c9d"));
}

TEST_CASE("parse_project_blessing_key yields the commit and ignores everything else", "[key]") {
  const std::string key = codec::project_blessing_key("p", "4f2a1c9d", 1787306400123456789);
  const auto commit = codec::parse_project_blessing_key(key);
  REQUIRE(commit);
  CHECK(*commit == "4f2a1c9d");
  CHECK(codec::parse_project_blessing_key("v1/p/objects/blessings/c/bless--5.json") == std::optional<std::string>("c"));
  for (std::string_view junk : {
           "v1/p/objects/blessings/c/bless-99999999999999999999.json",  // outside the time range
           "v1/p/objects/blessings/c/bless-.json",
           "v1/p/objects/blessings/c/dirty-5.json",
           "v1/p/objects/blessings//bless-5.json",
           "v1//objects/blessings/c/bless-5.json",
           "v1/p/objects/blessing/c/bless-5.json",
           "v2/p/objects/blessings/c/bless-5.json",
           "v1/p/objects/blessings/c/x/bless-5.json",
           "v1/p/objects/criterion/t/m/c/bless-5.json",  // partition-local sidecar
       }) {
    INFO(junk);
    CHECK_FALSE(codec::parse_project_blessing_key(junk).has_value());
  }
}

TEST_CASE("validate_key refuses path tricks with an invalid storage key error", "[key]") {
  CHECK_NOTHROW(codec::validate_key("v1/p/objects/criterion/t/m/c/clean.json"));
  CHECK_NOTHROW(codec::validate_key("v1/p/_cache-epoch"));
  CHECK_NOTHROW(codec::validate_key("a..b/.hidden/xy:z"));
  for (std::string_view bad : {
           "", "/", "/etc/passwd", "v1//p", "v1/p/", "./v1", "v1/./p", "v1/../../etc", "..", ".",
           "v1\\..\\x", "C:/x", "v1/c:", "\\\\server\\share"}) {
    INFO(bad);
    CHECK_FALSE(codec::is_valid_key(bad));
    try {
      codec::validate_key(bad);
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.kind() == ErrorKind::invalid_key);
      CHECK(e.message() == "invalid storage key: " + std::string(bad));
      CHECK(e.subject() == std::string(bad));
    }
  }
  CHECK_FALSE(codec::is_valid_key(std::string_view("v1/a\0b", 6)));
  CHECK_THROWS_WITH(codec::validate_key(std::string_view("v1/a\0b", 6)), Catch::StartsWith("invalid storage key: v1/a\\0b"));
}

TEST_CASE("every key a builder produces is a valid storage key", "[key]") {
  for (std::string_view raw : {"", ".", "..", "/", "C:", "a\\b", "caf\xC3\xA9", "\xFF\xFE"}) {
    INFO(raw);
    CHECK(codec::is_valid_key(codec::clean_key(raw, Engine::criterion, raw, raw, raw)));
    CHECK(codec::is_valid_key(codec::project_blessing_key(raw, raw, 1)));
    CHECK(codec::is_valid_key(codec::cache_epoch_key(raw)));
    CHECK(codec::parse_data_key(codec::dirty_key(raw, Engine::callgrind, raw, raw, raw, 3)).has_value());
  }
}
