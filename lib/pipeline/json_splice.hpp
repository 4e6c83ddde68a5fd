#pragma once
// Appending a member to a rendered JSON document (internal to the pipeline area). The list
// and prune renderers of the report area know only partition-local rows; project-level
// (scoped) blessings are added to their documents here until the report model carries them.

#include <string>
#include <string_view>

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/error.hpp"

namespace benchhist::pipeline::detail {

// Inserts `"<key>": <value_json>` as the last member of a pretty-printed object document
// (the report renderers' layout: 2-space indent, closing `}` on its own line).
inline std::string append_member(std::string doc, std::string_view key, const std::string& value_json) {
  const auto close = doc.rfind('}');
  if (close == std::string::npos) throw Error(ErrorKind::internal, "rendered JSON document has no closing brace");
  std::string indented;
  for (char c : value_json) {
    indented += c;
    if (c == '\n') indented += "  ";
  }
  std::string head = doc.substr(0, close);
  while (!head.empty() && (head.back() == '\n' || head.back() == ' ')) head.pop_back();
  const bool empty_object = !head.empty() && head.back() == '{';
  return head + (empty_object ? "" : ",") + "\n  " + codec::json::quote(key) + ": " + indented + "\n}" + doc.substr(close + 1);
}

}  // namespace benchhist::pipeline::detail
