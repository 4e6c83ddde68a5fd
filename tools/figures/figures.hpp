#pragma once
// The documentation's figures and tables, rendered from the example catalogue
// (detect/example_series.hpp) with the real detector and the real reports: SVG files under
// docs/figures/ and Markdown blocks that docs pages hold between marker comments
//
//   <!-- figures:begin NAME -->
//   …generated…
//   <!-- figures:end NAME -->
//
// `docs-figures` writes them; `docs-figures --check` renders in memory and lists every file or
// page that no longer matches (docs/README.md, docs/detection.md).

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist::figures {

inline constexpr std::string_view figures_dir = "docs/figures";
inline constexpr std::string_view docs_dir = "docs";

struct File {
  std::string path;  // relative to the repository root, `/`-separated
  std::string content;
};

struct Block {
  std::string name;     // the marker's NAME
  std::string content;  // the lines between the markers, each ending in '\n'
};

struct Rendering {
  std::vector<File> files;
  std::vector<Block> blocks;
  // The catalogue entries the figures and tables were drawn from (sorted, once each): the tests
  // check it is the whole catalogue, so no entry is asserted without being shown or vice versa.
  std::vector<std::string> examples;
};

// Everything, deterministically (identical bytes on every run and thread count).
Rendering render_all();

// `page` with the content of every marker block replaced by the rendering's block of that name.
// Problems (an unknown NAME, a begin without its end) are appended as messages naming `page_name`.
std::string apply_blocks(const std::string& page, const std::vector<Block>& blocks, std::string_view page_name,
                         std::vector<std::string>& problems);

// One message per generated file that is missing or differs, per docs page whose blocks differ
// or are malformed, and per file under docs/figures/ the rendering does not produce.
std::vector<std::string> check(const std::filesystem::path& root, const Rendering& rendering);

// Writes the files, rewrites the pages' blocks and removes stale files under docs/figures/;
// returns the paths it changed. Malformed pages are left alone and reported by check().
std::vector<std::string> write(const std::filesystem::path& root, const Rendering& rendering);

// The repository root for a working directory: the nearest ancestor (itself included) holding
// docs/detection.md; empty when there is none.
std::filesystem::path find_root(const std::filesystem::path& cwd);

}  // namespace benchhist::figures
