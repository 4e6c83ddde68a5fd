// examine, list and prune outputs (docs/formats.md#listings-and-command-messages,
// docs/prune.md#result-and-outputs).

#include <algorithm>

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/report/chart.hpp"
#include "benchhist/report/examine_output.hpp"
#include "benchhist/report/list_output.hpp"
#include "benchhist/report/markdown_text.hpp"
#include "benchhist/report/prune_output.hpp"
#include "benchhist/report/value_format.hpp"

namespace benchhist::report {

namespace {

void paragraph(std::string& out, const std::optional<std::string>& text) {
  if (!text || text->empty()) return;
  out += "\n" + *text;
  if (text->back() != '\n') out += "\n";
}

std::string pad_right(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : s + std::string(w - s.size(), ' ');
}
std::string pad_left(const std::string& s, std::size_t w) {
  return s.size() >= w ? s : std::string(w - s.size(), ' ') + s;
}

void set_identity(codec::json::Writer& j, const DiscriminantSet& s) {
  j.member("engine", to_string(s.engine));
  j.member("target_triple", s.target_triple);
  j.member("machine_key", s.machine_key);
}

void optional_string(codec::json::Writer& j, std::string_view k, const std::optional<std::string>& v) {
  if (v && !v->empty()) j.member(k, *v);
}

std::optional<std::string> examine_chart(const ExamineSet& s) {
  std::vector<ChartPoint> pts;
  for (const auto& r : s.rows)
    if (r.value) pts.push_back({r.index, *r.value});
  std::stable_sort(pts.begin(), pts.end(), [](const ChartPoint& a, const ChartPoint& b) { return a.index < b.index; });
  if (pts.size() < 2) return std::nullopt;
  return plot_chart(history_columns(pts, std::max(s.target_index, pts.back().index)));
}

std::string value_cell(const ExamineRow& r) { return r.value ? format_value(*r.value) : std::string("n/a"); }

}  // namespace

// ---------------------------------------------------------------- examine

bool ExamineData::empty() const noexcept {
  for (const auto& s : sets)
    for (const auto& r : s.rows)
      if (r.value) return false;
  return true;
}

std::string render_examine_text(const ExamineData& d) {
  std::string out = "Data points for " + d.benchmark + " metric " + std::string(to_string(d.metric)) + " (" +
                    std::string(unit_of(d.metric)) + ") in project " + d.project + "\n";
  if (d.empty()) {
    out += "\nNo data point matches the selection.\n";
  } else {
    for (const auto& s : d.sets) {
      out += "\n" + s.set.label() + "\n";
      if (auto chart = examine_chart(s)) out += *chart + "\n\n";
      std::size_t wc = 0, wv = 0;
      for (const auto& r : s.rows) {
        wc = std::max(wc, short_id(r.commit).size());
        wv = std::max(wv, value_cell(r).size());
      }
      for (const auto& r : s.rows) {
        std::string line = "  " + pad_right(std::string(short_id(r.commit)), wc) + "  " + pad_left(value_cell(r), wv);
        const auto title = truncate_scalars(r.title, examine_title_scalars);
        if (!title.empty()) line += "  " + title;
        if (r.value && r.dirty) line += "  (dirty)";
        out += line + "\n";
      }
    }
  }
  paragraph(out, d.hint);
  paragraph(out, d.warning);
  return out;
}

std::string render_examine_markdown(const ExamineData& d) {
  std::string out = "# Data points for " + d.benchmark + " in " + d.project + "\n\n**Metric:** " +
                    std::string(to_string(d.metric)) + " (" + std::string(unit_of(d.metric)) + ")\n";
  if (d.empty()) {
    out += "\nNo data point matches the selection.\n";
  } else {
    for (const auto& s : d.sets) {
      out += "\n## " + s.set.label() + "\n";
      if (auto chart = examine_chart(s)) out += "\n```text\n" + *chart + "\n```\n";
      out += "\n| Commit | Value | Kind | Title |\n| --- | --- | --- | --- |\n";
      for (const auto& r : s.rows) {
        const std::string kind = !r.value ? "n/a" : r.dirty ? "dirty" : "clean";
        out += "| " + std::string(short_id(r.commit)) + " | " + value_cell(r) + " | " + kind + " | " +
               markdown_cell(truncate_scalars(r.title, examine_title_scalars)) + " |\n";
      }
    }
  }
  paragraph(out, d.hint);
  paragraph(out, d.warning);
  return out;
}

std::string render_examine_json(const ExamineData& d) {
  codec::json::Writer j;
  j.begin_object();
  j.member("project", d.project);
  j.member("benchmark", d.benchmark);
  j.member("metric", to_string(d.metric));
  j.member("unit", unit_of(d.metric));
  j.key("sets").begin_array();
  for (const auto& s : d.sets) {
    j.begin_object();
    set_identity(j, s.set);
    j.key("points").begin_array();
    for (const auto& r : s.rows) {
      j.begin_object();
      j.member("commit", r.commit);
      if (r.value) {
        j.member("value", *r.value);
        j.member("dirty", r.dirty);
      } else {
        j.null_member("value");
      }
      j.member("title", r.title);
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  optional_string(j, "hint", d.hint);
  optional_string(j, "warning", d.warning);
  j.end_object();
  return j.take();
}

// ---------------------------------------------------------------- list runs

std::uint64_t ListedSet::runs() const noexcept {
  std::uint64_t n = 0;
  for (const auto& c : commits) n += c.runs();
  return n;
}
std::uint64_t RunListing::runs() const noexcept {
  std::uint64_t n = 0;
  for (const auto& s : sets) n += s.runs();
  return n;
}
std::uint64_t RunListing::series() const noexcept {
  std::uint64_t n = 0;
  for (const auto& s : sets) n += s.series;
  return n;
}

namespace {

std::string set_counts(const ListedSet& s) {
  return plural(s.runs(), "run") + ", " + plural(s.series, "series") + " across " + plural(s.commits.size(), "commit");
}
std::string run_totals(const RunListing& l) {
  return plural(l.runs(), "run") + ", " + plural(l.series(), "series") + " across " +
         plural(l.sets.size(), "discriminant set");
}

}  // namespace

std::string render_runs_text(const RunListing& l) {
  std::string out = "Data set for project " + l.project + "\n";
  if (l.sets.empty()) {
    out += "\nNo stored run matches the selection.\n";
  } else {
    for (const auto& s : l.sets) {
      out += "\n" + s.set.label() + "\n  " + set_counts(s) + "\n";
      for (const auto& c : s.commits) {
        std::string line = "    " + c.commit;
        if (c.clean != 1) line += "  " + plural(c.clean, "clean run");
        if (c.dirty > 0) line += " + " + plural(c.dirty, "dirty run");
        out += line + "\n";
      }
    }
    out += "\nTotal: " + run_totals(l) + "\n";
  }
  paragraph(out, l.hint);
  paragraph(out, l.warning);
  return out;
}

std::string render_runs_markdown(const RunListing& l) {
  std::string out = "# Data set for " + l.project + "\n";
  if (l.sets.empty()) {
    out += "\nNo stored run matches the selection.\n";
  } else {
    for (const auto& s : l.sets) {
      out += "\n## " + s.set.label() + "\n\n" + set_counts(s) + "\n\n| Commit | Runs | Clean | Dirty |\n| --- | --- | --- | --- |\n";
      for (const auto& c : s.commits)
        out += "| " + c.commit + " | " + std::to_string(c.runs()) + " | " + std::to_string(c.clean) + " | " +
               std::to_string(c.dirty) + " |\n";
    }
    out += "\n**Total:** " + run_totals(l) + "\n";
  }
  paragraph(out, l.hint);
  paragraph(out, l.warning);
  return out;
}

std::string render_runs_json(const RunListing& l) {
  codec::json::Writer j;
  j.begin_object();
  j.member("project", l.project);
  j.key("sets").begin_array();
  for (const auto& s : l.sets) {
    j.begin_object();
    set_identity(j, s.set);
    j.member("runs", s.runs());
    j.member("series", s.series);
    j.key("commits").begin_array();
    for (const auto& c : s.commits)
      j.begin_object()
          .member("commit", c.commit)
          .member("runs", c.runs())
          .member("clean", c.clean)
          .member("dirty", c.dirty)
          .end_object();
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("totals").begin_object();
  j.member("runs", l.runs());
  j.member("series", l.series());
  j.member("discriminant_sets", static_cast<std::uint64_t>(l.sets.size()));
  j.end_object();
  optional_string(j, "hint", l.hint);
  optional_string(j, "warning", l.warning);
  j.end_object();
  return j.take();
}

// ---------------------------------------------------------------- list discriminants

std::string render_discriminants_text(const std::vector<DiscriminantSet>& sets) {
  if (sets.empty()) return "No discriminant sets found.\n";
  std::string out = "Discriminant sets:\n";
  for (const auto& s : sets) out += "  - " + s.label() + "\n";
  return out;
}

std::string render_discriminants_markdown(const std::vector<DiscriminantSet>& sets) {
  std::string out = "# Discriminant sets\n\n";
  if (sets.empty()) return out + "No discriminant sets found.\n";
  out += "| Engine | Target triple | Machine key |\n| --- | --- | --- |\n";
  for (const auto& s : sets)
    out += "| " + std::string(to_string(s.engine)) + " | " + s.target_triple + " | " + s.machine_key + " |\n";
  return out;
}

std::string render_discriminants_json(const std::vector<DiscriminantSet>& sets) {
  codec::json::Writer j;
  j.begin_array();
  for (const auto& s : sets) {
    j.begin_object();
    set_identity(j, s);
    j.end_object();
  }
  j.end_array();
  return j.take();
}

// ---------------------------------------------------------------- list blessings

namespace {

template <class F>
void by_set(const BlessingListing& l, F&& f) {
  for (std::size_t i = 0; i < l.blessings.size(); ++i) {
    const bool first = i == 0 || !(l.blessings[i].set == l.blessings[i - 1].set);
    f(l.blessings[i], first);
  }
}

}  // namespace

std::string blessed_prefixes_text(const std::vector<std::string>& prefixes) {
  return prefixes.empty() ? "all benchmarks" : joined(prefixes);
}

std::string render_blessings_text(const BlessingListing& l) {
  const std::string head(short_id(l.head_commit));
  if (l.blessings.empty())
    return l.window ? "No blessings in the analysis window.\n" : "No blessings recorded at commit " + head + ".\n";
  std::string out = l.window ? "Most recent blessings for project " + l.project + "\n"
                             : "Blessings for project " + l.project + " at commit " + head + "\n";
  by_set(l, [&](const ListedBlessing& b, bool first) {
    if (first) out += "\n" + b.set.label() + "\n";
    if (l.window) {
      out += "  " + b.benchmark.value_or("") + "  blessed at " + std::string(short_id(b.commit));
      if (b.commit_time) out += " (" + *b.commit_time + ")";
    } else {
      out += "  " + std::string(short_id(b.commit)) + " accepts " + blessed_prefixes_text(b.prefixes);
      if (b.issued_at) out += " (issued " + *b.issued_at + ")";
    }
    out += "\n";
  });
  return out;
}

std::string render_blessings_markdown(const BlessingListing& l) {
  const std::string head(short_id(l.head_commit));
  std::string out = l.window ? "# Most recent blessings for " + l.project + "\n"
                             : "# Blessings for " + l.project + " at " + head + "\n";
  if (l.blessings.empty())
    return out + "\n" + (l.window ? "No blessings in the analysis window.\n" : "No blessings recorded at commit " + head + ".\n");
  by_set(l, [&](const ListedBlessing& b, bool first) {
    if (first) {
      out += "\n## " + b.set.label() + "\n\n";
      out += l.window ? "| Benchmark | Blessed at | Commit time |\n| --- | --- | --- |\n"
                      : "| Commit | Prefixes | Issued |\n| --- | --- | --- |\n";
    }
    if (l.window)
      out += "| " + markdown_cell(b.benchmark.value_or("")) + " | " + std::string(short_id(b.commit)) + " | " +
             b.commit_time.value_or("") + " |\n";
    else
      out += "| " + std::string(short_id(b.commit)) + " | " + markdown_cell(blessed_prefixes_text(b.prefixes)) + " | " +
             b.issued_at.value_or("") + " |\n";
  });
  return out;
}

std::string render_blessings_json(const BlessingListing& l) {
  codec::json::Writer j;
  j.begin_object();
  j.member("project", l.project);
  j.member("scope", l.window ? "window" : "head");
  if (!l.window) j.member("commit", l.head_commit);
  j.key("blessings").begin_array();
  for (const auto& b : l.blessings) {
    j.begin_object();
    set_identity(j, b.set);
    optional_string(j, "benchmark", b.benchmark);
    j.member("commit", b.commit);
    optional_string(j, "commit_time", b.commit_time);
    optional_string(j, "issued_at", b.issued_at);
    if (!b.prefixes.empty()) {
      j.key("prefixes").begin_array();
      for (const auto& p : b.prefixes) j.value(p);
      j.end_array();
    }
    j.end_object();
  }
  j.end_array();
  j.end_object();
  return j.take();
}

// ---------------------------------------------------------------- prune

std::uint64_t PrunedSet::runs() const noexcept {
  std::uint64_t n = 0;
  for (const auto& c : commits) n += c.runs;
  return n;
}
std::uint64_t PrunedSet::blessings() const noexcept {
  std::uint64_t n = 0;
  for (const auto& c : commits) n += c.blessings;
  return n;
}
std::uint64_t PrunePlan::runs() const noexcept {
  std::uint64_t n = 0;
  for (const auto& s : sets) n += s.runs();
  return n;
}
std::uint64_t PrunePlan::blessings() const noexcept {
  std::uint64_t n = 0;
  for (const auto& s : sets) n += s.blessings();
  return n;
}

namespace {

std::string runs_plus(std::uint64_t runs, std::uint64_t blessings) {
  std::string s = plural(runs, "run");
  if (blessings > 0) s += " (plus " + plural(blessings, "blessing") + ")";
  return s;
}

std::string prune_total(const PrunePlan& p) {
  return std::string(p.dry_run ? "Would remove " : "Removed ") + runs_plus(p.runs(), p.blessings()) + " across " +
         plural(p.sets.size(), "discriminant set");
}

}  // namespace

std::string render_prune_text(const PrunePlan& p) {
  std::string out = "Prune plan for project " + p.project + " (target " + p.target_ref + ")\n";
  if (p.sets.empty()) return out + "\nNo run matches the selection.\n" + (p.hint ? "\n" + *p.hint + "\n" : "");
  for (const auto& s : p.sets) {
    out += "\n" + s.set.label() + "\n  " + runs_plus(s.runs(), s.blessings()) + " across " +
           plural(s.commits.size(), "commit") + "\n";
    for (const auto& c : s.commits) out += "    " + c.commit + "  " + runs_plus(c.runs, c.blessings) + "\n";
  }
  return out + "\n" + prune_total(p) + "\n";
}

std::string render_prune_markdown(const PrunePlan& p) {
  std::string out = "# Prune plan for " + p.project + " (target " + p.target_ref + ")\n";
  if (p.sets.empty()) return out + "\nNo run matches the selection.\n" + (p.hint ? "\n" + *p.hint + "\n" : "");
  for (const auto& s : p.sets) {
    out += "\n## " + s.set.label() + "\n\n" + runs_plus(s.runs(), s.blessings()) + " across " +
           plural(s.commits.size(), "commit") + "\n\n| Commit | Runs | Blessings |\n| --- | --- | --- |\n";
    for (const auto& c : s.commits)
      out += "| " + c.commit + " | " + std::to_string(c.runs) + " | " + std::to_string(c.blessings) + " |\n";
  }
  return out + "\n**" + prune_total(p) + "**\n";
}

std::string render_prune_json(const PrunePlan& p) {
  codec::json::Writer j;
  j.begin_object();
  j.member("project", p.project);
  j.member("target_ref", p.target_ref);
  j.member("dry_run", p.dry_run);
  if (p.hint) j.member("hint", *p.hint);
  j.key("sets").begin_array();
  for (const auto& s : p.sets) {
    j.begin_object();
    set_identity(j, s.set);
    j.member("runs", s.runs());
    j.member("blessings", s.blessings());
    j.key("commits").begin_array();
    for (const auto& c : s.commits) {
      j.begin_object().member("commit", c.commit).member("runs", c.runs).member("blessings", c.blessings);
      j.key("keys").begin_array();
      for (const auto& k : c.keys) j.value(k);
      j.end_array();
      j.end_object();
    }
    j.end_array();
    j.end_object();
  }
  j.end_array();
  j.key("totals").begin_object();
  j.member("runs", p.runs());
  j.member("blessings", p.blessings());
  j.member("discriminant_sets", static_cast<std::uint64_t>(p.sets.size()));
  j.end_object();
  j.end_object();
  return j.take();
}

}  // namespace benchhist::report
