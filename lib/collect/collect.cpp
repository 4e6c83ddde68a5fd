#include "benchhist/collect/collect.hpp"


#include <algorithm>
#include <chrono>
#include <fstream>
#include <optional>
#include <set>
#include <thread>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/engines/best_of.hpp"
#include "benchhist/engines/harvest.hpp"
#include "engines/common.hpp"
#include "benchhist/engines/output_locations.hpp"
#include "benchhist/error.hpp"
#include "benchhist/model/text.hpp"
#include "platform/platform.hpp"
#include "probe/hardware.hpp"
#include "probe/machine_key.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/version.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

namespace benchhist::collect {
namespace {

// `command` is `cargo bench` or the --bench-command text (docs/formats.md#error-messages wording).
// `log` is where its output went (empty: the terminal); its end is shown through
// `failed_output` before the error is thrown (docs/bench-output.md).
void check_exit(const probe::ProcessResult& r, const std::string& command, const std::filesystem::path& log,
                std::size_t tail_lines, const CollectServices& svc) {
  if (r.success()) return;
  // An interrupt (Ctrl-C reaches the command too) is the user's doing, not the command's failure.
  const bool interrupted = !r.exited && (r.signal == SIGINT || r.signal == SIGTERM);
  if (!log.empty() && svc.failed_output && !interrupted) svc.failed_output(log, output_log_tail(log, tail_lines));
  const std::string output = log.empty() ? "its output is above" : "its output is in " + log.string();
  if (!r.exited)
    throw Error(ErrorKind::benchmark_failed, "engine \"" + command + "\" terminated without an exit code", {},
                "signal " + std::to_string(r.signal),
                "the benchmark process was killed (" + output + "); rerun collect once the cause is fixed");
  throw Error(ErrorKind::benchmark_failed,
              "engine \"" + command + "\" failed with exit code " + std::to_string(r.exit_code), {}, {},
              "fix the failing benchmark (" + output + ") and run collect again; nothing was stored. A build "
              "error, or an argument the command refused (an unknown -p package or --bench target), fails the "
              "same way: the end of its output says which");
}

// The line that opens each repetition's part of a log: which command, where, which repetition
// (a bisect measures a commit more than once, into the same file).
void open_log_section(const std::filesystem::path& log, const std::string& command, const std::filesystem::path& dir,
                      std::uint32_t rep, std::uint32_t of) {
  std::ofstream f(log, std::ios::app);
  f << "=== " << command << " in " << dir.string() << " (repetition " << rep << " of " << of << ")\n";
  if (!f)
    throw Error(ErrorKind::io, "failed to write the benchmark log " + log.string(), log.string(), std::strerror(errno),
                "check that the log directory is writable, or pass --verbose to show the benchmark output instead");
}

std::string object_key(const std::string& project, Engine engine, const RunContext& ctx) {
  const std::string commit = ctx.git.commit.value_or("unknown");
  if (ctx.git.dirty)
    return codec::dirty_key(project, engine, ctx.toolchain.target_triple, ctx.machine->fingerprint, commit,
                     unix_seconds(ctx.observation));
  return codec::clean_key(project, engine, ctx.toolchain.target_triple, ctx.machine->fingerprint, commit);
}

// A fresh, empty directory for one repetition's Google Benchmark reports (BENCHHIST_OUTPUT_DIR):
// nothing an earlier run wrote can be in it, so no stale report can be harvested. Removed
// after the harvest, except when the harvest failed: the error names a file in it.
class OutputDir {
 public:
  explicit OutputDir(const probe::Environment& env) {
    const std::filesystem::path tmp = env.non_empty("TMPDIR").value_or("/tmp");
    try {
      path_ = platform::make_unique_directory(tmp, "benchhist-output-");
    } catch (const std::system_error& e) {
      throw Error(ErrorKind::io, "failed to create the benchmark output directory under " + tmp.string(), tmp.string(),
                  e.code().message(), "check that TMPDIR (or /tmp) exists and is writable");
    }
  }
  ~OutputDir() {
    if (keep_) return;
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  OutputDir(const OutputDir&) = delete;
  OutputDir& operator=(const OutputDir&) = delete;
  const std::filesystem::path& path() const noexcept { return path_; }
  void keep() noexcept { keep_ = true; }

 private:
  std::filesystem::path path_;
  bool keep_ = false;
};

// Records the reports of `output_dir` the freshness gate ignored (each name once): its
// directory is fresh, so only the command can have put an old file there.
void note_stale_reports(const std::vector<engines::HarvestNote>& notes, const std::filesystem::path& output_dir,
                        Timestamp run_start, std::vector<StaleReport>& stale) {
  for (const auto& n : notes) {
    if (n.decision != engines::HarvestDecision::stale || !n.modified) continue;
    const auto name = n.path.lexically_relative(output_dir);
    if (name.empty() || *name.begin() == "..") continue;
    if (std::none_of(stale.begin(), stale.end(), [&](const StaleReport& r) { return r.name == name; }))
      stale.push_back({name, *n.modified, run_start});
  }
}

// Counts the reports the harvest read (report engines only: a Rust engine's files are not the
// command's reports; each name once over the repetitions, in `names`) and keeps what in them
// stored nothing, each text once.
void note_report_outcomes(const std::vector<engines::HarvestNote>& notes, const std::filesystem::path& output_dir,
                          std::set<std::filesystem::path>& names, CollectOutcome& out) {
  const auto is_report_engine = [](Engine e) {
    return std::find(engines::report_engines.begin(), engines::report_engines.end(), e) != engines::report_engines.end();
  };
  std::set<std::filesystem::path> read;
  for (const auto& n : notes)
    if (is_report_engine(n.engine) && n.decision == engines::HarvestDecision::included) {
      read.insert(n.path);
      names.insert(n.path.lexically_relative(output_dir));  // one name per report across repetitions
    }
  out.reports_read = names.size();
  // Only a file that was read: an empty output directory's "no report was written here" is not
  // something in a report.
  for (const auto& n : notes)
    if (n.decision == engines::HarvestDecision::not_measured && read.count(n.path) && !n.detail.empty() &&
        std::find(out.unmeasured.begin(), out.unmeasured.end(), n.detail) == out.unmeasured.end())
      out.unmeasured.push_back(n.detail);
}

// One collect call's answers to SIGINT/SIGTERM (docs/bench-command.md#interrupting-a-run). The
// benchmark command runs in a process group of its own (platform::ChildRequest::interrupts), so
// a terminal's Ctrl-C reaches only us: the first interrupt is passed on to it (collect) or lets
// it finish (backfill), a second one terminates it. Each interrupt is announced once, with what
// happens next.
class Interrupts {
 public:
  Interrupts(const CollectRequest& req, const CollectServices& svc) : first_(req.first_interrupt), svc_(svc) {
    if (req.interrupt_guard) {
      guard_ = req.interrupt_guard;
    } else if (req.handle_interrupts) {
      own_.emplace();
      guard_ = &*own_;
    }
  }

