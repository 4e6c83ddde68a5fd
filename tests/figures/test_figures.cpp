// docs-figures: deterministic rendering, the marker blocks, and `--check` on the repository's
// docs/ and on deliberately altered copies of it.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

#include "benchhist/detect/example_series.hpp"
#include "figures.hpp"

namespace fs = std::filesystem;
using namespace benchhist::figures;

namespace {

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary | std::ios::trunc) << text; }

struct Run {
  int code = -1;
  std::string out, err;
};

// The real program, run in `cwd` (it finds the repository from its working directory).
Run run_figures(const fs::path& cwd, const std::string& args) {
  const auto io = fs::temp_directory_path() / ("bh-figures-io-" + std::to_string(::getpid()));
  fs::create_directories(io);
  const std::string cmd = "cd '" + cwd.string() + "' && '" + BH_FIGURES_PATH + "' " + args + " >'" +
                          (io / "out").string() + "' 2>'" + (io / "err").string() + "'";
  const int status = std::system(cmd.c_str());
  Run r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = read(io / "out");
  r.err = read(io / "err");
  fs::remove_all(io);
  return r;
}

struct Copy {
  fs::path root;
  Copy() {
    root = fs::temp_directory_path() / ("bh-figures-" + std::to_string(::getpid()));
    fs::remove_all(root);
    fs::create_directories(root);
    fs::copy(fs::path(BH_SOURCE_DIR) / "docs", root / "docs", fs::copy_options::recursive);
  }
  ~Copy() { fs::remove_all(root); }
};

bool contains(const std::string& h, const std::string& n) { return h.find(n) != std::string::npos; }

}  // namespace

TEST_CASE("the figures and tables render byte-identically every time", "[figures]") {
  const auto a = render_all();
  const auto b = render_all();
  REQUIRE(a.files.size() == b.files.size());
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    CHECK(a.files[i].path == b.files[i].path);
    CHECK(a.files[i].content == b.files[i].content);
  }
  REQUIRE(a.blocks.size() == b.blocks.size());
  for (std::size_t i = 0; i < a.blocks.size(); ++i) CHECK(a.blocks[i].content == b.blocks[i].content);
  // Every figure is a standalone SVG; every block ends with a newline.
  for (const auto& f : a.files)
    if (f.path.size() > 4 && f.path.compare(f.path.size() - 4, 4, ".svg") == 0)
      CHECK(f.content.rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0) == 0);
  for (const auto& blk : a.blocks) CHECK(blk.content.back() == '\n');
}

TEST_CASE("the figures and tables are drawn from the whole example catalogue the unit tests assert on, and from "
          "nothing else",
          "[figures]") {
  namespace ex = benchhist::detect::examples;
  const auto r = render_all();
  std::set<std::string> catalogue;
  for (const auto& e : ex::history_examples()) catalogue.insert(e.name);
  for (const auto& e : ex::branch_examples()) catalogue.insert(e.name);
  // Every catalogue entry is shown somewhere (tests/branch/test_example_series.cpp asserts each
  // one's verdict), and nothing is shown that is not in the catalogue.
  CHECK(std::set<std::string>(r.examples.begin(), r.examples.end()) == catalogue);
  CHECK(r.examples.size() == catalogue.size());
  // A series figure is named after its entry; only the example report's files are not.
  for (const auto& f : r.files) {
    const auto name = fs::path(f.path).stem().string();
    INFO(f.path);
    CHECK(f.path.rfind("docs/figures/", 0) == 0);
    if (name.rfind("example-", 0) != 0) CHECK(catalogue.count(name) == 1);
  }
  // Each figure's block shows that figure.
  for (const auto& b : r.blocks)
    if (b.name.rfind("figure:", 0) == 0) CHECK(contains(b.content, "(figures/" + b.name.substr(7) + ".svg)"));
}

