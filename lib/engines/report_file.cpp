#include "benchhist/engines/report_file.hpp"

#include "benchhist/engines/bmf.hpp"
#include "benchhist/engines/catch2.hpp"
#include "benchhist/engines/google_benchmark.hpp"
#include "benchhist/engines/hyperfine.hpp"
#include "benchhist/engines/libtest.hpp"
#include "common.hpp"

namespace benchhist::engines {
namespace {

std::string_view skip_leading_space(std::string_view s) {
  if (s.starts_with("\xEF\xBB\xBF")) s.remove_prefix(3);
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
    s.remove_prefix(1);
  return s;
}

std::optional<Engine> json_shape(const detail::JsonValue& doc, std::string& why_not) {
  if (!doc.is_object()) {
    why_not = "it is JSON but not an object";
    return std::nullopt;
  }
  if (doc.find("context") && doc.find("benchmarks")) return Engine::google_benchmark;
  if (const detail::JsonValue* results = doc.find("results"); results && !results->is_object()) return Engine::hyperfine;
  if (doc.members().empty()) {
    why_not = "it is an empty JSON object";
    return std::nullopt;
  }
  for (const auto& [name, value] : doc.members())
    if (!value.is_object()) {
      why_not = "it is a JSON object of none of the known shapes (its member \"" + name + "\" is " +
                std::string(detail::JsonValue::type_name(value.type())) + ")";
      return std::nullopt;
    }
  return Engine::bmf;
}

// libtest output whose benchmarks all FAILED has no bench line; the run's `running N tests`
// header and a `test <name> ... FAILED` line still make it libtest's, so the parser names them.
bool looks_like_failed_libtest(std::string_view text) {
  const bool header = text.starts_with("running ") || text.find("\nrunning ") != std::string_view::npos;
  return header && text.find(" ... FAILED") != std::string_view::npos;
}

// The benchmark table Catch2's console reporter prints (`benchmark name  samples  iterations …`).
bool looks_like_catch2_console(std::string_view text) {
  for (std::size_t at = 0; (at = text.find("benchmark name", at)) != std::string_view::npos; ++at) {
    const auto eol = text.find('\n', at);
    const std::string_view line = text.substr(at, eol == std::string_view::npos ? std::string_view::npos : eol - at);
    if (line.find("samples") != std::string_view::npos && line.find("iterations") != std::string_view::npos) return true;
  }
  return false;
}

}  // namespace

std::optional<Engine> recognise_report(std::string_view text, std::string* why_not) {
  std::string reason;
  std::optional<Engine> e;
  const std::string_view body = skip_leading_space(text);
  if (body.empty()) {
    reason = "it is empty";
  } else if (body.front() == '<') {
    e = Engine::catch2;
  } else if (body.front() == '{' || body.front() == '[') {
    try {
      detail::JsonReadOptions options;
      options.non_finite_literals = true;  // Google Benchmark's bare NaN; the other parsers refuse it
      e = json_shape(detail::parse_json(text, options), reason);
    } catch (const detail::JsonProblem& p) {
      reason = std::string("it is not complete JSON (") + p.what() + ")";
    }
  } else if (looks_like_libtest(text) || looks_like_failed_libtest(text)) {
    e = Engine::libtest;  // a FAILED bench is named by the parser
  } else if (looks_like_catch2_console(text)) {
    reason = "it is Catch2's console output, not its XML report: run the test binary with -r xml -o <file> and "
             "give that file";
  } else {
    reason = "it is neither JSON, XML nor libtest bench output";
  }
  if (!e && why_not) *why_not = reason;
  return e;
}

RecognisedReport parse_report_text(std::string_view text, const std::filesystem::path& file) {
  std::string why_not;
  const std::optional<Engine> e = recognise_report(text, &why_not);
  if (!e)
    detail::throw_parse_error(
        file, "no engine recognises this file: " + why_not,
        "a report is Google Benchmark JSON (--benchmark_out_format=json), hyperfine --export-json, Catch2 XML "
        "(-r xml), a Bencher Metric Format document or cargo bench's output of #[bench] functions "
        "(docs/harnesses.md), and a benchmark command writes only such files into $BENCHHIST_OUTPUT_DIR; if the "
        "file was cut short, re-run the benchmarks");
  switch (*e) {
    case Engine::google_benchmark: return {*e, parse_google_benchmark(text, file)};
    case Engine::hyperfine: return {*e, parse_hyperfine(text, file)};
    case Engine::catch2: return {*e, parse_catch2(text, file)};
    case Engine::bmf: return {*e, parse_bmf(text, file)};
    case Engine::libtest: return {*e, parse_libtest(text, file)};
    default: break;
  }
  throw Error(ErrorKind::internal, "recognised a report of an engine that writes no report files", file.string());
}

RecognisedReport read_report_file(const std::filesystem::path& file) {
  // The engine is not known before reading: a read error names a report.
  return parse_report_text(detail::read_text_file(file, "report"), file);
}

}  // namespace benchhist::engines
