// `rustc -vV` probing (docs/formats.md#toolchain).

#include "probe/toolchain.hpp"

#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/probe/process.hpp"

namespace benchhist::probe {

RustcVersionInfo parse_rustc_version_output(std::string_view text) {
  RustcVersionInfo info;
  std::optional<std::string> first_line_version;
  bool first = true;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view line = ascii::trim(text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos));
    pos = nl == std::string_view::npos ? text.size() : nl + 1;
    if (first) {
      first = false;
      if (line.rfind("rustc ", 0) == 0) {
        std::string_view rest = ascii::trim(line.substr(6));
        auto end = rest.find_first_of(" \t");
        std::string_view token = rest.substr(0, end);
        if (!token.empty()) first_line_version = std::string(token);
      }
    }
    auto value_of = [&](std::string_view prefix) -> std::optional<std::string> {
      if (line.rfind(prefix, 0) != 0) return std::nullopt;
      std::string_view v = ascii::trim(line.substr(prefix.size()));
      if (v.empty()) return std::nullopt;  // empty values are ignored
      return std::string(v);
    };
    if (auto v = value_of("release:")) info.release = v;
    if (auto v = value_of("host:")) info.host = v;
  }
  if (!info.release) info.release = first_line_version;
  return info;
}

std::string fallback_host_triple() {
#if defined(__x86_64__) || defined(_M_X64)
  constexpr const char* arch = "x86_64";
#elif defined(__aarch64__) || defined(_M_ARM64)
  constexpr const char* arch = "aarch64";
#elif defined(__i386__) || defined(_M_IX86)
  constexpr const char* arch = "x86";
#elif defined(__arm__)
  constexpr const char* arch = "arm";
#elif defined(__riscv) && __riscv_xlen == 64
  constexpr const char* arch = "riscv64";
#elif defined(__powerpc64__)
  constexpr const char* arch = "powerpc64";
#elif defined(__s390x__)
  constexpr const char* arch = "s390x";
#elif defined(__loongarch64)
  constexpr const char* arch = "loongarch64";
#else
  constexpr const char* arch = "unknown";
#endif
  std::string a(arch);
#if defined(_WIN32)
  return a + "-pc-windows-msvc";
#elif defined(__APPLE__)
  return a + "-apple-darwin";
#elif defined(__linux__)
  return a + "-unknown-linux-gnu";
#elif defined(__FreeBSD__)
  return a + "-unknown-freebsd";
#elif defined(__NetBSD__)
  return a + "-unknown-netbsd";
#elif defined(__OpenBSD__)
  return a + "-unknown-openbsd";
#else
  return a + "-unknown-unknown";
#endif
}

ToolchainInfo probe_toolchain(const ToolchainProbeOptions& options) {
  ProcessSpec spec;
  spec.argv = {options.rustc, "-vV"};
  spec.cwd = options.cwd;
  if (options.isolate_from_launcher) {
    spec.env_changes["RUSTUP_TOOLCHAIN"] = std::nullopt;
    spec.env_changes["CARGO"] = std::nullopt;
  }
  spec.capture_stdout = true;
  spec.capture_stderr = true;  // keep rustup's chatter off the user's terminal

  ToolchainInfo info;
  RustcVersionInfo parsed;
  try {
    auto result = run_process(spec);
    if (result.success()) parsed = parse_rustc_version_output(result.out);
  } catch (const Error&) {
    // rustc could not run: version null, host triple from our own platform
    // (docs/formats.md#toolchain).
  }
  info.rustc_version = parsed.release;
  info.target_triple = parsed.host ? *parsed.host : fallback_host_triple();
  return info;
}

}  // namespace benchhist::probe
