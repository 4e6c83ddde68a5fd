#include "benchhist/probe/cxx_target.hpp"

#include <vector>

#include "benchhist/error.hpp"
#include "benchhist/model/ascii.hpp"
#include "benchhist/probe/process.hpp"

namespace benchhist::probe {
namespace {

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = s.find(sep, start);
    std::string part(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
    if (!part.empty()) out.push_back(std::move(part));
    if (at == std::string_view::npos) return out;
    start = at + 1;
  }
}

// `darwin23.1.0` → `darwin`, `freebsd13.2` → `freebsd`: the OS version is not a platform.
std::string strip_version(const std::string& os) {
  std::size_t end = os.size();
  while (end > 0 && ((os[end - 1] >= '0' && os[end - 1] <= '9') || os[end - 1] == '.')) --end;
  return end == 0 ? os : os.substr(0, end);
}

bool is_os(const std::string& s) {
  const std::string os = strip_version(s);
  for (std::string_view known : {"linux", "darwin", "macos", "windows", "mingw", "freebsd", "netbsd", "openbsd",
                                 "dragonfly", "android", "ios", "solaris", "illumos", "haiku", "none", "wasi", "emscripten",
                                 "cygwin", "msys"})
    if (os == known) return true;
  return false;
}

}  // namespace

std::string normalize_target_triple(std::string_view raw_in) {
  const std::string raw = ascii::to_lower(ascii::trim(raw_in));
  std::vector<std::string> parts = split(raw, '-');
  if (parts.size() < 2) return raw;

  std::string arch = parts[0];
  if (arch == "arm64") arch = "aarch64";
  if (arch == "amd64") arch = "x86_64";
  // The vendor is optional in GCC's spelling (`x86_64-linux-gnu`).
  std::string vendor;
  std::size_t i = 1;
  if (!is_os(parts[1])) vendor = parts[i++];
  if (i >= parts.size()) return raw;
  std::string os = strip_version(parts[i++]);
  std::string env = i < parts.size() ? parts[i] : std::string();

  if (os == "mingw" || os == "cygwin" || os == "msys") return arch + "-pc-windows-gnu";  // mingw32 minus its "version"
  if (os == "windows") return arch + "-pc-windows-" + (env.empty() ? std::string("msvc") : env);
  if (os == "darwin" || os == "macos") return arch + "-apple-darwin";
  if (os == "linux") {
    if (env.empty()) env = "gnu";  // Red Hat's `x86_64-redhat-linux`
    if (env == "android" || env.starts_with("androideabi")) return arch + "-linux-" + env;
    return arch + "-unknown-linux-" + env;
  }
  // Other systems: Rust spells the vendor `unknown` when the compiler names none (or `pc`).
  if (vendor.empty() || vendor == "pc") vendor = "unknown";
  return arch + "-" + vendor + "-" + os + (env.empty() ? std::string() : "-" + env);
}

std::optional<CxxTarget> probe_cxx_target(const Environment& env, const std::filesystem::path& cwd) {
  const std::string compiler = env.non_empty("CXX").value_or("c++");
  ProcessSpec spec;
  spec.argv = split(compiler, ' ');  // `ccache g++` is a common CXX
  if (spec.argv.empty()) return std::nullopt;
  spec.argv.emplace_back("-dumpmachine");
  spec.cwd = cwd;
  spec.capture_stdout = true;
  spec.capture_stderr = true;
  ProcessResult r;
  try {
    r = run_process(spec);
  } catch (const Error&) {
    return std::nullopt;  // not installed: best effort
  }
  if (!r.success()) return std::nullopt;
  const std::string line(ascii::trim(std::string_view(r.out).substr(0, r.out.find('\n'))));
  if (line.empty()) return std::nullopt;
  return CxxTarget{normalize_target_triple(line), line, compiler};
}

}  // namespace benchhist::probe
