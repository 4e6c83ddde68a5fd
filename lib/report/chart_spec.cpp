// Chart specifications from the report model (report/chart_spec.hpp).

#include "benchhist/report/chart_spec.hpp"

#include <algorithm>

#include "benchhist/report/value_format.hpp"

namespace benchhist::report {

namespace {

const LineCommit* commit_at(const std::vector<LineCommit>* line, std::size_t index) {
  if (!line || index >= line->size()) return nullptr;
  return &(*line)[index];
}

std::string commit_label(const std::vector<LineCommit>* line, std::size_t index) {
  if (const auto* c = commit_at(line, index)) return std::string(short_id(c->id));
  return "#" + std::to_string(index);
}

}  // namespace

ChartOverlay overlay_of(const Finding& f) {
  ChartOverlay o;
  o.method = f.method;
  o.direction = f.direction;
  o.baseline = f.baseline;
  o.latest = f.latest;
  if (!f.chart) return o;
  const auto& c = *f.chart;
  o.analysed_from = c.analysed_from;
  o.blessed_index = c.blessed_index;
  if (f.branch) {
    o.range = std::pair<double, double>{f.branch->reference_min, f.branch->reference_max};
    o.range_from = c.regime_start_index;
    o.tip_index = c.attributed_index;
  } else if (f.method == FindingMethod::change_point) {
    o.split_index = c.attributed_index;
  }
  return o;
}

std::string point_tooltip(const ChartPoint& p, MetricKind kind, const std::vector<LineCommit>* line) {
  const LineCommit* c = commit_at(line, p.index);
  std::string s = (c ? std::string(short_id(c->id)) : "#" + std::to_string(p.index)) + " \u00b7 " +
                  format_value(p.value) + " " + std::string(unit_of(kind));
  if (c && !c->subject.empty()) s += "\n" + truncate_scalars(c->subject, 60);
  std::string when = c && c->committed ? *c->committed : std::string();
  if (p.dirty) when += when.empty() ? "dirty snapshot" : " \u00b7 dirty snapshot";
  if (!when.empty()) s += "\n" + when;
  return s;
}

svg::ChartSpec chart_spec(const std::vector<ChartPoint>& points, std::size_t target, MetricKind kind,
                          const ChartOverlay& o, const std::vector<LineCommit>* line) {
  svg::ChartSpec spec;
  spec.unit = std::string(unit_of(kind));
  spec.tone = o.quiet || !o.method                    ? svg::Tone::neutral
              : o.direction == Direction::improvement ? svg::Tone::improvement
                                                      : svg::Tone::regression;
  if (points.empty()) return spec;
  std::size_t first = points.front().index, last_point = points.front().index;
  for (const auto& p : points) {
    first = std::min(first, p.index);
    last_point = std::max(last_point, p.index);
  }
  spec.first = first;
  spec.last = std::max(last_point, target);
  for (const auto& p : points)
    spec.marks.push_back({p.index, p.value, p.dirty, o.tip_index && p.index == *o.tip_index, point_tooltip(p, kind, line)});
  spec.first_label = commit_label(line, spec.first);
  spec.last_label = commit_label(line, spec.last);

  if (o.blessed_index && *o.blessed_index >= spec.first && *o.blessed_index <= spec.last)
    spec.rules.push_back({*o.blessed_index, svg::RuleKind::blessing, "blessed " + commit_label(line, *o.blessed_index)});
  if (!o.method) return spec;

  const std::size_t from = std::clamp(o.analysed_from.value_or(first), first, last_point);
  switch (*o.method) {
    case FindingMethod::change_point: {
      const std::size_t split = std::clamp(o.split_index.value_or(from), from, last_point);
      spec.levels.push_back({from, split, o.baseline, o.baseline, svg::LevelKind::baseline,
                             "baseline " + format_value(o.baseline)});
      spec.levels.push_back({split, last_point, o.latest, o.latest, svg::LevelKind::latest,
                             "latest " + format_value(o.latest)});
      spec.rules.push_back({split, svg::RuleKind::split, "near " + commit_label(line, split)});
      break;
    }
    case FindingMethod::drift:
      spec.window = svg::Window{from, last_point, "accumulated " + commit_label(line, from) + " \u2192 " +
                                                      commit_label(line, last_point)};
      spec.levels.push_back({from, last_point, o.baseline, o.latest, svg::LevelKind::fit,
                             "drift " + format_value(o.baseline) + " \u2192 " + format_value(o.latest)});
      break;
    case FindingMethod::branch_excursion: {
      const std::size_t tip = o.tip_index.value_or(last_point);
      if (o.range) {
        const std::size_t band_from = std::clamp(o.range_from.value_or(first), first, tip);
        spec.band = svg::Band{band_from, tip, o.range->first, o.range->second,
                              "observed range " + format_value(o.range->first) + "\u2013" +
                                  format_value(o.range->second)};
        if (o.range_from && *o.range_from > first)
          spec.rules.push_back({*o.range_from, svg::RuleKind::regime_start, "current regime"});
      }
      // The excess beyond the nearest edge, when the tip lies outside the range at all.
      if (!o.range || o.latest < o.range->first || o.latest > o.range->second)
        spec.excess = svg::Excess{tip, o.baseline, o.latest};
      break;
    }
  }
  return spec;
}

svg::ChartSpec finding_chart_spec(const Finding& f, const std::vector<LineCommit>* line) {
  if (!f.chart) return {};
  auto spec = chart_spec(f.chart->points, f.chart->target_index, f.kind, overlay_of(f), line);
  spec.title = f.benchmark.qualified() + " " + std::string(to_string(f.kind)) + ": " +
               std::string(to_string(f.direction)) + " via " + std::string(method_label(f.method));
  return spec;
}

}  // namespace benchhist::report
