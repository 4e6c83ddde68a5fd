#include <catch2/catch.hpp>

#include "benchhist/probe/process.hpp"
#include "probe/toolchain.hpp"
#include "temp_dir.hpp"

using namespace benchhist;
using bh_test::TempDir;

TEST_CASE("rustc -vV output yields release and host", "[probe][toolchain]") {
  auto info = probe::parse_rustc_version_output(
      "rustc 1.95.0 (59807616e 2026-04-14)\n"
      "binary: rustc\n"
      "commit-hash: 59807616e1\n"
      "commit-date: 2026-04-14\n"
      "host: x86_64-unknown-linux-gnu\n"
      "release: 1.95.0\n"
      "LLVM version: 20.1.8\n");
  CHECK(info.release == "1.95.0");
  CHECK(info.host == "x86_64-unknown-linux-gnu");
}

TEST_CASE("the release falls back to the token after rustc on the first line", "[probe][toolchain]") {
  auto info = probe::parse_rustc_version_output("rustc 1.80.0-nightly (abc 2024-05-01)\nhost: aarch64-apple-darwin\n");
  CHECK(info.release == "1.80.0-nightly");
  CHECK(info.host == "aarch64-apple-darwin");
}

TEST_CASE("empty values and surrounding whitespace are ignored; CRLF is tolerated", "[probe][toolchain]") {
  auto info = probe::parse_rustc_version_output("rustc 1.2.3 (x)\r\n  release:   \r\n  host:  x86_64-pc-windows-msvc \r\n");
  CHECK(info.release == "1.2.3");  // empty release: → first-line fallback
  CHECK(info.host == "x86_64-pc-windows-msvc");
  auto none = probe::parse_rustc_version_output("something else\nhost:\n");
  CHECK_FALSE(none.release);
  CHECK_FALSE(none.host);
  CHECK(probe::parse_rustc_version_output("") == probe::RustcVersionInfo{});
}

TEST_CASE("the fallback host triple is this platform spelled as Rust does", "[probe][toolchain]") {
  auto t = probe::fallback_host_triple();
#if defined(__x86_64__) && defined(__linux__)
  CHECK(t == "x86_64-unknown-linux-gnu");
#elif defined(__aarch64__) && defined(__linux__)
  CHECK(t == "aarch64-unknown-linux-gnu");
#endif
  CHECK_FALSE(t.empty());
}

TEST_CASE("a missing rustc gives a null version and the fallback triple", "[probe][toolchain]") {
  probe::ToolchainProbeOptions opts;
  opts.rustc = "bh-no-such-rustc";
  auto info = probe::probe_toolchain(opts);
  CHECK_FALSE(info.rustc_version);
  CHECK(info.target_triple == probe::fallback_host_triple());
}

TEST_CASE("a failing rustc is treated like a missing one", "[probe][toolchain]") {
  TempDir dir("fake_rustc");
  auto script = dir.write("rustc", "#!/bin/sh\necho 'release: 9.9.9'\necho 'host: fake-triple'\nexit 1\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  probe::ToolchainProbeOptions opts;
  opts.rustc = script.string();
  auto info = probe::probe_toolchain(opts);
  CHECK_FALSE(info.rustc_version);
  CHECK(info.target_triple == probe::fallback_host_triple());
}

TEST_CASE("backfill probing runs in the given directory without RUSTUP_TOOLCHAIN and CARGO",
          "[probe][toolchain]") {
  TempDir dir("fake_rustc_env");
  // The fake rustc reports its working directory and the two variables through its output.
  auto script = dir.write("bin/rustc",
                          "#!/bin/sh\n"
                          "echo \"rustc 0.0.1 (x)\"\n"
                          "echo \"release: ${RUSTUP_TOOLCHAIN-none}+${CARGO-none}\"\n"
                          "echo \"host: $(basename \"$(pwd)\")\"\n");
  std::filesystem::permissions(script, std::filesystem::perms::owner_all);
  std::filesystem::create_directories(dir.path() / "checkout-dir");
  ::setenv("RUSTUP_TOOLCHAIN", "nightly", 1);
  ::setenv("CARGO", "/usr/bin/cargo", 1);

  probe::ToolchainProbeOptions collect;
  collect.rustc = script.string();
  collect.cwd = dir.path() / "checkout-dir";
  auto launched = probe::probe_toolchain(collect);
  CHECK(launched.rustc_version == "nightly+/usr/bin/cargo");
  CHECK(launched.target_triple == "checkout-dir");

  probe::ToolchainProbeOptions backfill = collect;
  backfill.isolate_from_launcher = true;
  auto isolated = probe::probe_toolchain(backfill);
  CHECK(isolated.rustc_version == "none+none");
  CHECK(isolated.target_triple == "checkout-dir");

  ::unsetenv("RUSTUP_TOOLCHAIN");
  ::unsetenv("CARGO");
}

TEST_CASE("the real rustc on this machine is probed", "[probe][toolchain]") {
  probe::ProcessSpec check;
  check.argv = {"rustc", "-vV"};
  check.capture_stderr = true;
  probe::ProcessResult r;
  try {
    r = probe::run_process(check);
  } catch (const std::exception&) {
    WARN("rustc is not installed; skipping");
    return;
  }
  if (!r.success()) {
    WARN("rustc -vV failed; skipping");
    return;
  }
  auto info = probe::probe_toolchain();
  REQUIRE(info.rustc_version);
  CHECK(info.rustc_version->find('.') != std::string::npos);
  CHECK(info.target_triple == probe::parse_rustc_version_output(r.out).host);
  CHECK(info.target_triple.find('-') != std::string::npos);
}
