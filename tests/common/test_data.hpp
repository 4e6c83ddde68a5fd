#pragma once
// Test helper: the files under tests/data (vectors, engine fixtures, and the document
// examples the reports and codecs must reproduce byte for byte; tests/data/PROVENANCE.md
// says where each came from).

#include <filesystem>
#include <stdexcept>
#include <string>
#include <string_view>

#include "common/files.hpp"

namespace benchhist::testing {

inline std::string test_data_path(std::string_view relative) {
  return std::string(BH_TEST_DATA_DIR) + "/" + std::string(relative);
}

// One document example, e.g. example("formats/run-record-v5.json").
inline std::string example(std::string_view relative) {
  const auto path = test_data_path("examples/" + std::string(relative));
  if (!std::filesystem::is_regular_file(path))
    throw std::runtime_error("missing " + path + " (is tests/data complete in this checkout?)");
  return read_file(path);
}

}  // namespace benchhist::testing