TEST_CASE("marker blocks are replaced in place and malformed markers are reported with the page", "[figures]") {
  const std::vector<Block> blocks{{"one", "new one\n"}, {"two", "new two\nsecond line\n"}};
  std::vector<std::string> problems;
  const std::string page = "intro\n<!-- figures:begin one -->\nold\n<!-- figures:end one -->\nmiddle\n"
                           "<!-- figures:begin two -->\n<!-- figures:end two -->\nend\n";
  CHECK(apply_blocks(page, blocks, "docs/p.md", problems) ==
        "intro\n<!-- figures:begin one -->\nnew one\n<!-- figures:end one -->\nmiddle\n"
        "<!-- figures:begin two -->\nnew two\nsecond line\n<!-- figures:end two -->\nend\n");
  CHECK(problems.empty());
  apply_blocks("<!-- figures:begin three -->\n<!-- figures:end three -->\n", blocks, "docs/p.md", problems);
  REQUIRE(problems.size() == 1);
  CHECK(contains(problems[0], "docs/p.md: unknown figures block \"three\""));
  problems.clear();
  apply_blocks("<!-- figures:begin one -->\nx\n", blocks, "docs/q.md", problems);
  REQUIRE(problems.size() == 1);
  CHECK(contains(problems[0], "docs/q.md: block \"one\" has no end marker"));
}

TEST_CASE("--check passes on the repository's docs and fails, naming the file, on an altered copy", "[figures]") {
  const auto here = run_figures(BH_SOURCE_DIR, "--check");
  INFO(here.err);
  REQUIRE(here.code == 0);
  CHECK(contains(here.out, "match"));

  Copy copy;
  // From a subdirectory too: the repository is found upward.
  REQUIRE(run_figures(copy.root / "docs" / "figures", "--check").code == 0);

  SECTION("an altered figure") {
    const auto svg = copy.root / "docs/figures/clean-step.svg";
    auto text = read(svg);
    const auto at = text.find("somewhere near commit10");
    REQUIRE(at != std::string::npos);
    text.replace(at, 23, "somewhere near commit11");
    write_text(svg, text);
    const auto r = run_figures(copy.root, "--check");
    CHECK(r.code == 1);
    CHECK(contains(r.err, "docs/figures/clean-step.svg: out of date"));
    CHECK(read(svg) == text);  // --check writes nothing
  }
  SECTION("an altered table in a page") {
    const auto page = copy.root / "docs/detection.md";
    auto text = read(page);
    const auto at = text.find("| `min_regime` | \u2265 5 | 10 | passed |");
    REQUIRE(at != std::string::npos);
    text.replace(at, 6, "| `min_regime` | \u2265 5 | 11 | passed |");
    write_text(page, text);
    const auto r = run_figures(copy.root, "--check");
    CHECK(r.code == 1);
    CHECK(contains(r.err, "docs/detection.md: generated blocks out of date"));
  }
  SECTION("a missing figure, a stray file and an unknown block") {
    fs::remove(copy.root / "docs/figures/slow-ramp.svg");
    write_text(copy.root / "docs/figures/stray.svg", "<svg/>");
    write_text(copy.root / "docs/extra.md", "<!-- figures:begin no-such-block -->\n<!-- figures:end no-such-block -->\n");
    const auto r = run_figures(copy.root, "--check");
    CHECK(r.code == 1);
    CHECK(contains(r.err, "docs/figures/slow-ramp.svg: missing"));
    CHECK(contains(r.err, "docs/figures/stray.svg: not produced by docs-figures"));
    CHECK(contains(r.err, "docs/extra.md: unknown figures block \"no-such-block\""));
    fs::remove(copy.root / "docs/extra.md");
    // Regenerating repairs everything the generator owns.
    const auto w = run_figures(copy.root, "");
    INFO(w.err);
    CHECK(w.code == 0);
    CHECK(contains(w.out, "wrote docs/figures/slow-ramp.svg"));
    CHECK_FALSE(fs::exists(copy.root / "docs/figures/stray.svg"));
    CHECK(run_figures(copy.root, "--check").code == 0);
  }
}

TEST_CASE("docs-figures outside a repository says where it looked and how to fix it", "[figures]") {
  const auto dir = fs::temp_directory_path() / ("bh-figures-none-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto r = run_figures(dir, "--check");
  fs::remove_all(dir);
  CHECK(r.code == 2);
  CHECK(contains(r.err, "no docs/detection.md"));
  CHECK(contains(r.err, "hint: run docs-figures inside the repository checkout"));
}
