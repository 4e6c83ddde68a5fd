// Decoding Azure service answers (docs/formats.md#azure-backend); see responses.hpp for the rules.

#include "benchhist/azure/responses.hpp"

#include <boost/json.hpp>
#include <charconv>
#include <optional>

#include "benchhist/codec/xml_reference.hpp"
#include "benchhist/error.hpp"

namespace benchhist::azure {

namespace json = boost::json;
using std::chrono::system_clock;

namespace {

// A token service that answered 2xx without a token: a proxy or a wrong endpoint answered, or the
// identity settings point at something that is not a token service.
constexpr std::string_view token_answer_hint =
    "check AZURE_CLIENT_ID and AZURE_TENANT_ID (and AZURE_AUTHORITY_HOST or IDENTITY_ENDPOINT if set): the "
    "answer came from something that is not an Entra ID token service";

[[noreturn]] void malformed_listing(std::string_view subject, std::string cause) {
  throw Error(ErrorKind::network, "the blob listing of " + std::string(subject) + " is malformed",
              std::string(subject), std::move(cause),
              "a proxy or the network may have mangled the response; try again, and check any proxy between "
              "this machine and the storage account");
}

// The text between the first <tag> and the following </tag>, or nullopt.
std::optional<std::string_view> xml_text(std::string_view body, std::string_view tag) {
  const std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  auto a = body.find(open);
  if (a == std::string_view::npos) return std::nullopt;
  a += open.size();
  const auto b = body.find(close, a);
  if (b == std::string_view::npos) return std::nullopt;
  return body.substr(a, b - a);
}

// XML's five named entities and numeric character references; nullopt names the defect.
std::optional<std::string> xml_unescape(std::string_view s, std::string& defect) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    const auto semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      defect = "an unterminated entity reference";
      return std::nullopt;
    }
    const auto text = codec::xml::decode_reference(s.substr(i + 1, semi - i - 1), defect);
    if (!text) return std::nullopt;
    out += *text;
    i = semi;
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out += s[i];
      continue;
    }
    const int hi = i + 1 < s.size() ? hex_value(s[i + 1]) : -1;
    const int lo = i + 2 < s.size() ? hex_value(s[i + 2]) : -1;
    if (hi < 0 || lo < 0) return std::nullopt;
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::optional<json::object> json_object(std::string_view body) {
  boost::system::error_code ec;
  auto v = json::parse(body, ec);
  if (ec || !v.is_object()) return std::nullopt;
  return std::move(v.as_object());
}

// An integral JSON number or numeric string within [lo, hi], else nullopt.
std::optional<long long> integer_field(const json::object& o, std::string_view name, long long lo, long long hi) {
  const auto* v = o.if_contains(name);
  if (!v) return std::nullopt;
  std::optional<long long> n;
  if (v->is_int64()) {
    n = v->as_int64();
  } else if (v->is_uint64()) {
    if (v->as_uint64() <= static_cast<std::uint64_t>(hi)) n = static_cast<long long>(v->as_uint64());
  } else if (v->is_double()) {
    // Compared as doubles first: converting an out-of-range double is undefined.
    const double d = v->as_double();
    if (d >= static_cast<double>(lo) && d <= static_cast<double>(hi) && d == static_cast<double>(static_cast<long long>(d)))
      n = static_cast<long long>(d);
  } else if (v->is_string()) {
    const auto s = v->as_string();
    long long parsed = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), parsed);
    if (!s.empty() && ec == std::errc{} && end == s.data() + s.size()) n = parsed;
  }
  if (n && (*n < lo || *n > hi)) return std::nullopt;
  return n;
}

constexpr long long kMaxLifetimeSeconds = 10LL * 366 * 24 * 3600;
// The system clock counts nanoseconds in 64 bits: it ends in 2262 (found by fuzz_token_response).
constexpr long long kMaxUnixSeconds = 9'000'000'000LL;  // 2255-03-14

}  // namespace

