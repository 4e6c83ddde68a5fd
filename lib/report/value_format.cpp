// docs/formats.md#value-formatting value formatting and the JSON number spelling of
// docs/formats.md#records, #report-formats.

#include "benchhist/report/value_format.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <system_error>

namespace benchhist::report {

namespace {

// printf("%.*f") — glibc rounds half-to-even on the exact binary value, as required.
std::string fixed(double v, int decimals) {
  char buf[512];
  int n = std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  if (n < 0) return {};
  if (static_cast<std::size_t>(n) < sizeof buf) return std::string(buf, static_cast<std::size_t>(n));
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), "%.*f", decimals, v);
  big.resize(static_cast<std::size_t>(n));
  return big;
}

}  // namespace

std::string format_value(double v) {
  if (!std::isfinite(v)) return fixed(v, 0);
  double ipart = 0;
  const double frac = std::modf(v, &ipart);
  if (std::fabs(frac) <= 2.220446049250313e-16) return fixed(v, 0);
  const double a = std::fabs(v);
  int e = -12;
  for (int cand = 12; cand >= -12; --cand) {
    if (a >= std::pow(10.0, cand)) {
      e = cand;
      break;
    }
  }
  const int decimals = std::max(3 - e, 0);
  std::string s = fixed(v, decimals);
  if (s.find('.') != std::string::npos) {
    while (!s.empty() && s.back() == '0') s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
  }
  return s;
}

std::string format_signed_value(double v) {
  return std::string(std::signbit(v) ? "-" : "+") + format_value(std::fabs(v));
}

std::string format_percent(double relative) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%+.2f%%", relative * 100.0);
  return buf;
}

std::string format_run_span(std::uint64_t runs, const std::optional<std::string>& oldest,
                            const std::optional<std::string>& newest) {
  std::string out = std::to_string(runs);
  if (!oldest && !newest) return out;
  const std::string& a = oldest ? *oldest : *newest;
  const std::string& b = newest ? *newest : *oldest;
  out += " (";
  out += short_id(a);
  if (a != b) {
    out += " \u2192 ";
    out += short_id(b);
  }
  out += ')';
  return out;
}

std::string json_number(double v) {
  if (!std::isfinite(v)) return "null";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  std::string_view sci(buf, static_cast<std::size_t>(res.ptr - buf));
  std::string out;
  if (sci.front() == '-') {
    out += '-';
    sci.remove_prefix(1);
  }
  // Shortest digits and decimal exponent, then lay them out the way ryu/serde_json does.
  const auto epos = sci.find('e');
  std::string digits;
  for (char c : sci.substr(0, epos))
    if (c != '.') digits += c;
  int exp10 = 0;
  {
    std::string_view es = sci.substr(epos + 1);
    if (!es.empty() && es.front() == '+') es.remove_prefix(1);
    std::from_chars(es.data(), es.data() + es.size(), exp10);
  }
  const int length = static_cast<int>(digits.size());
  const int kk = exp10 + 1;  // 10^(kk-1) <= |v| < 10^kk
  const int k = kk - length;
  if (0 <= k && kk <= 16) {
    out += digits;
    out.append(static_cast<std::size_t>(k), '0');
    out += ".0";
  } else if (0 < kk && kk <= 16) {
    out += digits.substr(0, static_cast<std::size_t>(kk));
    out += '.';
    out += digits.substr(static_cast<std::size_t>(kk));
  } else if (-5 < kk && kk <= 0) {
    out += "0.";
    out.append(static_cast<std::size_t>(-kk), '0');
    out += digits;
  } else {
    out += digits[0];
    if (length > 1) {
      out += '.';
      out += digits.substr(1);
    }
    out += 'e';
    out += std::to_string(kk - 1);
  }
  return out;
}

std::string truncate_scalars(std::string_view s, std::size_t n) {
  std::size_t count = 0;
  std::size_t i = 0;
  while (i < s.size()) {
    if (count == n) break;
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t len = 1;
    if (c >= 0xF0) len = 4;
    else if (c >= 0xE0) len = 3;
    else if (c >= 0xC0) len = 2;
    i = std::min(s.size(), i + len);
    ++count;
  }
  return std::string(s.substr(0, i));
}

}  // namespace benchhist::report
