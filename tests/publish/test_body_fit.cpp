// Fitting a Markdown report into GitHub's body limit (body_fit.hpp, docs/github.md "Size limit"):
// what the note says was cut, no heading left bare, Coverage and the census head kept in
// preference to the tail of a long findings list, balanced fences and whole table rows, sizes
// in UTF-8 bytes.

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "../report/report_fixtures.hpp"
#include "benchhist/publish/body_fit.hpp"
#include "benchhist/report/markdown_reporter.hpp"

using namespace benchhist;
using namespace benchhist::publish;

namespace {

std::vector<std::string> lines_of(const std::string& md) {
  std::vector<std::string> out;
  for (std::size_t pos = 0; pos < md.size();) {
    auto nl = md.find('\n', pos);
    if (nl == std::string::npos) nl = md.size();
    out.push_back(md.substr(pos, nl - pos));
    pos = nl + 1;
  }
  return out;
}

int level_of(const std::string& line) {
  std::size_t n = 0;
  while (n < line.size() && line[n] == '#') ++n;
  return n >= 1 && n <= 6 && (n == line.size() || line[n] == ' ') ? static_cast<int>(n) : 0;
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + len > s.size()) return false;
    for (std::size_t k = 1; k < len; ++k)
      if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return false;
    i += len;
  }
  return true;
}

bool is_marker(const std::string& line) { return line.rfind("_… ", 0) == 0 && line.ends_with(" left out here._"); }

// Fences closed, every table row whole, no table header without a row, no heading outside a
// fence with nothing under it (followed only by blank lines, the marker or the note, or by a
// heading of its own level or above), valid UTF-8.
void check_well_formed(const std::string& md, const std::string& note) {
  CHECK(valid_utf8(md));
  const auto lines = lines_of(md);
  bool in_fence = false;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& line = lines[i];
    INFO("line " << i << ": " << line);
    if (line.rfind("```", 0) == 0) in_fence = !in_fence;
    if (in_fence) continue;
    if (!line.empty() && line[0] == '|') {
      CHECK(line.back() == '|');
      if (i + 1 < lines.size() && lines[i + 1].rfind("| ---", 0) == 0) {  // a header row
        REQUIRE(i + 2 < lines.size());
        CHECK(lines[i + 2].rfind("|", 0) == 0);
      }
    }
    if (int level = level_of(line); level > 0) {
      std::size_t j = i + 1;
      while (j < lines.size() && lines[j].empty()) ++j;
      REQUIRE(j < lines.size());
      CHECK_FALSE(is_marker(lines[j]));
      CHECK(lines[j] != note);
      const int next = level_of(lines[j]);
      CHECK((next == 0 || next > level));
    }
  }
  CHECK_FALSE(in_fence);
}

// The body without the note: what the caller's note follows.
std::string kept_of(const std::string& body, const std::string& note) {
  const std::string tail = "\n" + note + "\n";
  REQUIRE(body.size() >= tail.size());
  REQUIRE(body.substr(body.size() - tail.size()) == tail);
  return body.substr(0, body.size() - tail.size());
}

// A report of `sections` sections, each a heading, a paragraph, a table and a chart.
std::string sectioned_report(int sections) {
  std::string md = "# Benchmark history analysis: textproc\n\n- Regressions: " + std::to_string(sections) + "\n";
  for (int s = 0; s < sections; ++s) {
    md += "\n## set" + std::to_string(s) + "\n\nSome words about set " + std::to_string(s) +
          ".\n\n| Benchmark | Change |\n| --- | --- |\n";
    for (int r = 0; r < 30; ++r) md += "| bench_" + std::to_string(s) + "_" + std::to_string(r) + " | +12.34% |\n";
    md += "\n```text\n 135 ┤           ╭─╮╭─╮╭╮\n # not a heading inside a fence\n  97 ┼─╯╰─╯ ╰╯\n```\n";
  }
  return md;
}

std::string note_for(Shortening how) {
  return how == Shortening::whole_sections ? "> WHOLE SECTIONS LEFT OUT" : "> PARTS LEFT OUT";
}

