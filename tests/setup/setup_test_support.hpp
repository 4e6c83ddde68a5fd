#pragma once
// Small helpers shared by the setup tests: a scratch directory, file I/O, valid options.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "setup/setup_azure_request.hpp"

namespace setup_test {

namespace fs = std::filesystem;

class ScratchDir {
 public:
  ScratchDir() {
    std::string pattern = (fs::temp_directory_path() / "bh-setup-test-XXXXXX").string();
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    if (!::mkdtemp(buf.data())) throw std::runtime_error("mkdtemp failed");
    path_ = buf.data();
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

inline std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write_file(const fs::path& p, const std::string& text) {
  std::ofstream o(p, std::ios::binary | std::ios::trunc);
  o << text;
}

// Every execution-mode value given and valid.
inline benchhist::setup::SetupAzureRequest full_options() {
  benchhist::setup::SetupAzureRequest o;
  o.subscription_id = "00000000-1111-2222-3333-444444444444";
  o.resource_group = "rg-bench-history";
  o.location = "westeurope";
  o.storage_account = "benchacct01";
  o.github_owner = "octo-org";
  o.github_repository = "widgets.rs";
  o.history_branch = "main";
  return o;
}

inline std::vector<std::string> dir_entries(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  return names;
}

}  // namespace setup_test
