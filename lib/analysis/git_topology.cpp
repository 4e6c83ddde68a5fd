// libgit2 implementation of GitTopology. libgit2 first-parent walks and merge bases match
// `git merge-base` (ENVIRONMENT.md); the queries mirror docs/formats.md#git-facts.
#include "benchhist/analysis/git_topology.hpp"

#include <chrono>
#include <string>

#include "benchhist/error.hpp"
#include "git/error.hpp"
#include "git/repository.hpp"
#include "git/versions.hpp"

namespace benchhist::analysis {
namespace {

// `spec` names an object, only not a commit (a blob or tree id, a tag of one): "could not
// resolve … fetch it first" would send the user looking for an object that is there.
[[noreturn]] void not_a_commit(const std::string& spec, const git_object* obj) {
  std::string what = git_object_type2string(git_object_type(obj));
  git::ObjectPtr target;
  if (git_object_type(obj) == GIT_OBJECT_TAG && git_object_peel(git::out(target), obj, GIT_OBJECT_ANY) == 0)
    what = std::string("tag of a ") + git_object_type2string(git_object_type(target.get()));
  throw Error(ErrorKind::git, "\"" + spec + "\" is a " + what + ", not a commit", spec, {},
              "pass a commit id, tag or branch: a blob or tree id names the content of a file or directory, not a "
              "commit");
}

class LibgitTopology final : public GitTopology {
 public:
  explicit LibgitTopology(const std::filesystem::path& path)
      : repository_(git::Repository::open(path)),
        repo_(repository_.get()) {}

  std::optional<std::string> resolve(std::string_view ref) const override {
    // libgit2 reads a C string: a NUL byte (possible in a configured default_branch) would
    // silently resolve the prefix before it (found by fuzz_git_ref).
    if (ref.empty() || ref.find('\0') != std::string_view::npos) return std::nullopt;
    const std::string spec(ref);
    git::ObjectPtr obj;
    if (git_revparse_single(git::out(obj), repo_, spec.c_str()) != 0) return std::nullopt;
    git::ObjectPtr peeled;
    if (git_object_peel(git::out(peeled), obj.get(), GIT_OBJECT_COMMIT) != 0) not_a_commit(spec, obj.get());
    return git::oid_hex(*git_object_id(peeled.get()));
  }

  std::optional<std::string> default_branch() const override {
    git::ReferencePtr ref;
    if (git_reference_lookup(git::out(ref), repo_, "refs/remotes/origin/HEAD") == 0 &&
        git_reference_type(ref.get()) == GIT_REFERENCE_SYMBOLIC) {
      std::string_view target = git_reference_symbolic_target(ref.get());
      constexpr std::string_view prefix = "refs/remotes/origin/";
      if (target.starts_with(prefix)) target.remove_prefix(prefix.size());
      if (!target.empty()) return std::string(target);
    }
    for (const char* name : {"main", "master"})
      if (resolve(name)) return std::string(name);
    return std::nullopt;
  }

  std::optional<std::string> merge_base(std::string_view a, std::string_view b) const override {
    git_oid oa, ob, out;
    if (!git::parse_oid(a, oa) || !git::parse_oid(b, ob)) return std::nullopt;
    const int rc = git_merge_base(&out, repo_, &oa, &ob);
    if (rc == 0) return git::oid_hex(out);
    if (rc == GIT_ENOTFOUND || is_shallow()) return std::nullopt;  // shallow: parents missing
    throw git::failure("failed to compute the merge base of " + std::string(a) + " and " + std::string(b),
                       std::string(a), git::unreadable_hint);
  }

  bool is_ancestor(std::string_view ancestor, std::string_view descendant) const override {
    git_oid oa, od;
    if (!git::parse_oid(ancestor, oa) || !git::parse_oid(descendant, od)) return false;
    if (git_oid_equal(&oa, &od)) return true;
    const int rc = git_graph_descendant_of(repo_, &od, &oa);
    if (rc >= 0) return rc == 1;
    if (is_shallow()) return false;
    throw git::failure("failed to check whether " + std::string(ancestor) + " is an ancestor of " +
                           std::string(descendant),
                       std::string(descendant), git::unreadable_hint);
  }

  std::vector<CommitInfo> first_parent_history(std::string_view commit) const override {
    git_oid oid;
    if (!git::parse_oid(commit, oid))
      throw Error(ErrorKind::git, "failed to walk the first-parent ancestry of " + std::string(commit),
                  std::string(commit), "not a commit id", "pass a full commit id, as resolve_ref returns it");
    std::vector<CommitInfo> newest_first;
    while (true) {
      git::CommitPtr c;
      if (git_commit_lookup(git::out(c), repo_, &oid) != 0) {
        // The boundary of a shallow clone: the parent is recorded but not present.
        if (!newest_first.empty() && is_shallow()) break;
        throw git::failure("failed to walk the first-parent ancestry of " + std::string(commit), std::string(commit),
                           git::unreadable_hint);
      }
      CommitInfo info;
      info.id = git::oid_hex(oid);
      info.committer_time = Timestamp(std::chrono::seconds(git_commit_time(c.get())));
      const char* summary = git_commit_summary(c.get());
      info.subject = summary ? summary : "";
      newest_first.push_back(std::move(info));
      if (git_commit_parentcount(c.get()) == 0) break;
      oid = *git_commit_parent_id(c.get(), 0);
    }
    return {newest_first.rbegin(), newest_first.rend()};
  }

