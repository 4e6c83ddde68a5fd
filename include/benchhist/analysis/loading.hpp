#pragma once
// Loading the selected objects (docs/pipeline.md#selection step 5,
// docs/statistics.md#ranking-and-determinism): keys are sorted and given their positions BEFORE any
// fetch; a worker pool fetches and decodes; each result is placed at its position, so the outcome
// never depends on thread timing. A corrupt or vanished object fails the whole load with an Error
// naming its key — nothing is silently skipped.

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "benchhist/analysis/selection.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/blessing.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/parallel.hpp"

namespace benchhist::storage {
class ObjectStore;
}

namespace benchhist::analysis {

// Rethrows the exception currently being handled as an Error that names `key`: an Error whose
// subject is the key passes through unchanged, one whose subject is the local file holding it
// gets the key as its subject (its message still shows the file); anything else is wrapped with
// its text as the cause.
// Always throws: the Error as it was, else a same-kind Error `failed to load stored object <key>`
// (subject = key); Error{decode} for another std::exception, Error{internal} for anything else;
// std::bad_alloc passes through as it is (running out of memory says nothing about the object).
[[noreturn]] void rethrow_naming_key(const std::string& key);

// Applies `load(key)` to every key with `threads` workers (at least 1). Result i belongs to
// keys[i]. Workers stop picking up positions past a known failure.
// Throws what load throws, named by rethrow_naming_key; if several keys fail, the error of the
// lowest position (deterministic).
template <typename T, typename Load>
std::vector<T> parallel_load(const std::vector<std::string>& keys, unsigned threads, Load load) {
  std::vector<std::optional<T>> slots(keys.size());
  parallel_for(keys.size(), threads, [&](std::size_t i) {
    try {
      slots[i].emplace(load(keys[i]));
    } catch (...) {
      rethrow_naming_key(keys[i]);
    }
  });
  std::vector<T> out;
  out.reserve(keys.size());
  for (auto& s : slots) out.push_back(std::move(*s));
  return out;
}

// get + decode_run for each key (the store gunzips).
// Throws Error{not_found} `object not found: <key>` for a listed object that is gone,
// Error{decode} (subject = key) for a corrupt one, and the store's errors (io, network, auth).
std::vector<std::shared_ptr<const Run>> load_runs(storage::ObjectStore& store, const std::vector<std::string>& keys,
                                                  unsigned threads);
// One object: get + decode_run, the same errors.
Run fetch_run(storage::ObjectStore& store, const std::string& key);

struct LoadedBlessing {
  SelectedBlessing ref;
  Blessing record;
  BlessingScope scope;  // a sidecar's own partition, or the record's required scope
};

struct LoadedSelection {
  // Aligned with Selection::objects / base_objects; a run shared by both lines (a clean run
  // of a shared commit) is fetched once and shared.
  std::vector<std::shared_ptr<const Run>> runs;
  std::vector<std::shared_ptr<const Run>> base_runs;
  std::vector<LoadedBlessing> blessings;  // aligned with Selection::blessings
};

// Loads everything a Selection names: runs of both lines and the blessings (both forms,
// codec/blessing_json.hpp).
// Throws as load_runs does (not_found, decode, the store's errors), naming the lowest failing key.
LoadedSelection load_selection(storage::ObjectStore& store, const Selection& selection, unsigned threads);
// Only the blessings (aligned with Selection::blessings), as load_selection loads them.
std::vector<LoadedBlessing> load_blessings(storage::ObjectStore& store, const Selection& selection, unsigned threads);

// ---- --skip-unreadable (docs/reports.md "Unreadable stored objects") ----
// The store is immutable, so an object that cannot be read is news: analysis fails by default.
// These let a caller say how many objects are affected, and, when asked, analyse the rest.

// True for failures that concern one stored object's bytes — Error{decode} (corrupt gzip or
// record), Error{not_found} (listed, then gone) and Error{io} on the object — which skipping
// may step over. Network, auth and every other kind concern the whole store and never are.
bool is_unreadable_object_error(const Error& e) noexcept;

struct UnreadableObject {
  std::string key;
  std::string reason;  // the error's text (message: cause)
  friend bool operator==(const UnreadableObject&, const UnreadableObject&) = default;
};

// Fetches and decodes every object the selection loads (runs of both lines, blessings) and
// returns those that fail with an unreadable-object error, sorted by key. Only called after a
// load failed, so the clean path reads each object once.
// Throws every other error (network, auth, …) as it was.
std::vector<UnreadableObject> find_unreadable(storage::ObjectStore& store, const Selection& selection, unsigned threads);

// The selection without the objects named in `unreadable` (runs and blessings).
Selection without_unreadable(Selection selection, const std::vector<UnreadableObject>& unreadable);

// The hint of the default failure: `<n> of the <total> selected stored objects cannot be
// read; ... pass --skip-unreadable to analyse the rest ...`.
std::string unreadable_hint(std::size_t unreadable, std::size_t total, const std::string& original_hint);

// How many objects a load of `selection` reads (runs of both lines, deduplicated, and blessings).
std::size_t selected_object_count(const Selection& selection);

// Runs `load()` (which loads `selection`). When it fails on an unreadable object: without
// `skip`, rethrows that error with unreadable_hint (how many are affected, the option); with
// `skip`, removes every unreadable object from `selection` and runs `load()` again. Returns
// the skipped objects (empty when the first load succeeded).
// Throws what load() throws when it is not an unreadable-object error, and, without `skip`, the
// unreadable-object error (decode, not_found, io) with the new hint. A failure that does not
// recur when every object is tried again is rethrown as it was.
template <typename Load>
std::vector<UnreadableObject> load_or_skip_unreadable(storage::ObjectStore& store, Selection& selection, bool skip,
                                                      unsigned threads, Load load) {
  try {
    load();
    return {};
  } catch (const Error& e) {
    if (!is_unreadable_object_error(e)) throw;
    auto unreadable = find_unreadable(store, selection, threads);
    if (unreadable.empty()) throw;
    if (!skip) throw e.with_hint(unreadable_hint(unreadable.size(), selected_object_count(selection), e.hint()));
    selection = without_unreadable(std::move(selection), unreadable);
    load();
    return unreadable;
  }
}

}  // namespace benchhist::analysis
