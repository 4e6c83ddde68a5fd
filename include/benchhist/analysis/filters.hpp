#pragma once
// Discriminant filters (--engine / --target-triple / --machine-key) and the always-on
// effective-selection announcement (docs/formats.md#streams, #option-groups;
// docs/pipeline.md#selection step 1).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/analysis/since.hpp"
#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/engine.hpp"

namespace benchhist::analysis {

enum class FilterAxis { engine, target_triple, machine_key };

// One resolved filter axis. Matching is ASCII-case-insensitive against the (already
// sanitized) storage key segment, so explicit values are sanitized the same way first.
struct DiscriminantFilter {
  enum class Origin {
    all,             // unconstrained: `all` given, --engine omitted, or no auto-detection
    explicit_values, // the union of the given values
    auto_detected,   // omitted; the host's own value
  };
  Origin origin = Origin::all;
  std::vector<std::string> shown;    // values as announced (explicit: as given; engine: token)
  std::vector<std::string> matched;  // sanitized values compared with key segments

  bool unconstrained() const noexcept { return origin == Origin::all; }
  bool accepts(std::string_view key_segment) const noexcept;
  // `all`, `<value> (auto-detected)` or explicit values joined with `|` (docs/formats.md#streams).
  std::string describe() const;
};

// Resolution rule of docs/formats.md#option-groups: any value equal to `all` (ASCII
// case-insensitive) → unconstrained; else the explicit values (unioned, duplicates after
// sanitization dropped); else the auto-detected value, when the caller supplies one (`list
// discriminants` and --engine supply none: omitted means all).
// Throws Error{usage} `unknown engine "<name>"; expected one of: criterion, callgrind,
// alloc_tracker, all_the_time` when an explicit --engine value names no known engine.
DiscriminantFilter resolve_filter(FilterAxis axis, const std::vector<std::string>& explicit_values,
                                  const std::optional<std::string>& auto_detected = std::nullopt);

struct DiscriminantFilters {
  DiscriminantFilter engine;
  DiscriminantFilter target_triple;
  DiscriminantFilter machine_key;

  bool accepts(const DiscriminantSet& set) const noexcept {
    return accepts(set.engine, set.target_triple, set.machine_key);
  }
  // The same test on a key's segments, without building a set (selection runs it per object).
  bool accepts(Engine e, std::string_view triple, std::string_view machine) const noexcept {
    return engine.accepts(to_string(e)) && target_triple.accepts(triple) && machine_key.accepts(machine);
  }
  // `engine=<F>, target-triple=<F>, machine-key=<F>` (also used by the empty-outcome hint).
  std::string describe() const;
};

// Convenience: the three axes at once (engine never auto-detects).
// Throws Error{usage} for an unknown engine, as resolve_filter does.
DiscriminantFilters resolve_filters(const std::vector<std::string>& engines,
                                    const std::vector<std::string>& target_triples,
                                    const std::vector<std::string>& machine_keys,
                                    const std::optional<std::string>& host_target_triple,
                                    const std::optional<std::string>& host_machine_key);

// Optional segments of the announcement; which ones a command shows is the caller's choice
// (analyze/list/examine/prune: base + since; bless: base + context; unbless: context).
struct AnnouncedBase {
  std::string name;
  bool auto_detected = false;
  // project.default_branch when it was configured but did not resolve, so another base was used:
  // the announcement says so instead of silently dropping the setting.
  std::optional<std::string> unresolved_default_branch;
};
struct AnnouncedContext {
  std::string short_commit;  // first 12 characters of the commit id
  bool defaulted_to_head = false;
};
struct AnnouncedSince {
  std::optional<Timestamp> cutoff;  // none → `since=none`
  SinceReason reason = SinceReason::no_default_outside_history;
};

// The whole stderr line, without a trailing newline:
// `[bench-history] selection: engine=<F>, target-triple=<F>, machine-key=<F>[; base=<name>[
// (auto-detected)]][; context=<short>[ (defaulted to HEAD)]][; since=<cutoff|none> (<reason>)]`
// The cutoff is written as a whole-second RFC 3339 UTC instant (`2026-02-20T12:00:00Z`).
std::string selection_announcement(const DiscriminantFilters& filters,
                                   const std::optional<AnnouncedBase>& base = std::nullopt,
                                   const std::optional<AnnouncedContext>& context = std::nullopt,
                                   const std::optional<AnnouncedSince>& since = std::nullopt);

}  // namespace benchhist::analysis
