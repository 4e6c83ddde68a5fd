#include "benchhist/engines/libtest.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "benchhist/codec/utf8.hpp"
#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonProblem;  // the parse-problem carrier of every engine, JSON or not

constexpr std::string_view bench_marker = " ... bench:";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// A libtest figure: digits with ',' thousands separators and an optional fraction. Anything else
// (NaN, inf, a sign) is refused.
std::optional<double> figure(std::string_view s) {
  std::string digits;
  for (char c : s) {
    if (c == ',') continue;
    if (!((c >= '0' && c <= '9') || c == '.')) return std::nullopt;
    digits += c;
  }
  double v = 0;
  const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(v))
    return std::nullopt;
  return v;
}

// One `test <name> ... <outcome>` line: the name and the outcome text, or nullopt for other lines.
std::optional<std::pair<std::string_view, std::string_view>> test_line(std::string_view line) {
  line = trim(line);
  if (!line.starts_with("test ")) return std::nullopt;
  const auto sep = line.find(" ... ");
  if (sep == std::string_view::npos) return std::nullopt;
  return std::pair{trim(line.substr(5, sep - 5)), trim(line.substr(sep + 5))};
}

ParsedReport read_lines(std::string_view text) {
  if (!codec::utf8::is_valid(text)) throw JsonProblem("the file is not valid UTF-8");
  ParsedReport out;
  std::map<BenchmarkId, std::string> names;  // identity → the benchmark name it came from
  std::size_t line_no = 0, start = 0;
  bool any_bench = false;
  while (start <= text.size()) {
    const auto nl = text.find('\n', start);
    const std::string_view line = text.substr(start, nl == std::string_view::npos ? std::string_view::npos : nl - start);
    start = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++line_no;
    const auto t = test_line(line);
    if (!t) continue;
    const auto [name, outcome] = *t;
    const std::string where = "line " + std::to_string(line_no) + " (\"" + std::string(trim(line)) + "\")";
    if (outcome == "FAILED")
      throw JsonProblem("benchmark \"" + std::string(name) + "\" FAILED (" + where +
                        "); fix it (cargo bench prints why above the summary) and run the benchmarks again");
    if (outcome == "ignored") {
      out.notes.push_back(std::string(name) + " stored nothing (ignored)");
      continue;
    }
    if (!outcome.starts_with("bench:")) continue;  // a #[test] run beside the benchmarks
    any_bench = true;
    // bench: <figure> ns/iter (+/- <figure>)[ = <rate> MB/s]
    std::string_view rest = trim(outcome.substr(6));
    const auto sp = rest.find(' ');
    const auto value = figure(rest.substr(0, sp));
    if (sp == std::string_view::npos || !value)
      throw JsonProblem(where + ": the bench figure is not a non-negative number");
    rest = trim(rest.substr(sp));
    if (!rest.starts_with("ns/iter"))
      throw JsonProblem(where + ": the unit is not ns/iter");
    rest = trim(rest.substr(7));
    const auto close = rest.find(')');
    if (!rest.starts_with("(+/-") || close == std::string_view::npos || !figure(trim(rest.substr(4, close - 4))))
      throw JsonProblem(where + ": the line is truncated or has no (+/- <deviation>)");
    BenchmarkResult r;
    r.id = detail::split_identity(name, "::");
    if (auto [it, fresh] = names.try_emplace(r.id, std::string(name)); !fresh) {
      if (it->second != name) detail::throw_identity_collision(it->second, name, r.id, "::");
      throw JsonProblem("benchmark \"" + std::string(name) + "\" is reported twice (" + where +
                          "); two bench targets define it: rename one");
    }
    r.metrics.push_back(MetricValue{MetricKind::wall_time, *value, std::nullopt, std::nullopt});
    out.results.push_back(std::move(r));
  }
  if (!any_bench) throw JsonProblem("no `test <name> ... bench: <n> ns/iter (+/- <d>)` line");
  return out;
}

}  // namespace

bool looks_like_libtest(std::string_view text) noexcept {
  std::size_t at = 0;
  while ((at = text.find(bench_marker, at)) != std::string_view::npos) {
    const auto bol = text.rfind('\n', at);
    const std::string_view line = text.substr(bol == std::string_view::npos ? 0 : bol + 1);
    if (trim(line).starts_with("test ")) return true;
    at += bench_marker.size();
  }
  return false;
}

ParsedReport parse_libtest(std::string_view text, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_lines(text); });
}

ParsedReport read_libtest(const std::filesystem::path& file) {
  return parse_libtest(detail::read_text_file(file, Engine::libtest), file);
}

}  // namespace benchhist::engines
