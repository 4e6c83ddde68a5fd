#pragma once
// Test helper: reads example documents straight out of the shared spec (never copied into
// the repository), so a test compares against the spec's exact bytes.

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace benchhist::testing {

inline std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first ```json block after the heading line `heading` in formats.md, without the fences
// and without the final newline before the closing fence.
inline std::string formats_json_example(const std::string& heading) {
  const std::string text = read_text_file(std::string(BH_SHARED_DIR) + "/spec/formats.md");
  const auto h = text.find("\n" + heading + "\n");
  if (h == std::string::npos) throw std::runtime_error("heading not found: " + heading);
  const std::string open = "```json\n";
  const auto start = text.find(open, h);
  if (start == std::string::npos) throw std::runtime_error("no json block after " + heading);
  const auto body = start + open.size();
  const auto end = text.find("\n```", body);
  return text.substr(body, end - body);
}

}  // namespace benchhist::testing