// The full Markdown report of `n` findings in one set (the seed's two findings, repeated).
std::string full_report_of(std::size_t n) {
  auto r = report_test::seed_findings_report();
  const auto seed = r.findings;
  r.findings.clear();
  for (std::size_t i = 0; i < n; ++i) {
    auto f = seed[i % seed.size()];
    f.benchmark = BenchmarkId({"bench_" + std::to_string(i), "case"});
    r.findings.push_back(f);
  }
  return report::MarkdownReporter().render(r);
}

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("a report that fits is left alone", "[publish][size][body_fit]") {
  const auto md = sectioned_report(2);
  auto same = fit_markdown(md, 65536, note_for);
  CHECK(same.text == md);
  CHECK_FALSE(same.shortened());
}

// Problem 1: one huge first section cut between its rows was announced as "whole sections".
TEST_CASE("the note says whole sections only when the cut fell between sections", "[publish][size][body_fit]") {
  std::string md = "# Header\n\nIntro paragraph.\n\n| a | b |\n| --- | --- |\n";
  for (int r = 0; r < 500; ++r) md += "| row" + std::to_string(r) + " | x |\n";
  md += "\n```text\nchart\n```\n\n## Next\n\nMore.\n";
  auto fitted = fit_markdown(md, 2000, note_for);
  REQUIRE(fitted.shortened());
  CHECK(fitted.shortening() == Shortening::within_a_section);
  CHECK(fitted.text.size() <= 2000);
  const auto kept = kept_of(fitted.text, note_for(Shortening::within_a_section));
  // The header, the intro and as many whole rows as fit under the table's header, then the
  // line saying what is missing here.
  CHECK(kept.rfind("# Header\n\nIntro paragraph.\n\n| a | b |\n| --- | --- |\n| row0 | x |\n", 0) == 0);
  CHECK(kept.size() > 2000 - 200);  // not needlessly short
  const auto lines = lines_of(kept);
  REQUIRE(lines.size() >= 2);
  const std::size_t kept_rows = count_of(kept, "| row");
  CHECK(lines.back() == "_… " + std::to_string(500 - kept_rows + 3) +
                            " more lines of this section and 1 more section are left out here._");
  CHECK(fitted.omitted_sections == 1);
  CHECK(fitted.omitted_blocks == 500 - kept_rows + 1);  // the rows and the fence
  check_well_formed(fitted.text, note_for(Shortening::within_a_section));

  // Sections that fit whole, cut between them: the other note.
  const auto report = sectioned_report(40);
  auto whole = fit_markdown(report, 20000, note_for);
  CHECK(whole.shortening() == Shortening::whole_sections);
  CHECK(whole.omitted_blocks == 0);
  const auto kept_whole = kept_of(whole.text, note_for(Shortening::whole_sections));
  check_well_formed(whole.text, note_for(Shortening::whole_sections));
  // Whole sections of the original, then the marker.
  const auto marker_at = kept_whole.rfind("\n_… ");
  REQUIRE(marker_at != std::string::npos);
  const auto prefix = kept_whole.substr(0, marker_at + 1);
  CHECK(report.compare(0, prefix.size(), prefix) == 0);
  CHECK(report.compare(prefix.size(), 3, "## ") == 0);
  CHECK(kept_whole.substr(marker_at + 1) ==
        "_… " + std::to_string(whole.omitted_sections) + " more sections are left out here._\n");
}

// Problem 2: a section whose only paragraph (emoji, 4 bytes each) did not fit kept its bare heading.
TEST_CASE("a heading is never kept without anything under it", "[publish][size][body_fit]") {
  std::string emoji;
  for (int i = 0; i < 1500; ++i) emoji += "\U0001F600";  // 6,000 bytes on one line
  const std::string md = "## A\n\n" + emoji + "\n\n## B\n\nshort\n";
  auto fitted = fit_markdown(md, 3000, "NOTE");
  CHECK(fitted.text.find("## A") == std::string::npos);
  CHECK(fitted.text.size() <= 3000);
  check_well_formed(fitted.text, "NOTE");
  CHECK(fitted.omitted_sections == 2);

  // The same paragraph over many lines: the heading stays with the lines that fit under it.
  std::string lines;
  for (int l = 0; l < 30; ++l) lines += emoji.substr(0, 200) + "\n";
  auto partly = fit_markdown("## A\n\n" + lines + "\n## B\n\nshort\n", 3000, "NOTE");
  CHECK(partly.text.rfind("## A\n\n" + emoji.substr(0, 200) + "\n", 0) == 0);
  CHECK(partly.text.size() <= 3000);
  CHECK(partly.shortening() == Shortening::within_a_section);
  check_well_formed(partly.text, "NOTE");

  // A heading whose only content is a sub-heading that does not fit goes with it.
  const std::string nested = "# T\n\n- a\n\n## Extra\n\n### Deep\n\n" + emoji + "\n";
  auto bare = fit_markdown(nested, 1000, "NOTE");
  CHECK(bare.text.find("## Extra") == std::string::npos);
  CHECK(bare.text.find("### Deep") == std::string::npos);
  check_well_formed(bare.text, "NOTE");
}

