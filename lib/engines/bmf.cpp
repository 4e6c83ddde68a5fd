#include "benchhist/engines/bmf.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonProblem;
using detail::JsonValue;

std::string type_of(const JsonValue& v) { return std::string(JsonValue::type_name(v.type())); }

ParsedReport read_document(const JsonValue& doc) {
  if (!doc.is_object()) throw JsonProblem("the document must be an object of benchmarks but is " + type_of(doc));
  if (doc.members().empty()) throw JsonProblem("the document holds no benchmark");
  ParsedReport out;
  std::map<BenchmarkId, std::string> names;  // identity → the benchmark name it came from
  for (const auto& [name, measures] : doc.members()) {
    const std::string where = "/" + name;
    if (!measures.is_object())
      throw JsonProblem(where + " must be an object of measures but is " + type_of(measures));
    if (measures.members().empty()) throw JsonProblem("benchmark \"" + name + "\" has no measure");
    BenchmarkResult result;
    result.id = detail::split_identity(name, "/");
    for (const auto& [measure, m] : measures.members()) {
      const std::string at = where + "/" + measure;
      const std::optional<MetricKind> kind = bmf_measure_metric(measure);
      if (!kind)
        throw JsonProblem("benchmark \"" + name + "\" has the measure \"" + measure +
                          "\", which is not stored: only lower-is-better measures of a known unit are (latency, "
                          "instructions, or a metric name of this tool: " + std::string(metric_names_list) +
                          "); remove it from the file or write it under one of those names");
      detail::require_object(m, at);
      // A member the format does not define would be dropped in silence, and one like `unit`
      // changes what the value means: refused by name.
      for (const auto& [member, ignored] : m.members())
        if (member != "value" && member != "lower_value" && member != "upper_value")
          throw JsonProblem(at + "/" + member + " is not a member of a Bencher Metric Format measure (value, "
                                "lower_value, upper_value)",
                            "values are read in the measure's own unit (latency: nanoseconds; formats.md lists this "
                            "tool's metric units): convert the value if needed and remove \"" + member + "\"");
      MetricValue v;
      v.kind = *kind;
      v.value = detail::require_number(m, "value", at);
      const JsonValue* low = m.find("lower_value");
      const JsonValue* high = m.find("upper_value");
      const bool has_low = low && !low->is_null(), has_high = high && !high->is_null();
      if (has_low != has_high)
        throw JsonProblem(at + "/" + (has_low ? "lower_value" : "upper_value") + " is given without " +
                          (has_low ? "upper_value" : "lower_value") + "; an interval needs both bounds");
      if (has_low) {
        Interval iv{detail::checked_number(*low, at + "/lower_value"), detail::checked_number(*high, at + "/upper_value")};
        if (!(iv.low <= v.value && v.value <= iv.high))
          throw JsonProblem(at + ": the bounds [" + low->text() + ", " + high->text() + "] do not enclose the value " +
                            m.find("value")->text());
        v.interval = iv;
      }
      if (result.find(v.kind))
        throw JsonProblem("benchmark \"" + name + "\" gives " + std::string(to_string(v.kind)) +
                          " twice (" + at + "); keep one of the measures");
      result.metrics.push_back(v);
    }
    // Stored metrics in canonical kind order, whatever order the file used.
    std::sort(result.metrics.begin(), result.metrics.end(), [](const MetricValue& a, const MetricValue& b) {
      return std::find(all_metric_kinds.begin(), all_metric_kinds.end(), a.kind) <
             std::find(all_metric_kinds.begin(), all_metric_kinds.end(), b.kind);
    });
    if (auto [it, fresh] = names.try_emplace(result.id, name); !fresh) {
      if (it->second == name) throw JsonProblem("benchmark \"" + name + "\" is given twice; keep one");
      detail::throw_identity_collision(it->second, name, result.id, "/");
    }
    out.results.push_back(std::move(result));
  }
  return out;
}

}  // namespace

std::optional<MetricKind> bmf_measure_metric(std::string_view measure) noexcept {
  if (measure == "latency") return MetricKind::wall_time;  // Bencher's latency is in nanoseconds
  if (measure == "instructions") return MetricKind::instruction_count;
  return parse_metric_kind(measure);
}

ParsedReport parse_bmf(std::string_view json, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_document(detail::parse_json(json)); });
}

ParsedReport read_bmf(const std::filesystem::path& file) {
  return parse_bmf(detail::read_text_file(file, Engine::bmf), file);
}

}  // namespace benchhist::engines
