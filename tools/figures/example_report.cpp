#include "example_report.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/analysis/since.hpp"
#include "benchhist/codec/run_json.hpp"
#include "benchhist/detect/example_series.hpp"
#include "benchhist/error.hpp"
#include "benchhist/pipeline/chart_data.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/object_store.hpp"

namespace benchhist::figures {

namespace {

constexpr std::int64_t t0 = 1780272000;  // 2026-06-01T00:00:00Z
constexpr std::size_t n_commits = 30;
constexpr std::size_t no_run_at = 23;
const std::string project = "textproc";
const std::string triple = "x86_64-unknown-linux-gnu";
const std::string machine = "a1b2c3d4";

// One straight first-parent line; every ref names its tip.
class LineTopology final : public analysis::GitTopology {
 public:
  explicit LineTopology(std::vector<analysis::CommitInfo> line) : line_(std::move(line)) {}
  std::optional<std::string> resolve(std::string_view ref) const override {
    if (ref == "HEAD" || ref == "main") return line_.back().id;
    if (position(ref)) return std::string(ref);
    return std::nullopt;
  }
  std::optional<std::string> default_branch() const override { return std::string("main"); }
  std::optional<std::string> merge_base(std::string_view a, std::string_view b) const override {
    const auto pa = position(a), pb = position(b);
    if (!pa || !pb) return std::nullopt;
    return line_[std::min(*pa, *pb)].id;
  }
  bool is_ancestor(std::string_view a, std::string_view d) const override {
    const auto pa = position(a), pd = position(d);
    return pa && pd && *pa <= *pd;
  }
  std::vector<analysis::CommitInfo> first_parent_history(std::string_view commit) const override {
    const auto p = position(commit);
    if (!p) return {};
    return {line_.begin(), line_.begin() + static_cast<std::ptrdiff_t>(*p + 1)};
  }
  Timestamp committer_time(std::string_view ref) const override {
    const auto id = resolve(ref);
    if (!id) throw Error(ErrorKind::git, "failed to read the committer time of " + std::string(ref), std::string(ref));
    return *line_[*position(*id)].committer_time;
  }
  bool working_tree_dirty() const override { return false; }
  bool is_shallow() const override { return false; }

 private:
  std::optional<std::size_t> position(std::string_view id) const {
    for (std::size_t i = 0; i < line_.size(); ++i)
      if (line_[i].id == id) return i;
    return std::nullopt;
  }
  std::vector<analysis::CommitInfo> line_;
};

// Objects in memory (plain JSON text; no gzip needed without a disk).
class MemoryStore final : public storage::ObjectStore {
 public:
  storage::PutOutcome put(std::string_view key, std::string_view json, storage::CollisionPolicy) override {
    std::lock_guard lock(mutex_);
    objects_[std::string(key)] = std::string(json);
    return storage::PutOutcome::stored;
  }
  std::optional<std::string> get(std::string_view key) override {
    std::lock_guard lock(mutex_);
    auto it = objects_.find(std::string(key));
    if (it == objects_.end()) return std::nullopt;
    return it->second;
  }
  std::vector<std::string> list(std::string_view prefix) override {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (const auto& [k, v] : objects_)
      if (k.compare(0, prefix.size(), prefix) == 0) out.push_back(k);
    return out;
  }
  bool remove(std::string_view key) override {
    std::lock_guard lock(mutex_);
    return objects_.erase(std::string(key)) > 0;
  }
  std::string describe() const override { return "the example's in-memory store"; }

 private:
  std::mutex mutex_;
  std::map<std::string, std::string> objects_;
};

std::string subject(std::size_t i) {
  switch (i) {
    case 0: return "commit 0: first measured version";
    case 10: return "commit 10: add the header parser benchmark";
    case 20: return "commit 20: parse headers eagerly";
    case 23: return "commit 23: documentation only";
    default: return "commit " + std::to_string(i);
  }
}

// A benchmark's values placed on consecutive commits ending at `last`.
struct Placed {
  std::vector<std::string> id;
  std::vector<double> values;
  std::size_t first = 0;
};

}  // namespace

pipeline::AnalyzeResult example_analysis() {
  namespace ex = detect::examples;
  std::vector<analysis::CommitInfo> line;
  for (std::size_t i = 0; i < n_commits; ++i)
    line.push_back({"commit" + std::to_string(i), from_unix_seconds(t0 + static_cast<std::int64_t>(i) * 3600), subject(i)});
  const LineTopology git(line);

  std::vector<Placed> placed{
      {{"http_parse", "case"}, ex::history_example("clean-step").values, 10},
      {{"index_build", "case"}, ex::history_example("slow-ramp").values, 0},
      {{"tokenize", "case"}, ex::history_example("flat-noisy").values, 0},
      {{"render", "case"}, ex::history_example("returned-excursion").values, 0},
      {{"fresh", "bench"}, {10.2, 10.1, 10.3, 10.2}, 26},
      {{"legacy", "format"}, std::vector<double>(20, 55.0), 0},
      {{"experimental", "simd"}, std::vector<double>(30, 20.0), 0},
  };
  MemoryStore store;
  for (std::size_t i = 0; i < n_commits; ++i) {
    if (i == no_run_at) continue;
    Run run;
    run.context.observation = from_unix_seconds(t0 + static_cast<std::int64_t>(i) * 3600 + 600);
    run.context.git = GitState{line[i].id, std::string("main"), false};
    run.context.toolchain = ToolchainInfo{triple, std::string("1.95.0")};
    run.context.tool_version = "example";
    run.context.best_of = 1;
    for (const auto& p : placed)
      if (i >= p.first && i - p.first < p.values.size())
        run.results.push_back(BenchmarkResult{BenchmarkId(p.id), {MetricValue{MetricKind::wall_time, p.values[i - p.first], {}, {}}}});
    store.put(codec::clean_key(project, Engine::criterion, triple, machine, line[i].id), codec::encode_run(run), storage::CollisionPolicy::refuse);
  }

  pipeline::AnalyzeRequest req;
  req.selection.project = project;
  req.selection.filters = analysis::resolve_filters({}, {"all"}, {"all"}, std::nullopt, std::nullopt);
  req.selection.since = analysis::parse_since("2026-01-01");
  req.selection.now = from_unix_seconds(t0 + 40 * 3600);
  req.ignore_prefixes = {"experimental/"};
  req.threads = 2;
  auto result = pipeline::analyze(req, git, store);
  result.report.charts = pipeline::chart_data(result);
  return result;
}

}  // namespace benchhist::figures
