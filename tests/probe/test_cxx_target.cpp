// The C++ compiler's target triple (docs/bench-command.md): normalisation of real compilers'
// -dumpmachine spellings, and the probe run against Debian's real g++ and clang++.
#include <catch2/catch.hpp>

#include "benchhist/probe/cxx_target.hpp"
#include "probe/toolchain.hpp"

using namespace benchhist;

TEST_CASE("-dumpmachine spellings normalise to the triple Rust uses", "[probe][cxx]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x86_64-linux-gnu", "x86_64-unknown-linux-gnu"},          // Debian g++
      {"x86_64-pc-linux-gnu", "x86_64-unknown-linux-gnu"},       // Debian clang++
      {"aarch64-linux-gnu", "aarch64-unknown-linux-gnu"},
      {"x86_64-alpine-linux-musl", "x86_64-unknown-linux-musl"},
      {"x86_64-redhat-linux", "x86_64-unknown-linux-gnu"},        // Fedora g++: no environment
      {"arm-linux-gnueabihf", "arm-unknown-linux-gnueabihf"},
      {"arm64-apple-darwin23.1.0", "aarch64-apple-darwin"},       // Apple clang
      {"x86_64-apple-darwin22.6.0", "x86_64-apple-darwin"},
      {"x86_64-w64-mingw32", "x86_64-pc-windows-gnu"},
      {"x86_64-pc-windows-msvc", "x86_64-pc-windows-msvc"},
      {"x86_64-unknown-freebsd13.2", "x86_64-unknown-freebsd"},
      {"aarch64-linux-android", "aarch64-linux-android"},
      {"  X86_64-Linux-GNU\n", "x86_64-unknown-linux-gnu"},
      {"weird", "weird"},
  };
  for (const auto& [raw, want] : cases) {
    INFO(raw);
    CHECK(probe::normalize_target_triple(raw) == want);
  }
}

TEST_CASE("probe_cxx_target asks $CXX (default c++), splitting a launcher prefix", "[probe][cxx]") {
  probe::MapEnvironment env;
  const auto def = probe::probe_cxx_target(env);
  REQUIRE(def);
  CHECK(def->compiler == "c++");
  // On the build machine it agrees with the Rust host, so C++ and Rust histories share a partition.
  CHECK(def->triple == probe::fallback_host_triple());

  env.set("CXX", "clang++");
  const auto clang = probe::probe_cxx_target(env);
  REQUIRE(clang);
  CHECK(clang->raw.find("-pc-linux-gnu") != std::string::npos);  // clang's vendor spelling
  CHECK(clang->triple == probe::fallback_host_triple());

  env.set("CXX", "env g++");  // a launcher in front of the compiler, like `ccache g++`
  const auto wrapped = probe::probe_cxx_target(env);
  REQUIRE(wrapped);
  CHECK(wrapped->compiler == "env g++");
  CHECK(wrapped->triple == probe::fallback_host_triple());

  env.set("CXX", "/nonexistent/c++");
  CHECK_FALSE(probe::probe_cxx_target(env));
  env.set("CXX", "false");  // runs, fails
  CHECK_FALSE(probe::probe_cxx_target(env));
}
