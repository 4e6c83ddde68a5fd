#pragma once
// Test helpers for the engine suites: a private temporary target root and file writers.

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
  return std::string(BH_SHARED_DIR) + "/fixtures/engines/" + std::string(rel);
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw std::runtime_error("test cannot read " + p.string());
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline std::string fixture(std::string_view rel) { return slurp(fixture_path(rel)); }

// A fresh directory under the system temp dir, removed on destruction.
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "bh-engines-XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::permissions(path_, fs::perms::owner_all, fs::perm_options::add, ec);
    fs::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline void write_file(const fs::path& p, std::string_view text) {
  fs::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("test cannot write " + p.string());
}

inline void set_mtime(const fs::path& p, benchhist::Timestamp t) {
  fs::last_write_time(p, benchhist::engines::to_file_time(t));
}

// A fixed "run start" well in the past of the real clock, so files the test writes now are
// fresh and files it backdates are stale, whatever the machine clock says.
inline benchhist::Timestamp run_start() { return benchhist::from_unix_seconds(1'700'000'000); }

}  // namespace enginetest
