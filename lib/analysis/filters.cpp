#include "benchhist/analysis/filters.hpp"

#include <algorithm>

#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::analysis {

bool DiscriminantFilter::accepts(std::string_view key_segment) const noexcept {
  if (origin == Origin::all) return true;
  return std::any_of(matched.begin(), matched.end(),
                     [&](const std::string& v) { return ascii::iequals(v, key_segment); });
}

std::string DiscriminantFilter::describe() const {
  switch (origin) {
    case Origin::all: return "all";
    case Origin::auto_detected: return (shown.empty() ? std::string() : shown.front()) + " (auto-detected)";
    case Origin::explicit_values: break;
  }
  std::string out;
  for (std::size_t i = 0; i < shown.size(); ++i) {
    if (i) out += '|';
    out += shown[i];
  }
  return out;
}

DiscriminantFilter resolve_filter(FilterAxis axis, const std::vector<std::string>& explicit_values,
                                  const std::optional<std::string>& auto_detected) {
  DiscriminantFilter f;
  bool has_all = false;
  for (const auto& v : explicit_values) {
    if (ascii::iequals(v, "all")) {
      has_all = true;
      continue;
    }
    std::string shown = v;
    std::string matched;
    // `--machine-key "$MK"` with the variable unset: an empty value matches no stored run, so a
    // `--fail-on regression` gate would pass on an empty analysis.
    if (axis != FilterAxis::engine && ascii::trim(v).empty())
      throw Error(ErrorKind::usage,
                  std::string("an empty ") + (axis == FilterAxis::target_triple ? "--target-triple" : "--machine-key") +
                      " value matches no stored run",
                  v, {},
                  "pass a value (`all` for every one), or leave the option out to use this host's; check the variable "
                  "that should have supplied it");
    if (axis == FilterAxis::engine) {
      // Validated even next to `all`, so a typo never passes silently.
      const auto engine = parse_engine(v);
      if (!engine)
        throw Error(ErrorKind::usage,
                    "unknown engine \"" + v + "\"; expected one of: " + std::string(engine_names_list) + ", or all",
                    v, {}, "pass one of those names to --engine, or --engine all for every engine");
      shown = matched = std::string(to_string(*engine));
    } else {
      matched = codec::sanitize_segment(v);
    }
    const bool duplicate = std::any_of(f.matched.begin(), f.matched.end(),
                                       [&](const std::string& m) { return ascii::iequals(m, matched); });
    if (duplicate) continue;
    f.shown.push_back(std::move(shown));
    f.matched.push_back(std::move(matched));
  }
  if (has_all) return DiscriminantFilter{};
  if (!f.matched.empty()) {
    f.origin = DiscriminantFilter::Origin::explicit_values;
    return f;
  }
  if (axis != FilterAxis::engine && auto_detected) {
    f.origin = DiscriminantFilter::Origin::auto_detected;
    f.shown = {*auto_detected};
    f.matched = {codec::sanitize_segment(*auto_detected)};
    return f;
  }
  return DiscriminantFilter{};
}

DiscriminantFilters resolve_filters(const std::vector<std::string>& engines,
                                    const std::vector<std::string>& target_triples,
                                    const std::vector<std::string>& machine_keys,
                                    const std::optional<std::string>& host_target_triple,
                                    const std::optional<std::string>& host_machine_key) {
  return {resolve_filter(FilterAxis::engine, engines),
          resolve_filter(FilterAxis::target_triple, target_triples, host_target_triple),
          resolve_filter(FilterAxis::machine_key, machine_keys, host_machine_key)};
}

std::string DiscriminantFilters::describe() const {
  return "engine=" + engine.describe() + ", target-triple=" + target_triple.describe() +
         ", machine-key=" + machine_key.describe();
}

std::string selection_announcement(const DiscriminantFilters& filters,
                                   const std::optional<AnnouncedBase>& base,
                                   const std::optional<AnnouncedContext>& context,
                                   const std::optional<AnnouncedSince>& since) {
  std::string line = "[bench-history] selection: " + filters.describe();
  if (base) {
    line += "; base=" + base->name;
    if (base->auto_detected) line += " (auto-detected)";
    if (base->unresolved_default_branch)
      line += " [warning: the configured project.default_branch \"" + *base->unresolved_default_branch +
              "\" does not resolve in this repository; fix it in the [project] table of the configuration file]";
  }
  if (context) {
    line += "; context=" + context->short_commit.substr(0, 12);
    if (context->defaulted_to_head) line += " (defaulted to HEAD)";
  }
  if (since) {
    line += "; since=";
    // Whole seconds, `Z` (the docs/formats.md#streams example): a clock-derived cutoff carries no
    // noise digits.
    line += since->cutoff ? format_rfc3339_seconds(*since->cutoff) : std::string("none");
    line += " (" + std::string(to_string(since->reason)) + ")";
  }
  return line;
}

}  // namespace benchhist::analysis
