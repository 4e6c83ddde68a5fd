#pragma once
// The --best-of reduction (docs/formats.md#best-of-reduction, #best_of): per case and metric kind
// keep the whole metric object (value + its own interval/std_dev) of the repetition with the
// strictly smallest value; ties go to the earliest repetition.

#include <cstdint>
#include <string>
#include <vector>

#include "benchhist/engines/harvest.hpp"
#include "benchhist/model/benchmark_result.hpp"
#include "benchhist/model/engine.hpp"

namespace benchhist::engines {

struct BestOfReduction {
  std::vector<BenchmarkResult> results;  // cases and metrics in repetition 1's order
  // Verbose lines, one per metric when there are ≥ 2 repetitions:
  // `<engine> <qualified id>/<kind>: best-of samples v1, [v2], v3 (kept run 2)`.
  std::vector<std::string> samples;
};

// Reduces one engine's result lists (one per repetition, in execution order). Every
// repetition must hold exactly repetition 1's case identities and, per case, its metric
// kinds. One repetition reproduces its list unchanged.
// Throws Error{benchmark_inconsistent} "engine \"<engine>\" produced inconsistent results across
// --best-of runs" otherwise, the cause naming the case or metric and the 1-based run it is missing
// from (something only a later run has is reported missing from run 1); Error{usage} (subject
// --best-of) for zero repetitions.
BestOfReduction reduce_best_of(Engine engine, const std::vector<std::vector<BenchmarkResult>>& repetitions);

struct BestOfHarvest {
  std::uint32_t repetitions = 0;       // the count actually reduced (context.best_of)
  std::vector<EngineHarvest> engines;  // every engine, in harvest_order
  std::vector<std::string> samples;    // verbose sample lines of every engine, in order

  const std::vector<BenchmarkResult>& results(Engine e) const;
};

// Reduces every engine across the repetitions' harvests.
// Throws Error{benchmark_inconsistent, usage} as the per-engine reduce_best_of does.
BestOfHarvest reduce_best_of(const std::vector<Harvest>& repetitions);

}  // namespace benchhist::engines
