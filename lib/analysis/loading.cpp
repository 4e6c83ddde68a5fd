#include "benchhist/analysis/loading.hpp"

#include <algorithm>
#include <map>
#include <new>
#include <optional>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::analysis {

void rethrow_naming_key(const std::string& key) {
  try {
    throw;
  } catch (const Error& e) {
    // Already about this object: kept as it is. The local store names the file that holds it:
    // its message still shows the file, and the subject becomes the key, which is what the
    // census's skipped keys and ObjectStore::remove take.
    if (e.subject() == key) throw;
    if (e.subject().ends_with("/" + key)) throw e.with_subject(key);
    throw Error(e.kind(), "failed to load stored object " + key, key, e.what(), e.hint());
  } catch (const std::bad_alloc&) {
    throw;  // out of memory says nothing about the object: never a skippable decode failure
  } catch (const std::exception& e) {
    throw Error(ErrorKind::decode, "failed to load stored object " + key, key, e.what(),
                "inspect or remove the object, then re-run the command");
  } catch (...) {
    throw Error(ErrorKind::internal, "failed to load stored object " + key, key, "unknown exception");
  }
}

namespace {

std::string fetch(storage::ObjectStore& store, const std::string& key) {
  auto text = store.get(key);
  if (!text)
    throw Error(ErrorKind::not_found, "object not found: " + key, key, {},
                "the object was listed but disappeared (a concurrent prune?); re-run the command");
  return std::move(*text);
}

}  // namespace

Run fetch_run(storage::ObjectStore& store, const std::string& key) { return codec::decode_run(fetch(store, key), key); }

std::vector<std::shared_ptr<const Run>> load_runs(storage::ObjectStore& store, const std::vector<std::string>& keys,
                                                  unsigned threads) {
  return parallel_load<std::shared_ptr<const Run>>(keys, threads, [&](const std::string& key) {
    return std::make_shared<const Run>(fetch_run(store, key));
  });
}

LoadedSelection load_selection(storage::ObjectStore& store, const Selection& selection, unsigned threads) {
  // One sorted, de-duplicated key list for both lines, so every object is fetched once.
  std::vector<std::string> keys;
  keys.reserve(selection.objects.size() + selection.base_objects.size());
  for (const auto& o : selection.objects) keys.push_back(o.key);
  for (const auto& o : selection.base_objects) keys.push_back(o.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  const auto runs = load_runs(store, keys, threads);
  auto run_of = [&](const std::string& key) {
    const auto it = std::lower_bound(keys.begin(), keys.end(), key);
    return runs[static_cast<std::size_t>(it - keys.begin())];
  };

  LoadedSelection out;
  out.runs.reserve(selection.objects.size());
  for (const auto& o : selection.objects) out.runs.push_back(run_of(o.key));
  out.base_runs.reserve(selection.base_objects.size());
  for (const auto& o : selection.base_objects) out.base_runs.push_back(run_of(o.key));

  out.blessings = load_blessings(store, selection, threads);
  return out;
}

std::vector<LoadedBlessing> load_blessings(storage::ObjectStore& store, const Selection& selection, unsigned threads) {
  std::vector<LoadedBlessing> out;
  std::vector<std::string> blessing_keys;
  for (const auto& b : selection.blessings) blessing_keys.push_back(b.key);
  auto records = parallel_load<Blessing>(blessing_keys, threads, [&](const std::string& key) {
    return codec::decode_blessing(fetch(store, key), key);
  });
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& ref = selection.blessings[i];
    LoadedBlessing lb{ref, std::move(records[i]), {}};
    if (ref.partition) {
      lb.scope = BlessingScope::of(*ref.partition);  // a sidecar's scope is its partition (docs/pipeline.md#reconstruction)
    } else if (lb.record.scope) {
      // Partitions are named by sanitized key segments; sanitizing the scope's values the
      // same way (idempotent on ordinary values) lets a raw `weird:name` match `weird_name`.
      lb.scope = *lb.record.scope;
      for (auto* axis : {&lb.scope.target_triple, &lb.scope.machine_key})
        for (auto& v : *axis) v = codec::sanitize_segment(v);
    } else {
      // decode_blessing already requires a scope on project-level keys; never "accept all".
      throw Error(ErrorKind::decode, "stored object " + ref.key + " is not a valid blessing", ref.key,
                  "scope: missing", "remove the record with unbless and bless again");
    }
    out.push_back(std::move(lb));
  }
  return out;
}

bool is_unreadable_object_error(const Error& e) noexcept {
  return e.kind() == ErrorKind::decode || e.kind() == ErrorKind::not_found || e.kind() == ErrorKind::io;
}

namespace {

std::vector<std::string> selected_run_keys(const Selection& selection) {
  std::vector<std::string> keys;
  for (const auto& o : selection.objects) keys.push_back(o.key);
  for (const auto& o : selection.base_objects) keys.push_back(o.key);
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  return keys;
}

}  // namespace

std::size_t selected_object_count(const Selection& selection) {
  return selected_run_keys(selection).size() + selection.blessings.size();
}

std::vector<UnreadableObject> find_unreadable(storage::ObjectStore& store, const Selection& selection, unsigned threads) {
  struct Item {
    std::string key;
    bool blessing = false;
  };
  std::vector<Item> items;
  for (auto& k : selected_run_keys(selection)) items.push_back({std::move(k), false});
  for (const auto& b : selection.blessings) items.push_back({b.key, true});
  std::vector<std::optional<UnreadableObject>> found(items.size());
  parallel_for(items.size(), threads, [&](std::size_t i) {
    const auto& item = items[i];
    try {
      if (item.blessing) (void)codec::decode_blessing(fetch(store, item.key), item.key);
      else (void)fetch_run(store, item.key);
    } catch (const Error& e) {
      if (!is_unreadable_object_error(e)) throw;
      found[i] = UnreadableObject{item.key, e.what()};
    }
  });
  std::vector<UnreadableObject> out;
  for (auto& f : found)
    if (f) out.push_back(std::move(*f));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.key < b.key; });
  return out;
}

Selection without_unreadable(Selection selection, const std::vector<UnreadableObject>& unreadable) {
  std::vector<std::string> bad;
  for (const auto& u : unreadable) bad.push_back(u.key);
  std::sort(bad.begin(), bad.end());
  const auto is_bad = [&](const auto& o) { return std::binary_search(bad.begin(), bad.end(), o.key); };
  std::erase_if(selection.objects, is_bad);
  std::erase_if(selection.base_objects, is_bad);
  std::erase_if(selection.blessings, is_bad);
  return selection;
}

std::string unreadable_hint(std::size_t unreadable, std::size_t total, const std::string& original_hint) {
  std::string hint = std::to_string(unreadable) + " of the " + std::to_string(total) + " selected stored object" +
                     (total == 1 ? "" : "s") + " cannot be read";
  if (!original_hint.empty()) hint += "; " + original_hint;
  // Named by its option, as every hint names what the CLI user types; a library caller sets the
  // request's skip_unreadable, which the option sets (pipeline/analyze.hpp).
  hint += "; or pass --skip-unreadable to analyse the rest (the report lists the skipped keys)";
  return hint;
}

}  // namespace benchhist::analysis
