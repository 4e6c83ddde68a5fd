// Randomized robustness: whatever bytes a store hands back, the decoders either decode or
// throw benchhist::Error{decode} — never another exception type, never a crash — and
// sanitized segments always satisfy the key grammar.

#include <catch2/catch.hpp>

#include <random>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "common/test_data.hpp"

using namespace benchhist;

namespace {

std::string mutate(std::string s, std::mt19937& rng) {
  std::uniform_int_distribution<int> op(0, 3);
  std::uniform_int_distribution<int> byte(0, 255);
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    const std::size_t pos = rng() % s.size();
    switch (op(rng)) {
      case 0: s[pos] = static_cast<char>(byte(rng)); break;            // flip a byte
      case 1: s.erase(pos, 1 + rng() % 8); break;                       // delete a run
      case 2: s.insert(pos, 1, "{}[]\",:0-e."[rng() % 11]); break;      // JSON punctuation
      default: s.resize(pos); break;                                    // truncate
    }
  }
  return s;
}

template <class F>
void expect_decode_or_error(const std::string& text, F decode) {
  try {
    decode(text);
  } catch (const Error& e) {
    if (e.kind() != ErrorKind::decode) FAIL("unexpected error kind for: " << text << "\n" << e.what());
  } catch (const std::exception& e) {
    FAIL("foreign exception " << e.what() << " for: " << text);
  }
}

}  // namespace

TEST_CASE("mutated run records decode or fail with a decode error, never anything else", "[robustness]") {
  const std::string base = testing::example("formats/run-record-v5.json");
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i)
    expect_decode_or_error(mutate(base, rng), [](const std::string& t) { codec::decode_run(t, "k"); });
}

TEST_CASE("mutated blessing records decode or fail with a decode error, never anything else", "[robustness]") {
  const std::string base = testing::example("formats/blessing-record.json");
  const std::string key = codec::project_blessing_key("p", "c", 1);
  std::mt19937 rng(11);
  for (int i = 0; i < 3000; ++i)
    expect_decode_or_error(mutate(base, rng), [&](const std::string& t) { codec::decode_blessing(t, key); });
}

TEST_CASE("sanitized random bytes always form a valid, parseable key segment", "[robustness]") {
  std::mt19937 rng(13);
  for (int i = 0; i < 5000; ++i) {
    std::string raw(rng() % 12, '\0');
    for (char& c : raw) c = static_cast<char>(rng() % 256);
    const std::string seg = codec::sanitize_segment(raw);
    INFO(seg);
    REQUIRE(!seg.empty());
    CHECK(seg.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789._-") == std::string::npos);
    CHECK(seg.find_first_not_of('.') != std::string::npos);
    const auto k = codec::parse_data_key(codec::clean_key(raw, Engine::callgrind, raw, raw, raw));
    REQUIRE(k);
    CHECK(k->project == seg);
    CHECK(k->commit == seg);
    // Random text never crashes the parsers either.
    (void)codec::parse_data_key(raw);
    (void)codec::parse_project_blessing_key(raw);
    (void)codec::is_valid_key(raw);
  }
}
