// The GitHub automation files, checked offline: every reusable workflow, the build action, the
// caller examples and the setup-hook example validate against the pinned
// @action-validator/cli 0.6.0 schemas (npm, tests/automation/package-lock.json); the reusable
// workflows take every input docs/github.md names; the caller files in docs/github.md are the
// example files verbatim; and the helper scripts the workflows run do what they say.

#include <catch2/catch.hpp>

#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>

#include "benchhist/probe/process.hpp"

namespace fs = std::filesystem;
using benchhist::probe::ProcessResult;
using benchhist::probe::ProcessSpec;

namespace {

const fs::path source{BH_SOURCE_DIR};

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path validator() {
  const auto v = source / "tests/automation/node_modules/.bin/action-validator";
  if (!fs::exists(v))
    throw std::runtime_error("action-validator is not installed at " + v.string() +
                             ": run scripts/install-deps.sh (or `npm ci --prefix tests/automation`), which installs the "
                             "pinned @action-validator/cli 0.6.0, and re-run the tests");
  return v;
}

benchhist::probe::ProcessResult run(std::vector<std::string> argv, std::map<std::string, std::optional<std::string>> env = {},
                  fs::path cwd = source) {
  benchhist::probe::ProcessSpec spec;
  spec.argv = std::move(argv);
  spec.cwd = std::move(cwd);
  spec.env_changes = std::move(env);
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  return benchhist::probe::run_process(spec);
}

const std::vector<std::string> yaml_files = {
    ".github/workflows/ci.yml",
    ".github/workflows/history.yml",
    ".github/workflows/pr.yml",
    ".github/workflows/backfill.yml",
    ".github/actions/build-tool/action.yml",
    "examples/github/.github/workflows/benchmark-history.yml",
    "examples/github/.github/workflows/benchmark-pr.yml",
    "examples/github/.github/workflows/benchmark-backfill.yml",
    "examples/github/.github/actions/bench-history-setup/action.yml",
};

const std::vector<std::string> common_inputs = {
    "azure-client-id", "azure-tenant-id", "platforms", "working-directory", "config", "exclude", "bench", "best-of",
    "all-features", "no-default-features", "features", "rustflags", "install-method", "source-path"};

// The `on: workflow_call: inputs:` block of a workflow file.
std::string inputs_block(const std::string& yml) {
  const auto on = yml.find("\non:\n  workflow_call:\n    inputs:\n");
  REQUIRE(on != std::string::npos);
  const auto end = yml.find("\n\n", on + 1);
  return yml.substr(on, end - on);
}

// The `run: |` script of the step named `name` (the first such step at or after `from`), dedented
// as the runner hands it to the shell.
std::string step_script(const std::string& yml, const std::string& name, std::size_t from = 0) {
  const auto step = yml.find("      - name: " + name + "\n", from);
  REQUIRE(step != std::string::npos);
  auto next = yml.find("\n      - ", step + 1);
  const auto next_job = yml.find("\n\n  ", step + 1);
  if (next_job < next) next = next_job;
  const auto run = yml.find("        run: |\n", step);
  REQUIRE(run < next);
  std::string script;
  std::istringstream lines(yml.substr(run + 15, next == std::string::npos ? std::string::npos : next + 1 - (run + 15)));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) {
      script += "\n";
      continue;
    }
    if (line.rfind("          ", 0) != 0) break;
    script += line.substr(10) + "\n";
  }
  return script;
}

// The text of job `job` in a workflow file: from its key to the next job's (or the end).
std::string job_block(const std::string& yml, const std::string& job) {
  const auto jobs = yml.find("\njobs:\n");
  REQUIRE(jobs != std::string::npos);
  const auto at = yml.find("\n  " + job + ":\n", jobs);
  REQUIRE(at != std::string::npos);
  auto end = at + 1;
  while ((end = yml.find("\n  ", end + 1)) != std::string::npos && yml[end + 3] == ' ') {
  }
  return yml.substr(at + 1, end == std::string::npos ? std::string::npos : end - at);
}