  // True when the run must end now: the benchmark command is not started (again) and nothing is
  // stored.
  bool must_stop() { return guard_ && guard_->received() >= stop_at(); }
  // True after any interrupt: where no measurement is under way to finish (a wait), even
  // backfill's first interrupt stops at once.
  bool any() { return guard_ && guard_->received() > 0; }

  Error interrupted(const std::string& when) {
    const std::string name = interrupt_name(guard_->pending());
    return Error(ErrorKind::io, "collect was interrupted by " + name + " " + when + ": nothing was stored", {},
                 "interrupted by " + name, "run collect again to measure this commit");
  }

  // Lets the next run of the benchmark command answer interrupts; `spec` must not outlive this.
  void arm(probe::ProcessSpec& spec) {
    if (!guard_) return;
    // Interrupts that arrived while no command ran (during a harvest) are announced now.
    for (const auto n = guard_->received(); answered_ < n;) answer(guard_->watch().tally().latest, answered_ + 1);
    child_.watch = &guard_->watch();
    child_.seen = answered_;
    child_.answer = [this](int sig, std::size_t n) { return answer(sig, n); };
    child_.stop_grace = stop_grace;
    spec.interrupts = &child_;
  }

 private:
  std::size_t stop_at() const { return first_ == FirstInterrupt::stop ? 1 : 2; }

