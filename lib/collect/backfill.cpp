// backfill (docs/backfill.md): range planning, the skip pre-check, the replay loop in a private
// worktree and the end-of-run summary.
#include "benchhist/collect/backfill.hpp"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <set>
#include <system_error>

#include "benchhist/engines/output_locations.hpp"
#include "benchhist/model/text.hpp"
#include "benchhist/codec/key.hpp"

namespace benchhist::collect {
namespace {

std::string trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return std::string(s.substr(b, e - b + 1));
}

// `git -C <dir> <args…>` with both streams captured (helper commands never write to the
// user's terminal; stderr becomes the cause of an error). The worktree steps stay a `git`
// subprocess rather than the libgit2 wrapper (lib/git/): libgit2 cannot add a worktree with a
// detached HEAD (git_worktree_add checks out a branch, creating one in the user's repository),
// has no `clean`, and does not run configured filter drivers (LFS) on checkout; a libgit2 open
// here would also precede the Azure client's TLS in the same process (the LeakSanitizer report
// that made find_worktree_root a plain walk).
probe::ProcessResult git(const BackfillServices& svc, const std::filesystem::path& dir, std::vector<std::string> args) {
  probe::ProcessSpec spec;
  spec.argv = {"git", "-C", dir.string()};
  for (auto& a : args) spec.argv.push_back(std::move(a));
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  return svc.run_command(spec);
}

std::string git_cause(const probe::ProcessResult& r) {
  auto err = trim(r.err);
  if (!err.empty()) return err;
  return r.exited ? "git exited with code " + std::to_string(r.exit_code) : "git was terminated by a signal";
}

struct RangeEntry {
  std::string id;
  std::string subject;
};

// docs/formats.md#git-facts: `git rev-parse --verify --quiet <ref>^{commit}`; nullopt when git says
// no.
std::optional<std::string> resolve_ref(const BackfillServices& svc, const std::filesystem::path& repo,
                                       std::string_view ref) {
  probe::ProcessResult r;
  try {
    r = git(svc, repo, {"rev-parse", "--verify", "--quiet", std::string(ref) + "^{commit}"});
  } catch (const Error& e) {
    throw Error(ErrorKind::git, "failed to resolve the git ref " + std::string(ref), repo.string(), e.message(),
                "check that git is installed and on PATH");
  }
  if (!r.success()) return std::nullopt;
  std::size_t pos = 0;
  while (pos <= r.out.size()) {
    auto nl = r.out.find('\n', pos);
    auto line = trim(std::string_view(r.out).substr(pos, nl == std::string::npos ? std::string::npos : nl - pos));
    if (!line.empty()) return line;
    if (nl == std::string::npos) break;
    pos = nl + 1;
  }
  return std::nullopt;
}

// docs/backfill.md#the-run-step-by-step step 4, newest first, with subjects for the progress lines.
std::vector<RangeEntry> plan_range(const std::filesystem::path& repo, std::string_view from, std::string_view to,
                                   const BackfillServices& svc) {
  const auto from_id = resolve_ref(svc, repo, from);
  if (!from_id)
    throw Error(ErrorKind::not_found, "cannot resolve <FROM> (" + std::string(from) + ") to a commit", repo.string(), {},
                "pass a commit id, tag or branch that exists in " + repo.string());
  const auto to_id = resolve_ref(svc, repo, to);
  if (!to_id)
    throw Error(ErrorKind::not_found, "cannot resolve <TO> (" + std::string(to) + ") to a commit", repo.string(), {},
                "pass a commit id, tag or branch that exists in " + repo.string());

  probe::ProcessResult r;
  const std::string walk_error = "failed to walk the first-parent ancestry of " + *to_id;
  const std::string walk_hint = "check that git is on PATH and that `git log --first-parent " + *to_id +
                                "` works in " + repo.string();
  try {
    r = git(svc, repo, {"log", "--first-parent", "--reverse", "-z", "--format=%H%x00%cI%x00%s", *to_id});
  } catch (const Error& e) {
    throw Error(ErrorKind::git, walk_error, repo.string(), e.message(), walk_hint);
  }
  if (!r.success()) throw Error(ErrorKind::git, walk_error, repo.string(), git_cause(r), walk_hint);

  // NUL-separated (id, date, subject) triples, oldest first; stop at an empty id
  // (docs/formats.md#git-facts).
  std::vector<std::string> tokens;
  std::size_t pos = 0;
  while (pos < r.out.size()) {
    auto nul = r.out.find('\0', pos);
    if (nul == std::string::npos) nul = r.out.size();
    tokens.push_back(r.out.substr(pos, nul - pos));
    pos = nul + 1;
  }
  std::vector<RangeEntry> history;
  for (std::size_t i = 0; i < tokens.size(); i += 3) {
    auto id = trim(tokens[i]);
    if (id.empty()) break;
    history.push_back({std::move(id), i + 2 < tokens.size() ? tokens[i + 2] : std::string()});
  }

  std::size_t at = history.size();
  for (std::size_t i = 0; i < history.size(); ++i)
    if (history[i].id == *from_id) {
      at = i;
      break;
    }
  if (at == history.size()) {
    // TO older than FROM (`backfill HEAD HEAD~3`) is the usual slip: name it rather than explain first parents.
    const bool swapped = git(svc, repo, {"merge-base", "--is-ancestor", *to_id, *from_id}).success();
    throw Error(ErrorKind::usage,
                "<FROM> (" + std::string(from) + ") is not a first-parent ancestor of <TO> (" + std::string(to) + ")",
                repo.string(), {},
                swapped ? "FROM and TO look swapped: " + std::string(to) + " is older than " + std::string(from) +
                              "; pass the older commit first (backfill … " + std::string(to) + " " + std::string(from) + ")"
                        : "pick FROM on the first-parent history of TO (`git log --first-parent " + std::string(to) +
                              "` lists it); commits reached only through a merge's second parent are not in the range");
  }
  std::vector<RangeEntry> range(history.begin() + static_cast<std::ptrdiff_t>(at), history.end());
  return {range.rbegin(), range.rend()};
}

// The per-commit environment: everything inherited except CARGO_TARGET_DIR
// (docs/backfill.md#the-run-step-by-step step 4).
class OverlayEnvironment final : public probe::Environment {
 public:
  OverlayEnvironment(const probe::Environment& base, std::map<std::string, std::string, std::less<>> overrides)
      : base_(base), overrides_(std::move(overrides)) {}
  std::optional<std::string> get(std::string_view name) const override {
    if (auto it = overrides_.find(name); it != overrides_.end()) return it->second;
    return base_.get(name);
  }

