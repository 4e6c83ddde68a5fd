#pragma once
// `examine` outputs (docs/formats.md#listings-and-command-messages): every stored point of one
// (benchmark, metric) per matching set, one row per first-parent commit of the shared range, `n/a`
// for gaps.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/model/discriminant.hpp"
#include "benchhist/model/metric.hpp"

namespace benchhist::report {

struct ExamineRow {
  std::string commit;               // full id
  std::size_t index = 0;            // first-parent index (chart column)
  std::optional<double> value;      // nullopt: the commit has no observation (`n/a` row)
  bool dirty = false;               // observation from a dirty snapshot
  std::string title;                // full commit subject
  std::optional<std::string> committed{};  // committer time, RFC 3339 (HTML tooltips)
};

struct ExamineSet {
  DiscriminantSet set;
  std::vector<ExamineRow> rows;     // first-parent order; clean before dirty at a commit
  std::size_t target_index = 0;     // the analyzed tip (trailing chart gap)
};

struct ExamineData {
  std::string project;
  std::string benchmark;            // qualified id
  MetricKind metric = MetricKind::wall_time;
  std::vector<ExamineSet> sets;     // ordered as docs/formats.md#outputs
  std::optional<std::string> hint;
  std::optional<std::string> warning;

  // True when no set has any observation.
  bool empty() const noexcept;
};

inline constexpr std::size_t examine_title_scalars = 50;

std::string render_examine_text(const ExamineData&);
std::string render_examine_markdown(const ExamineData&);
std::string render_examine_json(const ExamineData&);  // no trailing newline

}  // namespace benchhist::report
