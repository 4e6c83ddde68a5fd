// Affected-package selection for pull requests (docs/github.md "Affected packages").

#include "benchhist/automation/affected_packages.hpp"

#include "benchhist/model/text.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <set>

namespace benchhist::automation {
namespace {

namespace fs = std::filesystem;

// `dir` relative to `root` with '/' separators ("" for the root itself); nullopt outside it.
std::optional<std::string> relative_dir(const fs::path& dir, const fs::path& root) {
  auto rel = dir.lexically_relative(root);
  if (rel.empty()) return std::nullopt;
  auto s = rel.generic_string();
  if (s == ".") return std::string();
  if (s == ".." || s.rfind("../", 0) == 0) return std::nullopt;
  return s;
}

bool under(const std::string& path, const std::string& dir) {
  return dir.empty() || (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/');
}

// `commit` alone when `ref` already is (a prefix of) its id, as the workflow's head sha is.
std::string named_commit(const std::string& ref, const std::string& commit) {
  const bool is_id = !ref.empty() && commit.starts_with(ref) &&
                     ref.find_first_not_of("0123456789abcdef") == std::string::npos;
  return is_id ? short_id(commit) : ref + " (" + short_id(commit) + ")";
}

// `nothing_changed` explains an empty change list: with no changed file, "no changed file is
// inside a workspace package" would point at the wrong cause.
AffectedSelection select(const CargoWorkspace& ws, const fs::path& repo_workdir,
                         const std::vector<std::string>& changed_paths, const std::vector<std::string>& excludes,
                         const std::string& nothing_changed) {
  AffectedSelection sel;
  std::error_code ec;
  fs::path workdir = fs::weakly_canonical(repo_workdir, ec);  // cargo reports canonical paths
  workdir = (ec ? repo_workdir : workdir).lexically_normal();
  if (!workdir.empty() && workdir.filename().empty()) workdir = workdir.parent_path();  // drop a trailing '/'
  const auto ws_dir = relative_dir(ws.root, workdir).value_or(std::string());

  // Workspace-wide inputs: the workspace manifest and lock file, and Cargo configuration or
  // toolchain pins in the workspace root or any directory above it (both tools search upward).
  std::set<std::string> wide;
  wide.insert((ws_dir.empty() ? "" : ws_dir + "/") + "Cargo.toml");
  wide.insert((ws_dir.empty() ? "" : ws_dir + "/") + "Cargo.lock");
  for (std::string d = ws_dir;;) {
    const std::string prefix = d.empty() ? "" : d + "/";
    for (const char* f : {".cargo/config.toml", ".cargo/config", "rust-toolchain", "rust-toolchain.toml"})
      wide.insert(prefix + f);
    if (d.empty()) break;
    auto slash = d.rfind('/');
    d = slash == std::string::npos ? std::string() : d.substr(0, slash);
  }

  // Each member's directory, relative to the repository.
  std::vector<std::pair<std::string, const WorkspacePackage*>> dirs;
  for (const auto& m : ws.members)
    if (auto rel = relative_dir(m.manifest_dir, workdir)) dirs.emplace_back(*rel, &m);
  // Longest directory first: a file belongs to the innermost package containing it.
  std::sort(dirs.begin(), dirs.end(), [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });

  std::set<std::string> changed;
  for (const auto& path : changed_paths) {
    if (wide.count(path)) {
      if (!sel.workspace_wide) sel.workspace_wide_input = path;
      sel.workspace_wide = true;
      continue;
    }
    for (const auto& [dir, pkg] : dirs)
      if (under(path, dir)) {
        changed.insert(pkg->name);
        break;
      }
  }
  sel.changed_packages.assign(changed.begin(), changed.end());

  std::set<std::string> affected;
  if (sel.workspace_wide) {
    for (const auto& m : ws.members) affected.insert(m.name);
  } else {
    std::map<std::string, std::vector<std::string>> dependents;
    for (const auto& m : ws.members)
      for (const auto& d : m.dependencies) dependents[d].push_back(m.name);
    std::deque<std::string> queue(changed.begin(), changed.end());
    affected = changed;
    while (!queue.empty()) {
      auto name = queue.front();
      queue.pop_front();
      for (const auto& dep : dependents[name])
        if (affected.insert(dep).second) queue.push_back(dep);
    }
  }
  const std::set<std::string> excluded(excludes.begin(), excludes.end());
  std::vector<std::string> named;  // the excludes that name a package; a typo is the caller's warning
  for (const auto& e : excludes) {
    if (std::any_of(ws.members.begin(), ws.members.end(), [&](const auto& m) { return m.name == e; }))
      named.push_back(e);
    else
      sel.unknown_excludes.push_back(e);
  }
  std::vector<std::string> without_benchmarks, excluded_with_benchmarks;
  for (const auto& m : ws.members) {
    if (affected.count(m.name) && excluded.count(m.name) && m.has_benchmarks) excluded_with_benchmarks.push_back(m.name);
    if (!affected.count(m.name) || excluded.count(m.name)) continue;
    if (m.has_benchmarks) sel.packages.push_back(m.name);
    else without_benchmarks.push_back(m.name);
  }

  if (sel.workspace_wide)
    sel.explanation = sel.workspace_wide_input + " changed, which affects the whole workspace: " +
                      (sel.packages.empty() ? std::string("but no package has benchmarks")
                                            : "benchmarking " + joined(sel.packages));
  else if (sel.packages.empty())
    sel.explanation = changed_paths.empty() ? nothing_changed + ", so nothing is benchmarked"
                      : changed.empty()       ? "no changed file is inside a workspace package, so nothing is benchmarked"
                      : !excluded_with_benchmarks.empty()
                          ? "the changed packages (" + joined(sel.changed_packages) +
                                ") and their dependents with benchmarks are all excluded (" +
                                joined(excluded_with_benchmarks) + "), so nothing is benchmarked"
                          : "the changed packages (" + joined(sel.changed_packages) +
                                ") and their dependents have no benchmarks, so nothing is benchmarked";
  else
    sel.explanation = "changed: " + joined(sel.changed_packages) + "; benchmarking " + joined(sel.packages) +
                      " (the changed packages with benchmarks and every workspace package depending on them)";
  if (!named.empty() && !sel.packages.empty()) sel.explanation += "; excluded: " + joined(named);
  return sel;
}

std::string nothing_changed(const ChangedFiles& changes) {
  return "no file changed between the merge base " + short_id(changes.merge_base) + " and " +
         named_commit(changes.head_ref, changes.head) +
         (changes.merge_base == changes.head ? ": " + changes.base_ref + " already contains it" : "");
}

}  // namespace

AffectedSelection select_affected_packages(const CargoWorkspace& ws, const ChangedFiles& changes,
                                           const std::vector<std::string>& excludes) {
  return select(ws, changes.workdir, changes.paths, excludes, nothing_changed(changes));
}

AffectedSelection select_whole_project(const ChangedFiles& changes, const std::filesystem::path& config_file) {
  AffectedSelection sel;
  if (changes.paths.empty()) {
    sel.explanation = nothing_changed(changes) + ", so nothing is benchmarked";
    return sel;
  }
  sel.whole_project = true;
  sel.workspace_wide = true;
  sel.workspace_wide_input = changes.paths.front();
  const std::size_t n = changes.paths.size();
  sel.explanation = std::to_string(n) + (n == 1 ? " file" : " files") + " changed since the merge base " +
                    short_id(changes.merge_base) + " (" + changes.paths.front() + (n > 1 ? ", …" : "") +
                    "); the project is measured by its benchmark command ([collect] bench_command in " +
                    config_file.string() + "), which covers all of it, so all of it is benchmarked";
  return sel;
}

AffectedSelection select_affected_packages(const CargoWorkspace& ws, const fs::path& repo_workdir,
                                           const std::vector<std::string>& changed_paths,
                                           const std::vector<std::string>& excludes) {
  return select(ws, repo_workdir, changed_paths, excludes, "no file changed between the merge base and the head");
}

}  // namespace benchhist::automation
