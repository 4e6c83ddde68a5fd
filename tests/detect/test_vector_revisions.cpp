// vector_revisions.json lists exactly the expectations that the adopted departures move
// (docs/divergences.md: S1 and S2 of detection-sharp, S3, S3b, S4 and S5 of detection-tip): every
// case of the history, multiplicity and selection vectors is evaluated as the reference, as the
// product, and with each change alone; a field is revised iff the product's value differs from
// the reference behaviour's, and its label says which change moves it. The hidden test case
// "[generate-revisions]" rewrites the file from the same computation.
#include <cstdio>
#include <functional>
#include <map>

#include "benchhist/detect/history.hpp"
#include "history_check.hpp"
#include "revisions.hpp"

using namespace benchhist;
using namespace benchhist::detect;
using namespace bhtest;

namespace {

using detail::Departures;

json::value number(double v) { return json::value(v); }
json::value optional_number(const std::optional<double>& v) { return v ? number(*v) : json::value(); }

json::value ladder_json(const GateLadder& l) {
  json::array out;
  for (const auto& g : l.gates())
    out.push_back(json::object{{"gate", g.name},
                               {"value", optional_number(g.value)},
                               {"threshold", optional_number(g.threshold)},
                               {"passed", g.passed}});
  return out;
}

json::object candidate_json(const Candidate& c) {
  json::object o{{"method", to_string(c.method)},
                 {"direction", to_string(c.direction)},
                 {"baseline", number(c.baseline)},
                 {"latest", number(c.latest)},
                 {"delta", number(c.delta)},
                 {"relative_delta", number(c.relative_delta)},
                 {"commit", "commit" + std::to_string(c.point_index)}};
  if (c.method == FindingMethod::change_point) o["commit_index"] = static_cast<std::int64_t>(c.view_index);
  if (c.window_start_index) o["window_start"] = "commit" + std::to_string(*c.window_start_index);
  o["chance_level"] = number(c.chance_level);
  return o;
}

json::value declined_json(const GateLadder& l) {
  const auto d = l.first_declined();
  return d ? json::value(*d) : json::value();
}

SeriesInput input_of(const json::object& c, std::vector<double>& values,
                     std::vector<std::optional<benchhist::Interval>>& intervals) {
  values = series_of(c);
  intervals = intervals_of(c);
  SeriesInput s;
  s.values = values;
  s.intervals = intervals;
  s.kind = metric_of(c);
  s.active_start = c.contains("active_start") ? static_cast<std::size_t>(num(c.at("active_start"))) : 0;
  return s;
}

// One history series in the vectors' `expected` shape.
json::value history_json(const json::object& c, Departures d) {
  std::vector<double> values;
  std::vector<std::optional<benchhist::Interval>> intervals;
  const SeriesInput s = input_of(c, values, intervals);
  const std::size_t m = c.contains("family_size") ? static_cast<std::size_t>(num(c.at("family_size"))) : 1;
  const HistoryJudgement j = HistoryJudge(m, d).judge(s);
  json::object e;
  e["judged"] = j.judged();
  if (j.unjudged) {
    e["unjudged_reason"] = to_string(*j.unjudged);
    e["verdict"] = "unjudged";
    return e;
  }
  std::vector<HistoryJudgement> family{j};
  const FamilyResult fr = select_history_findings(family, m);
  e["verdict"] = fr.findings.empty() ? "quiet" : "reported";
  e["candidate"] = j.candidate ? json::value(candidate_json(*j.candidate)) : json::value();
  if (fr.dropped[0])
    e["dropped_by"] = *fr.dropped[0] == DropReason::direction_filter ? "direction_filter" : "benjamini_hochberg";
  e["declined_gate"] = json::object{{"change_point", declined_json(j.change_point)}, {"drift", declined_json(j.drift)}};
  if (j.tainted_p) {
    e["tainted_p"] = number(*j.tainted_p);
    e["adjusted_p"] = number(*j.adjusted_p);
  }
  e["gates"] = json::object{{"change_point", ladder_json(j.change_point)}, {"drift", ladder_json(j.drift)}};
  return e;
}

json::value batch_json(const json::object& c, Departures d) {
  std::vector<std::vector<double>> values;
  std::vector<std::vector<std::optional<benchhist::Interval>>> intervals;
  std::vector<SeriesInput> inputs;
  std::vector<std::string> names;
  const auto& batch = c.at("batch").as_array();
  values.resize(batch.size());
  intervals.resize(batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    inputs.push_back(input_of(batch[i].as_object(), values[i], intervals[i]));
    names.push_back(str(batch[i].at("name")));
  }
  const std::size_t m = history_family_size(inputs);
  const auto judged = judge_history_batch(inputs, 1, std::nullopt, d);
  json::array per;
  for (std::size_t i = 0; i < judged.size(); ++i) {
    json::object o{{"name", names[i]}, {"judged", judged[i].judged()}};
    if (judged[i].unjudged) o["unjudged_reason"] = to_string(*judged[i].unjudged);
    o["candidate"] = judged[i].candidate ? json::value(candidate_json(*judged[i].candidate)) : json::value();
    per.push_back(std::move(o));
  }
  json::array ranked;
  for (const auto& f : select_history_findings(judged, m).findings) {
    json::object o = candidate_json(f.candidate);
    o["name"] = names[f.series];
    ranked.push_back(std::move(o));
  }
  return json::object{{"family_size", static_cast<std::int64_t>(m)}, {"per_series", per}, {"findings_ranked", ranked}};
}

json::value selection_json(const json::object& c, Departures d) {
  const auto& in = c.at("input");
  const auto values = in.as_object().contains("values") ? numbers(in.at("values")) : expand_rle(in.at("values_rle"));
  const auto& cal = in.at("calibration");
  SplitCalibration sc;
  sc.order_budget = static_cast<std::uint64_t>(num(cal.at("permutation_order_budget")));
  sc.analytic_weight = num(cal.at("analytic_weight"));
  sc.accept_analytic_below = num(cal.at("accept_analytic_below"));
  sc.reject_at_or_above = num(cal.at("reject_at_or_above"));
  sc.min_regime = static_cast<std::size_t>(num(in.at("min_regime")));
  sc.sharp_certificate = d.sharp_certificate;
  sc.min_p_search = d.min_p_search;
  sc.sharp_tails = d.sharp_tails;
  const auto r = split_corrected_change_point(values, sc);
  if (!r) return json::value();
  return json::object{{"index", static_cast<std::int64_t>(r->index)},
                      {"tainted_p", number(r->tainted_p)},
                      {"adjusted_p", number(r->adjusted_p)},
                      {"superiority", number(r->superiority)}};
}

// The evaluator for a case, or nullptr when S1/S2 cannot reach it (other ops and modes).
std::function<json::value(const json::object&, Departures)> evaluator(const std::string& file, const json::object& c) {
  if (file == "stats_primitives.json")
    return str(c.at("op")) == "selection_adjusted_change_point" ? selection_json : nullptr;
  if (str(c.at("mode")) != "history") return nullptr;
  return c.contains("batch") ? batch_json : history_json;
}

// Absent members are represented by this marker while diffing.
const json::value absent = json::value("\x01" "absent");
const json::value& member(const json::value& v, std::string_view key) {
  if (!v.is_object()) return absent;
  const auto* p = v.as_object().if_contains(key);
  return p ? *p : absent;
}

struct Move {
  std::string path;
  json::value reference;  // from the vector file (absent for an addition)
  json::value revised;    // the product's (absent for a removal)
};

// Where the product (`neu`) differs from the reference behaviour (`ref`), restricted to what
// the vector (`vec`) records; members the evaluator does not produce (seed_states, names) are
// left alone.
void diff(const json::value& vec, const json::value& ref, const json::value& neu, const std::string& path,
          std::vector<Move>& out) {
  if (same_json(ref, neu)) return;
  if (vec.is_object() && ref.is_object() && neu.is_object()) {
    std::vector<std::string> keys;
    for (const auto& kv : vec.as_object()) keys.emplace_back(kv.key());
    for (const auto& kv : neu.as_object())
      if (!vec.as_object().contains(kv.key()) && !ref.as_object().contains(kv.key())) keys.emplace_back(kv.key());
    for (const auto& k : keys) {
      const auto &v = member(vec, k), &r = member(ref, k), &n = member(neu, k);
      if (&r == &absent && &v != &absent) continue;  // not produced by the evaluator
      diff(v, r, n, path + "/" + k, out);
    }
    return;
  }
  if (vec.is_array() && ref.is_array() && neu.is_array() && vec.as_array().size() == ref.as_array().size() &&
      ref.as_array().size() == neu.as_array().size()) {
    for (std::size_t i = 0; i < vec.as_array().size(); ++i)
      diff(vec.as_array()[i], ref.as_array()[i], neu.as_array()[i], path + "/" + std::to_string(i), out);
    return;
  }
  out.push_back(Move{path, vec, neu});
}

const json::value& at_path(const json::value& root, const std::string& path) {
  // path is relative to /expected
  const json::value* v = &root;
  std::size_t start = 1;
  while (start <= path.size() && !path.empty()) {
    const std::size_t end = std::min(path.find('/', start), path.size());
    const std::string tok = path.substr(start, end - start);
    if (v->is_array()) {
      const auto i = std::stoul(tok);
      if (i >= v->as_array().size()) return absent;
      v = &v->as_array()[i];
    } else {
      v = &member(*v, tok);
      if (v == &absent) return absent;
    }
    start = end + 1;
  }
  return *v;
}

// Each departure alone (the reference behaviour plus that one change), by its label.
std::vector<std::pair<std::string, Departures>> single_changes() {
  std::vector<std::pair<std::string, Departures>> out;
  auto with = [](bool Departures::*flag) {
    Departures d = Departures::reference();
    d.*flag = true;
    return d;
  };
  out.emplace_back("S1", with(&Departures::sharp_certificate));
  out.emplace_back("S2", with(&Departures::level_start_split));
  out.emplace_back("S3", with(&Departures::min_p_search));
  out.emplace_back("S3b", with(&Departures::sharp_tails));
  out.emplace_back("S4", with(&Departures::wander_guard));
  out.emplace_back("S5", with(&Departures::current_level));
  out.emplace_back("S6", with(&Departures::drift_shape));
  out.emplace_back("S7", with(&Departures::complete_short_orbit));
  return out;
}

std::vector<CaseRevision> computed_revisions() {
  std::vector<CaseRevision> out;
  const Departures all{}, none = Departures::reference();
  const auto singles = single_changes();
  for (const std::string file : {"history_change_point.json", "history_drift.json", "history_multiplicity.json",
                                 "stats_primitives.json"}) {
    for (const auto& v : load_vectors(file)) {
      const auto& c = v.as_object();
      const auto eval = evaluator(file, c);
      if (!eval) continue;
      const json::value ref = eval(c, none), neu = eval(c, all);
      std::vector<Move> moves;
      diff(c.at("expected"), ref, neu, "", moves);
      if (moves.empty()) continue;
      std::vector<json::value> alone;
      for (const auto& [label, d] : singles) alone.push_back(eval(c, d));
      CaseRevision r{file, str(c.at("name")), {}};
      for (const auto& m : moves) {
        const auto &rr = at_path(ref, m.path), &rn = at_path(neu, m.path);
        // The label names the change that alone gives the product's value while every other
        // leaves the reference's; otherwise every change that moves the field on its own,
        // joined with "+" (all of them when it moves only in combination).
        std::string exact, movers, everyone;
        std::size_t exact_count = 0;
        bool others_still = true;
        for (std::size_t i = 0; i < singles.size(); ++i) {
          const auto& ri = at_path(alone[i], m.path);
          everyone += (everyone.empty() ? "" : "+") + singles[i].first;
          if (same_json(ri, rr)) continue;
          movers += (movers.empty() ? "" : "+") + singles[i].first;
          if (same_json(ri, rn)) exact = singles[i].first, ++exact_count;
          else others_still = false;
        }
        FieldRevision f;
        f.path = "/expected" + m.path;
        f.op = same_json(m.reference, absent) ? "add" : same_json(m.revised, absent) ? "remove" : "replace";
        if (f.op != "add") f.reference = m.reference;
        if (f.op != "remove") f.revised = m.revised;
        f.change = exact_count == 1 && others_still && movers == exact ? exact : !movers.empty() ? movers : everyone;
        r.fields.push_back(std::move(f));
      }
      out.push_back(std::move(r));
    }
  }
  return out;
}

// Numbers with 17 significant digits (exact round trip), 2-space indentation.
void write_json(std::string& out, const json::value& v, int indent) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (v.is_string() && std::string_view(v.as_string()).starts_with(number_marker)) {
    write_json(out, json::value(num(v)), indent);
  } else if (v.is_double()) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v.as_double());
    out += buf;
  } else if (v.is_object()) {
    if (v.as_object().empty()) { out += "{}"; return; }
    out += "{\n";
    bool first = true;
    for (const auto& kv : v.as_object()) {
      if (!first) out += ",\n";
      first = false;
      out += pad + "  " + json::serialize(json::value(kv.key())) + ": ";
      write_json(out, kv.value(), indent + 2);
    }
    out += "\n" + pad + "}";
  } else if (v.is_array()) {
    if (v.as_array().empty()) { out += "[]"; return; }
    out += "[\n";
    for (std::size_t i = 0; i < v.as_array().size(); ++i) {
      if (i) out += ",\n";
      out += pad + "  ";
      write_json(out, v.as_array()[i], indent + 2);
    }
    out += "\n" + pad + "]";
  } else {
    out += json::serialize(v);
  }
}

