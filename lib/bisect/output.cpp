// The text, JSON and Markdown reports of bisect (docs/bisect.md#output).
#include <string>

#include "benchhist/bisect/bisect.hpp"
#include "benchhist/codec/json_writer.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/report/markdown_text.hpp"
#include "benchhist/report/value_format.hpp"

namespace benchhist::bisect {
namespace {

std::string values_text(const std::vector<double>& vs) {
  std::string s;
  for (const double v : vs) s += (s.empty() ? "" : ", ") + report::format_value(v);
  return s;
}

std::string commit_text(const BisectReport& r, std::size_t i) {
  const auto& c = r.line.at(i);
  return short_id(c.id) + (c.subject.empty() ? "" : " " + c.subject);
}

std::string range_text(const BisectReport& r, const Window& w) {
  return "narrowed to " + plural(w.candidates(), "commit") + ": " + short_id(r.line.at(w.old_end).id) + ".." +
         short_id(r.line.at(w.new_end).id);
}

// Where a window stands after the loop: narrowed, or (when no halving moved it) still the window
// the finding started with.
std::string window_text(const BisectReport& r, const FindingEntry& e, const TargetOutcome& o) {
  if (e.window && o.window != *e.window) return range_text(r, o.window);
  return "the window is still " + short_id(r.line.at(o.window.old_end).id) + ".." + short_id(r.line.at(o.window.new_end).id) +
         " (" + plural(o.window.candidates(), "commit") + ")";
}

std::string outcome_text(const BisectReport& r, const FindingEntry& e, const TargetOutcome& o);

std::string verdict_text(const BisectReport& r, const FindingEntry& e) {
  switch (e.kind) {
    case EntryKind::drift: return "nothing to pin: a drift has no single commit";
    case EntryKind::skipped: return "not bisected: " + e.note;
    case EntryKind::planned: {
      const Window& w = *e.window;
      std::string s = "window " + short_id(r.line.at(w.old_end).id) + ".." + short_id(r.line.at(w.new_end).id) + ": " +
                      plural(w.candidates(), "commit") + " (" + std::to_string(w.unmeasured()) +
                      " unmeasured); would measure both ends " + plural(r.repeat, "time") + " each";
      if (!w.pinned()) return s + ", then " + commit_text(r, w.middle()) + " first";
      return s + " to confirm it, with the builds the windows with unmeasured commits leave (already pinned to " +
             commit_text(r, w.new_end) + ")";
    }
    case EntryKind::bisected: break;
  }
  const auto& o = *e.outcome;
  std::string around;  // --ignore-errors: the commits bisection went around, each with its reason
  for (const auto& u : o.skipped)
    around += (around.empty() ? "; went around " + plural(o.skipped.size(), "commit") + " that could not be measured: "
                              : std::string(", ")) +
              short_id(r.line.at(u.line_index).id) + " (" + u.reason + ")";
  return outcome_text(r, e, o) + around;
}

std::string outcome_text(const BisectReport& r, const FindingEntry& e, const TargetOutcome& o) {
  const std::string levels =
      report::format_value(e.finding.baseline) + " → " + report::format_value(e.finding.latest);
  switch (o.verdict) {
    case Verdict::pinned:
      if (!o.confirmed)
        return "pinned to " + commit_text(r, o.window.new_end) +
               " by the stored history (its window has no unmeasured commit); not measured again: the budget of " +
               plural(r.max_builds, "build") + " ran out (windows with unmeasured commits come first)";
      return "pinned to " + commit_text(r, o.window.new_end) + " (" + plural(o.measurements, "measurement") + ")";
    case Verdict::narrowed: {
      const std::string budget = "the budget of " + plural(r.max_builds, "build") + " ran out";
      if (!o.confirmed)
        return "not narrowed: " + budget + " before both ends were measured again (" +
               plural(2 * r.repeat, "build") + " with --repeat " + std::to_string(r.repeat) + "); " +
               window_text(r, e, o) + ": raise --max-builds";
      if (e.window && o.window == *e.window) return "confirmed, not narrowed: " + budget + "; " + window_text(r, e, o);
      return range_text(r, o.window) + " (" + budget + ")";
    }
    case Verdict::not_reproduced:
      return "did not reproduce: measured again, " + short_id(r.line.at(o.window.old_end).id) + " gave " +
             values_text(o.old_values) + " and " + short_id(r.line.at(o.window.new_end).id) + " gave " +
             values_text(o.new_values) + ", not the stored step " + levels + "; nothing bisected";
    case Verdict::ambiguous:
      return "ambiguous: " + commit_text(r, *o.at) + " measured " + values_text(o.at_values) +
             ", at neither level of " + levels + "; " + window_text(r, e, o);
    case Verdict::failed:
      return "could not measure " + commit_text(r, o.at.value_or(o.window.new_end)) + ": " + o.reason + "; " +
             window_text(r, e, o);
  }
  return {};
}

std::string_view entry_token(const FindingEntry& e) {
  switch (e.kind) {
    case EntryKind::drift: return "drift";
    case EntryKind::skipped: return "skipped";
    case EntryKind::planned: return "planned";
    case EntryKind::bisected: break;
  }
  switch (e.outcome->verdict) {
    case Verdict::pinned: return "pinned";
    case Verdict::narrowed: return "narrowed";
    case Verdict::not_reproduced: return "not_reproduced";
    case Verdict::ambiguous: return "ambiguous";
    case Verdict::failed: return "failed";
  }
  return "failed";
}

// The last line of every format but JSON.
std::string closing_line(const BisectReport& r) {
  if (r.dry_run) return "Dry run: nothing was measured or stored.";
  return plural(r.builds, "build") + " of the " + std::to_string(r.max_builds) + " allowed; " +
         plural(r.stored, "new measurement") + " stored.";
}

constexpr std::string_view no_findings = "No findings to bisect: the analysis reported none in scope.";

}  // namespace

std::string render_text(const BisectReport& r) {
  std::string s;
  if (r.entries.empty()) s += std::string(no_findings) + "\n";
  for (const auto& e : r.entries) {
    const auto& f = e.finding;
    // A drift names its window, as analyze does (`accumulated <oldest> → <newest>`), not a commit.
    std::string where;
    if (f.method == FindingMethod::drift && f.window_start && f.commit)
      where = " accumulated " + short_id(*f.window_start) + " → " + short_id(*f.commit);
    else if (f.commit)
      where = " at " + short_id(*f.commit);
    s += f.benchmark.qualified() + " " + std::string(to_string(f.kind)) + " [" + std::string(to_string(f.set.engine)) +
         "] " + report::format_percent(f.relative_delta) + where + ": " + verdict_text(r, e) + "\n";
  }
  for (const auto& n : r.notes) s += "Note: " + n + "\n";
  return s + closing_line(r);
}

std::string render_markdown(const BisectReport& r) {
  std::string s = "# Benchmark history bisect: " + r.project + "\n\n";
  if (r.entries.empty()) {
    s += std::string(no_findings) + "\n";
  } else {
    s += "| Benchmark | Metric | Engine | Change | Finding at | Verdict | Result |\n"
         "| --- | --- | --- | --- | --- | --- | --- |\n";
    for (const auto& e : r.entries) {
      const auto& f = e.finding;
      s += "| " + report::markdown_cell(report::code_span(f.benchmark.qualified())) + " | " +
           std::string(to_string(f.kind)) + " | " + std::string(to_string(f.set.engine)) + " | " +
           report::format_percent(f.relative_delta) + " | " + (f.commit ? short_id(*f.commit) : std::string("-")) +
           " | " + std::string(entry_token(e)) + " | " + report::markdown_cell(verdict_text(r, e)) + " |\n";
    }
  }
  for (const auto& n : r.notes) s += "\nNote: " + report::markdown_cell(n) + "\n";
  return s + "\n**" + closing_line(r) + "**\n";
}

std::string render_json(const BisectReport& r) {
  codec::json::Writer w;
  w.begin_object();
  w.member("dry_run", r.dry_run);
  w.member("builds", r.builds);
  w.member("max_builds", r.max_builds);
  w.member("repeat", r.repeat);
  w.member("stored", r.stored);
  w.member("budget_exhausted", r.budget_exhausted);
  w.key("findings").begin_array();
  for (const auto& e : r.entries) {
    const auto& f = e.finding;
    w.begin_object();
    w.member("engine", to_string(f.set.engine));
    w.member("target_triple", f.set.target_triple);
    w.member("machine_key", f.set.machine_key);
    w.key("segments").begin_inline_array();
    for (const auto& seg : f.benchmark.segments()) w.value(seg);
    w.end_array();
    w.member("kind", to_string(f.kind));
    w.member("method", to_string(f.method));
    w.member("baseline", f.baseline);
    w.member("latest", f.latest);
    if (f.commit) w.member("finding_commit", *f.commit); else w.null_member("finding_commit");
    w.member("verdict", entry_token(e));
    const std::optional<Window> now = e.outcome ? std::optional<Window>(e.outcome->window) : e.window;
    if (now) {
      w.member("old_end", r.line.at(now->old_end).id);
      w.member("new_end", r.line.at(now->new_end).id);
      w.member("candidates", now->candidates());
    }
    if (e.window) w.member("unmeasured_before", e.window->unmeasured());
    if (e.outcome) {
      const auto& o = *e.outcome;
      if (o.verdict == Verdict::pinned) {
        w.member("commit", r.line.at(o.window.new_end).id);
        w.member("subject", r.line.at(o.window.new_end).subject);
      }
      w.member("measurements", o.measurements);
      w.member("confirmed", o.confirmed);
      w.key("old_values").begin_inline_array();
      for (double v : o.old_values) w.value(v);
      w.end_array();
      w.key("new_values").begin_inline_array();
      for (double v : o.new_values) w.value(v);
      w.end_array();
      if (o.at) {
        w.member("at", r.line.at(*o.at).id);
        w.key("at_values").begin_inline_array();
        for (double v : o.at_values) w.value(v);
        w.end_array();
      }
      if (!o.reason.empty()) w.member("reason", o.reason);
      if (!o.skipped.empty()) {
        w.key("skipped").begin_array();
        for (const auto& u : o.skipped)
          w.begin_object().member("commit", r.line.at(u.line_index).id).member("reason", u.reason).end_object();
        w.end_array();
      }
    }
    if (!e.note.empty()) w.member("note", e.note);
    w.end_object();
  }
  w.end_array();
  w.key("notes").begin_array();
  for (const auto& n : r.notes) w.value(n);
  w.end_array();
  w.end_object();
  return w.take();
}

}  // namespace benchhist::bisect
