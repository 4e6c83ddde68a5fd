#include "benchhist/collect/collect.hpp"

#include <chrono>
#include <set>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/engines/best_of.hpp"
#include "benchhist/engines/harvest.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/probe/hardware.hpp"
#include "benchhist/probe/machine_key.hpp"
#include "benchhist/storage/key.hpp"
#include "benchhist/version.hpp"

namespace benchhist {
namespace {

void check_exit(const ProcessResult& r) {
  if (!r.exited)
    throw Error(ErrorKind::benchmark, "engine \"cargo bench\" terminated without an exit code", {},
                "signal " + std::to_string(r.signal),
                "the benchmark process was killed; rerun collect once the cause is fixed");
  if (r.exit_code != 0)
    throw Error(ErrorKind::benchmark,
                "engine \"cargo bench\" failed with exit code " + std::to_string(r.exit_code), {}, {},
                "fix the failing benchmark (its output is above) and run collect again; nothing was stored");
}

std::string object_key(const CollectRequest& req, Engine engine, const RunContext& ctx) {
  const std::string commit = ctx.git.commit.value_or("unknown");
  if (ctx.git.dirty)
    return dirty_key(req.project, engine, ctx.toolchain.target_triple, ctx.machine->fingerprint, commit,
                     unix_seconds(ctx.observation));
  return clean_key(req.project, engine, ctx.toolchain.target_triple, ctx.machine->fingerprint, commit);
}

Error collision(const std::string& key) {
  return Error(ErrorKind::already_exists,
               "a result is already stored for this run at " + key + "; pass --overwrite to replace it", key);
}

}  // namespace

Run make_run(const std::vector<BenchmarkResult>& results, const RunContext& context) {
  Run run;
  run.context = context;
  run.results = results;
  return run;
}

CollectOutcome collect(const CollectRequest& req, const Environment& env, ObjectStore* store,
                       const CollectServices& svc) {
  if (req.best_of < 1) throw Error(ErrorKind::usage, "--best-of must be at least 1");
  if (req.store && !store) throw Error(ErrorKind::internal, "collect was asked to store but has no store");

  const auto root = target_root(env, req.repo_dir);
  ProcessSpec spec;
  spec.argv = cargo_bench_argv(req.scope, req.strip_toolchain_overrides ? "cargo" : cargo_program(env));
  spec.cwd = req.repo_dir;
  spec.env_changes = bench_environment(root, req.strip_toolchain_overrides);
  spec.capture_stdout = false;
  spec.capture_stderr = false;
  if (svc.note) {
    svc.note("benchmark command: " + describe_command(spec.argv) + " (in " + req.repo_dir.string() + ")");
    svc.note("injected environment: GUNGRAUN_SAVE_SUMMARY=pretty-json, CARGO_TARGET_DIR=" + root.string() +
             (req.strip_toolchain_overrides ? "; removed RUSTUP_TOOLCHAIN, CARGO" : ""));
  }

  // The git state is probed before the benchmark command runs (the guide's probe → run →
  // harvest): `cargo bench` creates Cargo.lock in a crate that neither commits nor ignores it,
  // and that untracked file would otherwise make every fresh checkout a dirty snapshot.
  const GitState git_before_run = svc.probe_git(req.repo_dir);

  std::vector<engines::Harvest> harvests;
  Timestamp first_start{};
  const auto began = std::chrono::steady_clock::now();
  for (std::uint32_t rep = 1; rep <= req.best_of; ++rep) {
    if (svc.progress)
      svc.progress(rep, req.best_of,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    const Timestamp start = svc.clock();
    if (rep == 1) first_start = start;
    check_exit(svc.run_benchmarks(spec));
    harvests.push_back(engines::harvest_all(root, start));
    if (svc.note)
      for (const auto& n : harvests.back().notes) svc.note(n.text());
  }

  // The rest is probed once, after all repetitions (formats.md §3.1).
  RunContext ctx;
  ctx.observation = first_start;
  ctx.git = git_before_run;
  ctx.env = svc.probe_ci();
  ctx.toolchain = svc.probe_toolchain();
  ctx.tool_version = std::string(tool_version);
  ctx.machine = svc.probe_hardware();
  ctx.best_of = req.best_of;
  if (svc.note) svc.note("hardware fingerprint components: " + machine_key_components_line(machine_key_inputs(*ctx.machine)));
  svc.announce("collecting: target-triple=" + (ctx.toolchain.target_triple.empty() ? std::string("unknown") : ctx.toolchain.target_triple) +
               " (toolchain host); machine-key=" + ctx.machine->fingerprint + " (auto-detected)");

  const auto reduced = engines::reduce_best_of(harvests);
  if (svc.note)
    for (const auto& s : reduced.samples) svc.note(s);

  CollectOutcome out;
  out.git = ctx.git;
  out.toolchain = ctx.toolchain;
  out.machine_key = ctx.machine->fingerprint;
  out.repetitions = req.best_of;
  out.observation = first_start;
  out.stored = req.store;

  std::vector<std::pair<Engine, const std::vector<BenchmarkResult>*>> engines_with_cases;
  for (const auto& eh : reduced.engines)
    if (!eh.results.empty()) engines_with_cases.emplace_back(eh.engine, &eh.results);

  // Refuse is checked for every engine before anything is written, so a refused collection
  // leaves the store exactly as it was (a lost race is still caught by the write-once put).
  if (req.store && req.policy == CollisionPolicy::refuse) {
    for (const auto& [engine, results] : engines_with_cases) {
      const auto key = object_key(req, engine, ctx);
      const auto dir = key.substr(0, key.rfind('/') + 1);
      for (const auto& existing : store->list(dir))
        if (existing == key) throw collision(key);
    }
  }

  for (const auto& [engine, results] : engines_with_cases) {
    StoredObject obj{engine, object_key(req, engine, ctx), results->size(), std::nullopt};
    if (req.store) {
      try {
        obj.outcome = store->put(obj.key, encode_run(make_run(*results, ctx)), req.policy);
      } catch (const Error& e) {
        if (e.kind() == ErrorKind::already_exists) throw collision(obj.key);
        throw;
      }
      if (svc.note) svc.note(std::string(to_string(engine)) + " stored at " + obj.key);
    }
    out.objects.push_back(std::move(obj));
  }
  if (store) store->flush();
  return out;
}

std::string CollectOutcome::message() const {
  std::size_t cases = 0, stored_sets = 0;
  for (const auto& o : objects) {
    cases += o.cases;
    if (o.outcome && *o.outcome != PutOutcome::skipped_existing) ++stored_sets;
  }
  std::string msg = stored ? "Stored " + plural(stored_sets, "result set") + " covering " +
                                 plural(cases, "benchmark case") + "."
                           : "Harvested " + plural(cases, "benchmark case") + "; nothing stored (--no-store).";
  if (!objects.empty()) {
    msg += " [";
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const auto& o = objects[i];
      if (i) msg += "; ";
      msg += std::string(to_string(o.engine)) + ": " + std::to_string(o.cases);
      if (!o.outcome)
        msg += " harvested (not stored)";
      else if (*o.outcome == PutOutcome::skipped_existing)
        msg += " harvested (" + o.key + " already exists)";
      else
        msg += " stored";
    }
    msg += "]";
  }
  return msg;
}

}  // namespace benchhist
