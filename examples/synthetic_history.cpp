// Writes a synthetic benchmark history through the library: a git repository (made with
// `git fast-import`, fixed dates, so commit ids are byte-reproducible) and a local store with
// runs on about half of its first-parent commits, across several discriminant sets. Some
// benchmarks carry planted steps (regressions and improvements) and slow drifts.
//
// It serves three purposes: the README demo's history before a real backfill, the large store
// for the performance measurements (issue notes), and an example of writing runs with
// libbenchhist (Run + encode_run + LocalStore + clean_key).
//
//   synthetic_history --out DIR [--benchmarks N] [--commits N] [--sets N] [--run-fraction F]
//                     [--seed N] [--end RFC3339] [--threads N]
//
// DIR/repo is the repository (branch main, a merge from a side branch every 50 commits),
// DIR/store the local store (project id "synthetic"). A summary of the planted changes is
// written to DIR/planted.tsv.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/run.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "benchhist/version.hpp"

namespace fs = std::filesystem;
using namespace benchhist;

namespace {

struct Options {
  fs::path out;
  int benchmarks = 1000;
  int commits = 2000;
  int sets = 20;
  double run_fraction = 0.5;
  std::uint64_t seed = 1;
  std::string end = "2026-11-30T00:00:00Z";
  int threads = 2;
};

// SplitMix64: tiny, seedable, identical everywhere.
struct Rng {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  double uniform() { return double(next() >> 11) * 0x1.0p-53; }
};

std::uint64_t mix(std::uint64_t a, std::uint64_t b) { return Rng{a * 0x100000001B3ull ^ b}.next(); }

enum class Shape { flat, step_up, step_down, drift };

struct Bench {
  BenchmarkId id;
  double level;
  Shape shape;
  int change_at;  // first commit index at the new level (steps) or drift start
};

struct SetSpec {
  Engine engine;
  std::string triple;
  std::string machine_key;
  std::vector<Bench> benches;
};

std::vector<MetricKind> metrics_of(Engine e) {
  switch (e) {
    case Engine::criterion: return {MetricKind::wall_time};
    case Engine::callgrind:
      return {MetricKind::conditional_branches, MetricKind::indirect_branches, MetricKind::instruction_count};
    case Engine::alloc_tracker: return {MetricKind::allocated_bytes, MetricKind::allocation_count};
    case Engine::all_the_time: return {MetricKind::processor_time};
    case Engine::google_benchmark: return {MetricKind::wall_time, MetricKind::processor_time};
    case Engine::hyperfine: return {MetricKind::wall_time, MetricKind::processor_time};
    case Engine::catch2:
    case Engine::libtest: return {MetricKind::wall_time};
    case Engine::bmf: return {MetricKind::wall_time, MetricKind::instruction_count};
  }
  return {};
}

constexpr const char* usage =
    "usage: synthetic_history --out DIR [--benchmarks N] [--commits N] [--sets N] [--run-fraction F]\n"
    "                         [--seed N] [--end RFC3339] [--threads N]\n"
    "Writes DIR/repo (a git repository, branch main), DIR/store (a local store, project \"synthetic\")\n"
    "and DIR/planted.tsv (the planted steps and drifts).\n";

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--help" || a == "-h") {
      std::cout << usage;
      std::exit(0);
    }
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::runtime_error(a + " needs a value");
      return argv[++i];
    };
    if (a == "--out") o.out = value();
    else if (a == "--benchmarks") o.benchmarks = std::stoi(value());
    else if (a == "--commits") o.commits = std::stoi(value());
    else if (a == "--sets") o.sets = std::stoi(value());
    else if (a == "--run-fraction") o.run_fraction = std::stod(value());
    else if (a == "--seed") o.seed = std::stoull(value());
    else if (a == "--end") o.end = value();
    else if (a == "--threads") o.threads = std::stoi(value());
    else throw std::runtime_error("unknown option " + a + " (--help lists the options)");
  }
  if (o.out.empty()) throw std::runtime_error("--out DIR is required");
  if (o.benchmarks < 1 || o.commits < 2 || o.sets < 1 || o.sets > o.benchmarks)
    throw std::runtime_error("need --benchmarks >= --sets >= 1 and --commits >= 2");
  return o;
}

