// What a shallow clone's boundary leaves out of an analysis (analysis/shallow.hpp).

#include "benchhist/analysis/shallow.hpp"

#include <map>

#include "benchhist/codec/key.hpp"
#include "benchhist/model/text.hpp"

namespace benchhist::analysis {

std::optional<std::string> shallow_clone_note(const Selection& sel, const GitTopology& git, ShallowNoteFor command) {
  if (sel.line.empty() || !git.is_shallow()) return std::nullopt;
  std::size_t missing = 0, absent = 0;  // runs left out, and the commits they are of
  std::map<std::string, bool> has;  // commit -> the clone has it (resolved once per commit)
  for (const auto& x : sel.excluded) {
    if (x.stage != FunnelStage::off_history) continue;
    const auto dk = codec::parse_data_key(x.key);
    if (!dk) continue;
    auto [it, fresh] = has.try_emplace(dk->commit, false);
    if (fresh) {
      it->second = git.resolve(dk->commit).has_value();
      absent += !it->second;
    }
    // Off history for another reason (a side branch the clone has) is not the boundary's doing.
    if (!it->second) ++missing;
  }
  if (missing == 0) return std::nullopt;
  const bool bisect = command == ShallowNoteFor::bisect;
  const auto& oldest = sel.line.front();
  return "this repository is a shallow clone whose history stops at " + short_id(oldest.id) +
         (oldest.subject.empty() ? "" : " " + oldest.subject) + ": " + plural(missing, "stored run") + " of " +
         plural(absent, "commit") + " it does not have " + (missing == 1 ? "was" : "were") +
         " left out, so a step whose old level or window reaches past that commit is not found" +
         (bisect ? " and not bisected" : "") +
         " here: run `git fetch --unshallow` (actions/checkout: `fetch-depth: 0`) and " +
         (bisect ? "bisect" : "analyze") + " again";
}

}  // namespace benchhist::analysis
