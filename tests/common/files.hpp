#pragma once
// Test helpers shared by every suite: a private temporary directory removed with its contents,
// and whole-file reads and writes.

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

namespace benchhist::testing {

// A fresh directory `<tmp>/<name>-XXXXXX`, removed on destruction (permissions restored first,
// so a test that made it read-only still leaves nothing behind).
class TempDir {
 public:
  explicit TempDir(std::string_view name = "bh-test") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (std::string(name) + "-XXXXXX")).string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed for " + tmpl);
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(path_, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec))
      if (it->is_directory(ec)) std::filesystem::permissions(it->path(), std::filesystem::perms::owner_all,
                                                            std::filesystem::perm_options::add, ec);
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all, std::filesystem::perm_options::add, ec);
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

  // Writes `text` to `rel` (creating parents) and returns its path.
  std::filesystem::path write(const std::filesystem::path& rel, std::string_view text) const;

 private:
  std::filesystem::path path_;
};

// The whole file, or "" when it cannot be read (tests assert on absence separately).
inline std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void write_file(const std::filesystem::path& p, std::string_view text) {
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << text;
  if (!out) throw std::runtime_error("test cannot write " + p.string());
}

inline std::filesystem::path TempDir::write(const std::filesystem::path& rel, std::string_view text) const {
  auto p = path_ / rel;
  write_file(p, text);
  return p;
}

}  // namespace benchhist::testing