json::value to_document(const std::vector<CaseRevision>& revisions) {
  json::array rs;
  for (const auto& r : revisions) {
    json::array fields;
    for (const auto& f : r.fields) {
      json::object o{{"path", f.path}, {"op", f.op}, {"change", f.change}};
      if (f.op != "add") o["reference"] = f.reference;
      if (f.op != "remove") o["revised"] = f.revised;
      fields.push_back(std::move(o));
    }
    rs.push_back(json::object{{"file", r.file}, {"case", r.name}, {"fields", fields}});
  }
  return json::object{
      {"about",
       "Expectations of the shared detection vectors that the adopted departures move on purpose: "
       "detection-sharp.md S1 (the analytic certificate at the unclamped observed p) and S2 (the reported split is "
       "the new level's estimated start), detection-tip.md S3 (the most likely split is the split search), S3b (a "
       "certificate as sharp as the evidence), S4 (the wander guard) and S5 (the current level), S6 (a drift is a slope, not a step) and S7 (a short "
       "series' orbit is complete; docs/divergences.md). Each field names "
       "the change that moves it alone, or every change that moves it on its own joined with '+'. Generated by "
       "tests/detect/test_vector_revisions.cpp ([generate-revisions]); see docs/divergences.md."},
      {"revisions", rs}};
}

