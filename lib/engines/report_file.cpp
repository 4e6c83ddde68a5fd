#include "benchhist/engines/report_file.hpp"

#include <algorithm>

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

// The name of the Criterion per-benchmark file `doc` is (docs/formats.md#criterion), or empty.
// Criterion's output is harvested from the target directory, never read as a report; these are
// recognised only to say so, since estimates.json's outer levels look like a BMF document.
std::string_view criterion_file(const detail::JsonValue& doc) {
  const auto numbers = [](const detail::JsonValue& v) {
    return v.is_array() && std::all_of(v.items().begin(), v.items().end(), [](const auto& x) { return x.is_number(); });
  };
  if (doc.is_object()) {
    if (doc.find("group_id") && (doc.find("full_id") || doc.find("directory_name"))) return "benchmark.json";
    if (doc.find("iters") && doc.find("times")) return "sample.json";
    for (const auto& [name, value] : doc.members())
      if (value.is_object() && value.find("point_estimate") && value.find("confidence_interval")) return "estimates.json";
  } else if (doc.is_array()) {
    const auto& items = doc.items();
    // Criterion 0.3's sample.json is [iterations, times]; tukey.json the four Tukey fences.
    if (items.size() == 2 && numbers(items[0]) && numbers(items[1]) && items[0].items().size() == items[1].items().size())
      return "sample.json";
    if (items.size() == 4 && numbers(doc)) return "tukey.json";
  }
  return {};
}

// A Bencher Metric Format document: benchmark name → measure name → {value[, lower_value,
// upper_value]}. The measures' `value` is what sets it apart from other objects of objects
// (Criterion's estimates.json is mean → {point_estimate, confidence_interval, …}); the parser
// judges the rest.
bool bmf_shaped(const detail::JsonValue& doc, std::string& why_not) {
  const auto not_shaped = [&](const std::string& what) {
    why_not = "it is a JSON object of none of the known shapes (" + what + ")";
    return false;
  };
  for (const auto& [name, benchmark] : doc.members()) {
    if (!benchmark.is_object())
      return not_shaped("its member \"" + name + "\" is " + std::string(detail::JsonValue::type_name(benchmark.type())));
    for (const auto& [measure, m] : benchmark.members())
      if (!m.is_object() || !m.find("value"))
        return not_shaped("read as Bencher Metric Format, \"/" + name + "/" + measure +
                          "\" would be a measure, an object with \"value\", but it is " +
                          (m.is_object() ? std::string("an object without \"value\"")
                                         : std::string(detail::JsonValue::type_name(m.type()))));
  }
  return true;
}

// What recognition found: the engine, or why none (and, when the fix is known, what to do).
struct Recognition {
  std::optional<Engine> engine;
  std::string why_not;
  std::string hint;  // empty: the list of formats read
};

std::optional<Engine> json_shape(const detail::JsonValue& doc, std::string& why_not, std::string& hint) {
  if (doc.is_object() && doc.find("context") && doc.find("benchmarks")) return Engine::google_benchmark;
  if (const detail::JsonValue* results = doc.is_object() ? doc.find("results") : nullptr; results && !results->is_object())
    return Engine::hyperfine;
  if (const std::string_view criterion = criterion_file(doc); !criterion.empty()) {
    why_not = "it is Criterion's per-benchmark output (its " + std::string(criterion) + "), not a report";
    hint = "import a Criterion run with --target-dir <target dir> (the directory holding criterion/, where "
           "collect reads it by itself)";
    return std::nullopt;
  }
  if (!doc.is_object()) {
    why_not = "it is JSON but not an object";
    return std::nullopt;
  }
  if (doc.members().empty()) {
    why_not = "it is an empty JSON object";
    return std::nullopt;
  }
  if (!bmf_shaped(doc, why_not)) return std::nullopt;
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

Recognition recognise(std::string_view text) {
  Recognition r;
  const std::string_view body = skip_leading_space(text);
  if (body.empty()) {
    r.why_not = "it is empty";
  } else if (body.front() == '<') {
    r.engine = Engine::catch2;
  } else if (body.front() == '{' || body.front() == '[') {
    try {
      detail::JsonReadOptions options;
      options.non_finite_literals = true;  // Google Benchmark's bare NaN; the other parsers refuse it
      r.engine = json_shape(detail::parse_json(text, options), r.why_not, r.hint);
    } catch (const detail::JsonProblem& p) {
      r.why_not = std::string("it is not complete JSON (") + p.what() + ")";
    }
  } else if (looks_like_libtest(text) || looks_like_failed_libtest(text)) {
    r.engine = Engine::libtest;  // a FAILED bench is named by the parser
  } else if (looks_like_catch2_console(text)) {
    r.why_not = "it is Catch2's console output, not its XML report: run the test binary with -r xml -o <file> and "
                "give that file";
  } else {
    r.why_not = "it is neither JSON, XML nor libtest bench output";
  }
  return r;
}

}  // namespace

std::optional<Engine> recognise_report(std::string_view text, std::string* why_not) {
  Recognition r = recognise(text);
  if (!r.engine && why_not) *why_not = std::move(r.why_not);
  return r.engine;
}

RecognisedReport parse_report_text(std::string_view text, const std::filesystem::path& file) {
  const Recognition r = recognise(text);
  if (!r.engine)
    detail::throw_parse_error(
        file, "no engine recognises this file: " + r.why_not,
        !r.hint.empty()
            ? r.hint
            : "a report is Google Benchmark JSON (--benchmark_out_format=json), hyperfine --export-json, Catch2 XML "
              "(-r xml), a Bencher Metric Format document or cargo bench's output of #[bench] functions "
              "(docs/harnesses.md), and a benchmark command writes only such files into $BENCHHIST_OUTPUT_DIR; if "
              "the file was cut short, re-run the benchmarks");
  const Engine e = *r.engine;
  switch (e) {
    case Engine::google_benchmark: return {e, parse_google_benchmark(text, file)};
    case Engine::hyperfine: return {e, parse_hyperfine(text, file)};
    case Engine::catch2: return {e, parse_catch2(text, file)};
    case Engine::bmf: return {e, parse_bmf(text, file)};
    case Engine::libtest: return {e, parse_libtest(text, file)};
    default: break;
  }
  throw Error(ErrorKind::internal, "recognised a report of an engine that writes no report files", file.string());
}

RecognisedReport read_report_file(const std::filesystem::path& file) {
  // The engine is not known before reading: a read error names a report.
  return parse_report_text(detail::read_text_file(file, "report"), file);
}

}  // namespace benchhist::engines