// Builds the repository with fast-import and returns the first-parent commit ids, oldest first.
std::vector<std::string> make_repository(const Options& o, Timestamp end) {
  const fs::path repo = o.out / "repo";
  fs::create_directories(repo);
  const std::string q = "'" + repo.string() + "'";
  if (std::system(("git init -q -b main " + q + " && git -C " + q + " config user.email synthetic@example.invalid && git -C " +
                   q + " config user.name synthetic")
                      .c_str()) != 0)
    throw Error(ErrorKind::git, "git init failed", repo.string(), {}, "check that git is installed");
  const fs::path marks = o.out / "marks.txt";
  FILE* fi = ::popen(("git -C " + q + " fast-import --quiet --export-marks='" + marks.string() + "'").c_str(), "w");
  if (!fi) throw Error(ErrorKind::git, "could not start git fast-import", repo.string());
  const std::int64_t end_s = unix_seconds(end);
  auto commit = [&](const std::string& ref, int mark, std::int64_t when, const std::string& msg, int from,
                    int merge, const std::string& content) {
    std::fprintf(fi, "commit %s\nmark :%d\ncommitter Synthetic <synthetic@example.invalid> %lld +0000\n", ref.c_str(),
                 mark, static_cast<long long>(when));
    std::fprintf(fi, "data %zu\n%s\n", msg.size(), msg.c_str());
    if (from) std::fprintf(fi, "from :%d\n", from);
    if (merge) std::fprintf(fi, "merge :%d\n", merge);
    std::fprintf(fi, "M 644 inline history.txt\ndata %zu\n%s\n", content.size(), content.c_str());
    if (mark == 1) {
      // The project id the store is written under, so the tool finds it from the checkout.
      const std::string config = "[project]\nid = \"synthetic\"\n";
      std::fprintf(fi, "M 644 inline .cargo/bench_history.toml\ndata %zu\n%s\n", config.size(), config.c_str());
    }
  };
  // Marks 1..commits are first-parent commits; side-branch commits use marks above that.
  int side_mark = o.commits + 1;
  for (int i = 0; i < o.commits; ++i) {
    const std::int64_t when = end_s - std::int64_t(o.commits - 1 - i) * 3600;
    int merge = 0;
    if (i > 0 && i % 50 == 0) {
      // A side branch of two commits forked from the previous first-parent commit.
      commit("refs/heads/side", side_mark, when - 1800, "side work " + std::to_string(i), i, 0, "side " + std::to_string(i));
      commit("refs/heads/side", side_mark + 1, when - 900, "more side work " + std::to_string(i), side_mark, 0,
             "side2 " + std::to_string(i));
      merge = side_mark + 1;
      side_mark += 2;
    }
    commit("refs/heads/main", i + 1, when, (merge ? "merge side work " : "change ") + std::to_string(i), i, merge,
           "commit " + std::to_string(i));
  }
  std::fprintf(fi, "done\n");
  if (::pclose(fi) != 0) throw Error(ErrorKind::git, "git fast-import failed", repo.string());
  (void)std::system(("git -C " + q + " checkout -q main 2>/dev/null; git -C " + q + " branch -q -D side 2>/dev/null").c_str());

  std::vector<std::string> ids(o.commits);
  std::ifstream in(marks);
  std::string mark, sha;
  while (in >> mark >> sha) {
    const int m = std::stoi(mark.substr(1));
    if (m >= 1 && m <= o.commits) ids[m - 1] = sha;
  }
  for (const auto& id : ids)
    if (id.size() != 40) throw Error(ErrorKind::git, "fast-import did not report every commit id", marks.string());
  return ids;
}

std::vector<SetSpec> make_sets(const Options& o, std::ofstream& planted) {
  static const char* triples[] = {"x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu"};
  std::vector<SetSpec> sets;
  for (int s = 0; s < o.sets; ++s) {
    SetSpec set;
    set.engine = all_engines[s % 4];
    set.triple = triples[(s / 4) % 2];
    char mk[17];
    std::snprintf(mk, sizeof mk, "%016llx", static_cast<unsigned long long>(mix(o.seed, 1000 + s)));
    set.machine_key = mk;
    sets.push_back(set);
  }
  for (int b = 0; b < o.benchmarks; ++b) {
    Rng r{mix(o.seed, 77 + b)};
    Bench bench;
    bench.id = BenchmarkId({"group_" + std::to_string(b / 10), "case_" + std::to_string(b)});
    bench.level = 50.0 * std::pow(10.0, 3.0 * r.uniform());
    const double u = r.uniform();
    bench.shape = u < 0.10 ? Shape::step_up : u < 0.15 ? Shape::step_down : u < 0.20 ? Shape::drift : Shape::flat;
    bench.change_at = o.commits / 4 + int(r.uniform() * (o.commits / 2));
    auto& set = sets[b % o.sets];
    static const char* names[] = {"flat", "step_up", "step_down", "drift"};
    if (bench.shape != Shape::flat)
      planted << to_string(set.engine) << '/' << set.triple << '/' << set.machine_key << '\t'
              << bench.id.qualified() << '\t' << names[int(bench.shape)] << '\t' << bench.change_at << '\n';
    set.benches.push_back(std::move(bench));
  }
  return sets;
}

