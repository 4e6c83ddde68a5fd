#include "benchhist/engines/harvest.hpp"

#include "benchhist/engines/all_the_time.hpp"
#include "benchhist/engines/alloc_tracker.hpp"
#include "benchhist/engines/callgrind.hpp"
#include "benchhist/engines/criterion.hpp"
#include "benchhist/engines/libtest.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/engines/report_file.hpp"
#include "common.hpp"

#include <map>
#include <set>

namespace benchhist::engines {
namespace fs = std::filesystem;
namespace {

Timestamp modified_at(const fs::path& file, Engine engine) {
  std::error_code ec;
  const auto t = fs::last_write_time(file, ec);
  if (ec) detail::throw_harvest_error(engine, file, "cannot read the modification time: " + ec.message());
  return to_timestamp(t);
}

std::string cutoff_text(const FreshnessGate& gate) {
  return gate.cutoff() ? format_rfc3339(*gate.cutoff()) : std::string("none");
}

HarvestNote note(Engine e, HarvestDecision d, fs::path p, std::optional<Timestamp> t, std::string detail = {}) {
  return HarvestNote{e, d, std::move(p), t, std::move(detail)};
}

// Admission of one file by its own mtime; records the stale note when refused.
bool admit(Engine e, const fs::path& decisive_file, const fs::path& noted_path, const FreshnessGate& gate,
           std::vector<HarvestNote>& notes, Timestamp& modified) {
  modified = modified_at(decisive_file, e);
  if (gate.admits(modified)) return true;
  notes.push_back(note(e, HarvestDecision::stale, noted_path, modified,
                       "modified before the freshness cutoff " + cutoff_text(gate)));
  return false;
}

void harvest_callgrind(const fs::path& root, const FreshnessGate& gate, EngineHarvest& out,
                       std::vector<HarvestNote>& notes) {
  for (const fs::path& file : list_summary_files(root)) {
    Timestamp t;
    if (!admit(Engine::callgrind, file, file, gate, notes, t)) continue;
    out.results.push_back(read_gungraun_summary(file));
    notes.push_back(note(Engine::callgrind, HarvestDecision::included, file, t));
  }
}

void harvest_criterion(const fs::path& root, const FreshnessGate& gate, EngineHarvest& out,
                       std::vector<HarvestNote>& notes) {
  for (const CriterionCaseDir& c : list_criterion_case_dirs(root)) {
    // estimates.json decides for the case (docs/formats.md#freshness-gate); for a half-written
    // case, the file present.
    const fs::path decisive = c.dir / (c.has_estimates ? "estimates.json" : "benchmark.json");
    const Timestamp t = modified_at(decisive, Engine::criterion);
    if (!gate.admits(t)) {
      if (c.complete())
        notes.push_back(note(Engine::criterion, HarvestDecision::stale, c.dir, t,
                             "estimates.json modified before the freshness cutoff " + cutoff_text(gate)));
      else
        notes.push_back(note(Engine::criterion, HarvestDecision::incomplete, c.dir, t,
                             std::string("left over from an earlier run: only ") +
                                 (c.has_estimates ? "estimates.json" : "benchmark.json") +
                                 ", modified before the freshness cutoff " + cutoff_text(gate)));
      continue;
    }
    // A fresh case missing a file throws here, naming the missing file: this run broke.
    out.results.push_back(read_criterion_case(c.dir));
    notes.push_back(note(Engine::criterion, HarvestDecision::included, c.dir, t));
  }
}

template <class Reader>
void harvest_flat(Engine e, const fs::path& root, const FreshnessGate& gate, EngineHarvest& out,
                  std::vector<HarvestNote>& notes, Reader read) {
  for (const fs::path& file : list_flat_json_files(root, e)) {
    Timestamp t;
    if (!admit(e, file, file, gate, notes, t)) continue;
    if (auto r = read(file)) {
      out.results.push_back(std::move(*r));
      notes.push_back(note(e, HarvestDecision::included, file, t));
    } else {
      notes.push_back(note(e, HarvestDecision::dropped, file, t));
    }
  }
}

}  // namespace

std::string HarvestNote::text() const {
  const std::string eng(to_string(engine));
  const std::string when = modified ? " (modified " + format_rfc3339(*modified) + ")" : std::string();
  switch (decision) {
    case HarvestDecision::included: return eng + ": included " + path.string() + when;
    case HarvestDecision::stale: return eng + ": ignored stale " + path.string() + when + ": " + detail;
    case HarvestDecision::dropped:
      return path.string() + ": no usable per-iteration measurement (zero-iteration operation); skipping";
    case HarvestDecision::incomplete:
      return eng + ": skipped incomplete case " + path.string() + ": " + detail;
    case HarvestDecision::no_output: return eng + ": no output (" + path.string() + " does not exist)";
    case HarvestDecision::not_measured: return eng + ": " + path.string() + ": " + detail;
  }
  return eng + ": " + path.string();
}

const std::vector<BenchmarkResult>& Harvest::results(Engine e) const {
  static const std::vector<BenchmarkResult> none;
  for (const auto& h : engines)
    if (h.engine == e) return h.results;
  return none;
}

std::size_t Harvest::case_count() const noexcept {
  std::size_t n = 0;
  for (const auto& h : engines) n += h.results.size();
  return n;
}

EngineHarvest harvest_engine(Engine engine, const fs::path& target_root, const FreshnessGate& gate,
                             std::vector<HarvestNote>& notes) {
  EngineHarvest out;
  out.engine = engine;
  const fs::path root = output_root(target_root, engine);
  if (!has_output_root(root, engine)) {
    // No output is not an error: "no benchmarks of this engine" and "all failed" look alike.
    notes.push_back(note(engine, HarvestDecision::no_output, root, std::nullopt));
    return out;
  }
  switch (engine) {
    case Engine::callgrind: harvest_callgrind(root, gate, out, notes); break;
    case Engine::criterion: harvest_criterion(root, gate, out, notes); break;
    case Engine::alloc_tracker: harvest_flat(engine, root, gate, out, notes, read_alloc_tracker); break;
    case Engine::all_the_time: harvest_flat(engine, root, gate, out, notes, read_all_the_time); break;
    default:
      throw Error(ErrorKind::internal, std::string(to_string(engine)) + " reports are not under the target root",
                  target_root.string(), {}, "call harvest_reports with the report paths");
  }
  return out;
}

std::vector<EngineHarvest> harvest_reports(const std::vector<fs::path>& paths, const FreshnessGate& gate,
                                           std::vector<HarvestNote>& notes) {
  std::vector<EngineHarvest> out;
  for (Engine e : report_engines) out.push_back(EngineHarvest{e, {}});
  auto slot = [&](Engine e) -> EngineHarvest& {
    for (auto& h : out)
      if (h.engine == e) return h;
    throw Error(ErrorKind::internal, "no harvest slot for " + std::string(to_string(e)));
  };
  // Qualified identity → the file it came from. Keyed by the printed form, not the segments:
  // [a/b, c] and [a, b, c] are two identities that every report and `examine` show as `a/b/c`.
  std::map<std::pair<Engine, std::string>, fs::path> seen;
  std::set<fs::path> read;  // files already read, canonical: one named twice (itself and in its directory) counts once
  for (const fs::path& path : paths) {
    const auto files = list_report_files(path);
    if (files.empty()) {
      std::error_code ec;
      if (!fs::exists(path, ec))
        notes.push_back(note(Engine::google_benchmark, HarvestDecision::no_output, path, std::nullopt));
      else
        notes.push_back(note(Engine::google_benchmark, HarvestDecision::not_measured, path, std::nullopt,
                             "no report was written here"));
    }
    for (const fs::path& file : files) {
      std::error_code ec;
      if (const auto canonical = fs::weakly_canonical(file, ec); !ec && !read.insert(canonical).second) continue;
      // Recognised before the gate: a file no engine reads fails even when stale, so nothing
      // in the directory goes unexplained.
      RecognisedReport rec = read_report_file(file);
      const Engine e = rec.engine;
      Timestamp t;
      if (!admit(e, file, file, gate, notes, t)) continue;
      for (auto& r : rec.report.results) {
        auto [it, fresh] = seen.try_emplace({e, r.id.qualified()}, file);
        if (!fresh)
          detail::throw_parse_error(
              file, std::string(to_string(e)) + " benchmark '" + r.id.qualified() + "' is also reported by " +
                        it->second.string(),
              "give every report its own benchmarks (or its own filter or command names); two results for one "
              "benchmark would make one of them silently lost");
        slot(e).results.push_back(std::move(r));
      }
      notes.push_back(note(e, HarvestDecision::included, file, t));
      for (auto& n : rec.report.notes) notes.push_back(note(e, HarvestDecision::not_measured, file, t, std::move(n)));
    }
  }
  return out;
}

Harvest harvest_all(const fs::path& target_root, Timestamp run_start, const HarvestOptions& options) {
  const FreshnessGate gate = options.freshness_gate ? FreshnessGate::for_run_start(run_start) : FreshnessGate::disabled();
  Harvest h;
  h.cutoff = gate.cutoff();
  for (Engine e : target_root_engines) h.engines.push_back(harvest_engine(e, target_root, gate, h.notes));
  for (auto& r : harvest_reports(options.report_paths, gate, h.notes)) h.engines.push_back(std::move(r));
  // Printed by this run, so fresh by definition; output without #[bench] lines is not a report.
  if (options.captured_stdout && looks_like_libtest(*options.captured_stdout)) {
    const fs::path source{std::string(captured_stdout_name)};
    ParsedReport rep = parse_libtest(*options.captured_stdout, source);
    for (auto& h_engine : h.engines) {
      if (h_engine.engine != Engine::libtest) continue;
      for (auto& r : rep.results) {
        for (const auto& earlier : h_engine.results)
          if (earlier.id == r.id)
            detail::throw_parse_error(source, "libtest benchmark '" + r.id.qualified() +
                                                  "' is also reported by a file in the output directory",
                                      "let cargo bench print its results, or write them to a file, not both");
        h_engine.results.push_back(std::move(r));
      }
    }
    h.notes.push_back(note(Engine::libtest, HarvestDecision::included, source, std::nullopt));
    for (auto& n : rep.notes) h.notes.push_back(note(Engine::libtest, HarvestDecision::not_measured, source, std::nullopt, std::move(n)));
  }
  return h;
}

}  // namespace benchhist::engines
