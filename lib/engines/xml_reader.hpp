#pragma once
// A small strict XML reader private to the engine harvesters, for Catch2's XML reporter
// (docs/harnesses.md#catch2). It keeps elements and attributes (entities decoded) and drops text,
// comments, processing instructions and CDATA, which no harvester reads; it reports the line of
// the first problem, so a truncated report names where it ends. No DTDs, no external entities.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json_reader.hpp"

namespace benchhist::engines::detail {

// One problem type for every engine reader: with_parse_context turns it into the parse error.
using XmlProblem = JsonProblem;

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;  // in document order
  std::vector<XmlElement> children;
  std::size_t line = 0;  // where the start tag begins (1-based)

  // The attribute's decoded value, or nullptr.
  const std::string* attribute(std::string_view n) const noexcept;
};

// Parses one complete document (an optional declaration, comments, exactly one root element;
// nesting depth ≤ 128). Throws XmlProblem naming the line of the first problem.
XmlElement parse_xml(std::string_view text);

}  // namespace benchhist::engines::detail