// A scratch directory, removed with the object.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag) {
    static int n = 0;
    path = fs::temp_directory_path() / ("bh-workflows-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(++n));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

void write_file(const fs::path& p, const std::string& text, bool executable = false) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
  if (executable) fs::permissions(p, fs::perms::owner_all, fs::perm_options::add);
}

// Runs a step's script as GitHub runs `shell: bash` (bash --noprofile --norc -eo pipefail), in a
// workspace holding this repository's scripts at bench-history-tool/, with a stand-in
// cargo-bench-history on PATH that records its arguments (one per line) in `calls`.
struct StepRun {
  ProcessResult result;
  std::optional<std::string> calls;  // nullopt: the tool was never invoked
};
StepRun run_step(const std::string& script, std::map<std::string, std::optional<std::string>> env) {
  TempDir dir("step");
  const auto ws = dir.path / "workspace";
  fs::create_directories(ws / "bench-history-tool/.github");
  fs::copy(source / ".github/scripts", ws / "bench-history-tool/.github/scripts", fs::copy_options::recursive);
  fs::create_directories(ws / "project");
  fs::create_directories(dir.path / "temp/bench-history-report");
  write_file(dir.path / "temp/bench-history-report/bisect.md", "bisect\n");
  write_file(dir.path / "bin/cargo-bench-history", "#!/usr/bin/env bash\nprintf '%s\\n' \"$@\" >> \"$TOOL_CALLS\"\n", true);
  write_file(dir.path / "step.sh", script);
  env["PATH"] = (dir.path / "bin").string() + ":" + std::getenv("PATH");
  env["TOOL_CALLS"] = (dir.path / "calls").string();
  env["GITHUB_WORKSPACE"] = ws.string();
  env["RUNNER_TEMP"] = (dir.path / "temp").string();
  env["GITHUB_STEP_SUMMARY"] = (dir.path / "summary.md").string();
  env["GITHUB_OUTPUT"] = (dir.path / "output").string();
  StepRun r;
  r.result = run({"bash", "--noprofile", "--norc", "-eo", "pipefail", (dir.path / "step.sh").string()}, env, ws / "project");
  if (fs::exists(dir.path / "calls")) r.calls = read(dir.path / "calls");
  return r;
}

}  // namespace

TEST_CASE("every workflow, action and example validates against the pinned schema validator", "[automation][workflows]") {
  const auto v = validator();
  for (const auto& f : yaml_files) {
    INFO(f);
    auto r = run({v.string(), f});
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
  }
}

