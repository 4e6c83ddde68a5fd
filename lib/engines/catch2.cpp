#include "benchhist/engines/catch2.hpp"

#include <charconv>
#include <cmath>
#include <string>
#include <vector>

#include "common.hpp"
#include "xml_reader.hpp"

namespace benchhist::engines {
namespace {

using detail::XmlElement;
using detail::XmlProblem;

std::string at_line(const XmlElement& e) { return "<" + e.name + "> at XML line " + std::to_string(e.line); }

// A figure Catch2 wrote through an ostream (`304.637`, `1.23457e+06`): finite and non-negative.
double figure(const XmlElement& e, std::string_view attribute) {
  const std::string* text = e.attribute(attribute);
  if (!text) throw XmlProblem(at_line(e) + " has no " + std::string(attribute));
  double v = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (text->empty() || ec != std::errc() || end != text->data() + text->size())
    throw XmlProblem(at_line(e) + ": " + std::string(attribute) + "=\"" + *text + "\" is not a number");
  if (!std::isfinite(v)) throw XmlProblem(at_line(e) + ": " + std::string(attribute) + "=\"" + *text + "\" is not a finite number");
  if (v < 0) throw XmlProblem(at_line(e) + ": " + std::string(attribute) + "=\"" + *text + "\" is negative; a time cannot be");
  return v;
}

const XmlElement* child(const XmlElement& e, std::string_view name) {
  for (const XmlElement& c : e.children)
    if (c.name == name) return &c;
  return nullptr;
}

std::string required_name(const XmlElement& e) {
  const std::string* n = e.attribute("name");
  if (!n) throw XmlProblem(at_line(e) + " has no name");
  return *n;
}

// An identity's segments as written (["a/b", "c"]), to tell apart two that join alike.
std::string segments_shown(const BenchmarkId& id) {
  std::string out = "[";
  for (std::size_t i = 0; i < id.segments().size(); ++i) out += (i ? ", \"" : "\"") + id.segments()[i] + "\"";
  return out + "]";
}

struct Walk {
  ParsedReport& out;
  bool test_case_failed = false;

  void benchmark(const XmlElement& b, std::vector<std::string> path) {
    path.push_back(required_name(b));
    BenchmarkResult r;
    r.id = BenchmarkId(path);
    const std::string shown = r.id.qualified();
    for (const BenchmarkResult& earlier : out.results) {
      if (earlier.id == r.id)
        throw XmlProblem("benchmark \"" + r.id.qualified() + "\" is reported twice (" + at_line(b) +
                         "); a BENCHMARK outside SECTIONs runs once per section: move it into its own SECTION or "
                         "TEST_CASE");
      // A '/' inside a test case or section name: two identities every report prints alike.
      if (earlier.id.qualified() == shown)
        throw XmlProblem("two benchmarks, " + segments_shown(earlier.id) + " and " + segments_shown(r.id) + " (" +
                             at_line(b) + "), are both shown as \"" + shown + "\"",
                         "rename a test case, section or benchmark so that the names joined with '/' differ; "
                         "reports, examine and bless could not tell them apart");
    }
    if (const XmlElement* failed = child(b, "failed")) {
      const std::string* msg = failed->attribute("message");
      out.notes.push_back(r.id.qualified() + " stored nothing (failed: " + (msg ? *msg : std::string("no message")) + ")");
      return;
    }
    if (test_case_failed) {
      out.notes.push_back(r.id.qualified() + " stored nothing (its test case failed)");
      return;
    }
    const XmlElement* mean = child(b, "mean");
    if (!mean) throw XmlProblem(at_line(b) + " (\"" + r.id.qualified() + "\") has no <mean>");
    MetricValue m;
    m.kind = MetricKind::wall_time;
    m.value = figure(*mean, "value");
    const Interval iv{figure(*mean, "lowerBound"), figure(*mean, "upperBound")};
    if (iv.low > iv.high) throw XmlProblem(at_line(*mean) + ": lowerBound is above upperBound");
    m.interval = iv;
    if (const XmlElement* sd = child(b, "standardDeviation")) m.std_dev = figure(*sd, "value");
    r.metrics.push_back(m);
    out.results.push_back(std::move(r));
  }

  // The benchmarks below a test case or section, with the section names on the way.
  void scope(const XmlElement& e, const std::vector<std::string>& path) {
    for (const XmlElement& c : e.children) {
      if (c.name == "BenchmarkResults") benchmark(c, path);
      else if (c.name == "Section") {
        std::vector<std::string> inner = path;
        inner.push_back(required_name(c));
        scope(c, inner);
      }
    }
  }

  // Test cases anywhere below the root (v2 wraps them in <Group>, v3 does not).
  void document(const XmlElement& e) {
    for (const XmlElement& c : e.children) {
      if (c.name == "TestCase") {
        const XmlElement* overall = child(c, "OverallResult");
        const std::string* success = overall ? overall->attribute("success") : nullptr;
        test_case_failed = success && *success == "false";
        scope(c, {required_name(c)});
      } else if (c.name == "Group") {
        document(c);
      }
    }
  }
};

ParsedReport read_report(const XmlElement& root) {
  if (root.name != "Catch" && root.name != "Catch2TestRun")
    throw XmlProblem("the root element is <" + root.name +
                     ">, not Catch2's <Catch> (v2) or <Catch2TestRun> (v3); is this Catch2's XML reporter (-r xml)?");
  ParsedReport out;
  Walk{out}.document(root);
  return out;
}

}  // namespace

ParsedReport parse_catch2(std::string_view xml, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_report(detail::parse_xml(xml)); });
}

ParsedReport read_catch2(const std::filesystem::path& file) {
  return parse_catch2(detail::read_text_file(file, Engine::catch2), file);
}

}  // namespace benchhist::engines
