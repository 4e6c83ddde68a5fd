#pragma once
// `prune` outputs (docs/prune.md#result-and-outputs): the plan (dry run) or what was removed.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/model/discriminant.hpp"

namespace benchhist::report {

struct PrunedCommit {
  std::string commit;  // full id
  std::uint64_t runs = 0;
  std::uint64_t blessings = 0;
  std::vector<std::string> keys;  // storage keys removed (or to remove)
};
struct PrunedSet {
  DiscriminantSet set;
  std::vector<PrunedCommit> commits;
  std::uint64_t runs() const noexcept;
  std::uint64_t blessings() const noexcept;
};
struct PrunePlan {
  std::string project;
  std::string target_ref;  // the context ref as given
  bool dry_run = false;
  std::vector<PrunedSet> sets;
  // Why a commit the user named was left out (it is base history, kept from a branch), and how
  // to prune it; printed after the plan.
  std::optional<std::string> hint;
  std::uint64_t runs() const noexcept;
  std::uint64_t blessings() const noexcept;
};

std::string render_prune_text(const PrunePlan&);
std::string render_prune_markdown(const PrunePlan&);
std::string render_prune_json(const PrunePlan&);

}  // namespace benchhist::report