TEST_CASE("the validator rejects a broken workflow, so its approval means something", "[automation][workflows]") {
  const auto v = validator();
  const auto dir = fs::temp_directory_path() / ("bh-workflows-" + std::to_string(::getpid()));
  fs::create_directories(dir / ".github/workflows");
  auto yml = read(source / ".github/workflows/history.yml");
  const auto at = yml.find("    runs-on: ubuntu-latest");
  REQUIRE(at != std::string::npos);
  yml.replace(at, 12, "    run-on:");
  std::ofstream(dir / ".github/workflows/history.yml") << yml;
  auto r = run({v.string(), (dir / ".github/workflows/history.yml").string()});
  CHECK(r.exit_code == 1);
  CHECK((r.out + r.err).find("Additional property 'run-on' is not allowed") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("the reusable workflows take every input the guide names and the guide's permissions",
          "[automation][workflows]") {
  for (const char* name : {"history", "pr", "backfill"}) {
    INFO(name);
    const auto yml = read(source / ".github/workflows" / (std::string(name) + ".yml"));
    const auto inputs = inputs_block(yml);
    auto names = common_inputs;
    if (std::string(name) == "backfill")
      names.insert(names.end(), {"lookback", "minimum-age", "from", "to", "max-commits", "ignore-errors"});
    if (std::string(name) == "pr") names.push_back("fail-on-regression");
    for (const auto& input : names) {
      INFO(input);
      CHECK(inputs.find("\n      " + input + ":\n") != std::string::npos);
    }
    // No stored secret: Azure is reached with the job's OIDC token and two identifiers.
    CHECK(yml.find("secrets") == std::string::npos);
    CHECK(yml.find("AZURE_CLIENT_ID: ${{ inputs.azure-client-id }}") != std::string::npos);
    // The optional setup hook comes from the invocation checkout, staged at a fixed path (`uses:`
    // takes no expressions, and the checkout's path names the repository).
    CHECK(yml.find("run: bash bench-history-tool/.github/scripts/setup-hook.sh \"src/$GITHUB_REPOSITORY\" >> "
                   "\"$GITHUB_OUTPUT\"") != std::string::npos);
    CHECK(yml.find("if: steps.hook.outputs.found == 'true'\n        uses: ./bench-history-setup\n") != std::string::npos);
  }
  const auto history = read(source / ".github/workflows/history.yml");
  CHECK(history.find("collect --skip-existing") != std::string::npos);
  CHECK(history.find("name: bench-history-report-${{ github.run_id }}") != std::string::npos);
  CHECK(history.find("publish history") != std::string::npos);
  CHECK(history.find("publish failure") != std::string::npos);
  CHECK(history.find(">> \"$GITHUB_STEP_SUMMARY\"") != std::string::npos);
  // bisect-builds (docs/bisect.md): off by default; on, bisect runs on the analyzing runner with the
  // measurement inputs, after collection and before the report that publication reads.
  CHECK(inputs_block(history).find("\n      bisect-builds:\n") != std::string::npos);
  CHECK(inputs_block(history).find("        type: number\n        default: 0", inputs_block(history).find("bisect-builds:")) !=
        std::string::npos);
  const auto bisect_step = history.find("      - name: Bisect\n        if: inputs.bisect-builds > 0\n");
  REQUIRE(bisect_step != std::string::npos);
  CHECK(history.find("needs: [tool, prepare, collect]") < bisect_step);
  CHECK(bisect_step < history.find("      - name: Analyze\n"));
  CHECK(bisect_step < history.find("publish history"));
  CHECK(history.find("BISECT_BUILDS: ${{ inputs.bisect-builds }}", bisect_step) != std::string::npos);
  CHECK(history.find("cargo-bench-history bisect --cache=\"$RUNNER_TEMP/bench-history-cache\" --max-builds "
                     "\"$BISECT_BUILDS\"",
                     bisect_step) != std::string::npos);
  CHECK(history.find("scope-args.sh", bisect_step) < history.find("      - name: Analyze\n"));
  // The runner measures as the collect jobs do: the setup hook and rustflags, only when bisecting.
  CHECK(history.find("      - name: Find the repository setup hook\n        id: hook\n        if: inputs.bisect-builds > 0\n") !=
        std::string::npos);
  CHECK(history.find("if: inputs.bisect-builds > 0 && steps.hook.outputs.found == 'true'\n        uses: ./bench-history-setup\n") !=
        std::string::npos);
  CHECK(read(source / "docs/github.md").find("      bisect-builds: 8\n") != std::string::npos);
  const auto pr = read(source / ".github/workflows/pr.yml");
  CHECK(pr.find("collect --skip-existing") != std::string::npos);
  CHECK(pr.find("name: pr-bench-history-report-${{ github.event.pull_request.number }}") != std::string::npos);
  CHECK(pr.find("concurrency:\n  group: cargo-bench-history-pr-${{ github.repository }}-${{ "
                "github.event.pull_request.number }}") != std::string::npos);
  CHECK(pr.find("  cancel-in-progress: true\n") != std::string::npos);
  CHECK(pr.find("github.event.pull_request.head.repo.full_name == github.repository") != std::string::npos);
  CHECK(pr.find("--fail-on regression") != std::string::npos);
  CHECK(pr.find("default: false") != std::string::npos);
  const auto backfill = read(source / ".github/workflows/backfill.yml");
  CHECK(backfill.find("timeout-minutes: 360") != std::string::npos);
  CHECK(backfill.find("cancel-in-progress: false") != std::string::npos);
  CHECK(backfill.find("upload-artifact") == std::string::npos);  // it only stores data
  CHECK(backfill.find("publish") == std::string::npos);

  const auto caller_permissions = [](const std::string& file) {
    const auto yml = read(source / "examples/github/.github/workflows" / file);
    const auto a = yml.find("    permissions:\n");
    const auto b = yml.find("    uses:", a);
    return yml.substr(a, b - a);
  };
  CHECK(caller_permissions("benchmark-history.yml") ==
        "    permissions:\n      contents: read\n      actions: read\n      id-token: write\n      issues: write\n");
  CHECK(caller_permissions("benchmark-pr.yml") ==
        "    permissions:\n      contents: read\n      actions: read\n      id-token: write\n      pull-requests: write\n");
  CHECK(caller_permissions("benchmark-backfill.yml") == "    permissions:\n      contents: read\n      id-token: write\n");
}

TEST_CASE("docs/github.md shows the caller files and the setup hook exactly as shipped", "[automation][workflows]") {
  const auto doc = read(source / "docs/github.md");
  for (const char* f : {"examples/github/.github/workflows/benchmark-history.yml",
                        "examples/github/.github/workflows/benchmark-pr.yml",
                        "examples/github/.github/workflows/benchmark-backfill.yml",
                        "examples/github/.github/actions/bench-history-setup/action.yml"}) {
    INFO(f);
    CHECK(doc.find("```yaml\n" + read(source / f) + "```\n") != std::string::npos);
  }
}

TEST_CASE("platforms: Linux labels become the matrix; Windows, macOS and old Ubuntu fail at once saying why",
          "[automation][workflows]") {
  const std::string script = (source / ".github/scripts/platforms.sh").string();
  auto ok = run({"bash", script}, {{"PLATFORMS", "ubuntu-latest, ubuntu-24.04-arm,ubuntu-latest\nself-hosted-linux"}});
  CHECK(ok.exit_code == 0);
  CHECK(ok.out == "matrix=[\"ubuntu-latest\",\"ubuntu-24.04-arm\",\"self-hosted-linux\"]\n");
  // GitHub's runner labels are case-insensitive: case variants are the same label (listed once, in
  // lower case) and are refused alike; every ubuntu-XX.YY older than 24.04 is refused, suffixed or not.
  auto cased = run({"bash", script}, {{"PLATFORMS", "Ubuntu-Latest,ubuntu-latest,UBUNTU-24.04,ubuntu-24.04-ARM,ubuntu-26.04"}});
  CHECK(cased.exit_code == 0);
  CHECK(cased.out == "matrix=[\"ubuntu-latest\",\"ubuntu-24.04\",\"ubuntu-24.04-arm\",\"ubuntu-26.04\"]\n");
  for (const char* bad : {"ubuntu-latest,windows-latest", "macos-latest", "ubuntu-22.04", "Ubuntu-22.04", "UBUNTU-20.04",
                          "ubuntu-18.04", "ubuntu-16.04", "ubuntu-23.10", "ubuntu-22.04-arm", "Ubuntu-22.04-ARM",
                          "Windows-Latest", "MACOS-14", "MacOS-latest", "ubuntu-latest,ubuntu-20.04"}) {
    INFO(bad);
    auto r = run({"bash", script}, {{"PLATFORMS", bad}});
    CHECK(r.exit_code == 1);
    CHECK(r.out.empty());  // nothing reaches $GITHUB_OUTPUT
    CHECK(r.err.find("::error title=Unsupported platform::platforms: ") != std::string::npos);
  }
  CHECK(run({"bash", script}, {{"PLATFORMS", "windows-latest"}}).err.find("builds only on Linux runners") != std::string::npos);
  CHECK(run({"bash", script}, {{"PLATFORMS", "UBUNTU-20.04"}}).err.find("platforms: UBUNTU-20.04 — its distribution has no "
                                                                        "Boost.JSON 1.81+") != std::string::npos);
  CHECK(run({"bash", script}, {{"PLATFORMS", " , "}}).err.find("platforms is empty") != std::string::npos);
  CHECK(run({"bash", script}, {{"PLATFORMS", "ubuntu-latest;rm"}}).exit_code == 1);
}

TEST_CASE("scope-args.sh turns the measurement inputs into collect/backfill arguments", "[automation][workflows]") {
  const std::string script = (source / ".github/scripts/scope-args.sh").string();
  auto all = run({"bash", script}, {{"EXCLUDE", "a, b"}, {"BENCH", "x"}, {"FEATURES", "f1 f2"}, {"ALL_FEATURES", "true"},
                                    {"NO_DEFAULT_FEATURES", "false"}, {"BEST_OF", "3"}, {"CONFIG", "ci.toml"},
                                    {"PACKAGES", std::nullopt}});
  CHECK(all.exit_code == 0);
  CHECK(all.out == "--config\nci.toml\n--workspace\n--exclude\na\n--exclude\nb\n--bench\nx\n--features\nf1 f2\n"
                   "--all-features\n--best-of\n3\n");
  auto packages = run({"bash", script}, {{"PACKAGES", "parse report"}, {"EXCLUDE", "a"}, {"BEST_OF", "1"}});
  CHECK(packages.out == "--package\nparse\n--package\nreport\n--best-of\n1\n");
  auto bad = run({"bash", script}, {{"BEST_OF", "0"}});
  CHECK(bad.exit_code == 1);
  CHECK(bad.err.find("best-of must be a positive integer") != std::string::npos);
}

TEST_CASE("rustflags.sh appends to the encoded flags when set, else to RUSTFLAGS; empty changes nothing",
          "[automation][workflows]") {
  const std::string script = (source / ".github/scripts/rustflags.sh").string();
  CHECK(run({"bash", script}, {{"INPUT_RUSTFLAGS", ""}, {"RUSTFLAGS", "-g"}}).out.empty());
  CHECK(run({"bash", script}, {{"INPUT_RUSTFLAGS", "-C  target-cpu=native"}, {"RUSTFLAGS", "-g"},
                               {"CARGO_ENCODED_RUSTFLAGS", std::nullopt}})
            .out == "RUSTFLAGS=-g -C target-cpu=native\n");
  CHECK(run({"bash", script}, {{"INPUT_RUSTFLAGS", "-Dwarnings"}, {"RUSTFLAGS", std::nullopt},
                               {"CARGO_ENCODED_RUSTFLAGS", std::nullopt}})
            .out == "RUSTFLAGS=-Dwarnings\n");
  CHECK(run({"bash", script}, {{"INPUT_RUSTFLAGS", "-C opt-level=3"}, {"CARGO_ENCODED_RUSTFLAGS", "--cfg\x1f" "a b"}})
            .out == "CARGO_ENCODED_RUSTFLAGS=--cfg\x1f" "a b\x1f-C\x1fopt-level=3\n");
}

TEST_CASE("the workflow scripts are shellcheck-clean", "[automation][workflows]") {
  std::vector<std::string> argv{"shellcheck"};
  for (const auto& e : fs::directory_iterator(source / ".github/scripts")) argv.push_back(e.path().string());
  auto r = run(argv);
  INFO(r.out << r.err);
  CHECK(r.exit_code == 0);
}

TEST_CASE("an invalid best-of stops every collect, bisect and backfill step before the tool runs",
          "[automation][workflows]") {
  struct Step {
    const char* workflow;
    const char* name;
    const char* command;  // the tool's first arguments when it does run
  };
  const Step steps[] = {{"history", "Collect", "collect\n--skip-existing\n"},
                        {"history", "Bisect", "bisect\n"},
                        {"pr", "Collect the affected packages", "collect\n--skip-existing\n"},
                        {"backfill", "Backfill", "backfill\n"}};
  const std::map<std::string, std::optional<std::string>> inputs = {
      {"CONFIG", ""}, {"EXCLUDE", ""}, {"BENCH", ""}, {"FEATURES", ""}, {"ALL_FEATURES", "false"},
      {"NO_DEFAULT_FEATURES", "false"}, {"PACKAGES", ""}, {"BISECT_BUILDS", "4"}, {"FROM", "a1"}, {"TO", "b2"},
      {"MAX_COMMITS", ""}, {"IGNORE_ERRORS", "false"}};
  for (const auto& step : steps) {
    INFO(step.workflow << ": " << step.name);
    const auto yml = read(source / ".github/workflows" / (std::string(step.workflow) + ".yml"));
    // The exit status of a process substitution is lost even under set -euo pipefail.
    CHECK(yml.find("< <(") == std::string::npos);
    const auto script = step_script(yml, step.name);
    REQUIRE(script.find("scope-args.sh") != std::string::npos);
    for (const char* bad : {"0", "2.5", "-1", "x"}) {
      INFO("best-of " << bad);
      auto env = inputs;
      env["BEST_OF"] = bad;
      const auto r = run_step(script, env);
      CHECK(r.result.exit_code != 0);
      CHECK(r.result.err.find("best-of must be a positive integer, not \"" + std::string(bad) + "\"") != std::string::npos);
      CHECK_FALSE(r.calls.has_value());
    }
    auto env = inputs;
    env["BEST_OF"] = "3";
    const auto ok = run_step(script, env);
    INFO(ok.result.out << ok.result.err);
    CHECK(ok.result.exit_code == 0);
    REQUIRE(ok.calls.has_value());
    CHECK(ok.calls->rfind(step.command, 0) == 0);
    CHECK(ok.calls->find("--workspace\n") != std::string::npos);
    CHECK(ok.calls->find("\n--best-of\n3\n") != std::string::npos);
  }
}

TEST_CASE("pr.yml edits the pending comment to say the run failed, on failure but not on cancellation",
          "[automation][workflows]") {
  const auto pr = read(source / ".github/workflows/pr.yml");
  const auto failed = job_block(pr, "failed");
  INFO(failed);
  // After everything that can fail once the pending comment may exist.
  CHECK(failed.find("    needs: [tool, prepare, collect, analyze]\n") != std::string::npos);
  const auto if_at = failed.find("    if: >-\n");
  REQUIRE(if_at != std::string::npos);
  const auto condition = failed.substr(if_at, failed.find("    runs-on:") - if_at);
  CHECK(condition.find("failure()") != std::string::npos);
  // A run cancelled by a newer push is superseded by that push's pending comment.
  CHECK(condition.find("!cancelled()") != std::string::npos);
  CHECK(condition.find("always()") == std::string::npos);
  // Only when the pending step ran (succeeded or failed: the comment may exist) and no later step
  // left a final comment (nothing benchmarked, or the result even when the regression gate fails).
  CHECK(condition.find("(needs.prepare.outputs.pending == 'success' || needs.prepare.outputs.pending == 'failure')") !=
        std::string::npos);
  CHECK(condition.find("needs.prepare.outputs.nothing-benchmarked != 'success'") != std::string::npos);
  CHECK(condition.find("needs.analyze.outputs.commented != 'success'") != std::string::npos);
  const auto prepare = job_block(pr, "prepare");
  CHECK(prepare.find("      pending: ${{ steps.pending.outcome }}\n") != std::string::npos);
  CHECK(prepare.find("      nothing-benchmarked: ${{ steps.nothing.outcome }}\n") != std::string::npos);
  CHECK(prepare.find("      - name: Post the pending comment\n        id: pending\n") != std::string::npos);
  CHECK(prepare.find("      - name: Say that nothing was benchmarked\n        id: nothing\n") != std::string::npos);
  const auto analyze = job_block(pr, "analyze");
  CHECK(analyze.find("      commented: ${{ steps.comment.outcome }}\n") != std::string::npos);
  CHECK(analyze.find("      - name: Update the pull-request comment\n        id: comment\n") != std::string::npos);
  CHECK(analyze.find("--json \"$out/report.json\"", analyze.find("id: comment")) != std::string::npos);
  // The same permissions and environment as the other publish steps.
  CHECK(failed.find("    permissions:\n      contents: read\n      pull-requests: write\n    steps:") != std::string::npos);
  CHECK(failed.find("uses: ./bench-history-tool/.github/actions/build-tool") != std::string::npos);
  CHECK(failed.find("          GITHUB_TOKEN: ${{ github.token }}\n") != std::string::npos);
  CHECK(failed.find("          RUN_URL: ${{ github.server_url }}/${{ github.repository }}/actions/runs/${{ github.run_id }}\n") !=
        std::string::npos);
  CHECK(failed.find("        working-directory: ") != std::string::npos);
  CHECK(failed.find("cargo-bench-history publish pr \"${config[@]}\" --pr \"$PR\" --failed --commit \"$HEAD_SHA\" "
                    "--run-url \"$RUN_URL\"") != std::string::npos);
  CHECK(failed.find("ref: ${{ github.event.pull_request.head.sha }}") != std::string::npos);
}

TEST_CASE("history.yml serializes analyze-and-publish per repository, project directory and configuration, "
          "never collection",
          "[automation][workflows]") {
  const auto history = read(source / ".github/workflows/history.yml");
  // Not the whole run: a waiting run replaced by a newer one would lose its push's measurement.
  CHECK(history.substr(0, history.find("\njobs:\n")).find("concurrency:") == std::string::npos);
  for (const char* job : {"tool", "prepare", "collect"}) {
    INFO(job);
    CHECK(job_block(history, job).find("concurrency:") == std::string::npos);
  }
  const std::string key = "${{ github.repository }}-${{ inputs.working-directory }}-${{ inputs.config }}";
  const auto analyze = job_block(history, "analyze");
  INFO(analyze);
  CHECK(analyze.find("    concurrency:\n      group: cargo-bench-history-history-" + key +
                     "\n      cancel-in-progress: false\n") != std::string::npos);
  CHECK(analyze.find("publish history") != std::string::npos);
  // Alerts are serialized too, in a group of their own: an alert never replaces a waiting analysis.
  const auto failure = job_block(history, "failure");
  CHECK(failure.find("    concurrency:\n      group: cargo-bench-history-history-failure-" + key +
                     "\n      cancel-in-progress: false\n") != std::string::npos);
  CHECK(failure.find("publish failure") != std::string::npos);
}

TEST_CASE("the workflows check the repository out at a path whose last component is its name, so the default "
          "project id is the repository's name",
          "[automation][workflows]") {
  // The tool's project id defaults to the name of the git working tree's root directory: a
  // checkout at `repo` made every CI history "repo", apart from the local clone's.
  const std::string checkout = "src/${{ github.repository }}";
  for (const char* name : {"history", "pr", "backfill"}) {
    INFO(name);
    const auto yml = read(source / ".github/workflows" / (std::string(name) + ".yml"));
    CHECK(yml.find("path: repo") == std::string::npos);
    CHECK(yml.find("repo/") == std::string::npos);
    CHECK(yml.find("'repo") == std::string::npos);
    CHECK(yml.find("hashFiles(") == std::string::npos);
    // Every checkout: the tool's source at bench-history-tool, or the caller's repository at
    // src/<owner>/<name> (github.repository, which every event has; github.event.repository is
    // missing from some scheduled runs' payloads).
    std::size_t checkouts = 0;
    for (auto at = yml.find("- uses: actions/checkout@v4\n"); at != std::string::npos;
         at = yml.find("- uses: actions/checkout@v4\n", at + 1)) {
      const auto end = yml.find("\n      - ", at + 1);
      const auto block = yml.substr(at, end == std::string::npos ? std::string::npos : end - at);
      INFO(block);
      if (block.find("repository: ${{ needs.tool.outputs.repository }}") != std::string::npos) {
        CHECK(block.find("          path: bench-history-tool\n") != std::string::npos);
      } else {
        CHECK(block.find("          path: " + checkout + "\n") != std::string::npos);
        ++checkouts;
      }
    }
    CHECK(checkouts >= 2);
    // Every command runs in the project directory inside that checkout.
    std::size_t dirs = 0;
    for (auto at = yml.find("working-directory: "); at != std::string::npos; at = yml.find("working-directory: ", at + 1)) {
      const auto line = yml.substr(at, yml.find('\n', at) - at);
      if (line.find("description") != std::string::npos) continue;
      INFO(line);
      CHECK(line == "working-directory: " + checkout + "/${{ inputs.working-directory }}");
      ++dirs;
    }
    CHECK(dirs >= 1);
    CHECK(yml.find("run: cp -a \"src/$GITHUB_REPOSITORY/$SOURCE_PATH\" bench-history-tool") != std::string::npos);
  }
  // Backfill's checkout is the invocation commit: configuration, the setup hook and a source-path
  // tool come from it, never from the range end (a historical commit).
  const auto backfill = read(source / ".github/workflows/backfill.yml");
  CHECK(backfill.find("ref: ${{ needs.prepare.outputs.to }}") == std::string::npos);
  CHECK(backfill.find("          path: " + checkout + "\n          ref: ${{ github.sha }}\n          fetch-depth: 0\n") !=
        std::string::npos);
  // Expanded as the runner expands it, the checkout's last component is the repository's name
  // (GITHUB_REPOSITORY is github.repository).
  const std::string repository = "octo-org/widgets";
  auto expanded = checkout;
  expanded.replace(expanded.find("${{ github.repository }}"), 24, repository);
  CHECK(fs::path(expanded).filename() == "widgets");
}

TEST_CASE("setup-hook.sh stages the repository's setup hook at a fixed path when there is one", "[automation][workflows]") {
  const std::string script = (source / ".github/scripts/setup-hook.sh").string();
  TempDir ws("hook");
  const auto checkout = ws.path / "src/octo-org/widgets";
  fs::create_directories(checkout);
  auto none = run({"bash", script, "src/octo-org/widgets"}, {}, ws.path);
  CHECK(none.exit_code == 0);
  CHECK(none.out == "found=false\n");
  CHECK_FALSE(fs::exists(ws.path / "bench-history-setup"));
  for (const char* file : {"action.yml", "action.yaml"}) {
    INFO(file);
    fs::remove_all(checkout / ".github");
    write_file(checkout / ".github/actions/bench-history-setup" / file, "name: hook\n");
    write_file(checkout / ".github/actions/bench-history-setup/install.sh", "echo hi\n", true);
    auto found = run({"bash", script, "src/octo-org/widgets"}, {}, ws.path);
    CHECK(found.exit_code == 0);
    CHECK(found.out == "found=true\n");
    CHECK(read(ws.path / "bench-history-setup" / file) == "name: hook\n");
    CHECK(fs::exists(ws.path / "bench-history-setup/install.sh"));
  }
  // A stale copy never survives a checkout without a hook.
  fs::remove_all(checkout / ".github");
  CHECK(run({"bash", script, "src/octo-org/widgets"}, {}, ws.path).out == "found=false\n");
  CHECK_FALSE(fs::exists(ws.path / "bench-history-setup"));
  CHECK(run({"bash", script}, {}, ws.path).exit_code == 2);
}

TEST_CASE("pr.yml's package selection passes the config input to affected (a bench_command project is measured whole)",
          "[automation][workflows]") {
  const auto script = step_script(read(source / ".github/workflows/pr.yml"), "Select the affected packages");
  const std::map<std::string, std::optional<std::string>> inputs = {
      {"BASE_REF", "main"}, {"HEAD_SHA", "abc123"}, {"EXCLUDE", "a, b"}, {"CONFIG", "ci/bench_history.toml"}};
  const auto with = run_step(script, inputs);
  INFO(with.result.out << with.result.err);
  CHECK(with.result.exit_code == 0);
  REQUIRE(with.calls.has_value());
  CHECK(*with.calls == "affected\n--config\nci/bench_history.toml\n--base\norigin/main\n--head\nabc123\n--exclude\na\n"
                       "--exclude\nb\n");
  auto env = inputs;
  env["CONFIG"] = "";
  env["EXCLUDE"] = "";
  const auto without = run_step(script, env);
  CHECK(without.result.exit_code == 0);
  REQUIRE(without.calls.has_value());
  CHECK(*without.calls == "affected\n--base\norigin/main\n--head\nabc123\n");
}
