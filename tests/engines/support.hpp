#pragma once
// Test helpers for the engine suites: a private temporary target root and file writers.

#include "common/files.hpp"
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "benchhist/engines/freshness.hpp"
#include "benchhist/model/timestamp.hpp"

namespace enginetest {

namespace fs = std::filesystem;

inline std::string fixture_path(std::string_view rel) {
  return std::string(BH_TEST_DATA_DIR) + "/fixtures/engines/" + std::string(rel);
}

using benchhist::testing::TempDir;
using benchhist::testing::read_file;
using benchhist::testing::write_file;

inline std::string fixture(std::string_view rel) { return read_file(fixture_path(rel)); }

inline void set_mtime(const fs::path& p, benchhist::Timestamp t) {
  fs::last_write_time(p, benchhist::engines::to_file_time(t));
}

// A fixed "run start" well in the past of the real clock, so files the test writes now are
// fresh and files it backdates are stale, whatever the machine clock says.
inline benchhist::Timestamp run_start() { return benchhist::from_unix_seconds(1'700'000'000); }

}  // namespace enginetest

#include <catch2/catch.hpp>

#include "benchhist/error.hpp"

namespace enginetest {

// `read(file)` must fail with the parse error naming `file` (its message, subject and a hint),
// its cause containing `cause`.
template <class Reader>
void expect_parse_error(Reader read, const fs::path& file, const std::string& cause) {
  try {
    read(file);
    FAIL("no error for " << file);
  } catch (const benchhist::Error& e) {
    CHECK(e.kind() == benchhist::ErrorKind::benchmark_output);
    CHECK(e.message() == "failed to parse benchmark output: " + file.string());
    CHECK(e.subject() == file.string());
    CHECK_THAT(e.cause(), Catch::Contains(cause));
    CHECK_FALSE(e.hint().empty());
  }
}

}  // namespace enginetest
