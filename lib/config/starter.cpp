// The starter configuration of `install` (docs/configuration.md "What install writes").

#include "benchhist/config/starter.hpp"

#include <string>
#include <system_error>

#include "benchhist/error.hpp"
#include "platform/platform.hpp"

namespace benchhist::config {
namespace {

// Every line is a comment, so the file parses to an empty configuration; sections in the
// order docs/configuration.md lists them. No engine or machine-key settings: those are never
// configured.
constexpr std::string_view kStarter =
    R"(# cargo-bench-history configuration (.cargo/bench_history.toml)
#
# This file is shared and version-controlled. Everything below is commented out, so as
# written it configures nothing and every setting keeps its default.

# Local storage is selected at run time, not in this shared file, because a local path is
# machine-dependent. For example:
#
#   cargo bench-history collect --local=./bench-history
#
# or a bare --local, which reads the path from the CARGO_BENCH_HISTORY_STORAGE environment
# variable:
#
#   CARGO_BENCH_HISTORY_STORAGE=./bench-history cargo bench-history collect --local
#
# --local always overrides a cloud backend configured below.

# [project]
# Identity of this workspace's benchmark history. Defaults to the name of the repository's
# root directory (the top of the git working tree, also from a subdirectory).
# id = "my-workspace"
# Base branch for analysis when --base is not given. Defaults to the branch detected from
# git (origin's HEAD, else main or master).
# default_branch = "main"

# Azure Blob storage (the cloud backend).
#
# Authentication uses Microsoft Entra ID only: there are no static credentials (no account
# keys, no SAS tokens) in this file. The endpoint must use HTTPS. The identity running the
# tool needs data-plane access to the container (for example the "Storage Blob Data
# Contributor" role on the storage account or container).
#
# In GitHub Actions, federate a managed identity or app registration with GitHub's OIDC
# issuer. Federated credential subjects look like:
#   repo:<owner>/<repository>:ref:refs/heads/main     (a run on the main branch)
#   repo:<owner>/<repository>:pull_request            (a pull-request run)
# See https://docs.github.com/en/actions/security-for-github-actions/security-hardening-your-deployments/configuring-openid-connect-in-azure
#
# [storage.azure]
# account = "myhistoryaccount"
# container = "bench-history"
# Optional; defaults to https://<account>.blob.core.windows.net (set it for emulators).
# endpoint = "https://myhistoryaccount.blob.core.windows.net"

# Benchmark ignore prefixes: benchmarks whose id (its segments joined by "/", as reports print
# it without the leading harness name: [<group>/]<function>[/<parameter>] for Criterion) starts
# with one of these strings stay stored and visible to `list` and
# `examine`, but `analyze` leaves them out and counts them as ignored by configuration.
#
# [analysis]
# ignore = ["multithreaded/", "network_"]

# [collect]
# A command to run instead of `cargo bench`, e.g. for C++ or whole programs (cargo-bench-history's
# docs/bench-command.md). It writes its reports into $BENCHHIST_OUTPUT_DIR, a fresh directory per
# run, where every file is recognised by its content (its docs/harnesses.md): Google Benchmark
# JSON, hyperfine --export-json, Catch2 XML (-r xml), the Bencher Metric Format, or cargo bench's
# #[bench] lines.
# A script such as bench.sh might run:
#
#   hyperfine --runs 10 --command-name startup './app --version' --export-json "$BENCHHIST_OUTPUT_DIR/hyperfine.json"
#   ./build/tests -r xml -o "$BENCHHIST_OUTPUT_DIR/catch2.xml" '[!benchmark]'
#
# bench_command = "./bench.sh"
)";

}  // namespace

std::string_view starter_config_text() { return kStarter; }

bool write_starter_config(const std::filesystem::path& path) {
  auto fail = [&](const std::string& cause) {
    return Error(ErrorKind::io, "failed to write the configuration file to " + path.string(), path.string(),
                 cause, "check that the directory is writable, or pass --config <path>");
  };
  std::error_code ec;
  if (path.has_parent_path()) {
    std::filesystem::create_directories(path.parent_path(), ec);
    if (ec) throw fail("could not create parent directories: " + ec.message());
  }
  // Created exclusively: never overwrite, even if a file appears between a check and the
  // write; a failed write leaves no truncated starter, which the next install would refuse
  // to replace.
  try {
    platform::write_new_file(path, kStarter, false);
  } catch (const platform::WriteError& e) {
    if (e.step == platform::WriteStep::create && e.code() == std::errc::file_exists) return false;
    throw fail(e.code().message());
  }
  return true;
}

}  // namespace benchhist::config
