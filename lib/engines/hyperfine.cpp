#include "benchhist/engines/hyperfine.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "common.hpp"

namespace benchhist::engines {
namespace {

using detail::JsonProblem;
using detail::JsonValue;

constexpr double ns_per_second = 1e9;

// Trimmed, inner whitespace runs made one space: a re-indented command keeps its series.
std::string normalise_command(std::string_view text) {
  std::string out;
  bool pending_space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out += c;
  }
  return out;
}

std::string type_of(const JsonValue& v) { return std::string(JsonValue::type_name(v.type())); }

ParsedReport read_export(const JsonValue& doc) {
  detail::require_object(doc, "");
  const JsonValue& results = detail::require_member(doc, "results", "");
  if (!results.is_array()) throw JsonProblem("/results must be an array but is " + type_of(results));

  ParsedReport out;
  std::map<BenchmarkId, std::string> seen;  // identity → the command name it came from
  for (std::size_t i = 0; i < results.items().size(); ++i) {
    const std::string where = "/results/" + std::to_string(i);
    const JsonValue& r = detail::require_object(results.items()[i], where);
    const std::string command = detail::require_string(r, "command", where);

    // A run that failed measured something else than the command: refuse the file.
    if (const JsonValue* codes = r.find("exit_codes"); codes && !codes->is_null()) {
      if (!codes->is_array()) throw JsonProblem(where + "/exit_codes must be an array but is " + type_of(*codes));
      for (std::size_t k = 0; k < codes->items().size(); ++k) {
        const JsonValue& c = codes->items()[k];
        if (!c.is_null() && !c.is_number())
          throw JsonProblem(where + "/exit_codes/" + std::to_string(k) + " must be an integer or null but is " + type_of(c));
        if (c.is_number() && c.text() == "0") continue;
        throw JsonProblem("command \"" + command + "\" failed in run " + std::to_string(k + 1) + " (exit code " +
                          (c.is_null() ? std::string("none: terminated by a signal") : c.text()) +
                          "); fix the command, or benchmark it without --ignore-failure, so that only successful "
                          "runs are timed");
      }
    }

    const std::string name = normalise_command(command);
    if (name.empty()) throw JsonProblem(where + "/command is empty; give the command a --command-name");
    BenchmarkResult result;
    result.id = detail::split_identity(name, "/");
    if (auto [it, fresh] = seen.try_emplace(result.id, name); !fresh) {
      if (it->second != name) detail::throw_identity_collision(it->second, name, result.id, "/");
      // A parameter scan (-P/-L) runs one command name once per value.
      const JsonValue* parameters = r.find("parameters");
      const bool scan = parameters && parameters->is_object() && !parameters->members().empty();
      throw JsonProblem("command \"" + name + "\" is reported twice (" + where + "); give each command its own " +
                        (scan ? "--command-name: in a parameter scan, name the parameter in it (--command-name '" +
                                    name + " {" + parameters->members().front().first + "}')"
                              : std::string("--command-name")));
    }

    MetricValue wall;
    wall.kind = MetricKind::wall_time;
    const JsonValue* times = r.find("times");
    if (times && !times->is_null()) {
      if (!times->is_array()) throw JsonProblem(where + "/times must be an array but is " + type_of(*times));
      if (times->items().empty()) throw JsonProblem(where + "/times is empty; the command was never run");
      // hyperfine writes one exit code per timed run: a mismatch is a damaged or hand-made export.
      if (const JsonValue* codes = r.find("exit_codes");
          codes && codes->is_array() && codes->items().size() != times->items().size())
        throw JsonProblem(where + "/exit_codes has " + std::to_string(codes->items().size()) + " entries but " +
                          where + "/times has " + std::to_string(times->items().size()) +
                          "; hyperfine writes one of each per run: export the file again with --export-json");
      std::vector<double> samples;
      for (std::size_t k = 0; k < times->items().size(); ++k)
        samples.push_back(detail::to_nanoseconds(
            detail::checked_number(times->items()[k], where + "/times/" + std::to_string(k)), ns_per_second,
            where + "/times/" + std::to_string(k), "s"));
      wall.value = detail::median(samples);
      if (samples.size() >= 2)
        wall.interval = Interval{*std::min_element(samples.begin(), samples.end()),
                                 *std::max_element(samples.begin(), samples.end())};
    } else {
      wall.value = detail::to_nanoseconds(detail::require_number(r, "median", where), ns_per_second,
                                          where + "/median", "s");
      out.notes.push_back(name + ": no `times` in the export; stored its median without an interval");
    }
    if (const JsonValue* sd = r.find("stddev"); sd && sd->is_number())
      wall.std_dev = detail::to_nanoseconds(detail::checked_number(*sd, where + "/stddev"), ns_per_second,
                                            where + "/stddev", "s");
    result.metrics.push_back(wall);

    // user + system: the command's processor time per run (hyperfine's means; no spread is written).
    const JsonValue* user = r.find("user");
    const JsonValue* system = r.find("system");
    if (user && system) {
      MetricValue cpu;
      cpu.kind = MetricKind::processor_time;
      cpu.value = detail::to_nanoseconds(
          detail::checked_number(*user, where + "/user") + detail::checked_number(*system, where + "/system"),
          ns_per_second, where + "/user + /system", "s");
      result.metrics.push_back(cpu);
    } else {
      out.notes.push_back(name + ": no `user`/`system` times in the export; processor_time not stored");
    }
    out.results.push_back(std::move(result));
  }
  return out;
}

}  // namespace

ParsedReport parse_hyperfine(std::string_view json, const std::filesystem::path& file) {
  return detail::with_parse_context(file, [&] { return read_export(detail::parse_json(json)); });
}

ParsedReport read_hyperfine(const std::filesystem::path& file) {
  return parse_hyperfine(detail::read_text_file(file, Engine::hyperfine), file);
}

}  // namespace benchhist::engines