 private:
  const probe::Environment& base_;
  std::map<std::string, std::string, std::less<>> overrides_;
};

// collect flushes after every commit; backfill flushes the cache marker once after the loop
// (docs/backfill.md#the-run-step-by-step), so the per-commit collect sees a store whose flush does
// nothing.
class DeferredFlushStore final : public storage::ObjectStore {
 public:
  explicit DeferredFlushStore(storage::ObjectStore& inner) : inner_(inner) {}
  storage::PutOutcome put(std::string_view key, std::string_view json, storage::CollisionPolicy policy) override {
    return inner_.put(key, json, policy);
  }
  std::optional<std::string> get(std::string_view key) override { return inner_.get(key); }
  std::vector<std::string> list(std::string_view prefix) override { return inner_.list(prefix); }
  bool remove(std::string_view key) override { return inner_.remove(key); }
  void flush() override {}
  // Each commit's collect checks the store before its benchmarks run.
  void check_access() override { inner_.check_access(); }
  std::string describe() const override { return inner_.describe(); }

 private:
  storage::ObjectStore& inner_;
};

std::string format_duration(double seconds) {
  if (!(seconds >= 0) || !std::isfinite(seconds)) seconds = 0;
  auto total = static_cast<long long>(std::llround(seconds));
  const long long h = total / 3600, m = (total % 3600) / 60, s = total % 60;
  char buf[48];
  if (h > 0)
    std::snprintf(buf, sizeof buf, "%lldh%02lldm%02llds", h, m, s);
  else if (m > 0)
    std::snprintf(buf, sizeof buf, "%lldm%02llds", m, s);
  else
    std::snprintf(buf, sizeof buf, "%llds", s);
  return buf;
}

std::string build_summary(const BackfillResult& r) {
  const auto n = r.range.size();
  std::string reason;
  if (r.stop == BackfillStop::interrupted)
    reason = std::string("Interrupted by ") + interrupt_name(r.interrupted_by) + ".";
  else if (r.stop == BackfillStop::benchmark_failure)
    reason = "Stopped on benchmark failure.";
  else if (r.deferred > 0)
    reason = "Commit limit reached.";
  else
    reason = "Range exhausted.";
  std::string s = "Backfill range of " + plural(n, "commit") + ": " + std::to_string(r.stored) + " stored, " +
                  std::to_string(r.skipped_existing) + " skipped (existing), " + std::to_string(r.skipped_empty) +
                  " skipped (empty), " + std::to_string(r.failed) + " failed, " + std::to_string(r.deferred) +
                  " deferred. " + reason;
  for (const auto& o : r.outcomes)
    if (o.kind == BackfillOutcomeKind::stored) s += "\n  stored " + short_id(o.commit) + " (" + plural(o.cases, "case") + ")";
  for (bool pre : {true, false})
    for (const auto& o : r.outcomes)
      if (o.kind == BackfillOutcomeKind::skipped_existing && o.precheck == pre)
        s += "\n  skipped " + short_id(o.commit) + " (already stored)";
  for (const auto& o : r.outcomes)
    if (o.kind == BackfillOutcomeKind::skipped_empty) s += "\n  skipped " + short_id(o.commit) + " (no benchmark cases)";
  for (const auto& o : r.outcomes)
    if (o.kind == BackfillOutcomeKind::failed) s += "\n  failed " + short_id(o.commit) + " (" + o.reason + ")";
  if (r.stop == BackfillStop::benchmark_failure && r.stopped_at)
    s += "\n  stopped at " + short_id(*r.stopped_at) + " (pass --ignore-errors to continue past failures)";
  return s;
}

// docs/backfill.md#the-run-step-by-step step 5: `<tmp>/cargo-bench-history-worktree-<pid>-<unix
// nanos>-<counter>`. The counter is the per-process sequence the spec asks for, hence the one
// function-local static.
std::filesystem::path worktree_path(const BackfillServices& svc) {
  static std::atomic<std::uint64_t> counter{0};
  const auto nanos = svc.clock().time_since_epoch().count();
  return svc.temp_dir / ("cargo-bench-history-worktree-" + std::to_string(svc.pid) + "-" +
                         std::to_string(nanos < 0 ? 0 : nanos) + "-" + std::to_string(counter++));
}

}  // namespace