// Problem 3: Coverage, the last section, was the first thing left out of a long full report.
TEST_CASE("a long full report keeps its head and Coverage and loses the tail of its findings, counted",
          "[publish][size][body_fit]") {
  const auto md = full_report_of(400);
  REQUIRE(md.size() > 2 * github_body_limit);
  const auto coverage_at = md.find("\n## Coverage\n");
  REQUIRE(coverage_at != std::string::npos);
  const std::string coverage = md.substr(coverage_at + 1);
  const std::string head = md.substr(0, md.find("\n## "));
  const std::string note = "> **Shortened:** see the full report.";
  for (std::size_t budget : {github_body_limit, std::size_t{20000}, std::size_t{5000}}) {
    INFO("budget " << budget);
    auto fitted = fit_markdown(md, budget, note);
    CHECK(fitted.text.size() <= budget);
    CHECK(fitted.text.size() > budget - 2500);  // not needlessly short: a finding is ~1,900 bytes
    const auto kept = kept_of(fitted.text, note);
    CHECK(kept.rfind(head, 0) == 0);  // the title and the census lines
    CHECK(kept.ends_with("\n" + coverage));
    // Whole findings before Coverage, then one line counting what was left out.
    const auto body = kept.substr(0, kept.size() - coverage.size());
    const auto marker_at = body.rfind("\n_… ");
    REQUIRE(marker_at != std::string::npos);
    const auto prefix = body.substr(0, marker_at + 1);
    CHECK(md.compare(0, prefix.size(), prefix) == 0);
    CHECK(md.compare(prefix.size(), 4, "### ") == 0);
    const std::size_t kept_findings = count_of(prefix, "\n### `");
    CHECK(kept_findings >= 1);
    CHECK(fitted.omitted_sections == 400 - kept_findings);
    CHECK(fitted.omitted_blocks == 0);
    CHECK(body.substr(marker_at + 1) ==
          "_… " + std::to_string(400 - kept_findings) + " more sections are left out here._\n\n");
    check_well_formed(fitted.text, note);
  }
}

TEST_CASE("fences stay balanced and table rows whole whatever the budget", "[publish][size][body_fit]") {
  const auto md = sectioned_report(60);
  for (std::size_t budget = 300; budget < 12000; budget += 397) {
    INFO("budget " << budget);
    auto fitted = fit_markdown(md, budget, note_for);
    CHECK(fitted.text.size() <= budget);
    CHECK(fitted.shortened());
    check_well_formed(fitted.text, note_for(fitted.shortening()));
    // A `#` line inside a fence is never taken for a heading: sections are whole sets.
    CHECK(fitted.omitted_sections + count_of(fitted.text, "\n## set") == 60 +
          (fitted.text.find("# Benchmark history") == std::string::npos ? 1 : 0));
  }
  // Too small for the note: nothing.
  auto none = fit_markdown(md, 10, "a note longer than the budget");
  CHECK(none.text.empty());
  CHECK(none.shortened());
}

// Sizes are UTF-8 bytes, a bound on GitHub's count however it counts characters (body_fit.hpp).
TEST_CASE("the budget is counted in UTF-8 bytes", "[publish][size][body_fit]") {
  std::string md = "# Emoji\n\n";
  for (int l = 0; l < 400; ++l) {
    for (int i = 0; i < 50; ++i) md += "\U0001F600";
    md += "\n";
  }
  REQUIRE(md.size() > github_body_limit);  // 80,000+ bytes in fewer than 21,000 code points
  auto fitted = fit_markdown(md, github_body_limit, "NOTE");
  CHECK(fitted.shortened());
  CHECK(fitted.text.size() <= github_body_limit);
  CHECK(valid_utf8(fitted.text));
}
