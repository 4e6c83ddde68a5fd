#include "benchhist/engines/callgrind.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonProblem;
using detail::JsonValue;

// The only events ever read, in ascending byte order of the event name (docs/formats.md#callgrind).
struct EventKind {
  std::string_view event;
  MetricKind kind;
};
constexpr std::array<EventKind, 3> read_events{{{"Bc", MetricKind::conditional_branches},
                                                {"Bi", MetricKind::indirect_branches},
                                                {"Ir", MetricKind::instruction_count}}};

// `{"Int": <unsigned>}` or `{"Float": <number>}` (schema 6 metric value). Integer counts stay
// exact below 2^53.
double tagged_value(const JsonValue& v, const std::string& where) {
  detail::require_object(v, where);
  if (const JsonValue* i = v.find("Int")) {
    if (!i->is_number() || !i->unsigned_integer())
      throw JsonProblem(where + "/Int must be an unsigned integer but is " +
                        (i->is_number() ? i->text() : std::string(JsonValue::type_name(i->type()))));
    return static_cast<double>(*i->unsigned_integer());
  }
  if (const JsonValue* f = v.find("Float")) return detail::checked_number(*f, where + "/Float");
  throw JsonProblem(where + " must be {\"Int\": n} or {\"Float\": x}");
}

void add_metric(std::vector<MetricValue>& metrics, MetricKind kind, double value) {
  for (const auto& m : metrics)
    if (m.kind == kind) return;  // first profile wins for a repeated kind (docs/formats.md#callgrind)
  MetricValue m;
  m.kind = kind;
  m.value = value;
  metrics.push_back(m);
}

// Schema 6: profiles[i].summaries.total.summary.Callgrind.<Ev>.metrics (EitherOrBoth).
void read_profiles_v6(const JsonValue& profiles, std::vector<MetricValue>& metrics) {
  for (std::size_t i = 0; i < profiles.items().size(); ++i) {
    const std::string where = "/profiles/" + std::to_string(i);
    const JsonValue& profile = detail::require_object(profiles.items()[i], where);
    const JsonValue& summaries =
        detail::require_object(detail::require_member(profile, "summaries", where), where + "/summaries");
    const JsonValue& total = detail::require_object(detail::require_member(summaries, "total", where + "/summaries"),
                                                    where + "/summaries/total");
    const JsonValue* summary = total.find("summary");
    if (!summary || !summary->is_object()) continue;  // another tool's or no summary
    const JsonValue* callgrind = summary->find("Callgrind");
    if (!callgrind || callgrind->is_null()) continue;  // absent → contributes nothing
    const std::string cg_where = where + "/summaries/total/summary/Callgrind";
    detail::require_object(*callgrind, cg_where);
    for (const auto& [event, kind] : read_events) {
      const JsonValue* ev = callgrind->find(event);
      if (!ev) continue;
      const std::string ev_where = cg_where + "/" + std::string(event);
      detail::require_object(*ev, ev_where);
      const JsonValue* m = ev->find("metrics");
      if (!m || !m->is_object()) continue;
      const std::string m_where = ev_where + "/metrics";
      if (const JsonValue* left = m->find("Left")) {
        add_metric(metrics, kind, tagged_value(*left, m_where + "/Left"));
      } else if (const JsonValue* both = m->find("Both")) {
        // [new, old]: the new run's side is the first element.
        if (!both->is_array() || both->items().size() != 2)
          throw JsonProblem(m_where + "/Both must be an array of two values [new, old]");
        add_metric(metrics, kind, tagged_value(both->items()[0], m_where + "/Both/0"));
      }
      // {"Right": V} is baseline-only, anything else unrecognized: skip the event.
    }
  }
}