// ---------------------------------------------------------------------------------------------

std::string format_progress(const BackfillProgress& p) {
  std::string s = "commit " + std::to_string(p.index) + " of " + std::to_string(p.total) + ": " + p.short_id;
  if (!p.title.empty()) s += " " + p.title;
  s += " (elapsed " + format_duration(p.elapsed_seconds);
  s += p.remaining_seconds ? ", about " + format_duration(*p.remaining_seconds) + " remaining)"
                           : ", remaining time not yet known)";
  return s;
}

std::filesystem::path parse_project_prefix(std::string_view out) {
  std::string_view p = out;
  if (p.size() >= 2 && p.substr(p.size() - 2) == "\r\n")
    p.remove_suffix(2);
  else if (!p.empty() && p.back() == '\n')
    p.remove_suffix(1);
  auto bad = [&] {
    return Error(ErrorKind::git,
                 "git returned a project directory that is not relative to the repository: \"" + std::string(p) + "\"",
                 std::string(p), {}, "run backfill with --repo pointing inside the repository's working tree");
  };
  if (p.empty()) return {};
  if (p.front() == '/' || p.find('\\') != std::string_view::npos || p.find('\0') != std::string_view::npos ||
      (p.size() >= 2 && p[1] == ':'))
    throw bad();
  // git ends the prefix with '/'; every other component must be a normal name.
  std::string_view rest = p;
  if (rest.back() == '/') rest.remove_suffix(1);
  std::filesystem::path out_path;
  std::size_t pos = 0;
  while (true) {
    auto slash = rest.find('/', pos);
    auto comp = rest.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos);
    if (comp.empty() || comp == "." || comp == "..") throw bad();
    out_path /= std::string(comp);
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  return out_path;
}

