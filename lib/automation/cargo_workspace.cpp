// `cargo metadata --no-deps` → the workspace members, their benchmark targets and their
// dependencies on each other (docs/github.md "Affected packages").

#include "benchhist/automation/cargo_workspace.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "benchhist/error.hpp"

namespace benchhist::automation {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void bad(const std::string& origin, const std::string& what) {
  throw Error(ErrorKind::decode, "could not read the cargo metadata from " + origin, origin, what,
              "run `cargo metadata --format-version 1 --no-deps` in the project directory to see what cargo reports");
}

std::string str(const boost::json::object& o, const char* name) {
  auto* v = o.if_contains(name);
  return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

fs::path normal(const fs::path& p) {
  std::error_code ec;
  auto c = fs::weakly_canonical(p, ec);
  return (ec ? p : c).lexically_normal();
}

}  // namespace

CargoWorkspace parse_cargo_metadata(std::string_view json, const std::string& origin) {
  boost::system::error_code ec;
  auto doc = boost::json::parse(json, ec);
  if (ec) bad(origin, ec.message());
  if (!doc.is_object()) bad(origin, "the document is not a JSON object");
  const auto& o = doc.as_object();
  CargoWorkspace ws;
  const auto root = str(o, "workspace_root");
  if (root.empty()) bad(origin, "missing \"workspace_root\"");
  ws.root = normal(root);

  std::set<std::string> member_ids;
  if (auto* m = o.if_contains("workspace_members"); m && m->is_array())
    for (const auto& id : m->as_array())
      if (id.is_string()) member_ids.insert(std::string(id.as_string()));
  auto* packages = o.if_contains("packages");
  if (!packages || !packages->is_array()) bad(origin, "missing \"packages\" array");

  struct Raw {
    WorkspacePackage pkg;
    std::vector<std::pair<std::string, std::string>> deps;  // (name, path) of source-less dependencies
  };
  std::vector<Raw> raws;
  for (const auto& p : packages->as_array()) {
    if (!p.is_object()) bad(origin, "a package entry is not an object");
    const auto& po = p.as_object();
    if (!member_ids.empty() && !member_ids.count(str(po, "id"))) continue;  // not a member
    Raw raw;
    raw.pkg.name = str(po, "name");
    const auto manifest = str(po, "manifest_path");
    if (raw.pkg.name.empty() || manifest.empty()) bad(origin, "a package has no name or manifest_path");
    raw.pkg.manifest_dir = normal(fs::path(manifest).parent_path());
    if (auto* targets = po.if_contains("targets"); targets && targets->is_array())
      for (const auto& t : targets->as_array()) {
        if (!t.is_object()) continue;
        if (auto* kinds = t.as_object().if_contains("kind"); kinds && kinds->is_array())
          for (const auto& k : kinds->as_array())
            if (k.is_string() && k.as_string() == "bench") raw.pkg.has_benchmarks = true;
      }
    if (auto* deps = po.if_contains("dependencies"); deps && deps->is_array())
      for (const auto& d : deps->as_array()) {
        if (!d.is_object()) continue;
        const auto& dobj = d.as_object();
        // A registry or git dependency is never a workspace member.
        if (auto* src = dobj.if_contains("source"); src && src->is_string()) continue;
        raw.deps.emplace_back(str(dobj, "name"), str(dobj, "path"));
      }
    raws.push_back(std::move(raw));
  }

  std::map<std::string, std::string> by_dir;  // manifest dir → name
  std::set<std::string> names;
  for (const auto& r : raws) {
    by_dir[r.pkg.manifest_dir.string()] = r.pkg.name;
    names.insert(r.pkg.name);
  }
  for (auto& r : raws) {
    std::set<std::string> deps;
    for (const auto& [name, path] : r.deps) {
      if (!path.empty()) {
        if (auto it = by_dir.find(normal(path).string()); it != by_dir.end()) deps.insert(it->second);
      } else if (names.count(name)) {
        deps.insert(name);
      }
    }
    deps.erase(r.pkg.name);  // a package's dev-dependency on itself (features) is no edge
    r.pkg.dependencies.assign(deps.begin(), deps.end());
    ws.members.push_back(std::move(r.pkg));
  }
  std::sort(ws.members.begin(), ws.members.end(),
            [](const WorkspacePackage& a, const WorkspacePackage& b) { return a.name < b.name; });
  return ws;
}

CargoWorkspace read_cargo_workspace(const fs::path& project_dir, const std::string& cargo,
                                    const std::function<probe::ProcessResult(const probe::ProcessSpec&)>& run) {
  probe::ProcessSpec spec;
  spec.argv = {cargo, "metadata", "--format-version", "1", "--no-deps"};
  spec.cwd = project_dir;
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  const auto r = run(spec);
  if (!r.success()) {
    std::string detail = r.err;
    while (!detail.empty() && (detail.back() == '\n' || detail.back() == '\r')) detail.pop_back();
    throw Error(ErrorKind::toolchain, "`cargo metadata` failed in " + project_dir.string(), project_dir.string(),
                detail.empty() ? "exit code " + std::to_string(r.exit_code) : detail,
                "run the command in the directory holding the workspace's Cargo.toml (working-directory), with "
                "the toolchain the project needs");
  }
  return parse_cargo_metadata(r.out, "`cargo metadata` in " + project_dir.string());
}

}  // namespace benchhist::automation
