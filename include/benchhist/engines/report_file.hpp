#pragma once
// Report files recognised by their content (docs/harnesses.md#recognition): every file a
// `--bench-command` run writes into $BENCHHIST_OUTPUT_DIR and every report `import` is given is
// one of Google Benchmark JSON, a hyperfine export, Catch2 XML, a Bencher Metric Format document
// or captured libtest bench output — whatever its name or extension.

#include <filesystem>
#include <optional>
#include <string_view>

#include "benchhist/engines/report.hpp"
#include "benchhist/model/engine.hpp"

namespace benchhist::engines {

// The engine whose output `text` is, judged by its shape only (the parser judges the rest):
//   a JSON object with `context` and `benchmarks` → google_benchmark;
//   a JSON object with a non-object `results` → hyperfine;
//   a non-empty JSON object of objects of measures, each measure an object with `value` → bmf;
//   an XML document → catch2 (its parser checks the root);
//   text with a `test <name> ... bench:` line → libtest.
// nullopt for anything else (empty, truncated or foreign), with the reason in `why_not`; Catch2's
// console output and Criterion's per-benchmark files are named as such.
std::optional<Engine> recognise_report(std::string_view text, std::string* why_not = nullptr);

struct RecognisedReport {
  Engine engine = Engine::google_benchmark;
  ParsedReport report;
};

// Reads, recognises and parses one report file.
// Throws Error{benchmark_output} "failed to parse benchmark output: <file>" (subject = file) when no
// engine recognises it (the hint names the formats read), else as the engine's parser; Error{io}
// when it cannot be read.
RecognisedReport read_report_file(const std::filesystem::path& file);

// The same for text already read (what read_report_file does after reading).
RecognisedReport parse_report_text(std::string_view text, const std::filesystem::path& file);

}  // namespace benchhist::engines