bool is_duplicate_result_error(const Error& e) { return e.kind() == ErrorKind::already_exists; }

std::optional<std::string> backfill_failure_reason(const Error& e) {
  // A failing benchmark command and unparseable harvested output belong to the commit
  // (docs/backfill.md#the-run-step-by-step step 5); a command that could not be started and
  // best-of inconsistencies do not: they would fail every commit alike. (A project directory
  // missing at a commit is the commit's too, but replay_commit returns it, it is never thrown.)
  switch (e.kind()) {
    case ErrorKind::benchmark_failed:
    case ErrorKind::benchmark_output:
      return e.message();
    default:
      return std::nullopt;
  }
}

std::vector<std::string> plan_backfill_range(const std::filesystem::path& repo_dir, std::string_view from,
                                             std::string_view to, const BackfillServices& services) {
  std::vector<std::string> ids;
  for (auto& e : plan_range(repo_dir, from, to, services)) ids.push_back(std::move(e.id));
  return ids;
}

Error BackfillResult::error() const {
  if (stop == BackfillStop::interrupted)
    return Error(ErrorKind::io, summary, {}, std::string("interrupted by ") + interrupt_name(interrupted_by),
                 "run the same backfill again: commits already stored are skipped");
  if (stop_cause)
    return Error(stop_cause->kind(), summary, stopped_at.value_or(""), stop_cause->message(),
                 "fix the failing commit's benchmark or pass --ignore-errors to continue past failures");
  return Error(ErrorKind::internal, summary);
}

// ---------------------------------------------------------------------------------------------
// The steps of backfill() (docs/backfill.md#the-run-step-by-step), each one concern.

namespace {

// Steps 5–6: the private worktree at the newest range commit.
void add_worktree(const BackfillServices& svc, const std::filesystem::path& base, const std::filesystem::path& wt,
                  const std::string& commit) {
  const std::string fail = "failed to add a git worktree at " + wt.string() + " for commit " + commit;
  const std::string hint = "run `git worktree prune` in " + base.string() +
                           " (a stale worktree may be registered), check the free space where the worktree goes, "
                           "and retry";
  probe::ProcessResult r;
  try {
    r = git(svc, base, {"worktree", "add", "--detach", "--force", wt.string(), commit});
  } catch (const Error& e) {
    throw Error(ErrorKind::git, fail, wt.string(), e.message(), hint);
  }
  if (!r.success()) throw Error(ErrorKind::git, fail, wt.string(), git_cause(r), hint);
}

// --seed-target-dir: a dated-back copy of a warm target directory into the worktree.
void seed_target_directory(const BackfillRequest& req, const std::filesystem::path& project_dir,
                           Timestamp worktree_created, const BackfillServices& svc) {
  // A copy, never a link: cargo must not write into the shared cache. Cargo judges a
  // path package fresh when its sources are older than its recorded build, and its
  // artifact names do not depend on the checkout's location, so a cache written after
  // this checkout (by another worktree) would pass for this commit's build — the
  // ENVIRONMENT.md worktree pitfall. Every copied file newer than one second before the
  // worktree was created is therefore dated back to that moment: the checkout is always
  // newer, so cargo rebuilds the crate itself, while older files (registry dependencies
  // and their build scripts' stamps) keep their times and stay reusable.
  probe::ProcessSpec cp;
  cp.argv = {"cp", "-a", req.seed_target_dir->string(), (project_dir / "target").string()};
  cp.capture_stdout = true;
  cp.capture_stderr = true;
  auto r = svc.run_command(cp);
  if (!r.success())
    throw Error(ErrorKind::io, "failed to copy the seed target directory " + req.seed_target_dir->string(),
                req.seed_target_dir->string(), trim(r.err),
                "check that seed_target_dir exists and is readable and that the worktree has room, or leave "
                "seed_target_dir unset (the first commit then builds from scratch)");
  const auto clamp = std::filesystem::file_time_type::clock::from_sys(
      std::chrono::time_point_cast<std::chrono::system_clock::duration>(worktree_created - std::chrono::seconds(1)));
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(project_dir / "target", ec);
       !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_symlink(ec) || !it->is_regular_file(ec)) continue;
    if (std::filesystem::last_write_time(it->path(), ec) > clamp && !ec)
      std::filesystem::last_write_time(it->path(), clamp, ec);
  }
  if (ec)
    throw Error(ErrorKind::io, "failed to prepare the seeded target directory " + (project_dir / "target").string(),
                (project_dir / "target").string(), ec.message(),
                "check the seed's permissions, or leave seed_target_dir unset (the first commit then builds from "
                "scratch)");
}

