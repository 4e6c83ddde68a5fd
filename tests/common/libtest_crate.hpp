#pragma once
// tests/engines/harnesses/libtest-crate's `cargo bench` (#[bench] functions, run offline with
// RUSTC_BOOTSTRAP=1 for the unstable `test` crate), in a copy under the build directory whose
// target directory is kept between runs and suites: the first build takes ~10 s, later ones ~1 s.

#include <filesystem>
#include <stdexcept>
#include <string>

#include "benchhist/probe/process.hpp"

namespace benchhist::testing {

// The bench run's standard output (what the libtest engine reads). `work` sets BH_LIBTEST_WORK,
// the per-iteration loop length of bench_spin. Throws std::runtime_error with cargo's output when
// the run fails.
inline std::string cargo_bench_libtest(const std::string& work = "1000") {
  namespace fs = std::filesystem;
  const fs::path src = fs::path(BH_SOURCE_DIR) / "tests" / "engines" / "harnesses" / "libtest-crate";
  const fs::path root = fs::path(BH_BUILD_DIR) / "libtest-crate-cache";
  for (const char* rel : {"Cargo.toml", ".cargo/config.toml", "src/lib.rs"}) {
    fs::create_directories((root / "crate" / rel).parent_path());
    fs::copy_file(src / rel, root / "crate" / rel, fs::copy_options::update_existing);  // unchanged: no rebuild
  }
  probe::ProcessSpec spec;
  spec.argv = {"cargo", "bench"};
  spec.cwd = root / "crate";
  // Cargo's own lock on the target directory serialises suites that run this at once.
  spec.env_changes = {{"CARGO_TARGET_DIR", (root / "target").string()},
                      {"RUSTC_BOOTSTRAP", "1"},
                      {"BH_LIBTEST_WORK", work},
                      {"RUSTUP_TOOLCHAIN", std::nullopt},
                      {"CARGO", std::nullopt}};
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  const probe::ProcessResult r = probe::run_process(spec);
  if (!r.success()) throw std::runtime_error("cargo bench of the libtest crate failed:\n" + r.out + r.err);
  return r.out;
}

}  // namespace benchhist::testing
