#pragma once
// Where each engine writes under the target root and which files count
// (docs/formats.md#output-locations).
// Directory symlinks are never traversed and only regular files (not symlinks) are accepted
// (docs/formats.md#output-locations). Every listing is sorted by path. A missing root lists
// nothing.
// The list_* functions and has_output_root throw Error{io} "failed to harvest <engine> benchmark
// output" (subject = path) when a directory cannot be read or inspected.

#include <array>
#include <filesystem>
#include <string_view>
#include <vector>

#include "benchhist/model/engine.hpp"

namespace benchhist::engines {

// Engines are harvested in this order (docs/formats.md#output-locations); the report engines,
// which write outside the target root, come last (report_engines, then libtest).
inline constexpr std::array<Engine, 9> harvest_order{Engine::callgrind,        Engine::criterion, Engine::alloc_tracker,
                                                     Engine::all_the_time,     Engine::google_benchmark,
                                                     Engine::hyperfine,        Engine::catch2,
                                                     Engine::bmf,              Engine::libtest};

// The engines whose output is report files a run writes into $BENCHHIST_OUTPUT_DIR or `import`
// names; each file is recognised by its content (recognise_report, docs/harnesses.md#recognition).
inline constexpr std::array<Engine, 5> report_engines{Engine::google_benchmark, Engine::hyperfine, Engine::catch2,
                                                      Engine::bmf, Engine::libtest};

// The four engines whose output lives under the target root.
inline constexpr std::array<Engine, 4> target_root_engines{Engine::callgrind, Engine::criterion,
                                                           Engine::alloc_tracker, Engine::all_the_time};

// The directory name under the target root: callgrind output lives in `gungraun/`. (Report
// engines do not write under the target root: their files are harvested from the paths a run
// or `import` names, see list_report_files.)
constexpr std::string_view output_dir_name(Engine e) noexcept {
  return e == Engine::callgrind ? std::string_view("gungraun") : to_string(e);
}

inline std::filesystem::path output_root(const std::filesystem::path& target_root, Engine e) {
  return target_root / output_dir_name(e);
}

// True when `root` is a real directory (not a symlink to one); false on any error.
bool is_real_directory(const std::filesystem::path& root);

// Whether an engine root holds output: a real directory → true; absent (or a symlink, or not
// a directory) → false.
// Throws Error{io} "failed to harvest <engine> benchmark output" when it cannot be inspected.
bool has_output_root(const std::filesystem::path& root, Engine engine);

// callgrind: every regular file named exactly `summary.json` anywhere below `root`.
std::vector<std::filesystem::path> list_summary_files(const std::filesystem::path& root);

// A directory named exactly `new` below the Criterion root that holds at least one of the
// two case files. Directories with neither are structural and not listed.
struct CriterionCaseDir {
  std::filesystem::path dir;
  bool has_benchmark = false;  // regular file `benchmark.json`
  bool has_estimates = false;  // regular file `estimates.json`
  bool complete() const noexcept { return has_benchmark && has_estimates; }
};
std::vector<CriterionCaseDir> list_criterion_case_dirs(const std::filesystem::path& root);

// alloc_tracker / all_the_time: immediate regular files of `root` whose extension is exactly
// `json` (flat; subdirectories ignored). `engine` only names the engine in errors.
std::vector<std::filesystem::path> list_flat_json_files(const std::filesystem::path& root, Engine engine);

// report_engines: the report files under one path — the path itself when it is a regular file
// (or a symbolic link to one: named explicitly), else every regular file anywhere below the
// directory, whatever its name (recursive): each is recognised by its content (report_file.hpp).
// A symbolic link (or a fifo, socket, device) below the directory is never followed and fails:
// Error{benchmark_output, "failed to parse benchmark output: <entry>"}. A missing path lists nothing.
std::vector<std::filesystem::path> list_report_files(const std::filesystem::path& path);

}  // namespace benchhist::engines
