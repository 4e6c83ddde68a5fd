// docs-figures: renders the documentation's figures (docs/figures/*.svg) and generated tables
// (Markdown blocks between `<!-- figures:begin NAME -->` markers in docs/*.md) from the example
// catalogue with the real detector and reports. `--check` renders in memory and fails, naming
// each file, when the repository's copies no longer match (it runs in the test suite).

#include <cstring>
#include <filesystem>
#include <iostream>

#include "benchhist/error.hpp"
#include "figures.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  bool check = false;
  fs::path root;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--check") {
      check = true;
    } else if (a == "--root" && i + 1 < argc) {
      root = argv[++i];
    } else if (a == "--help" || a == "-h") {
      std::cout << "Usage: docs-figures [--check] [--root DIR]\n\n"
                   "Renders docs/figures/*.svg and the generated blocks of docs/*.md from the example catalogue\n"
                   "(include/benchhist/detect/example_series.hpp) with the real detector.\n\n"
                   "  --check      render in memory; exit 1 listing every file that differs, write nothing\n"
                   "  --root DIR   the repository root [default: the nearest ancestor of the working\n"
                   "               directory holding docs/detection.md]\n";
      return 0;
    } else {
      std::cerr << "error: unexpected argument '" << a << "'\nUsage: docs-figures [--check] [--root DIR]\n";
      return 2;
    }
  }
  if (root.empty()) root = benchhist::figures::find_root(fs::current_path());
  if (root.empty() || !fs::exists(root / "docs" / "detection.md")) {
    std::cerr << "error: no docs/detection.md in " << (root.empty() ? fs::current_path() : root).string()
              << " or above it\n  hint: run docs-figures inside the repository checkout, or pass --root DIR\n";
    return 2;
  }
  try {
    const auto rendering = benchhist::figures::render_all();
    if (check) {
      const auto problems = benchhist::figures::check(root, rendering);
      for (const auto& p : problems) std::cerr << "docs-figures: " << p << '\n';
      if (!problems.empty()) {
        std::cerr << "docs-figures: " << problems.size() << " generated file(s) or page(s) do not match; run "
                  << "`docs-figures` (ninja -C build tools/figures/docs-figures) from the repository root and commit "
                  << "the result\n";
        return 1;
      }
      std::cout << "docs-figures: " << rendering.files.size() << " files and " << rendering.blocks.size()
                << " blocks match\n";
      return 0;
    }
    const auto changed = benchhist::figures::write(root, rendering);
    for (const auto& c : changed) std::cout << "wrote " << c << '\n';
    const auto problems = benchhist::figures::check(root, rendering);
    for (const auto& p : problems) std::cerr << "docs-figures: " << p << '\n';
    return problems.empty() ? 0 : 1;
  } catch (const benchhist::Error& e) {
    std::cerr << "Error: " << e.what() << '\n';
    return 1;
  }
}
