#include "benchhist/engines/google_benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonProblem;
using detail::JsonValue;

// The measured fields this engine stores, in stored-metric order (docs/formats.md#metric-kinds
// order).
struct Field {
  std::string_view name;
  MetricKind kind;
  bool is_time;  // converted from time_unit to nanoseconds
};
constexpr Field stored_fields[] = {
    {"real_time", MetricKind::wall_time, true},
    {"cpu_time", MetricKind::processor_time, true},
    {"allocs_per_iter", MetricKind::allocation_count, false},
    {"max_bytes_used", MetricKind::peak_outstanding_bytes, false},
};

double nanoseconds_per(const std::string& unit, const std::string& where) {
  if (unit == "ns") return 1.0;
  if (unit == "us") return 1e3;
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  throw JsonProblem(where + "/time_unit is \"" + unit + "\"; expected one of ns, us, ms, s");
}

// One row's value of a stored field: absent → nullopt; NaN/±Infinity → NaN (the metric is
// dropped for the benchmark); wrongly typed or negative → JsonProblem.
std::optional<double> field_value(const JsonValue& row, const Field& f, double scale, std::string_view unit,
                                  const std::string& where) {
  const JsonValue* m = row.find(f.name);
  if (!m) return std::nullopt;
  const std::string at = where + "/" + std::string(f.name);
  if (!m->is_number())
    throw JsonProblem(at + " must be a number but is " + std::string(JsonValue::type_name(m->type())));
  if (!std::isfinite(m->number())) return std::numeric_limits<double>::quiet_NaN();
  const double v = detail::checked_number(*m, at);
  return f.is_time ? detail::to_nanoseconds(v, scale, at, unit) : v;
}

bool flag(const JsonValue& row, std::string_view name, const std::string& where) {
  const JsonValue* m = row.find(name);
  if (!m || m->is_null()) return false;
  if (m->type() != JsonValue::Type::boolean)
    throw JsonProblem(where + "/" + std::string(name) + " must be a boolean but is " +
                      std::string(JsonValue::type_name(m->type())));
  return m->boolean();
}

struct Row {
  std::vector<std::optional<double>> values;  // per stored_fields entry
  std::optional<std::uint64_t> repetition_index;
};

struct Group {
  std::string run_name;
  std::vector<Row> iterations;
  std::optional<Row> median_aggregate;
  std::optional<std::string> not_measured;  // "error: <message>" / "skipped: <message>"
};

// Reports before 1.5 have neither run_type nor aggregate_name: an aggregate is a row named
// `<run>_mean`, `_median`, `_stddev` (and `_cv`), a complexity row `<family>_BigO` with `big_o` or
// `<family>_RMS` with `rms`. A row without run_type is read as such an aggregate only when the
// report also holds its `<run>_mean` and `<run>_stddev` rows, which that reporter always writes
// together, so a benchmark that is merely named `…_median` stays a benchmark.
struct LegacyAggregate {
  std::string run_name;
  std::string aggregate_name;
};
std::optional<LegacyAggregate> legacy_aggregate(const JsonValue& row, const std::string& name,
                                                const std::set<std::string, std::less<>>& names) {
  if ((name.ends_with("_BigO") && row.find("big_o")) || (name.ends_with("_RMS") && row.find("rms")))
    return LegacyAggregate{name, name.ends_with("_RMS") ? "RMS" : "BigO"};
  for (const std::string_view statistic : {"mean", "median", "stddev", "cv"}) {
    const std::string suffix = "_" + std::string(statistic);
    if (name.size() <= suffix.size() || !name.ends_with(suffix)) continue;
    const std::string run = name.substr(0, name.size() - suffix.size());
    if (names.count(run + "_mean") && names.count(run + "_stddev")) return LegacyAggregate{run, std::string(statistic)};
  }
  return std::nullopt;
}

