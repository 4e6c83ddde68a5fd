#pragma once
// The bisection loop (docs/bisect.md#the-loop): confirm each window's two ends by measuring them
// again, then halve each window by measuring its middle commit until its ends are adjacent, all
// within one build budget. Measuring is behind the Measurer interface, so the loop is pure and
// tests drive it with a deterministic double; bisect/bisect.hpp supplies the real one (a past
// commit measured in a private worktree exactly as backfill does).

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "benchhist/bisect/classify.hpp"
#include "benchhist/bisect/window.hpp"
#include "benchhist/model/series.hpp"

namespace benchhist::bisect {

// One build of one commit: the value of every series it ran (one build serves every benchmark).
using Measurement = std::map<SeriesKey, double>;

// What a measuring attempt gave: the values, or why the commit could not be measured.
struct MeasureResult {
  std::optional<Measurement> values;
  std::string failure;  // when !values: one line, e.g. `engine "./bench.sh" failed with exit code 1`
};

class Measurer {
 public:
  virtual ~Measurer() = default;
  // Builds and measures the commit at `line_index` once. Whether the result is stored is the
  // measurer's policy (bisect/bisect.hpp: the first measurement of a commit not yet stored).
  virtual MeasureResult measure(std::size_t line_index) = 0;
};

// One change-point finding to pin.
struct Target {
  SeriesKey key;
  Window window;
  StepLevels levels;
};

struct Options {
  std::size_t max_builds = 16;  // --max-builds: measurements over the whole invocation
  std::size_t repeat = 2;       // --repeat: confirmation rounds, and re-measurements of an ambiguous value
  // --ignore-errors: a middle commit that cannot be measured is skipped and the nearest other
  // commit of the window measured instead (reported per commit), rather than ending the window.
  bool skip_failures = false;
};

// A commit bisection could not measure and went around (Options::skip_failures).
struct Unmeasurable {
  std::size_t line_index = 0;
  std::string reason;
};

enum class Verdict {
  pinned,          // the window's ends are adjacent: the new end is the commit
  narrowed,        // the budget ran out first; the window is what is left
  not_reproduced,  // re-measured, the window's ends no longer show the step
  ambiguous,       // a middle commit stayed inside neither (or both) bands after re-measuring
  failed,          // a commit could not be measured, or did not run the benchmark
};
std::string_view to_string(Verdict verdict) noexcept;

struct TargetOutcome {
  Verdict verdict = Verdict::narrowed;
  Window window;                       // final (pinned: adjacent ends)
  std::vector<double> old_values;      // confirmation: the old end re-measured
  std::vector<double> new_values;      // confirmation: the new end re-measured
  std::optional<std::size_t> at;       // ambiguous / failed: the commit (line index)
  std::vector<double> at_values;       // ambiguous: its values
  std::string reason;                  // failed: why
  std::vector<Unmeasurable> skipped;   // skip_failures: middle commits that could not be measured
  std::size_t measurements = 0;        // values of this series the outcome rests on
  // The ends were measured again and still showed the step. False when the budget ran out before
  // they were (or they did not reproduce): a window that started pinned is then pinned by the
  // stored history alone.
  bool confirmed = false;
};

// One announced step, before its build: which target, which commit, why, the budget.
struct Progress {
  std::size_t target = 0;        // index into the targets
  std::size_t line_index = 0;    // the commit about to be measured
  bool confirming = false;       // a window end (confirmation) rather than a middle commit
  std::size_t builds_done = 0;
  std::size_t builds_left = 0;
};

struct BisectionResult {
  std::vector<TargetOutcome> outcomes;  // one per target, same order
  std::size_t builds = 0;               // measurements made
  bool budget_exhausted = false;        // some target stopped because no build was left
};

// Throws Error{usage} (subject `--max-builds` or `--repeat`) unless `options` can do the work:
// both at least 1 and, unless `dry_run`, a budget that covers one confirmation (2 × repeat
// builds: every finding's ends are measured again before anything else is built).
void check_options(const Options& options, bool dry_run);

// Runs the loop. Targets whose window has unmeasured commits advance round-robin, one decision
// each per round, so a budget is shared rather than spent on the first window; targets whose
// window is already pinned (the stored history measured both neighbours) are only confirmed, with
// the builds the others leave: pinning an unknown commit comes before re-measuring a known one. Every measurement of a commit is kept for the whole
// invocation: windows that share commits (several series of one build, or findings at the same
// step) share measurements. Throws Error{usage} for repeat 0, and whatever the measurer throws.
BisectionResult run_bisection(std::span<const Target> targets, Measurer& measurer, const Options& options,
                              const std::function<void(const Progress&)>& progress = {});

}  // namespace benchhist::bisect