// Schema 7: profiles[i] with tool == "Callgrind": data.total.metrics.<Ev>.values.new.
// OPEN in detail (docs/formats.md#callgrind); `new` is a plain number, a tagged {"Int"|"Float"}
// value is accepted as well.
void read_profiles_v7(const JsonValue& profiles, std::vector<MetricValue>& metrics) {
  for (std::size_t i = 0; i < profiles.items().size(); ++i) {
    const std::string where = "/profiles/" + std::to_string(i);
    const JsonValue& profile = detail::require_object(profiles.items()[i], where);
    const std::optional<std::string> tool = detail::optional_string(profile, "tool", where);
    if (tool != "Callgrind") continue;
    const JsonValue& data = detail::require_object(detail::require_member(profile, "data", where), where + "/data");
    const JsonValue& total =
        detail::require_object(detail::require_member(data, "total", where + "/data"), where + "/data/total");
    const JsonValue* ms = total.find("metrics");
    if (!ms || ms->is_null()) continue;
    const std::string ms_where = where + "/data/total/metrics";
    detail::require_object(*ms, ms_where);
    for (const auto& [event, kind] : read_events) {
      const JsonValue* ev = ms->find(event);
      if (!ev) continue;
      const std::string ev_where = ms_where + "/" + std::string(event);
      detail::require_object(*ev, ev_where);
      const JsonValue* values = ev->find("values");
      if (!values || values->is_null()) continue;
      detail::require_object(*values, ev_where + "/values");
      const JsonValue* fresh = values->find("new");
      if (!fresh || fresh->is_null()) continue;  // only `old`: baseline-only, skip
      const std::string v_where = ev_where + "/values/new";
      add_metric(metrics, kind, fresh->is_object() ? tagged_value(*fresh, v_where) : detail::checked_number(*fresh, v_where));
    }
  }
}

BenchmarkResult read_summary(const JsonValue& doc) {
  detail::require_object(doc, "");
  const JsonValue& version = detail::require_member(doc, "version", "");
  if (!version.is_string())
    throw JsonProblem("/version must be a string (\"6\" or \"7\") but is " +
                      (version.is_number() ? version.text() : std::string(JsonValue::type_name(version.type()))));
  const std::string& v = version.text();
  if (v != "6" && v != "7")
    throw JsonProblem("unsupported Gungraun summary schema version \"" + v + "\" (expected \"6\" or \"7\")");

  const std::string module_path = detail::require_string(doc, "module_path", "");
  const std::string function_name = detail::require_string(doc, "function_name", "");
  const std::optional<std::string> id = detail::optional_string(doc, "id", "");
  const std::optional<std::string> package_dir = detail::optional_string(doc, "package_dir", "");

  std::vector<std::string> segments;
  if (package_dir)
    if (auto pkg = package_from_dir(*package_dir)) segments.push_back(std::move(*pkg));
  for (const std::string* s : {&module_path, &function_name})
    if (!s->empty()) segments.push_back(*s);
  if (id && !id->empty()) segments.push_back(*id);
  if (segments.empty()) segments.push_back(function_name);

  const JsonValue& profiles = detail::require_member(doc, "profiles", "");
  if (!profiles.is_array())
    throw JsonProblem("/profiles must be an array but is " + std::string(JsonValue::type_name(profiles.type())));

  BenchmarkResult r;
  r.id = BenchmarkId(std::move(segments));
  if (v == "6")
    read_profiles_v6(profiles, r.metrics);
  else
    read_profiles_v7(profiles, r.metrics);
  return r;
}

}  // namespace

std::optional<std::string> package_from_dir(std::string_view package_dir) {
  std::size_t end = package_dir.size();
  while (end > 0 && (package_dir[end - 1] == '/' || package_dir[end - 1] == '\\')) --end;
  if (end == 0) return std::nullopt;
  std::size_t begin = end;
  while (begin > 0 && package_dir[begin - 1] != '/' && package_dir[begin - 1] != '\\') --begin;
  return std::string(package_dir.substr(begin, end - begin));
}

BenchmarkResult parse_gungraun_summary(std::string_view json, const std::filesystem::path& file) {
  try {
    return read_summary(detail::parse_json(json));
  } catch (const JsonProblem& p) {
    const std::string cause = p.what();
    if (cause.starts_with("unsupported Gungraun"))
      detail::throw_parse_error(file, cause,
                                "this cargo-bench-history understands Gungraun summary schemas 6 and 7; "
                                "use a Gungraun release that writes one of them, or upgrade cargo-bench-history");
    detail::throw_parse_error(file, cause);
  }
}

BenchmarkResult read_gungraun_summary(const std::filesystem::path& file) {
  return parse_gungraun_summary(detail::read_text_file(file, Engine::callgrind), file);
}

}  // namespace benchhist::engines
