#pragma once
// Test helper: a fresh directory under the system temp dir, removed with its contents.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>

namespace benchhist::testing {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    const auto nanos = std::chrono::steady_clock::now().time_since_epoch().count();
    path_ = std::filesystem::temp_directory_path() /
            ("bh-core-test-" + std::to_string(::getpid()) + "-" + std::to_string(nanos) + "-" +
             std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace benchhist::testing
