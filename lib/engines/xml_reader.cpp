#include "xml_reader.hpp"


#include "benchhist/codec/utf8.hpp"
#include "benchhist/codec/xml_reference.hpp"

namespace benchhist::engines::detail {
namespace {

constexpr int max_depth = 128;

class Reader {
 public:
  explicit Reader(std::string_view text) : s_(text) {}

  XmlElement document() {
    if (!codec::utf8::is_valid(s_)) fail("the file is not valid UTF-8");
    if (s_.starts_with("\xEF\xBB\xBF")) pos_ = 3;
    skip_misc();
    if (at_end()) fail("no root element (the file is empty or truncated)");
    if (peek() != '<') fail("text before the root element; this is not an XML document");
    XmlElement root = element(0);
    skip_misc();
    if (!at_end()) fail("content after the root element");
    return root;
  }

 private:
  std::string_view s_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;

  [[noreturn]] void fail(const std::string& what) const {
    // Whatever was expected, the end of the text is the news: say so.
    const bool cut = at_end() && what.find("truncated") == std::string::npos;
    throw XmlProblem("XML line " + std::to_string(line_) + ": " + what + (cut ? " (the file ends here: truncated?)" : ""));
  }
  bool at_end() const { return pos_ >= s_.size(); }
  char peek() const { return s_[pos_]; }
  void advance(std::size_t n = 1) {
    for (std::size_t i = 0; i < n && pos_ < s_.size(); ++i)
      if (s_[pos_++] == '\n') ++line_;
  }
  bool next_is(std::string_view t) const { return s_.substr(pos_).starts_with(t); }
  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }
  void skip_until(std::string_view end, const char* what) {
    const auto at = s_.find(end, pos_);
    if (at == std::string_view::npos) fail(std::string("unterminated ") + what + " (the file is truncated?)");
    advance(at + end.size() - pos_);
  }
  // Whitespace, comments and processing instructions (the declaration among them).
  void skip_misc() {
    for (;;) {
      skip_space();
      if (next_is("<!--")) skip_until("-->", "comment");
      else if (next_is("<?")) skip_until("?>", "processing instruction");
      else if (next_is("<!DOCTYPE") || next_is("<!ENTITY")) fail("DTDs are not read; a reporter's XML has none");
      else return;
    }
  }
  static bool name_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
           c == '.' || c == ':' || static_cast<unsigned char>(c) >= 0x80;
  }
  std::string name() {
    const std::size_t b = pos_;
    while (!at_end() && name_char(peek())) advance();
    if (pos_ == b) fail(at_end() ? "unexpected end of file (the file is truncated?)" : "a name was expected");
    return std::string(s_.substr(b, pos_ - b));
  }
  // At '&': one entity or character reference, decoded into `out`.
  void reference(std::string& out) {
    const auto semi = s_.find(';', pos_);
    if (semi == std::string_view::npos || semi - pos_ > 12) fail("an unterminated entity reference");
    std::string defect;
    const auto text = codec::xml::decode_reference(s_.substr(pos_ + 1, semi - pos_ - 1), defect);
    if (!text) fail(defect);
    out += *text;
    advance(semi + 1 - pos_);
  }
  std::string attribute_value() {
    if (at_end()) fail("unexpected end of file (the file is truncated?)");
    const char quote = peek();
    if (quote != '"' && quote != '\'') fail("an attribute value must be quoted");
    advance();
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated attribute value (the file is truncated?)");
      const char c = peek();
      if (c == quote) { advance(); return out; }
      if (c == '<') fail("'<' inside an attribute value");
      if (c == '&') { reference(out); continue; }
      out += c;
      advance();
    }
  }
  // Text between tags: dropped, but its references are checked.
  void content_text() {
    std::string ignored;
    while (!at_end() && peek() != '<') {
      if (peek() == '&') reference(ignored);
      else advance();
    }
  }
  XmlElement element(int depth) {
    if (depth > max_depth) fail("elements nested deeper than " + std::to_string(max_depth));
    XmlElement e;
    e.line = line_;
    advance();  // '<'
    e.name = name();
    for (;;) {
      const std::size_t before = pos_;
      skip_space();
      if (at_end()) fail("unexpected end of file inside <" + e.name + "> (the file is truncated?)");
      if (next_is("/>")) { advance(2); return e; }
      if (peek() == '>') { advance(); break; }
      if (pos_ == before) fail("a space was expected between attributes of <" + e.name + ">");
      std::string n = name();
      skip_space();
      if (at_end() || peek() != '=') fail("'=' was expected after the attribute " + n);
      advance();
      skip_space();
      std::string v = attribute_value();
      for (const auto& [seen, value] : e.attributes)
        if (seen == n) fail("the attribute " + n + " is repeated in <" + e.name + ">");
      e.attributes.emplace_back(std::move(n), std::move(v));
    }
    for (;;) {
      content_text();
      if (at_end()) fail("unexpected end of file: <" + e.name + "> is not closed (the file is truncated?)");
      if (next_is("</")) {
        advance(2);
        const std::string closing = name();
        if (closing != e.name) fail("</" + closing + "> closes <" + e.name + ">");
        skip_space();
        if (at_end() || peek() != '>') fail("'>' was expected after </" + closing);
        advance();
        return e;
      }
      if (next_is("<!--")) skip_until("-->", "comment");
      else if (next_is("<![CDATA[")) skip_until("]]>", "CDATA section");
      else if (next_is("<?")) skip_until("?>", "processing instruction");
      else if (next_is("<!")) fail("a markup declaration inside an element");
      else e.children.push_back(element(depth + 1));
    }
  }
};

}  // namespace

const std::string* XmlElement::attribute(std::string_view n) const noexcept {
  for (const auto& [k, v] : attributes)
    if (k == n) return &v;
  return nullptr;
}

XmlElement parse_xml(std::string_view text) { return Reader(text).document(); }

}  // namespace benchhist::engines::detail
