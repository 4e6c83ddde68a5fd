#include "benchhist/engines/output_locations.hpp"

#include <algorithm>
#include <system_error>

#include "common.hpp"

namespace benchhist::engines {
namespace fs = std::filesystem;
namespace {

// Entry kind without following symlinks (docs/formats.md#output-locations: symlinks are neither
// traversed nor accepted).
fs::file_type own_type(const fs::directory_entry& e, Engine engine) {
  std::error_code ec;
  const fs::file_status st = e.symlink_status(ec);
  if (ec) {
    if (ec == std::errc::no_such_file_or_directory) return fs::file_type::not_found;  // raced away
    detail::throw_harvest_error(engine, e.path(), ec.message());
  }
  return st.type();
}

// Lists the immediate entries of `dir`, sorted by path.
std::vector<fs::directory_entry> entries_of(const fs::path& dir, Engine engine) {
  std::vector<fs::directory_entry> out;
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec) detail::throw_harvest_error(engine, dir, "cannot read directory: " + ec.message());
  for (const fs::directory_iterator end; it != end; it.increment(ec)) out.push_back(*it);
  if (ec) detail::throw_harvest_error(engine, dir, "cannot read directory: " + ec.message());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
  return out;
}

bool regular_file_here(const fs::path& p, Engine engine) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(p, ec);
  if (ec && ec != std::errc::no_such_file_or_directory)
    detail::throw_harvest_error(engine, p, ec.message());
  return !ec && st.type() == fs::file_type::regular;
}

void walk_summaries(const fs::path& dir, std::vector<fs::path>& out) {
  for (const auto& e : entries_of(dir, Engine::callgrind)) {
    const fs::file_type t = own_type(e, Engine::callgrind);
    if (t == fs::file_type::directory)
      walk_summaries(e.path(), out);
    else if (t == fs::file_type::regular && e.path().filename() == "summary.json")
      out.push_back(e.path());
  }
}

void walk_criterion(const fs::path& dir, std::vector<CriterionCaseDir>& out) {
  for (const auto& e : entries_of(dir, Engine::criterion)) {
    if (own_type(e, Engine::criterion) != fs::file_type::directory) continue;
    if (e.path().filename() == "new") {
      CriterionCaseDir c;
      c.dir = e.path();
      c.has_benchmark = regular_file_here(c.dir / "benchmark.json", Engine::criterion);
      c.has_estimates = regular_file_here(c.dir / "estimates.json", Engine::criterion);
      if (c.has_benchmark || c.has_estimates) out.push_back(std::move(c));
    }
    // Keep descending, `new/` included: a benchmark may itself be named `new`
    // (`criterion/new/new/`).
    walk_criterion(e.path(), out);
  }
}

}  // namespace

bool is_real_directory(const fs::path& root) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(root, ec);
  return !ec && st.type() == fs::file_type::directory;
}

namespace {
// A root that does not exist means "no output"; one that cannot be inspected (permissions,
// I/O) must not be mistaken for that — it aborts like any other unreadable directory.
bool harvestable_root(const fs::path& root, Engine engine) {
  std::error_code ec;
  const fs::file_status st = fs::symlink_status(root, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    detail::throw_harvest_error(engine, root, "cannot inspect the output directory: " + ec.message());
  return !ec && st.type() == fs::file_type::directory;
}
}  // namespace

bool has_output_root(const fs::path& root, Engine engine) { return harvestable_root(root, engine); }

std::vector<fs::path> list_summary_files(const fs::path& root) {
  std::vector<fs::path> out;
  if (!harvestable_root(root, Engine::callgrind)) return out;
  walk_summaries(root, out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<CriterionCaseDir> list_criterion_case_dirs(const fs::path& root) {
  std::vector<CriterionCaseDir> out;
  if (!harvestable_root(root, Engine::criterion)) return out;
  walk_criterion(root, out);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.dir < b.dir; });
  return out;
}

namespace {
void walk_report_files(const fs::path& dir, std::vector<fs::path>& out) {
  for (const auto& e : entries_of(dir, Engine::google_benchmark)) {
    const fs::file_type t = own_type(e, Engine::google_benchmark);
    if (t == fs::file_type::directory)
      walk_report_files(e.path(), out);
    else if (t == fs::file_type::regular)
      out.push_back(e.path());
    else if (t == fs::file_type::symlink)
      // Never followed (it could lead anywhere, or in a circle), and never skipped in silence:
      // the benchmarks it points at would be missing from the run without a word.
      detail::throw_parse_error(e.path(), "it is a symbolic link, which is not followed below a report directory",
                                "name the report itself instead of its directory, or write (or copy) the report "
                                "into the directory");
    else if (t != fs::file_type::not_found)
      detail::throw_parse_error(e.path(), "it is neither a regular file nor a directory",
                                "remove it from the report directory: every entry there is read as a report");
  }
}
}  // namespace

std::vector<fs::path> list_report_files(const fs::path& path) {
  std::vector<fs::path> out;
  std::error_code ec;
  // A path named explicitly is taken as the user gave it (a symlink to a report is fine);
  // only what is found below a directory must be a real file.
  const fs::file_status st = fs::status(path, ec);
  if (ec && ec != std::errc::no_such_file_or_directory && ec != std::errc::not_a_directory)
    detail::throw_harvest_error(Engine::google_benchmark, path, "cannot inspect the path: " + ec.message());
  if (ec) return out;
  if (st.type() == fs::file_type::regular) {
    out.push_back(path);
    return out;
  }
  if (st.type() != fs::file_type::directory) return out;
  walk_report_files(path, out);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<fs::path> list_flat_json_files(const fs::path& root, Engine engine) {
  std::vector<fs::path> out;
  if (!harvestable_root(root, engine)) return out;
  for (const auto& e : entries_of(root, engine))
    if (own_type(e, engine) == fs::file_type::regular && e.path().extension() == ".json") out.push_back(e.path());
  return out;
}

}  // namespace benchhist::engines
