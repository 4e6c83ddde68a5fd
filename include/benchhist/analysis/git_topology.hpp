#pragma once
// Git topology as the analysis family needs it (docs/formats.md#git-facts table "Topology queries";
// docs/pipeline.md#selection). An interface so selection can be tested on a fake graph; the real
// implementation uses libgit2, which stays out of this header.
//
// Query conventions: "absent" answers (an unresolvable ref, no merge base) are nullopt, not
// errors; only failures to read the repository at all (and a ref naming a non-commit, see resolve)
// throw Error{git} (every member below).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/analysis/filters.hpp"
#include "benchhist/model/timestamp.hpp"

namespace benchhist::analysis {

struct CommitInfo {
  std::string id;                           // full hex id
  std::optional<Timestamp> committer_time;  // unknown → never excluded by --since
  std::string subject;                      // first line of the message
  friend bool operator==(const CommitInfo&, const CommitInfo&) = default;
};

class GitTopology {
 public:
  virtual ~GitTopology() = default;

  // `<ref>^{commit}` → full commit id, or nullopt when it does not resolve. A ref naming an
  // object that is no commit (a blob or tree id) is not absent but wrong: Error{git}
  // `"<ref>" is a blob, not a commit` (subject = ref).
  virtual std::optional<std::string> resolve(std::string_view ref) const = 0;
  // docs/formats.md#git-facts: the target of refs/remotes/origin/HEAD with `refs/remotes/origin/`
  // stripped; else the first of `main`, `master` that resolves; else nullopt.
  virtual std::optional<std::string> default_branch() const = 0;
  // The best common ancestor of two commits, or nullopt (unrelated, or cut off by a
  // shallow clone).
  virtual std::optional<std::string> merge_base(std::string_view a, std::string_view b) const = 0;
  // True when `ancestor` is `descendant` or one of its ancestors.
  virtual bool is_ancestor(std::string_view ancestor, std::string_view descendant) const = 0;
  // The first-parent ancestry of `commit`, oldest first, `commit` itself last. A shallow
  // clone's history simply ends at its boundary.
  virtual std::vector<CommitInfo> first_parent_history(std::string_view commit) const = 0;
  // Committer time of one commit (`git log -1 --format=%cI <ref>`).
  // Throws Error{git} `failed to read the committer time of <ref>` (subject = ref) when the ref
  // does not name a commit.
  virtual Timestamp committer_time(std::string_view ref) const = 0;
  // `git status --porcelain` non-empty (untracked files count, ignored files do not).
  virtual bool working_tree_dirty() const = 0;
  virtual bool is_shallow() const = 0;
};

// Opens the repository containing `path` (searching upward like `git -C <path>`), via
// libgit2. Not thread-safe: use one instance per thread.
// Throws Error{git} (subject = path) when there is no repository there.
std::unique_ptr<GitTopology> open_git_topology(const std::filesystem::path& path);

// ---- Ref resolution with the exact user-facing errors (docs/formats.md#option-groups,
// #error-messages, docs/cli.md#commands) ----

// Resolves --context (default `HEAD`).
// Throws Error{git} `could not resolve "<ref>" while resolving the analysis context. Check that
// the --context ref exists or is fetched.`
std::string resolve_context(const GitTopology& git, std::string_view ref);

struct ResolvedBase {
  enum class Origin { explicit_option, configured, detected };
  std::string name;    // the ref as given / configured / detected (e.g. `main`)
  std::string commit;  // its commit id
  Origin origin = Origin::detected;
  // project.default_branch when it was configured but did not resolve (the base was detected).
  std::optional<std::string> unresolved_default_branch;
  // The announcement's `(auto-detected)` marker: only git's own default-branch detection.
  bool auto_detected() const noexcept { return origin == Origin::detected; }
  // The announcement's base segment.
  AnnouncedBase announced() const { return AnnouncedBase{name, auto_detected(), unresolved_default_branch}; }
};

// Base resolution order of docs/formats.md#option-groups: explicit --base (must resolve); else the
// configured default branch if it resolves; else git's default branch (docs/formats.md#git-facts)
// if it resolves.
// Throws Error{git} `could not resolve "<ref>" while resolving the comparison base. Check that the
// --base ref exists or is fetched.` for an explicit base that does not resolve, and `could not
// determine the base branch to compare <context_ref> against: …` when nothing resolves.
ResolvedBase resolve_base(const GitTopology& git, const std::optional<std::string>& explicit_base,
                          const std::optional<std::string>& configured_default_branch,
                          std::string_view context_ref);

// merge_base(context, base). Never a silent fallback.
// Throws Error{git} `could not find a merge base between "<context>" and the base "<base>"`
// (docs/pipeline.md#selection step 4, docs/cli.md#commands), which explains shallow clones and how
// to fix them.
std::string require_merge_base(const GitTopology& git, std::string_view context_commit,
                               std::string_view base_commit, std::string_view context_ref,
                               std::string_view base_name);

}  // namespace benchhist::analysis
