#pragma once
// One fix for a history that a shallow clone cuts off, told the same way by every automation
// command that needs more history than the clone holds: `affected` (no merge base) and
// `backfill-range` (a range reaching the clone's boundary).

namespace benchhist::automation {

inline constexpr const char* shallow_history_hint =
    "a shallow clone cuts the history off: fetch full history (actions/checkout with `fetch-depth: 0`, or "
    "`git fetch --unshallow`)";

}  // namespace benchhist::automation