bool close_json(const json::value& a, const json::value& b) {
  auto is_num = [](const json::value& v) {
    return v.is_number() || (v.is_string() && std::string_view(v.as_string()).starts_with(number_marker));
  };
  if (is_num(a) && is_num(b)) return close(num(a), num(b), tol_erfc);
  if (a.is_array() && b.is_array()) {
    if (a.as_array().size() != b.as_array().size()) return false;
    for (std::size_t i = 0; i < a.as_array().size(); ++i)
      if (!close_json(a.as_array()[i], b.as_array()[i])) return false;
    return true;
  }
  if (a.is_object() && b.is_object()) {
    if (a.as_object().size() != b.as_object().size()) return false;
    for (const auto& kv : a.as_object())
      if (!b.as_object().contains(kv.key()) || !close_json(kv.value(), b.as_object().at(kv.key()))) return false;
    return true;
  }
  return same_json(a, b);
}

}  // namespace

TEST_CASE("the vector revisions are exactly the expectations S1-S7 move, each with the change that moves it",
          "[detect][vectors]") {
  const auto want = computed_revisions();
  const auto have = load_revisions();
  std::map<std::string, const CaseRevision*> by_case;
  for (const auto& r : have) by_case[r.file + "#" + r.name] = &r;
  CHECK(have.size() == want.size());
  for (const auto& w : want) {
    INFO("case " << w.file << "#" << w.name);
    const auto it = by_case.find(w.file + "#" + w.name);
    REQUIRE(it != by_case.end());
    const CaseRevision& h = *it->second;
    REQUIRE(h.fields.size() == w.fields.size());
    for (std::size_t i = 0; i < w.fields.size(); ++i) {
      INFO("field " << w.fields[i].path);
      CHECK(h.fields[i].path == w.fields[i].path);
      CHECK(h.fields[i].op == w.fields[i].op);
      CHECK(h.fields[i].change == w.fields[i].change);
      CHECK(same_json(h.fields[i].reference, w.fields[i].reference));
      CHECK(close_json(h.fields[i].revised, w.fields[i].revised));
    }
  }
}

TEST_CASE("regenerate vector_revisions.json from the detector", "[.][generate-revisions]") {
  std::string text;
  write_json(text, to_document(computed_revisions()), 0);
  text += "\n";
  std::ofstream(revisions_path(), std::ios::binary) << text;
  SUCCEED("wrote " << revisions_path());
}
