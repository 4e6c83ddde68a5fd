#include "benchhist/engines/best_of.hpp"

#include <charconv>
#include <map>

#include "benchhist/engines/output_locations.hpp"
#include "benchhist/error.hpp"

namespace benchhist::engines {
namespace {

[[noreturn]] void inconsistent(Engine engine, std::string cause) {
  throw Error(ErrorKind::benchmark_inconsistent,
              "engine \"" + std::string(to_string(engine)) + "\" produced inconsistent results across --best-of runs",
              std::string(to_string(engine)), std::move(cause),
              "make every repetition run the same benchmarks with the same filters, features and "
              "peak opt-outs (a benchmark that fails or is skipped in one run breaks the set), "
              "then collect again");
}

std::string case_missing(const BenchmarkId& id, std::size_t run) {
  return "benchmark case '" + id.qualified() + "' is missing from run " + std::to_string(run) +
         "; every best-of run must measure the same set of cases";
}

std::string metric_missing(MetricKind kind, const BenchmarkId& id, std::size_t run) {
  return "metric '" + std::string(to_string(kind)) + "' for benchmark case '" + id.qualified() +
         "' is missing from run " + std::to_string(run) + "; every best-of run must report the same metrics per case";
}

std::string shortest(double v) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

using Index = std::map<BenchmarkId, const BenchmarkResult*>;

Index index_of(const std::vector<BenchmarkResult>& results) {
  Index idx;
  for (const auto& r : results) idx.emplace(r.id, &r);  // a repeated identity: the first wins
  return idx;
}

}  // namespace

BestOfReduction reduce_best_of(Engine engine, const std::vector<std::vector<BenchmarkResult>>& repetitions) {
  if (repetitions.empty())
    throw Error(ErrorKind::usage, "--best-of needs at least one repetition to reduce", "--best-of", {},
                "pass --best-of 1 or more");
  BestOfReduction out;
  const auto& first = repetitions.front();
  out.results = first;  // repetition 1's order; winners replace metric objects in place
  if (repetitions.size() == 1) return out;

  std::vector<Index> indexes;
  indexes.reserve(repetitions.size());
  for (const auto& rep : repetitions) indexes.push_back(index_of(rep));

  // Consistency first: nothing is reduced unless every run measured the same cases/metrics.
  for (std::size_t k = 1; k < repetitions.size(); ++k) {
    const std::size_t run = k + 1;
    for (const auto& c : first) {
      const auto it = indexes[k].find(c.id);
      if (it == indexes[k].end()) inconsistent(engine, case_missing(c.id, run));
      for (const auto& m : c.metrics)
        if (!it->second->find(m.kind)) inconsistent(engine, metric_missing(m.kind, c.id, run));
      for (const auto& m : it->second->metrics)
        if (!c.find(m.kind)) inconsistent(engine, metric_missing(m.kind, c.id, 1));
    }
    for (const auto& c : repetitions[k])
      if (!indexes[0].count(c.id)) inconsistent(engine, case_missing(c.id, 1));
  }

  for (auto& result : out.results) {
    for (auto& metric : result.metrics) {
      std::size_t kept = 0;
      std::vector<double> samples{metric.value};
      for (std::size_t k = 1; k < repetitions.size(); ++k) {
        const MetricValue* m = indexes[k].at(result.id)->find(metric.kind);
        samples.push_back(m->value);
        if (m->value < metric.value) {  // strictly smaller: ties keep the earliest run
          metric = *m;                  // whole object: its interval/std_dev travel with it
          kept = k;
        }
      }
      std::string line = std::string(to_string(engine)) + " " + result.id.qualified() + "/" +
                         std::string(to_string(metric.kind)) + ": best-of samples ";
      for (std::size_t k = 0; k < samples.size(); ++k) {
        if (k) line += ", ";
        line += k == kept ? "[" + shortest(samples[k]) + "]" : shortest(samples[k]);
      }
      line += " (kept run " + std::to_string(kept + 1) + ")";
      out.samples.push_back(std::move(line));
    }
  }
  return out;
}

const std::vector<BenchmarkResult>& BestOfHarvest::results(Engine e) const {
  static const std::vector<BenchmarkResult> none;
  for (const auto& h : engines)
    if (h.engine == e) return h.results;
  return none;
}

BestOfHarvest reduce_best_of(const std::vector<Harvest>& repetitions) {
  if (repetitions.empty())
    throw Error(ErrorKind::usage, "--best-of needs at least one repetition to reduce", "--best-of", {},
                "pass --best-of 1 or more");
  BestOfHarvest out;
  out.repetitions = static_cast<std::uint32_t>(repetitions.size());
  for (Engine e : harvest_order) {
    std::vector<std::vector<BenchmarkResult>> lists;
    lists.reserve(repetitions.size());
    for (const auto& h : repetitions) lists.push_back(h.results(e));
    BestOfReduction r = reduce_best_of(e, lists);
    out.engines.push_back(EngineHarvest{e, std::move(r.results)});
    for (auto& s : r.samples) out.samples.push_back(std::move(s));
  }
  return out;
}

}  // namespace benchhist::engines