BlobListPage parse_list_blobs_page(std::string_view body, std::string_view subject) {
  const auto open = body.find("<EnumerationResults");
  const auto close = body.rfind("</EnumerationResults>");
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    malformed_listing(subject, "the response is not a whole EnumerationResults document (" +
                                   std::to_string(body.size()) + " bytes)");
  const auto doc = body.substr(open, close - open);
  BlobListPage page;
  std::string defect;
  std::size_t pos = 0;
  // <Blob><Name [Encoded="true"]>...</Name>...</Blob>
  while ((pos = doc.find("<Blob>", pos)) != std::string_view::npos) {
    const auto end = doc.find("</Blob>", pos);
    if (end == std::string_view::npos) malformed_listing(subject, "a <Blob> element is not closed");
    const auto blob = doc.substr(pos, end - pos);
    pos = end;
    const auto n = blob.find("<Name");
    if (n == std::string_view::npos) malformed_listing(subject, "a <Blob> element has no <Name>");
    const auto gt = blob.find('>', n);
    const auto name_close = gt == std::string_view::npos ? gt : blob.find("</Name>", gt);
    if (name_close == std::string_view::npos) malformed_listing(subject, "a <Name> element is not closed");
    const bool encoded = blob.substr(n, gt - n).find("Encoded=\"true\"") != std::string_view::npos;
    auto name = xml_unescape(blob.substr(gt + 1, name_close - gt - 1), defect);
    if (!name) malformed_listing(subject, "a blob name holds " + defect);
    if (encoded) {
      name = percent_decode(*name);
      if (!name) malformed_listing(subject, "an Encoded blob name holds a bad percent escape");
    }
    page.names.push_back(std::move(*name));
  }
  if (const auto marker = xml_text(doc, "NextMarker")) {
    auto text = xml_unescape(*marker, defect);
    if (!text) malformed_listing(subject, "the NextMarker holds " + defect);
    page.next_marker = std::move(*text);
  }
  return page;
}

std::string parse_error_code(std::string_view body) {
  const auto text = xml_text(body, "Code");
  if (!text || text->empty() || text->size() > 128) return {};
  for (char c : *text)
    if (c <= ' ' || c > '~') return {};
  return std::string(*text);
}

std::string parse_authentication_detail(std::string_view body) {
  const auto text = xml_text(body, "AuthenticationErrorDetail");
  if (!text) return {};
  // Its first line, at most 300 characters: the reason comes first (a trace id may follow).
  std::string_view line = text->substr(0, text->find_first_of("\r\n"));
  if (line.size() > 300) line = line.substr(0, 300);
  for (char c : line)
    if (c < ' ' || c > '~') return {};
  return std::string(line);
}

AccessToken parse_token_response(std::string_view body, system_clock::time_point now, std::string_view what,
                                 std::string_view subject) {
  const auto o = json_object(body);
  if (!o)
    throw Error(ErrorKind::auth, std::string(what) + " returned a response that is not a JSON object",
                std::string(subject), {}, std::string(token_answer_hint));
  const auto* t = o->if_contains("access_token");
  if (!t || !t->is_string() || t->as_string().empty())
    throw Error(ErrorKind::auth, std::string(what) + " returned no access token", std::string(subject), {},
                std::string(token_answer_hint));
  for (char c : t->as_string())
    if (c <= ' ' || c > '~')
      throw Error(ErrorKind::auth, std::string(what) + " returned a malformed access token", std::string(subject),
                  "the token holds bytes outside visible ASCII", "try again; check any proxy in between");
  AccessToken token{std::string(t->as_string()), now};
  if (auto in = integer_field(*o, "expires_in", 0, kMaxLifetimeSeconds))
    token.expires_on = now + std::chrono::seconds(*in);
  else if (auto on = integer_field(*o, "expires_on", 0, kMaxUnixSeconds))
    token.expires_on = system_clock::time_point(std::chrono::seconds(*on));
  else
    token.expires_on = now + std::chrono::minutes(10);  // unknown lifetime: stay conservative
  return token;
}

std::string token_rejection_detail(int status, std::string_view body) {
  std::string detail = "HTTP " + std::to_string(status);
  const auto clean = [](std::string text) {
    for (char& c : text)
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    return text;
  };
  if (const auto o = json_object(body)) {
    if (const auto* e = o->if_contains("error"); e && e->is_string()) {
      std::string code(e->as_string());
      if (code.size() > 100) code = code.substr(0, 100) + "...";
      detail += " " + clean(std::move(code));
    }
    if (const auto* d = o->if_contains("error_description"); d && d->is_string()) {
      std::string text(d->as_string());
      text = text.substr(0, text.find_first_of("\r\n"));
      if (text.size() > 300) text = text.substr(0, 300) + "...";
      detail += ": " + clean(std::move(text));
    }
  }
  return detail;
}

}  // namespace benchhist::azure
