// The bisection loop (docs/bisect.md#the-loop).
#include "benchhist/bisect/bisection.hpp"

#include <algorithm>
#include <optional>

#include "benchhist/detect/stats.hpp"
#include "benchhist/error.hpp"

namespace benchhist::bisect {

std::string_view to_string(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::pinned: return "pinned";
    case Verdict::narrowed: return "narrowed";
    case Verdict::not_reproduced: return "did not reproduce";
    case Verdict::ambiguous: return "ambiguous";
    case Verdict::failed: return "failed";
  }
  return "failed";
}

namespace {

// Every measurement this invocation made, by commit, in order; builds only when a measurement
// not yet made is asked for and the budget allows.
class Measurements {
 public:
  Measurements(Measurer& measurer, const Options& options, const std::function<void(const Progress&)>& progress)
      : measurer_(measurer), options_(options), progress_(progress) {}

  // The i-th measurement of the commit at `line_index`; nullptr when the budget is spent.
  const MeasureResult* nth(std::size_t target, std::size_t line_index, std::size_t i, bool confirming) {
    auto& made = made_[line_index];
    while (made.size() <= i) {
      if (builds_ >= options_.max_builds) {
        exhausted_ = true;
        return nullptr;
      }
      if (progress_) progress_(Progress{target, line_index, confirming, builds_, options_.max_builds - builds_});
      made.push_back(measurer_.measure(line_index));
      ++builds_;
    }
    return &made[i];
  }
  std::size_t builds() const noexcept { return builds_; }
  bool exhausted() const noexcept { return exhausted_; }

 private:
  Measurer& measurer_;
  const Options& options_;
  const std::function<void(const Progress&)>& progress_;
  std::map<std::size_t, std::vector<MeasureResult>> made_;
  std::size_t builds_ = 0;
  bool exhausted_ = false;
};

// One target's progress through confirmation and halving.
struct State {
  enum class Phase { confirm, halve, done } phase = Phase::confirm;
  TargetOutcome outcome;
  StepLevels levels;  // halving: the levels of the ends as measured now (confirm sets them)
};

// A value of `key` from one measurement; the outcome is finished (failed) when there is none.
std::optional<double> value_of(const MeasureResult& r, const SeriesKey& key, std::size_t line_index,
                               TargetOutcome& out) {
  if (!r.values) {
    out.verdict = Verdict::failed;
    out.at = line_index;
    out.reason = r.failure;
    return std::nullopt;
  }
  const auto it = r.values->find(key);
  if (it == r.values->end()) {
    out.verdict = Verdict::failed;
    out.at = line_index;
    out.reason = "the measurement did not include " + key.id.qualified() + " " + std::string(to_string(key.kind));
    return std::nullopt;
  }
  return it->second;
}

// Confirmation (docs/bisect.md#confirmation-first): the two ends measured again, alternating
// old/new, `repeat` times each. True when the step reproduced and halving may start.
bool confirm(std::size_t t, const Target& target, State& s, Measurements& m, std::size_t repeat) {
  auto& out = s.outcome;
  for (std::size_t i = 0; i < repeat; ++i)
    for (const bool old_end : {true, false}) {
      const auto line_index = old_end ? target.window.old_end : target.window.new_end;
      const auto* r = m.nth(t, line_index, i, true);
      if (!r) return false;  // narrowed: nothing left to build with
      const auto v = value_of(*r, target.key, line_index, out);
      if (!v) return false;
      (old_end ? out.old_values : out.new_values).push_back(*v);
      ++out.measurements;
    }
  // Reproduced when the ends, measured now, still differ by more than half the stored step in
  // its direction. The difference, not each end against its stored level: a machine that is
  // uniformly slower or faster today than when the history was stored shifts both ends alike
  // (the alternating order is there for that), and the step is still in the code.
  const double stored = target.levels.latest - target.levels.baseline;
  const double old_now = detect::median(out.old_values), new_now = detect::median(out.new_values);
  if (stored == 0 || (new_now - old_now) / stored <= 0.5) {
    out.verdict = Verdict::not_reproduced;
    return false;
  }
  // Middle commits are measured now too, so they are held to the ends' levels of now, with the
  // series' own scatter.
  s.levels = StepLevels{old_now, new_now, target.levels.residual, repeat};
  out.confirmed = true;
  return true;
}

// One halving: the middle commit measured (and re-measured while ambiguous, `repeat` more times
// at most) and the window moved. False when the target is finished.
bool halve(std::size_t t, const Target& target, State& s, Measurements& m, const Options& options) {
  const std::size_t repeat = options.repeat;
  auto& out = s.outcome;
  if (out.window.pinned()) {
    out.verdict = Verdict::pinned;
    return false;
  }
  // The middle commit, or with skip_failures the nearest one not yet found unmeasurable.
  const auto skipped = [&](std::size_t i) {
    return std::any_of(out.skipped.begin(), out.skipped.end(), [&](const Unmeasurable& u) { return u.line_index == i; });
  };
  std::optional<std::size_t> pick;
  const std::size_t middle = out.window.middle();
  for (std::size_t d = 0; !pick && d < out.window.candidates(); ++d)
    for (const std::size_t i : {middle + d, middle - d})
      if (!pick && i > out.window.old_end && i < out.window.new_end && !skipped(i)) pick = i;
  if (!pick) {  // every commit in between is unmeasurable: the window is as narrow as it gets
    out.verdict = Verdict::failed;
    out.at = out.skipped.back().line_index;
    out.reason = out.skipped.back().reason;
    return false;
  }
  const auto mid = *pick;
  std::vector<double> values;
  Level level = Level::ambiguous;
  for (std::size_t i = 0; i <= repeat && level == Level::ambiguous; ++i) {
    const auto* r = m.nth(t, mid, i, false);
    if (!r) {
      out.verdict = Verdict::narrowed;
      return false;
    }
    const auto v = value_of(*r, target.key, mid, out);
    if (!v && options.skip_failures && values.empty()) {  // go around it next round
      out.skipped.push_back({mid, out.reason});
      out.verdict = Verdict::narrowed;
      out.at.reset();
      out.reason.clear();
      return true;
    }
    if (!v) return false;
    values.push_back(*v);
    ++out.measurements;
    level = classify(values, s.levels);
  }
  if (level == Level::ambiguous) {
    out.verdict = Verdict::ambiguous;
    out.at = mid;
    out.at_values = std::move(values);
    return false;
  }
  (level == Level::old_level ? out.window.old_end : out.window.new_end) = mid;
  if (out.window.pinned()) {
    out.verdict = Verdict::pinned;
    return false;
  }
  return true;
}

}  // namespace