GoogleBenchmarkReport read_report(const JsonValue& doc) {
  detail::require_object(doc, "");
  // Both members are what makes this a Google Benchmark report rather than some other JSON.
  detail::require_object(detail::require_member(doc, "context", ""), "/context");
  const JsonValue& rows = detail::require_member(doc, "benchmarks", "");
  if (!rows.is_array())
    throw JsonProblem("/benchmarks must be an array but is " + std::string(JsonValue::type_name(rows.type())));

  // The names of the rows without run_type (reports before 1.5), for legacy_aggregate.
  std::set<std::string, std::less<>> legacy_names;
  for (std::size_t i = 0; i < rows.items().size(); ++i) {
    const JsonValue& row = rows.items()[i];
    if (!row.is_object() || row.find("run_type") || row.find("aggregate_name")) continue;
    if (const JsonValue* n = row.find("name"); n && n->is_string()) legacy_names.insert(n->text());
  }

  std::vector<Group> groups;
  std::map<std::string, std::size_t, std::less<>> index;
  std::size_t complexity_rows = 0, aggregate_rows = 0;
  for (std::size_t i = 0; i < rows.items().size(); ++i) {
    const std::string where = "/benchmarks/" + std::to_string(i);
    const JsonValue& row = detail::require_object(rows.items()[i], where);
    const std::string name = detail::require_string(row, "name", where);
    std::string run_name = detail::optional_string(row, "run_name", where).value_or(name);
    std::optional<std::string> aggregate_name = detail::optional_string(row, "aggregate_name", where);
    std::optional<std::string> run_type = detail::optional_string(row, "run_type", where);
    if (!run_type && !aggregate_name) {
      if (auto legacy = legacy_aggregate(row, name, legacy_names)) {
        run_name = std::move(legacy->run_name);
        aggregate_name = std::move(legacy->aggregate_name);
      }
    }
    // Reports older than run_type mark aggregates by their aggregate_name (1.5's own) or by
    // their name's suffix (before 1.5, legacy_aggregate).
    if (!run_type) run_type = aggregate_name ? "aggregate" : "iteration";
    if (run_type != "iteration" && run_type != "aggregate")
      throw JsonProblem(where + "/run_type is \"" + *run_type + "\"; expected \"iteration\" or \"aggregate\"");

    if (run_type == "aggregate" && (aggregate_name == "BigO" || aggregate_name == "RMS")) {
      ++complexity_rows;  // a fitted coefficient and an error percentage, not a per-iteration time
      continue;
    }
    auto [it, fresh] = index.try_emplace(run_name, groups.size());
    if (fresh) groups.push_back(Group{run_name, {}, std::nullopt, std::nullopt});
    Group& g = groups[it->second];

    if (flag(row, "error_occurred", where)) {
      if (!g.not_measured)
        g.not_measured = "error: " + detail::optional_string(row, "error_message", where).value_or("(no message)");
      continue;
    }
    if (flag(row, "skipped", where)) {
      if (!g.not_measured)
        g.not_measured = "skipped: " + detail::optional_string(row, "skip_message", where).value_or("(no message)");
      continue;
    }

    if (run_type == "aggregate") {
      ++aggregate_rows;
      if (aggregate_name != "median") continue;  // mean, stddev, cv and user statistics are never stored
    }

    const std::string unit = detail::optional_string(row, "time_unit", where).value_or("ns");
    const double scale = nanoseconds_per(unit, where);
    Row r;
    for (const Field& f : stored_fields) r.values.push_back(field_value(row, f, scale, unit, where));
    if (run_type == "aggregate") {
      if (g.median_aggregate)
        throw JsonProblem("benchmark \"" + run_name + "\" has two median aggregate rows (" + where +
                          "); was it registered twice under one name?");
      g.median_aggregate = std::move(r);
      continue;
    }
    if (const JsonValue* idx = row.find("repetition_index")) {
      if (!idx->is_number() || !idx->unsigned_integer())
        throw JsonProblem(where + "/repetition_index must be a non-negative integer");
      r.repetition_index = *idx->unsigned_integer();
      for (const Row& seen : g.iterations)
        if (seen.repetition_index == r.repetition_index)
          throw JsonProblem("benchmark \"" + run_name + "\" reports repetition " + idx->text() + " twice (" + where +
                            "); was it registered twice under one name?");
    }
    g.iterations.push_back(std::move(r));
  }

  GoogleBenchmarkReport out;
  std::map<BenchmarkId, std::string> stored_names;  // identity → the run name it came from
  for (const Group& g : groups) {
    if (g.not_measured) {
      out.notes.push_back(g.run_name + " stored nothing (" + *g.not_measured + ")");
      continue;
    }
    std::vector<const Row*> source;
    bool from_aggregate = false;
    if (!g.iterations.empty()) {
      for (const Row& r : g.iterations) source.push_back(&r);
    } else if (g.median_aggregate) {
      source.push_back(&*g.median_aggregate);
      from_aggregate = true;
    } else {
      out.notes.push_back(g.run_name + " stored nothing (no iteration rows and no median aggregate)");
      continue;
    }

    BenchmarkResult result;
    result.id = detail::split_identity(g.run_name, "/");
    for (std::size_t k = 0; k < std::size(stored_fields); ++k) {
      std::vector<double> samples;
      std::size_t present = 0;
      bool non_finite = false;
      for (const Row* r : source) {
        if (!r->values[k]) continue;
        ++present;
        if (std::isnan(*r->values[k])) non_finite = true;
        else samples.push_back(*r->values[k]);
      }
      if (present == 0) continue;  // the field is not in this report (no memory manager)
      const std::string field(stored_fields[k].name);
      if (non_finite) {
        out.notes.push_back(g.run_name + ": " + field + " is not a finite number; " +
                            std::string(to_string(stored_fields[k].kind)) + " not stored");
        continue;
      }
      if (present != source.size()) {
        out.notes.push_back(g.run_name + ": " + field + " is missing from some repetitions; " +
                            std::string(to_string(stored_fields[k].kind)) + " not stored");
        continue;
      }
      MetricValue m;
      m.kind = stored_fields[k].kind;
      m.value = detail::median(samples);
      if (samples.size() >= 2)
        m.interval = Interval{*std::min_element(samples.begin(), samples.end()),
                              *std::max_element(samples.begin(), samples.end())};
      result.metrics.push_back(m);
    }
    if (result.metrics.empty()) {
      out.notes.push_back(g.run_name + " stored nothing (no finite real_time or cpu_time)");
      continue;
    }
    if (auto [it, fresh] = stored_names.try_emplace(result.id, g.run_name); !fresh)
      detail::throw_identity_collision(it->second, g.run_name, result.id, "/");
    if (from_aggregate)
      out.notes.push_back(g.run_name + ": only aggregate rows were written; stored the median aggregate without an interval");
    out.results.push_back(std::move(result));
  }
  if (complexity_rows)
    out.notes.push_back("ignored " + std::to_string(complexity_rows) + " complexity row(s) (BigO, RMS)");
  if (aggregate_rows && !std::all_of(groups.begin(), groups.end(), [](const Group& g) { return g.iterations.empty(); }))
    out.notes.push_back("ignored the aggregate rows of benchmarks with iteration rows (the median is computed from the repetitions)");
  return out;
}

}  // namespace

GoogleBenchmarkReport parse_google_benchmark(std::string_view json, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] {
    detail::JsonReadOptions options;
    options.non_finite_literals = true;  // the reporter writes bare NaN / Infinity
    return read_report(detail::parse_json(json, options));
  });
}

GoogleBenchmarkReport read_google_benchmark(const std::filesystem::path& file) {
  return parse_google_benchmark(detail::read_text_file(file, Engine::google_benchmark), file);
}

}  // namespace benchhist::engines
