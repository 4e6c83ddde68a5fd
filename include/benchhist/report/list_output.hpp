#pragma once
// `list` outputs (docs/formats.md#listings-and-command-messages): runs, discriminant sets,
// blessings.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "benchhist/model/discriminant.hpp"

namespace benchhist::report {

// ---- list runs ----
struct ListedCommit {
  std::string commit;  // full id
  std::uint64_t clean = 0;
  std::uint64_t dirty = 0;
  std::uint64_t runs() const noexcept { return clean + dirty; }
};
struct ListedSet {
  DiscriminantSet set;
  std::uint64_t series = 0;
  std::vector<ListedCommit> commits;  // oldest first (first-parent)
  std::uint64_t runs() const noexcept;
};
struct RunListing {
  std::string project;
  std::vector<ListedSet> sets;
  std::optional<std::string> hint;
  std::optional<std::string> warning;
  std::uint64_t runs() const noexcept;
  std::uint64_t series() const noexcept;
};
std::string render_runs_text(const RunListing&);
std::string render_runs_markdown(const RunListing&);
std::string render_runs_json(const RunListing&);

// ---- list discriminants (already distinct and sorted by the caller) ----
std::string render_discriminants_text(const std::vector<DiscriminantSet>&);
std::string render_discriminants_markdown(const std::vector<DiscriminantSet>&);
std::string render_discriminants_json(const std::vector<DiscriminantSet>&);

// ---- list blessings ----
struct ListedBlessing {
  DiscriminantSet set;
  std::optional<std::string> benchmark;     // window view: the blessed benchmark
  std::string commit;                       // full id
  std::optional<std::string> commit_time;   // RFC 3339
  std::optional<std::string> issued_at;     // RFC 3339
  std::vector<std::string> prefixes;        // HEAD view; empty = all benchmarks
};
struct BlessingListing {
  std::string project;
  bool window = false;                      // false: HEAD view (`scope: head`)
  std::string head_commit;                  // HEAD view: the commit listed
  std::vector<ListedBlessing> blessings;    // grouped by set in set order
};
std::string render_blessings_text(const BlessingListing&);
// The prefixes a blessing accepts, in words: `all benchmarks` when it names none.
std::string blessed_prefixes_text(const std::vector<std::string>& prefixes);
std::string render_blessings_markdown(const BlessingListing&);
std::string render_blessings_json(const BlessingListing&);

}  // namespace benchhist::report
