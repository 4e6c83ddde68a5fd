#pragma once
// Test helper for the pipeline suites: run a shell command (git, mostly) and return its
// stdout without the trailing newline; a failing command fails the test.

#include <catch2/catch.hpp>

#include <cstdio>
#include <string>

namespace bhtest {

inline std::string sh(const std::string& cmd) {
  std::string out;
  FILE* p = ::popen(cmd.c_str(), "r");
  REQUIRE(p);
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
  REQUIRE(::pclose(p) == 0);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

}  // namespace bhtest