// The skip pre-check: the commits that already have a clean result in this partition.
std::set<std::string> recorded_commits(const BackfillRequest& req, const std::filesystem::path& project_dir,
                                       storage::ObjectStore& store, const BackfillServices& svc,
                                       const std::function<void(std::string_view)>& announce) {
  std::set<std::string> recorded;
  std::function<std::optional<probe::CxxTarget>()> cxx;
  if (svc.probe_cxx_target) cxx = [&] { return svc.probe_cxx_target(project_dir); };
  const RunTriple tc = resolve_run_triple(
      req.target_triple, req.bench_command.has_value(), [&] { return svc.probe_toolchain(project_dir); }, cxx);
  const auto mk = svc.machine_key();
  announce("scanning for already-backfilled commits: target-triple=" + tc.triple + " (" +
           (tc.source == TripleSource::toolchain_host ? std::string("toolchain host of the newest checkout in the range")
                                                      : tc.describe()) +
           "); machine-key=" + mk + " (auto-detected)");
  const auto triple_seg = codec::sanitize_segment(tc.triple);
  const auto mk_seg = codec::sanitize_segment(mk);
  const auto project_seg = codec::sanitize_segment(req.project);
  for (Engine engine : engines::harvest_order) {
    const auto pp = codec::partition_prefix(req.project, DiscriminantSet{engine, triple_seg, mk_seg});
    const auto keys = store.list(pp);
    std::size_t clean = 0, added = 0;
    for (const auto& k : keys) {
      auto dk = codec::parse_data_key(k);
      if (!dk || dk->kind != codec::ObjectKind::clean || dk->engine != engine || dk->project != project_seg ||
          dk->target_triple != triple_seg || dk->machine_key != mk_seg)
        continue;
      ++clean;
      if (recorded.insert(dk->commit).second) ++added;
    }
    if (svc.note)
      svc.note("listed " + pp + ": " + std::to_string(keys.size()) + " objects, " + std::to_string(clean) +
               " of them clean results, adding " + std::to_string(added) +
               " commit(s) not already contributed by another engine");
  }
  if (svc.note) svc.note(plural(recorded.size(), "commit") + " recorded in this partition in total");
  return recorded;
}

// Replay step 1: check out `id` and clean the worktree (`clean -fd`, no -x, keeps the ignored
// target/ for incremental builds). False when git failed because of a pending interrupt.
bool reset_worktree(const BackfillServices& svc, const std::filesystem::path& wt, const std::string& id,
                    const std::function<int()>& interrupted) {
  const std::string fail = "failed to reset the git worktree at " + wt.string() + " to commit " + id;
  const std::string hint = "retry the backfill: it makes a fresh worktree and skips the commits stored so far";
  for (std::vector<std::string> args : {std::vector<std::string>{"checkout", "--detach", "--force", id},
                                        std::vector<std::string>{"reset", "--hard"},
                                        std::vector<std::string>{"clean", "-fd"}}) {
    probe::ProcessResult r;
    try {
      r = git(svc, wt, std::move(args));
    } catch (const Error& e) {
      throw Error(ErrorKind::git, fail, wt.string(), e.message(), hint);
    }
    if (!r.success()) {
      if (interrupted()) return false;
      throw Error(ErrorKind::git, fail, wt.string(), git_cause(r), hint);
    }
  }
  return true;
}

