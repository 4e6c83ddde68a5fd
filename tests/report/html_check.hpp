#pragma once
// Structural checks on the HTML reports, shared by the report unit tests and the end-to-end
// suite: a strict well-formedness check (every element closed in order, attributes quoted, no
// bare `<` or unknown `&` in text), and the self-containment check (nothing that could load
// from the network: no src/href other than in-page fragments, no url(), no @import, no
// http(s):// anywhere).

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace html_check {

struct Problem {
  bool ok = true;
  std::string what;
};

inline bool is_void(const std::string& tag) {
  static const std::set<std::string> v{"area", "base", "br", "col", "embed", "hr", "img", "input",
                                       "link", "meta", "source", "track", "wbr"};
  return v.count(tag) > 0;
}

inline std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Entities the reports may write.
inline bool entity_at(std::string_view text, std::size_t i) {
  for (std::string_view e : {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"})
    if (text.substr(i, e.size()) == e) return true;
  return false;
}

inline Problem well_formed(std::string_view doc) {
  auto fail = [&](std::size_t at, const std::string& why) {
    const std::size_t from = at > 60 ? at - 60 : 0;
    return Problem{false, why + " near: " + std::string(doc.substr(from, 120))};
  };
  if (doc.rfind("<!DOCTYPE html>", 0) != 0) return fail(0, "no <!DOCTYPE html> first");
  std::vector<std::string> stack;
  std::size_t i = std::string_view("<!DOCTYPE html>").size();
  while (i < doc.size()) {
    const char c = doc[i];
    if (c == '&') {
      if (!entity_at(doc, i)) return fail(i, "bare & in text");
      ++i;
      continue;
    }
    if (c == '>') return fail(i, "bare > in text");
    if (c != '<') {
      ++i;
      continue;
    }
    if (doc.substr(i, 4) == "<!--") {
      const auto end = doc.find("-->", i);
      if (end == std::string_view::npos) return fail(i, "unterminated comment");
      i = end + 3;
      continue;
    }
    const bool closing = i + 1 < doc.size() && doc[i + 1] == '/';
    std::size_t j = i + (closing ? 2 : 1);
    std::string name;
    while (j < doc.size() && (std::isalnum(static_cast<unsigned char>(doc[j])) || doc[j] == '-')) name += doc[j++];
    if (name.empty()) return fail(i, "bare < in text");
    name = lower(name);
    if (closing) {
      if (j >= doc.size() || doc[j] != '>') return fail(i, "malformed closing tag");
      if (stack.empty() || stack.back() != name)
        return fail(i, "</" + name + "> closes <" + (stack.empty() ? std::string("nothing") : stack.back()) + ">");
      stack.pop_back();
      i = j + 1;
      continue;
    }
    // Attributes: name="value" or bare names; values must be double-quoted without < or ".
    bool self_closing = false;
    while (true) {
      while (j < doc.size() && std::isspace(static_cast<unsigned char>(doc[j]))) ++j;
      if (j >= doc.size()) return fail(i, "unterminated tag");
      if (doc[j] == '>') break;
      if (doc.substr(j, 2) == "/>") {
        self_closing = true;
        ++j;
        break;
      }
      std::size_t k = j;
      while (k < doc.size() && (std::isalnum(static_cast<unsigned char>(doc[k])) || doc[k] == '-' || doc[k] == ':'))
        ++k;
      if (k == j) return fail(j, "malformed attribute in <" + name + ">");
      j = k;
      if (j < doc.size() && doc[j] == '=') {
        if (j + 1 >= doc.size() || doc[j + 1] != '"') return fail(j, "unquoted attribute value in <" + name + ">");
        const auto end = doc.find('"', j + 2);
        if (end == std::string_view::npos) return fail(j, "unterminated attribute value");
        const auto value = doc.substr(j + 2, end - j - 2);
        if (value.find('<') != std::string_view::npos) return fail(j, "< inside an attribute value");
        for (std::size_t a = 0; a < value.size(); ++a)
          if (value[a] == '&' && !entity_at(value, a)) return fail(j, "bare & inside an attribute value");
        j = end + 1;
      }
    }
    i = j + 1;
    if (name == "script" || name == "style") {
      const auto end = doc.find("</" + name + ">", i);
      if (end == std::string_view::npos) return fail(i, "unterminated <" + name + ">");
      i = end + name.size() + 3;
      continue;
    }
    if (!self_closing && !is_void(name)) stack.push_back(name);
  }
  if (!stack.empty()) return Problem{false, "unclosed <" + stack.back() + ">"};
  return {};
}

// Anything that would make a browser fetch: external scripts, styles, fonts, images, frames.
inline Problem self_contained(std::string_view doc) {
  const std::string low = lower(std::string(doc));
  for (std::string_view bad : {"http://", "https://", "url(", "@import", " src=", "<link", "<iframe", "<object",
                               "<embed", "<img", "srcset=", "xlink:href"})
    if (low.find(bad) != std::string::npos) return Problem{false, "contains " + std::string(bad)};
  for (auto pos = low.find(" href=\""); pos != std::string::npos; pos = low.find(" href=\"", pos + 1))
    if (low[pos + 7] != '#') return Problem{false, "an href that is not an in-page fragment"};
  return {};
}

inline std::size_t count(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (auto pos = text.find(needle); pos != std::string_view::npos; pos = text.find(needle, pos + needle.size())) ++n;
  return n;
}

}  // namespace html_check
