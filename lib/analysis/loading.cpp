#include "benchhist/analysis/loading.hpp"

#include <map>

#include "benchhist/codec/blessing_json.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/storage/key.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::analysis {

void rethrow_naming_key(const std::string& key) {
  try {
    throw;
  } catch (const Error& e) {
    if (e.message().find(key) != std::string::npos || e.subject().find(key) != std::string::npos) throw;
    throw Error(e.kind(), "failed to load stored object " + key, key, e.what(), e.hint());
  } catch (const std::exception& e) {
    throw Error(ErrorKind::decode, "failed to load stored object " + key, key, e.what(),
                "inspect or remove the object, then re-run the command");
  } catch (...) {
    throw Error(ErrorKind::internal, "failed to load stored object " + key, key, "unknown exception");
  }
}

namespace {

std::string fetch(ObjectStore& store, const std::string& key) {
  auto text = store.get(key);
  if (!text)
    throw Error(ErrorKind::not_found, "object not found: " + key, key, {},
                "the object was listed but disappeared (a concurrent prune?); re-run the command");
  return std::move(*text);
}

}  // namespace

Run fetch_run(ObjectStore& store, const std::string& key) { return decode_run(fetch(store, key), key); }

std::vector<std::shared_ptr<const Run>> load_runs(ObjectStore& store, const std::vector<std::string>& keys,
                                                  unsigned threads) {
  return parallel_load<std::shared_ptr<const Run>>(keys, threads, [&](const std::string& key) {
    return std::make_shared<const Run>(fetch_run(store, key));
  });
}

LoadedSelection load_selection(ObjectStore& store, const Selection& selection, unsigned threads) {
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

std::vector<LoadedBlessing> load_blessings(ObjectStore& store, const Selection& selection, unsigned threads) {
  std::vector<LoadedBlessing> out;
  std::vector<std::string> blessing_keys;
  for (const auto& b : selection.blessings) blessing_keys.push_back(b.key);
  auto records = parallel_load<Blessing>(blessing_keys, threads, [&](const std::string& key) {
    return decode_blessing(fetch(store, key), key);
  });
  for (std::size_t i = 0; i < records.size(); ++i) {
    const auto& ref = selection.blessings[i];
    LoadedBlessing lb{ref, std::move(records[i]), {}};
    if (ref.partition) {
      lb.scope = BlessingScope::of(*ref.partition);  // a sidecar's scope is its partition (§2.5)
    } else if (lb.record.scope) {
      // Partitions are named by sanitized key segments; sanitizing the scope's values the
      // same way (idempotent on ordinary values) lets a raw `weird:name` match `weird_name`.
      lb.scope = *lb.record.scope;
      for (auto* axis : {&lb.scope.target_triple, &lb.scope.machine_key})
        for (auto& v : *axis) v = sanitize_segment(v);
    } else {
      // decode_blessing already requires a scope on project-level keys; never "accept all".
      throw Error(ErrorKind::decode, "stored object " + ref.key + " is not a valid blessing", ref.key,
                  "scope: missing", "remove the record with unbless and bless again");
    }
    out.push_back(std::move(lb));
  }
  return out;
}

}  // namespace benchhist::analysis
