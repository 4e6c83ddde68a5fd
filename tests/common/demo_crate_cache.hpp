#pragma once
// examples/demo-crate's Cargo dependencies (Criterion 0.3 and its crates from Debian's registry,
// offline) built once per build directory for every suite that runs a real `cargo bench`
// (backfill, e2e_collect). The build takes ~85 s on an idle machine; each suite used to pay it.

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "benchhist/probe/process.hpp"

namespace benchhist::testing {

// Copies examples/demo-crate's sources (not its target/ or Cargo.lock) into `dest`.
inline void copy_demo_crate(const std::filesystem::path& dest,
                            std::filesystem::copy_options how = std::filesystem::copy_options::overwrite_existing) {
  const std::filesystem::path src = std::filesystem::path(BH_SOURCE_DIR) / "examples" / "demo-crate";
  for (const char* rel : {"Cargo.toml", ".cargo/config.toml", "src/lib.rs", "benches/wordcount.rs"}) {
    std::filesystem::create_directories((dest / rel).parent_path());
    std::filesystem::copy_file(src / rel, dest / rel, how);
  }
}

struct DemoCrateCache {
  std::filesystem::path crate;   // a copy of examples/demo-crate with its Cargo.lock
  std::filesystem::path target;  // its warm Cargo target directory (`cargo bench --no-run`)
};

// `<build>/demo-crate-cargo-cache/{crate,target}`, brought up to date once per process under a
// lock file, so suites running at once build it once; a warm cache rebuilds at most the crate.
// Throws std::runtime_error with cargo's output when the build fails.
inline const DemoCrateCache& demo_crate_cache() {
  static const DemoCrateCache cache = [] {
    namespace fs = std::filesystem;
    const fs::path root = fs::path(BH_BUILD_DIR) / "demo-crate-cargo-cache";
    fs::create_directories(root);
    struct Lock {  // held until the build is done, whichever way it ends
      int fd;
      ~Lock() {
        if (fd >= 0) ::close(fd);  // closing releases the flock
      }
    } lock{::open((root.string() + ".lock").c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644)};
    if (lock.fd < 0 || ::flock(lock.fd, LOCK_EX) != 0)
      throw std::runtime_error("cannot lock " + root.string() + ".lock: remove it and re-run the suite");
    DemoCrateCache c{root / "crate", root / "target"};
    copy_demo_crate(c.crate, fs::copy_options::update_existing);  // unchanged sources keep their times
    probe::ProcessSpec build;
    build.argv = {"cargo", "bench", "--bench", "wordcount", "--no-run"};
    build.cwd = c.crate;
    // Not the toolchain or cargo of a parent cargo process, if any.
    build.env_changes = {{"CARGO_TARGET_DIR", c.target.string()}, {"RUSTUP_TOOLCHAIN", std::nullopt},
                         {"CARGO", std::nullopt}};
    build.capture_stdout = true;
    build.capture_stderr = true;
    const auto r = probe::run_process(build);
    if (!r.success())
      throw std::runtime_error("building examples/demo-crate's dependencies in " + c.crate.string() +
                               " failed (is librust-criterion-dev installed? scripts/install-deps.sh):\n" + r.out + r.err);
    return c;
  }();
  return cache;
}

// Creates the Cargo target directory `dest` as a copy of the warm cache with every file dated
// back one second, as `backfill --seed-target-dir` does: a checkout made afterwards is newer, so
// cargo rebuilds the crate itself from it and reuses only the dependencies.
inline void seed_cargo_target(const std::filesystem::path& dest) {
  namespace fs = std::filesystem;
  const auto& cache = demo_crate_cache();
  fs::create_directories(dest.parent_path());
  probe::ProcessSpec cp;
  cp.argv = {"cp", "-a", cache.target.string(), dest.string()};
  cp.capture_stderr = true;
  if (const auto r = probe::run_process(cp); !r.success())
    throw std::runtime_error("cannot copy " + cache.target.string() + " to " + dest.string() + ": " + r.err);
  const auto back = fs::file_time_type::clock::now() - std::chrono::seconds(1);
  for (const auto& e : fs::recursive_directory_iterator(dest))
    if (!e.is_symlink() && e.is_regular_file() && e.last_write_time() > back) fs::last_write_time(e.path(), back);
}

}  // namespace benchhist::testing