  platform::ChildSignal answer(int sig, std::size_t n) {
    answered_ = n;
    const std::string name = interrupt_name(sig);
    const std::string again = "press Ctrl-C again (or send another SIGTERM)";
    if (n == 1 && first_ == FirstInterrupt::stop) {
      svc_.announce("interrupted by " + name + ": stopping the benchmark command (its process group was sent " + name +
                    "); " + again + " to terminate it if it does not stop");
      return platform::ChildSignal::pass_on;
    }
    if (n == 1) {
      svc_.announce("interrupted by " + name +
                    ": stopping once the benchmark command under way has finished (its results are stored); " + again +
                    " to stop the running benchmark now");
      return platform::ChildSignal::none;
    }
    if (n == 2)
      svc_.announce("interrupted again (" + name + "): terminating the benchmark command's process group (SIGTERM, then "
                    "SIGKILL if it has not ended " + std::to_string(stop_grace.count()) + " s later)");
    return platform::ChildSignal::stop;
  }

  FirstInterrupt first_;
  const CollectServices& svc_;
  std::optional<InterruptGuard> own_;
  InterruptGuard* guard_ = nullptr;
  std::size_t answered_ = 0;
  platform::ChildInterrupts child_;
};

// Waits until no other collect runs benchmarks that write into `root` and holds that until the
// returned lock is released (docs/bench-command.md#concurrent-collects): two would each harvest
// the other's reports, and measure each other's load. Answers interrupts while it waits.
std::shared_ptr<void> hold_target(const std::filesystem::path& root, const CollectServices& svc,
                                  Interrupts& interrupts) {
  if (!svc.lock_target) return nullptr;
  bool announced = false;
  for (int polls = 0;; ++polls) {
    TargetLock lock = svc.lock_target(root);
    if (!lock.busy) {
      if (!lock.unavailable.empty())
        svc.announce("could not lock " + root.string() + " against other collects (" + lock.unavailable +
                     "); running anyway: do not start another collect in this directory until this one ends");
      else if (announced)
        svc.announce("the other collect has ended; running the benchmarks");
      return lock.held;
    }
    // The holder records its process id just after it takes the lock, so a collect that asks in
    // between reads nothing: it asks again for up to half a second before it names no process.
    if (!announced && (lock.holder || polls >= 5)) {
      svc.announce("another collect" + (lock.holder ? " (process " + std::to_string(*lock.holder) + ")" : std::string()) +
                   " is running benchmarks that write into " + root.string() +
                   "; waiting for it to end, so that neither harvests the other's results (Ctrl-C stops waiting)");
      announced = true;
    }
    if (interrupts.any()) throw interrupts.interrupted("while it waited for another collect to end");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

Error collision(const std::string& key) {
  // Dirty snapshots are keyed to the second (the guide: only two taken in the same second
  // collide), so the way out is to wait, not --overwrite.
  if (const auto data = codec::parse_data_key(key); data && data->kind == codec::ObjectKind::dirty)
    return Error(ErrorKind::already_exists,
                 "a dirty snapshot was already stored at " + key +
                     " in this same second (dirty snapshots are keyed to the second); collect again a second later",
                 key);
  return Error(ErrorKind::already_exists,
               "a result is already stored for this run at " + key +
                   "; pass --overwrite to replace it or --skip-existing to keep it",
               key);
}

// The benchmark ids of the run stored at `key`, in stored order; empty when there is none or it
// cannot be read (the callers then say nothing more than before).
std::vector<std::string> stored_ids(storage::ObjectStore& store, const std::string& key) {
  std::vector<std::string> ids;
  try {
    if (const auto body = store.get(key))
      for (const auto& r : codec::decode_run(*body, key).results) ids.push_back(r.id.qualified());
  } catch (const Error&) {
    return {};
  }
  return ids;
}

// The ids of `results`, in their order.
std::vector<std::string> result_ids(const std::vector<BenchmarkResult>& results) {
  std::vector<std::string> ids;
  for (const auto& r : results) ids.push_back(r.id.qualified());
  return ids;
}

// `ids` that `other` lacks, in the order of `ids`: what a run collected over another would lose.
std::vector<std::string> missing_from(const std::vector<std::string>& ids, const std::vector<std::string>& other) {
  const std::set<std::string> in(other.begin(), other.end());
  std::vector<std::string> out;
  for (const auto& id : ids)
    if (!in.contains(id)) out.push_back(id);
  return out;
}

// At most five names, then "…": the benchmarks a message names.
std::string first_names(const std::vector<std::string>& names) {
  const std::size_t shown = std::min<std::size_t>(names.size(), 5);
  std::vector<std::string> out(names.begin(), names.begin() + static_cast<std::ptrdiff_t>(shown));
  if (names.size() > shown) out.push_back("…");
  return joined(out);
}

// The refusal that does not offer --overwrite plainly: it would delete `lost`, the benchmarks the
// stored object holds that this run did not measure (one package of a workspace collected after
// another, say).
Error collision(const std::string& key, const std::vector<std::string>& lost) {
  return Error(ErrorKind::already_exists,
               "a result is already stored for this run at " + key + ", and it holds " +
                   plural(lost.size(), "benchmark") + " this run did not measure (" + first_names(lost) +
                   "): --overwrite would delete them. Store everything this commit should hold in one run (for "
                   "collect: --workspace, or every -p at once; for import: every report at once) and pass "
                   "--overwrite, or pass --skip-existing to keep the stored result",
               key);
}

}  // namespace

Run make_run(const std::vector<BenchmarkResult>& results, const RunContext& context) {
  Run run;
  run.context = context;
  run.results = results;
  return run;
}

std::string RunTriple::describe() const {
  switch (source) {
    case TripleSource::toolchain_host: return "toolchain host";
    case TripleSource::cxx_compiler: return "C++ compiler: " + cxx_compiler + " -dumpmachine";
    case TripleSource::option: return "--target-triple";
  }
  return "toolchain host";
}

RunTriple resolve_run_triple(const std::optional<std::string>& explicit_triple, bool bench_command,
                             const std::function<ToolchainInfo()>& rustc,
                             const std::function<std::optional<probe::CxxTarget>()>& cxx) {
  RunTriple t;
  if (explicit_triple) {
    t.triple = *explicit_triple;
    t.source = TripleSource::option;
    // A cargo bench run still records the toolchain that built it (metadata,
    // docs/formats.md#run-record).
    if (!bench_command) t.rustc_version = rustc().rustc_version;
    return t;
  }
  // A --bench-command project is built by its own compiler, which may target another platform
  // than whatever rustc happens to be installed (docs/bench-command.md).
  if (bench_command && cxx)
    if (auto c = cxx()) {
      t.triple = c->triple;
      t.source = TripleSource::cxx_compiler;
      t.cxx_compiler = c->compiler;
      return t;
    }
  const ToolchainInfo tc = rustc();
  t.triple = tc.target_triple;
  t.rustc_version = tc.rustc_version;
  return t;
}

void store_results(const std::string& project, const std::vector<engines::EngineHarvest>& engines,
                   const RunContext& ctx, storage::CollisionPolicy policy, bool write, storage::ObjectStore* store,
                   const std::function<void(std::string_view)>& note, CollectOutcome& out) {
  if (write && !store) throw Error(ErrorKind::internal, "collect was asked to store but has no store");
  std::vector<std::pair<Engine, const std::vector<BenchmarkResult>*>> engines_with_cases;
  for (const auto& eh : engines)
    if (!eh.results.empty()) engines_with_cases.emplace_back(eh.engine, &eh.results);

  // Refuse is checked for every engine before anything is written, so a refused collection
  // leaves the store exactly as it was (a lost race is still caught by the write-once put).
  if (write && policy == storage::CollisionPolicy::refuse) {
    std::optional<std::string> first;
    for (const auto& [engine, results] : engines_with_cases) {
      const auto key = object_key(project, engine, ctx);
      const auto dir = key.substr(0, key.rfind('/') + 1);
      for (const auto& existing : store->list(dir)) {
        if (existing != key) continue;
        // The collision that --overwrite would make lose data is the one to name.
        if (const auto lost = missing_from(stored_ids(*store, key), result_ids(*results)); !lost.empty())
          throw collision(key, lost);
        if (!first) first = key;
      }
    }
    if (first) throw collision(*first);
  }

  // Every object is encoded before the first is written: a run the writer refuses
  // (run_problem, model/run.hpp) fails the whole collection, not the engines after some were stored.
  std::vector<std::string> encoded;
  if (write)
    for (const auto& [engine, results] : engines_with_cases) encoded.push_back(codec::encode_run(make_run(*results, ctx)));

  for (std::size_t i = 0; i < engines_with_cases.size(); ++i) {
    const auto& [engine, results] = engines_with_cases[i];
    StoredObject obj{engine, object_key(project, engine, ctx), results->size(), std::nullopt, {}};
    if (write) {
      try {
        obj.outcome = store->put(obj.key, encoded[i], policy);
      } catch (const Error& e) {
        if (e.kind() == ErrorKind::already_exists) throw collision(obj.key);
        throw;
      }
      // --skip-existing keeps the stored object whole: what this run measured beyond it is lost,
      // and the summary says which (one package collected after another, say).
      if (*obj.outcome == storage::PutOutcome::skipped_existing)
        if (const auto kept = stored_ids(*store, obj.key); !kept.empty())
          obj.not_stored = missing_from(result_ids(*results), kept);
      if (note) {
        const std::string name(to_string(engine));
        switch (*obj.outcome) {
          case storage::PutOutcome::stored: note(name + " stored at " + obj.key); break;
          case storage::PutOutcome::replaced: note(name + " replaced the object at " + obj.key); break;
          case storage::PutOutcome::skipped_existing:
            note(name + " kept the existing object at " + obj.key + " (--skip-existing); nothing written");
            break;
        }
      }
    }
    out.objects.push_back(std::move(obj));
  }
  if (store) store->flush();
}

CollectOutcome collect(const CollectRequest& req, const probe::Environment& env, storage::ObjectStore* store,
                       const CollectServices& svc) {
  if (req.best_of < 1) throw Error(ErrorKind::usage, "--best-of must be at least 1");
  if (req.store && !store) throw Error(ErrorKind::internal, "collect was asked to store but has no store");
  if (req.bench_command && req.bench_command->find_first_not_of(" \t\r\n") == std::string::npos)
    throw Error(ErrorKind::usage, "the benchmark command is empty", "--bench-command", {},
                "pass --bench-command '<shell command>' (or set [collect] bench_command), or drop it to run cargo bench");

  // Installed first: a signal during the probes below is answered like one during the run.
  Interrupts interrupts(req, svc);
  const auto root = target_root(env, req.repo_dir);
  probe::ProcessSpec spec;
  if (req.bench_command)
    spec.argv = {"/bin/sh", "-c", *req.bench_command};
  else
    spec.argv = cargo_bench_argv(req.scope, req.strip_toolchain_overrides ? "cargo" : cargo_program(env));
  const std::string command_label = req.bench_command ? *req.bench_command : std::string("cargo bench");
  spec.cwd = req.repo_dir;
  spec.env_changes = bench_environment(root, req.strip_toolchain_overrides);
  spec.capture_stdout = false;
  spec.capture_stderr = false;
  // libtest's #[bench] results exist only as lines on cargo bench's stdout (docs/harnesses.md#libtest).
  spec.tee_stdout = !req.bench_command;
  if (svc.note) {
    svc.note("benchmark command: " + (req.bench_command ? "/bin/sh -c '" + *req.bench_command + "'" : probe::describe_command(spec.argv)) +
             " (in " + req.repo_dir.string() + ")");
    svc.note("injected environment: GUNGRAUN_SAVE_SUMMARY=pretty-json, CARGO_TARGET_DIR=" + root.string() +
             ", BENCHHIST_OUTPUT_DIR=<a fresh directory per repetition>" +
             (req.strip_toolchain_overrides ? "; removed RUSTUP_TOOLCHAIN, CARGO" : ""));
  }

  // Held until the results are stored: the next collect's harvest must not meet this one's
  // files. Taken before git is probed, so a collect that waited records the tree it measures.
  const auto target_lock = hold_target(root, svc, interrupts);
  // The git state is probed before the benchmark command runs (the guide's probe → run →
  // harvest): `cargo bench` creates Cargo.lock in a crate that neither commits nor ignores it,
  // and that untracked file would otherwise make every fresh checkout a dirty snapshot.
  const GitState git_before_run = svc.probe_git(req.repo_dir);
  // A store that cannot be reached fails now, not after the whole suite has run.
  if (req.store) store->check_access();
  if (req.output_log) {
    spec.log_file = output_log_file(req.output_log->dir, git_before_run.commit);
    svc.announce("the benchmark output goes to " + spec.log_file.string() + " (pass --verbose to see it here)");
  }

  std::vector<engines::Harvest> harvests;
  std::set<std::filesystem::path> report_names;  // the reports read, relative to their output directory
  CollectOutcome out;
  Timestamp first_start{};
  const auto began = std::chrono::steady_clock::now();
  for (std::uint32_t rep = 1; rep <= req.best_of; ++rep) {
    if (interrupts.must_stop())
      throw interrupts.interrupted(rep == 1 ? "before the benchmark command ran" : "between repetitions");
    if (svc.progress)
      svc.progress(rep, req.best_of,
                   std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    OutputDir output(env);
    spec.env_changes["BENCHHIST_OUTPUT_DIR"] = output.path().string();
    if (svc.note) svc.note("repetition " + std::to_string(rep) + ": BENCHHIST_OUTPUT_DIR=" + output.path().string());
    const Timestamp start = svc.clock();
    if (rep == 1) first_start = start;
    if (req.output_log) open_log_section(spec.log_file, probe::describe_command(spec.argv), req.repo_dir, rep, req.best_of);
    interrupts.arm(spec);
    const probe::ProcessResult ran = svc.run_benchmarks(spec);
    spec.interrupts = nullptr;
    // Whatever the command made of it, the interruption is the news (docs/bench-output.md).
    if (interrupts.must_stop())
      throw interrupts.interrupted("while the benchmark command ran" +
                                   (req.best_of > 1 ? " (repetition " + std::to_string(rep) + " of " +
                                                          std::to_string(req.best_of) + ")"
                                                    : std::string()));
    check_exit(ran, command_label, spec.log_file, req.output_log ? req.output_log->failure_tail : 0, svc);
    engines::HarvestOptions options;
    options.report_paths = {output.path()};
    if (spec.tee_stdout) options.captured_stdout = ran.out;
    try {
      harvests.push_back(engines::harvest_all(root, start, options));
    } catch (const Error&) {
      output.keep();  // the error names a report in it
      throw;
    }
    if (svc.note)
      for (const auto& n : harvests.back().notes) svc.note(n.text());
    note_stale_reports(harvests.back().notes, output.path(), start, out.stale_reports);
    note_report_outcomes(harvests.back().notes, output.path(), report_names, out);
  }

  // The rest is probed once, after all repetitions (docs/formats.md#benchmark-invocation).
  RunContext ctx;
  ctx.observation = first_start;
  ctx.git = git_before_run;
  ctx.env = svc.probe_ci();
  const RunTriple triple = resolve_run_triple(req.target_triple, req.bench_command.has_value(), svc.probe_toolchain,
                                              svc.probe_cxx_target);
  ctx.toolchain.target_triple = triple.triple;
  ctx.toolchain.rustc_version = triple.rustc_version;
  ctx.tool_version = std::string(tool_version);
  ctx.machine = svc.probe_hardware();
  ctx.best_of = req.best_of;
  if (svc.note) svc.note("hardware fingerprint components: " + probe::machine_key_components_line(probe::machine_key_inputs(*ctx.machine)));
  svc.announce("collecting: target-triple=" + (ctx.toolchain.target_triple.empty() ? std::string("unknown") : ctx.toolchain.target_triple) +
               " (" + triple.describe() + "); machine-key=" + ctx.machine->fingerprint + " (auto-detected)");

  const auto reduced = engines::reduce_best_of(harvests);
  if (svc.note)
    for (const auto& s : reduced.samples) svc.note(s);

  if (interrupts.must_stop()) throw interrupts.interrupted("after the benchmark command ran");
  out.git = ctx.git;
  out.toolchain = ctx.toolchain;
  out.machine_key = ctx.machine->fingerprint;
  out.repetitions = req.best_of;
  out.observation = first_start;
  out.stored = req.store;
  store_results(req.project, reduced.engines, ctx, req.policy, req.store, store, svc.note, out);
  return out;
}

namespace {

// Why each named path yielded no result: what `import` says when none of them did.
Error nothing_to_import(const std::vector<std::filesystem::path>& paths) {
  namespace fs = std::filesystem;
  std::vector<std::string> why;
  for (const auto& path : paths) {
    const auto files = engines::list_report_files(path);
    std::error_code ec;
    if (!files.empty()) {
      why.push_back(path.string() + ": " + (files.size() == 1 && files.front() == path
                                                ? std::string("a report with no benchmark results")
                                                : "its " + plural(files.size(), "report") +
                                                      (files.size() == 1 ? " holds" : " hold") + " no benchmark results"));
    } else if (fs::is_directory(path, ec)) {
      why.push_back(path.string() + ": no report file in it");
    } else {
      why.push_back(path.string() + ": not a report file");
    }
  }
  std::vector<std::string> names;
  for (const auto& path : paths) names.push_back(path.string());
  std::string cause;  // `; ` between them: a reason may hold a comma
  for (const auto& w : why) cause += (cause.empty() ? "" : "; ") + w;
  return Error(ErrorKind::not_found, "nothing to import: no benchmark results in " + joined(names),
               paths.size() == 1 ? paths.front().string() : std::string(), cause,
               "name the report files the benchmarks wrote (a directory is searched for them); a harness that "
               "measured nothing wrote no results to import");
}

}  // namespace

CollectOutcome import_results(const ImportRequest& req, storage::ObjectStore& store,
                              const std::function<void(std::string_view)>& note) {
  if (!req.target_dir && req.report_paths.empty())
    throw Error(ErrorKind::usage, "import needs something to harvest", "--target-dir", {},
                "pass --target-dir <PATH> and/or report files");
  engines::HarvestOptions options;
  options.freshness_gate = false;  // the results were produced elsewhere, at another time
  options.report_paths = req.report_paths;
  engines::Harvest h;
  try {
    if (req.target_dir) {
      h = engines::harvest_all(*req.target_dir, req.context.observation, options);
    } else {
      // Only report files: the four target-root engines are not looked for.
      const auto gate = engines::FreshnessGate::disabled();
      for (Engine e : engines::target_root_engines) h.engines.push_back(engines::EngineHarvest{e, {}});
      for (auto& r : engines::harvest_reports(options.report_paths, gate, h.notes)) h.engines.push_back(std::move(r));
    }
  } catch (const Error& e) {
    // The results were produced elsewhere: the collection hint ("re-run the benchmarks and
    // collect again") does not apply to a file the user handed over.
    if (e.kind() != ErrorKind::benchmark_output || e.hint() != engines::detail::default_parse_hint) throw;
    throw e.with_hint("check that the file is a complete report its harness wrote (docs/harnesses.md lists what "
                      "each format needs), or leave it out of the import");
  }
  if (note)
    for (const auto& n : h.notes) note(n.text());
  // The user named the directory: finding no engine output there is a wrong path (one level
  // too deep, say), not an empty import (docs/import.md).
  if (req.target_dir && req.report_paths.empty() && h.case_count() == 0) {
    std::string looked;
    for (const auto& n : h.notes) looked += (looked.empty() ? "" : "; ") + n.text();
    throw Error(ErrorKind::not_found, "nothing to import: no engine output under " + req.target_dir->string(),
                req.target_dir->string(), looked,
                "pass the directory the benchmarks wrote into (CARGO_TARGET_DIR, the one that holds criterion/), "
                "not one of its subdirectories, or name report files");
  }
  // Named reports that hold no result (an empty directory, reports whose harness measured
  // nothing) would store nothing and succeed: a CI step whose benchmarks wrote nothing would pass.
  if (h.case_count() == 0) throw nothing_to_import(req.report_paths);
  CollectOutcome out;
  out.git = req.context.git;
  out.toolchain = req.context.toolchain;
  out.machine_key = req.context.machine ? req.context.machine->fingerprint : std::string();
  out.repetitions = 1;
  out.observation = req.context.observation;
  out.stored = true;
  RunContext ctx = req.context;
  ctx.best_of = 1;
  store_results(req.project, h.engines, ctx, req.policy, true, &store, note, out);
  return out;
}

std::string CollectOutcome::message() const {
  std::size_t cases = 0, stored_sets = 0, stored_cases = 0;
  for (const auto& o : objects) {
    cases += o.cases;
    if (o.outcome && *o.outcome != storage::PutOutcome::skipped_existing) {
      ++stored_sets;
      stored_cases += o.cases;
    }
  }
  // --skip-existing kept what was stored: the sentence says what was harvested and why none (or
  // not all) of it was written, never "stored 0 … covering 4".
  const std::size_t kept = objects.size() - stored_sets;
  const std::string why_kept = kept == 1 ? "their result set was already stored, and --skip-existing keeps it"
                                         : "their " + std::to_string(kept) +
                                               " result sets were already stored, and --skip-existing keeps them";
  std::string msg;
  if (!stored)
    msg = "Harvested " + plural(cases, "benchmark case") + "; nothing stored (--no-store).";
  else if (kept == 0)
    msg = "Stored " + plural(stored_sets, "result set") + " covering " + plural(cases, "benchmark case") + ".";
  else if (stored_sets == 0)
    msg = "Harvested " + plural(cases, "benchmark case") + " and stored nothing: " + why_kept + ".";
  else
    msg = "Stored " + plural(stored_sets, "result set") + " covering " + plural(stored_cases, "benchmark case") +
          "; " + std::to_string(cases - stored_cases) + " more " + (cases - stored_cases == 1 ? "was" : "were") +
          " harvested but not stored: " + why_kept + ".";
  if (!objects.empty()) {
    msg += " [";
    for (std::size_t i = 0; i < objects.size(); ++i) {
      const auto& o = objects[i];
      if (i) msg += "; ";
      msg += std::string(to_string(o.engine)) + ": " + std::to_string(o.cases);
      if (!o.outcome)
        msg += " harvested (not stored)";
      else if (*o.outcome == storage::PutOutcome::skipped_existing) {
        msg += " harvested (" + o.key + " already exists";
        if (!o.not_stored.empty())
          msg += "; it does not hold " + first_names(o.not_stored) + ", so " +
                 (o.not_stored.size() == 1 ? "that result was" : "those results were") + " not stored";
        msg += ")";
      }
      else
        msg += " stored";
    }
    msg += "]";
  }
  return msg;
}

}  // namespace benchhist::collect