double value_at(const Bench& b, int commit, int commits, Rng& r, MetricKind kind) {
  double level = b.level;
  switch (b.shape) {
    case Shape::flat: break;
    case Shape::step_up: if (commit >= b.change_at) level *= 1.25; break;
    case Shape::step_down: if (commit >= b.change_at) level *= 0.8; break;
    case Shape::drift:
      if (commit >= b.change_at) level *= 1.0 + 0.15 * double(commit - b.change_at) / double(commits - b.change_at);
      break;
  }
  // Counts are nearly deterministic; times carry ±2 % noise.
  const bool count = unit_of(kind) != "ns";
  const double noise = count ? 0.001 : 0.02;
  const double v = level * (1.0 + noise * (2.0 * r.uniform() - 1.0));
  return count ? std::round(v) : v;
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  const auto end = parse_rfc3339(o.end);
  if (!end) throw std::runtime_error("--end must be an RFC 3339 timestamp");
  fs::create_directories(o.out);
  std::ofstream planted(o.out / "planted.tsv");
  planted << "set\tbenchmark\tshape\tchange_at_commit_index\n";
  const auto commits = make_repository(o, *end);
  auto sets = make_sets(o, planted);
  storage::LocalStore store(o.out / "store");
  const std::int64_t end_s = unix_seconds(*end);

  // One job per (set, commit); a job's values depend only on its own seeds, never on timing.
  std::vector<std::pair<int, int>> jobs;
  for (int s = 0; s < int(sets.size()); ++s)
    for (int c = 0; c < o.commits; ++c)
      if (Rng{mix(mix(o.seed, s), c)}.uniform() < o.run_fraction || c == o.commits - 1) jobs.emplace_back(s, c);

  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  auto worker = [&] {
    try {
      for (std::size_t j; (j = next++) < jobs.size() && !failed;) {
        const auto [s, c] = jobs[j];
        const auto& set = sets[s];
        Rng r{mix(mix(o.seed ^ 0xabcdef, s), c)};
        Run run;
        run.context.observation = from_unix_seconds(end_s - std::int64_t(o.commits - 1 - c) * 3600 + 60);
        run.context.git = GitState{commits[c], std::string("main"), false};
        run.context.toolchain = ToolchainInfo{set.triple, std::string("1.91.0")};
        run.context.tool_version = std::string(tool_version);
        run.context.best_of = 1;
        for (const auto& b : set.benches) {
          BenchmarkResult res{b.id, {}};
          for (auto kind : metrics_of(set.engine)) res.metrics.push_back(MetricValue{kind, value_at(b, c, o.commits, r, kind), {}, {}});
          run.results.push_back(std::move(res));
        }
        store.put(codec::clean_key("synthetic", set.engine, set.triple, set.machine_key, commits[c]), codec::encode_run(run),
                  storage::CollisionPolicy::overwrite);
      }
    } catch (const std::exception& e) {
      failed = true;
      std::cerr << "synthetic_history: " << e.what() << "\n";
    }
  };
  std::vector<std::thread> pool;
  for (int t = 0; t < std::max(1, o.threads); ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  if (failed) return 1;
  std::cout << "wrote " << jobs.size() << " runs for " << o.benchmarks << " benchmarks over " << o.commits
            << " first-parent commits in " << sets.size() << " discriminant sets\n"
            << "repository: " << (o.out / "repo").string() << "\nstore:      " << (o.out / "store").string() << "\n";
  return 0;
} catch (const Error& e) {
  std::cerr << "synthetic_history: " << e.what() << (e.hint().empty() ? "" : "\n  hint: " + e.hint()) << "\n";
  return 1;
} catch (const std::exception& e) {
  std::cerr << "synthetic_history: " << e.what() << "\n";
  return 1;
}