void check_options(const Options& options, bool dry_run) {
  if (options.max_builds < 1)
    throw Error(ErrorKind::usage, "--max-builds must be at least 1", "--max-builds", {},
                "pass --max-builds 16 (the default) or another positive budget; --dry-run measures nothing");
  if (options.repeat < 1)
    throw Error(ErrorKind::usage, "--repeat must be at least 1", "--repeat", {},
                "pass --repeat 2 (the default) or more");
  // Every finding is confirmed before anything else is built (docs/bisect.md#confirmation-first):
  // a smaller budget could only build and discard.
  const std::size_t confirmation = 2 * options.repeat;
  if (!dry_run && options.max_builds < confirmation)
    throw Error(ErrorKind::usage,
                "--max-builds " + std::to_string(options.max_builds) +
                    " cannot confirm a finding: both ends are measured again --repeat (" +
                    std::to_string(options.repeat) + ") times each first, " + std::to_string(confirmation) +
                    " builds; pass --max-builds " + std::to_string(confirmation) +
                    " or more (16 by default), or a smaller --repeat",
                "--max-builds", {}, "the budget counts every build of the invocation (docs/bisect.md#the-loop)");
}

BisectionResult run_bisection(std::span<const Target> targets, Measurer& measurer, const Options& options,
                              const std::function<void(const Progress&)>& progress) {
  if (options.repeat < 1)
    throw Error(ErrorKind::usage, "--repeat must be at least 1", "--repeat", {},
                "pass --repeat 2 (the default) or more: the window's ends are measured again that many times");
  Measurements m(measurer, options, progress);
  std::vector<State> states(targets.size());
  for (std::size_t t = 0; t < targets.size(); ++t) {
    states[t].outcome.window = targets[t].window;
    states[t].outcome.verdict = Verdict::narrowed;
  }
  // Windows with unmeasured commits first, round-robin, one decision per target per round, so the
  // budget is shared between them. In a history collected at every commit each finding's window
  // is already pinned; re-confirming those first would spend the budget of every run on what the
  // stored history already attributes, and a new window would never be narrowed.
  for (bool active = true; active;) {
    active = false;
    for (std::size_t t = 0; t < targets.size(); ++t) {
      auto& s = states[t];
      if (s.phase == State::Phase::done || targets[t].window.pinned()) continue;
      const bool more = s.phase == State::Phase::confirm ? confirm(t, targets[t], s, m, options.repeat)
                                                         : halve(t, targets[t], s, m, options);
      if (!more) {
        s.phase = State::Phase::done;  // pinned, or stopped with its verdict set
      } else {  // a confirmation that passed moves on to halving
        s.phase = State::Phase::halve;
        active = true;
      }
    }
  }
  // Then the windows that started pinned: confirmed with what is left (a measurement another
  // window already made of an end is reused). Pinned they are either way; `confirmed` says whether
  // the ends were measured again, and a step that does not reproduce is still reported so.
  for (std::size_t t = 0; t < targets.size(); ++t) {
    if (!targets[t].window.pinned()) continue;
    auto& out = states[t].outcome;
    if (confirm(t, targets[t], states[t], m, options.repeat) || out.verdict == Verdict::narrowed)
      out.verdict = Verdict::pinned;
  }
  BisectionResult result;
  for (auto& s : states) result.outcomes.push_back(std::move(s.outcome));
  result.builds = m.builds();
  result.budget_exhausted = m.exhausted();
  return result;
}

}  // namespace benchhist::bisect