// Replay steps 3–4 for one attempted commit: its outcome is recorded in `result`; the error of
// a failed benchmark is returned. Nullopt with `*interrupted_attempt` set when a pending
// interrupt explains the failure (the attempt measured nothing).
std::optional<Error> replay_commit(const BackfillRequest& req, const std::string& id,
                                   const std::filesystem::path& project_dir, const probe::Environment& commit_env,
                                   storage::ObjectStore& per_commit_store, const BackfillServices& svc,
                                   const std::function<void(std::string_view)>& announce, InterruptGuard* guard,
                                   const std::function<int()>& interrupted, BackfillResult& result,
                                   bool* interrupted_attempt) {
  std::error_code ec;
  const auto st = std::filesystem::status(project_dir, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    throw Error(ErrorKind::io, "failed to inspect historical project directory " + project_dir.string(),
                project_dir.string(), ec.message(), "check the permissions of the worktree's directories and retry");
  if (!std::filesystem::is_directory(st))
    // Wording: docs/backfill.md (recommended default).
    return Error(ErrorKind::not_found, "project directory " + project_dir.string() + " does not exist at this commit",
                 project_dir.string());
  CollectRequest creq;
  creq.repo_dir = project_dir;
  creq.project = req.project;
  creq.scope = req.scope;
  creq.bench_command = req.bench_command;
  creq.target_triple = req.target_triple;
  creq.best_of = req.best_of;
  creq.policy = req.overwrite ? storage::CollisionPolicy::overwrite : storage::CollisionPolicy::refuse;
  creq.store = true;
  creq.strip_toolchain_overrides = true;
  creq.output_log = req.output_log;
  // A first interrupt lets this commit finish; a second terminates its benchmark command.
  creq.handle_interrupts = false;
  creq.interrupt_guard = guard;
  creq.first_interrupt = FirstInterrupt::finish;
  auto cs = svc.collect_services(project_dir, commit_env);
  cs.announce = announce;
  cs.note = svc.note;
  cs.failed_output = svc.failed_output;
  try {
    const auto out = svc.collect(creq, commit_env, &per_commit_store, cs);
    std::size_t cases = 0;
    for (const auto& o : out.objects) cases += o.cases;
    if (out.objects.empty()) {
      result.outcomes.push_back({id, BackfillOutcomeKind::skipped_empty, false, 0, {}});
      ++result.skipped_empty;
    } else {
      result.outcomes.push_back({id, BackfillOutcomeKind::stored, false, cases, {}});
      ++result.stored;
    }
  } catch (const Error& e) {
    if (interrupted()) {
      *interrupted_attempt = true;
      return std::nullopt;
    }
    if (is_duplicate_result_error(e)) {
      result.outcomes.push_back({id, BackfillOutcomeKind::skipped_existing, false, 0, {}});
      ++result.skipped_existing;
    } else if (backfill_failure_reason(e)) {
      return e;
    } else {
      throw;
    }
  }
  return std::nullopt;
}

}  // namespace

// ---------------------------------------------------------------------------------------------