  Timestamp committer_time(std::string_view ref) const override {
    const auto id = resolve(ref);
    git_oid oid;
    git::CommitPtr c;
    if (!id || !git::parse_oid(*id, oid) || git_commit_lookup(git::out(c), repo_, &oid) != 0)
      throw git::failure("failed to read the committer time of " + std::string(ref), std::string(ref),
                         "check that the ref exists or is fetched");
    return Timestamp(std::chrono::seconds(git_commit_time(c.get())));
  }

  bool working_tree_dirty() const override {
    git_status_options opts = git::status_options();
    opts.show = GIT_STATUS_SHOW_INDEX_AND_WORKDIR;
    opts.flags = GIT_STATUS_OPT_INCLUDE_UNTRACKED;  // untracked files count; ignored ones do not
    git::StatusListPtr list;
    if (git_status_list_new(git::out(list), repo_, &opts) != 0)
      throw git::failure("failed to check whether the working tree is dirty",
                         git_repository_workdir(repo_) ? git_repository_workdir(repo_) : "",
                         "check that the working tree and its index are readable");
    return git_status_list_entrycount(list.get()) > 0;
  }

  bool is_shallow() const override { return git_repository_is_shallow(repo_) == 1; }

 private:
  git::Repository repository_;
  git_repository* repo_;  // repository_'s handle, for brevity
};

}  // namespace

std::unique_ptr<GitTopology> open_git_topology(const std::filesystem::path& path) {
  return std::make_unique<LibgitTopology>(path);
}

std::string resolve_context(const GitTopology& git, std::string_view ref) {
  if (auto id = git.resolve(ref)) return *id;
  // HEAD always names something once a commit exists: here the branch is unborn, and the
  // default context (no --context given) must not send the user looking for an option.
  if (ref == "HEAD")
    throw Error(ErrorKind::git,
                "could not resolve \"HEAD\" while resolving the analysis context: the repository has no commits yet",
                std::string(ref), {},
                "commit first (results are recorded and analysed per commit), or pass --context <REF> naming one");
  throw Error(ErrorKind::git,
              "could not resolve \"" + std::string(ref) +
                  "\" while resolving the analysis context. Check that the --context ref exists or is fetched.",
              std::string(ref), {}, "name a branch, tag or commit of this repository, or fetch it first");
}

ResolvedBase resolve_base(const GitTopology& git, const std::optional<std::string>& explicit_base,
                          const std::optional<std::string>& configured_default_branch,
                          std::string_view context_ref) {
  if (explicit_base) {
    if (auto id = git.resolve(*explicit_base)) return {*explicit_base, *id, ResolvedBase::Origin::explicit_option, std::nullopt};
    throw Error(ErrorKind::git,
                "could not resolve \"" + *explicit_base +
                    "\" while resolving the comparison base. Check that the --base ref exists or is fetched.",
                *explicit_base, {},
                "name a branch, tag or commit of this repository (origin/main for a remote-tracking branch), or fetch "
                "it first");
  }
  if (configured_default_branch)
    if (auto id = git.resolve(*configured_default_branch))
      return {*configured_default_branch, *id, ResolvedBase::Origin::configured, std::nullopt};
  if (auto name = git.default_branch())
    if (auto id = git.resolve(*name)) return {*name, *id, ResolvedBase::Origin::detected, configured_default_branch};
  throw Error(ErrorKind::git,
              "could not determine the base branch to compare " + std::string(context_ref) +
                  " against: no --base was given, project.default_branch is unset or does not resolve, and the "
                  "repository has no resolvable default branch (origin/HEAD, main or master)",
              std::string(context_ref), {},
              "pass --base <ref>, set project.default_branch in the configuration file, or fetch the base "
              "branch's history");
}

std::string require_merge_base(const GitTopology& git, std::string_view context_commit,
                               std::string_view base_commit, std::string_view context_ref,
                               std::string_view base_name) {
  if (auto mb = git.merge_base(context_commit, base_commit)) return *mb;
  const bool shallow = git.is_shallow();
  throw Error(ErrorKind::git,
              "could not find a merge base between \"" + std::string(context_ref) + "\" and the base \"" +
                  std::string(base_name) + "\"",
              std::string(context_ref),
              shallow ? "this repository is a shallow clone, so the history they share is not available locally"
                      : "they share no history in this repository (a shallow clone is the usual cause)",
              "fetch full history (git fetch --unshallow, or fetch-depth: 0 with actions/checkout), or pass an "
              "explicit --base that shares history with the context");
}

}  // namespace benchhist::analysis