BackfillResult backfill(const BackfillRequest& req, const probe::Environment& env, storage::ObjectStore& store,
                        const BackfillServices& svc) {
  if (req.best_of < 1) throw Error(ErrorKind::usage, "--best-of must be at least 1");
  if (req.max_commits && *req.max_commits < 1) throw Error(ErrorKind::usage, "--max-commits must be at least 1");
  const auto& base = req.base_dir;
  // collect calls announce unconditionally; an embedder may leave ours empty.
  const std::function<void(std::string_view)> announce =
      svc.announce ? svc.announce : std::function<void(std::string_view)>([](std::string_view) {});

  // docs/backfill.md#the-run-step-by-step step 3: the project prefix.
  std::filesystem::path prefix;
  {
    const std::string fail = "failed to resolve the selected project directory in " + base.string();
    probe::ProcessResult r;
    try {
      r = git(svc, base, {"rev-parse", "--show-prefix"});
    } catch (const Error& e) {
      throw Error(ErrorKind::git, fail, base.string(), e.message(), "check that git is installed and on PATH");
    }
    if (!r.success())
      throw Error(ErrorKind::git, fail, base.string(), git_cause(r), "point --repo at a directory inside a git repository");
    prefix = parse_project_prefix(r.out);
  }

  // docs/backfill.md#the-run-step-by-step step 4: the range (newest first).
  const auto range = plan_range(base, req.from, req.to, svc);

  BackfillResult result;
  for (const auto& e : range) result.range.push_back(e.id);

  // Installed before the worktree exists, so no signal can slip between creation and the
  // teardown below.
  std::optional<InterruptGuard> guard;
  if (req.handle_interrupts) guard.emplace();
  const std::function<int()> interrupted = [&] { return guard ? guard->pending() : 0; };
  // The one interrupt check: true (and the result marked) when a signal is pending.
  auto stop_if_interrupted = [&] {
    const int sig = interrupted();
    if (sig) {
      result.stop = BackfillStop::interrupted;
      result.interrupted_by = sig;
    }
    return sig != 0;
  };

  // docs/backfill.md#the-run-step-by-step steps 5–6.
  const auto wt = worktree_path(svc);
  const Timestamp worktree_created = svc.clock();
  add_worktree(svc, base, wt, range[0].id);
  if (svc.note) svc.note("created the worktree " + wt.string() + " at " + range[0].id);

  const auto project_dir = prefix.empty() ? wt : wt / prefix;
  auto teardown = [&]() -> std::optional<probe::ProcessResult> {
    try {
      return git(svc, base, {"worktree", "remove", "--force", wt.string()});
    } catch (const Error&) {
      return std::nullopt;
    }
  };

  try {
    if (req.seed_target_dir) seed_target_directory(req, project_dir, worktree_created, svc);

    // docs/backfill.md#the-run-step-by-step skip pre-check.
    const std::set<std::string> recorded =
        req.overwrite ? std::set<std::string>{} : recorded_commits(req, project_dir, store, svc, announce);

    // docs/backfill.md#the-run-step-by-step classification and the scan-outcome line.
    std::vector<const RangeEntry*> pending;
    for (const auto& e : range) {
      if (!req.overwrite && recorded.count(codec::sanitize_segment(e.id))) {
        result.outcomes.push_back({e.id, BackfillOutcomeKind::skipped_existing, true, 0, {}});
        ++result.skipped_existing;
        if (svc.note) svc.note("skipping " + short_id(e.id) + ": a clean result for it is already stored in this partition");
      } else {
        pending.push_back(&e);
      }
    }
    std::string line = "backfilling " + plural(range.size(), "commit") + ", newest first: ";
    if (req.overwrite)
      line += "--overwrite disables the skip pre-check, so every commit is eligible for re-measurement and replacement";
    else
      line += std::to_string(result.skipped_existing) +
              " already recorded in this partition and skipped without benchmarking (pass --overwrite to re-measure "
              "them), " +
              std::to_string(pending.size()) + " pending";
    const std::size_t planned =
        req.max_commits ? std::min<std::size_t>(pending.size(), *req.max_commits) : pending.size();
    if (req.max_commits)  // the spec's wording, "at most 0" included (formats.md, backfill scenarios)
      line += "; --max-commits " + std::to_string(*req.max_commits) + " allows at most " +
              plural(planned, "replay attempt") + " this invocation";
    announce(line);

    // docs/backfill.md#the-run-step-by-step the replay loop.
    DeferredFlushStore per_commit_store(store);
    OverlayEnvironment commit_env(env, {{"CARGO_TARGET_DIR", (project_dir / "target").string()}});
    std::size_t attempts_left = req.max_commits ? *req.max_commits : std::numeric_limits<std::size_t>::max();
    result.deferred = pending.size();
    const auto loop_start = svc.clock();
    std::size_t attempted = 0;
    auto seconds_since = [&](Timestamp t) { return std::chrono::duration<double>(svc.clock() - t).count(); };

    for (const RangeEntry* entry : pending) {
      if (attempts_left == 0 || stop_if_interrupted()) break;
      const auto& id = entry->id;
      if (svc.progress) {
        BackfillProgress p;
        p.index = attempted + 1;
        p.total = planned;
        p.commit = id;
        p.short_id = short_id(id);
        p.title = entry->subject;
        p.elapsed_seconds = seconds_since(loop_start);
        if (attempted > 0)
          p.remaining_seconds = p.elapsed_seconds / static_cast<double>(attempted) *
                                static_cast<double>(planned - attempted);
        svc.progress(p);
      }

      // Step 1: reset.
      if (!reset_worktree(svc, wt, id, interrupted)) {
        stop_if_interrupted();
        break;
      }
      // Step 2: the commit now counts as attempted.
      --result.deferred;
      --attempts_left;
      ++attempted;

      // Steps 3–4: the project at this commit, through the collect pipeline.
      bool interrupted_attempt = false;
      const std::optional<Error> failure = replay_commit(req, id, project_dir, commit_env, per_commit_store, svc,
                                                         announce, guard ? &*guard : nullptr, interrupted, result,
                                                         &interrupted_attempt);
      if (interrupted_attempt) {
        ++result.deferred;  // it measured nothing: deferred to the next run
        stop_if_interrupted();
        break;
      }
      if (failure) {
        result.outcomes.push_back({id, BackfillOutcomeKind::failed, false, 0, failure->message()});
        ++result.failed;
        if (!req.ignore_errors) {
          result.stop = BackfillStop::benchmark_failure;
          result.stopped_at = id;
          result.stop_cause = *failure;
          break;
        }
      }
      if (stop_if_interrupted()) break;
    }
    store.flush();
  } catch (const Error& e) {
    try {
      store.flush();
    } catch (...) {
    }
    // A terminal Ctrl-C also kills our helper children (git, cp), whose failure then surfaces
    // here: report the interruption rather than a spurious infrastructure error.
    if (!stop_if_interrupted()) {
      teardown();  // the loop's error wins over a teardown failure (docs/backfill.md#the-run-step-by-step)
      if (result.stored == 0) throw;
      // A store that went away mid-run: what is already stored stays, and a rerun resumes there.
      constexpr std::size_t shown_ids = 5;
      std::vector<std::string> ids;
      for (const auto& o : result.outcomes)
        if (o.kind == BackfillOutcomeKind::stored && ids.size() < shown_ids) ids.push_back(short_id(o.commit));
      if (result.stored > shown_ids) ids.push_back(std::to_string(result.stored - shown_ids) + " more");
      const std::string kept = (result.stored == 1 ? std::string("the commit") : "the " + plural(result.stored, "commit")) +
                               " stored before this failure (" + joined(ids, "and") + ") " +
                               (result.stored == 1 ? "is" : "are") + " kept";
      // --overwrite turns the skip pre-check off: the same command would measure them again.
      throw Error(e.kind(), e.message(), e.subject(), e.cause(),
                  (e.hint().empty() ? std::string() : e.hint() + "; then ") +
                      (req.overwrite ? "run the backfill again without --overwrite to resume: " + kept + " and skipped"
                                     : "run the same backfill again: " + kept + " and skipped"));
    }
  } catch (const std::exception& e) {
    try {
      store.flush();
    } catch (...) {
    }
    teardown();
    throw Error(ErrorKind::internal, "backfill failed unexpectedly", wt.string(), e.what());
  }

  // Every range commit not accounted for was never (fully) attempted: S+E+M+F+D = N
  // (docs/backfill.md#the-run-step-by-step).
  result.deferred = result.range.size() -
                    (result.stored + result.skipped_existing + result.skipped_empty + result.failed);
  if (result.stop == BackfillStop::range_exhausted && result.deferred > 0) result.stop = BackfillStop::commit_limit;

  const auto removed = teardown();
  if (!removed || !removed->success())
    throw Error(ErrorKind::git, "failed to remove the git worktree at " + wt.string(), wt.string(),
                removed ? git_cause(*removed) : "git could not be run",
                "remove it with `git worktree remove --force " + wt.string() + "`");
  if (svc.note) svc.note("removed the worktree " + wt.string());

  // A signal that arrived during teardown still ends the run as interrupted.
  if (result.stop != BackfillStop::interrupted && result.deferred > 0) stop_if_interrupted();

  result.summary = build_summary(result);
  switch (result.stop) {
    case BackfillStop::benchmark_failure: result.exit_status = 1; break;
    case BackfillStop::interrupted: result.exit_status = 128 + result.interrupted_by; break;
    default: result.exit_status = 0;
  }
  return result;
}

}  // namespace benchhist::collect
