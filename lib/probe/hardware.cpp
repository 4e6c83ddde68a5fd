// Linux hardware description (docs/formats.md#hardware).

#include "probe/hardware.hpp"

#include <sched.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cmath>
#include <fstream>
#include <map>
#include <numbers>
#include <set>
#include <sstream>
#include <thread>

#include "benchhist/model/ascii.hpp"

namespace benchhist::probe {
namespace {

namespace fs = std::filesystem;

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

using ascii::trim;

std::string lower(std::string_view s) { return ascii::to_lower(s); }

// One `processor : N` block of /proc/cpuinfo, keys as written by the kernel.
using CpuBlock = std::map<std::string, std::string>;

// Blocks keyed by their `processor` id; blocks without one (ARM32's trailing `Hardware`
// block) describe no processor and are skipped.
std::map<unsigned, CpuBlock> parse_cpuinfo(std::string_view text) {
  std::map<unsigned, CpuBlock> out;
  CpuBlock current;
  auto flush = [&] {
    auto it = current.find("processor");
    if (it != current.end()) {
      try {
        std::size_t used = 0;
        unsigned long id = std::stoul(it->second, &used, 10);
        if (used == it->second.size()) out.emplace(static_cast<unsigned>(id), current);
      } catch (const std::exception&) {
        // not a numeric id (ARM32 `Processor : <model>` uses a capital P, so this is rare)
      }
    }
    current.clear();
  };
  std::size_t pos = 0;
  while (pos <= text.size()) {
    auto nl = text.find('\n', pos);
    std::string_view line = text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    if (trim(line).empty()) {
      flush();
      continue;
    }
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    std::string key(trim(line.substr(0, colon)));
    std::string value(trim(line.substr(colon + 1)));
    current.emplace(std::move(key), std::move(value));  // first occurrence wins
  }
  flush();
  return out;
}

const std::string* find_key(const CpuBlock& block, std::string_view key, bool case_insensitive) {
  for (const auto& [k, v] : block) {
    if (case_insensitive ? lower(k) == lower(key) : k == key) return &v;
  }
  return nullptr;
}

// `0x041` → `0x41`: lowercase, unpadded (docs/formats.md#hardware). Unparseable values are kept
// lowercased.
std::string rerender_hex(std::string_view raw) {
  std::string v = lower(trim(raw));
  std::string digits = v;
  if (digits.rfind("0x", 0) == 0) digits = digits.substr(2);
  if (digits.empty() || digits.find_first_not_of("0123456789abcdef") != std::string::npos) return v;
  auto first = digits.find_first_not_of('0');
  return "0x" + (first == std::string::npos ? std::string("0") : digits.substr(first));
}

// x86 `model name`; on 64-bit ARM kernels (no model name) a synthesized label from the
// implementer and part — variant/revision are excluded so steppings share a key
// (docs/formats.md#hardware).
std::optional<std::string> processor_model(const CpuBlock& block) {
  if (auto m = find_key(block, "model name", false); m && !m->empty()) return *m;
  const std::string* impl = find_key(block, "CPU implementer", false);
  const std::string* part = find_key(block, "CPU part", false);
  std::vector<std::string> fields;
  if (impl && !impl->empty()) fields.push_back("cpu implementer=" + rerender_hex(*impl));
  if (part && !part->empty()) fields.push_back("cpu part=" + rerender_hex(*part));
  if (fields.empty()) return std::nullopt;
  std::string label = "cpuinfo(";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i) label += ", ";
    label += fields[i];
  }
  return label + ")";
}

// trunc(round(bogomips) × π); undisclosed → u64::MAX (docs/formats.md#hardware). Provenance only.
std::uint64_t processor_speed(const CpuBlock& block) {
  const std::string* b = find_key(block, "bogomips", true);
  if (!b) return undisclosed_processor_speed;
  // from_chars: locale-independent (a host application may have set a decimal-comma locale).
  double v = 0;
  auto [ptr, ec] = std::from_chars(b->data(), b->data() + b->size(), v);
  if (ec != std::errc{} || ptr == b->data() || !std::isfinite(v) || v < 0) return undisclosed_processor_speed;
  double speed = std::trunc(std::round(v) * std::numbers::pi);
  if (speed >= 18446744073709551615.0) return undisclosed_processor_speed;
  return static_cast<std::uint64_t>(speed);
}

// cpu id → NUMA node from sys/devices/system/node/node<N>/cpulist.
std::map<unsigned, unsigned> numa_nodes(const fs::path& sys_root) {
  std::map<unsigned, unsigned> out;
  std::error_code ec;
  fs::directory_iterator it(sys_root / "sys/devices/system/node", ec);
  if (ec) return out;
  for (const auto& entry : it) {
    std::string name = entry.path().filename().string();
    if (name.size() <= 4 || name.rfind("node", 0) != 0) continue;
    std::string num = name.substr(4);
    if (num.size() > 9 || num.find_first_not_of("0123456789") != std::string::npos) continue;
    unsigned node = static_cast<unsigned>(std::stoul(num));
    auto text = read_text(entry.path() / "cpulist");
    if (!text) continue;
    auto cpus = parse_cpu_list(*text);
    if (!cpus) continue;
    for (unsigned c : *cpus) out.emplace(c, node);
  }
  return out;
}

}  // namespace

std::vector<unsigned> process_cpu_affinity() {
  std::vector<unsigned> out;
  // A dynamically sized set: hosts with more than CPU_SETSIZE processors exist.
  for (int n = 1024; n <= (1 << 20); n *= 2) {
    cpu_set_t* set = CPU_ALLOC(n);
    if (!set) break;
    std::size_t size = CPU_ALLOC_SIZE(n);
    CPU_ZERO_S(size, set);
    if (sched_getaffinity(0, size, set) == 0) {
      for (int i = 0; i < n; ++i) {
        if (CPU_ISSET_S(i, size, set)) out.push_back(static_cast<unsigned>(i));
      }
      CPU_FREE(set);
      break;
    }
    CPU_FREE(set);
    if (errno != EINVAL) break;
  }
  if (out.empty()) {
    unsigned n = std::max(1u, std::thread::hardware_concurrency());
    for (unsigned i = 0; i < n; ++i) out.push_back(i);
  }
  return out;
}

std::optional<std::vector<unsigned>> parse_cpu_list(std::string_view text) {
  std::set<unsigned> cpus;
  std::string_view rest = trim(text);
  if (rest.empty()) return std::vector<unsigned>{};
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view item = trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    if (item.empty()) return std::nullopt;
    auto parse_num = [](std::string_view s) -> std::optional<unsigned> {
      s = trim(s);
      if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string_view::npos)
        return std::nullopt;
      return static_cast<unsigned>(std::stoul(std::string(s)));
    };
    auto dash = item.find('-');
    if (dash == std::string_view::npos) {
      auto v = parse_num(item);
      if (!v) return std::nullopt;
      cpus.insert(*v);
    } else {
      auto a = parse_num(item.substr(0, dash));
      auto b = parse_num(item.substr(dash + 1));
      if (!a || !b || *a > *b) return std::nullopt;
      for (unsigned c = *a; c <= *b; ++c) cpus.insert(c);
    }
  }
  return std::vector<unsigned>(cpus.begin(), cpus.end());
}

MachineDescription describe_hardware(const std::filesystem::path& sys_root,
                                     const std::vector<unsigned>& allowed_cpus) {
  std::set<unsigned> allowed(allowed_cpus.begin(), allowed_cpus.end());
  MachineDescription m;
  m.processors = allowed.size();

  // A kernel without NUMA info puts every processor in region 0 (docs/formats.md#hardware); a
  // processor missing from every node's list is treated the same way.
  auto nodes = numa_nodes(sys_root);
  std::set<unsigned> regions;
  for (unsigned c : allowed) {
    auto it = nodes.find(c);
    regions.insert(it == nodes.end() ? 0u : it->second);
  }
  m.memory_regions = regions.size();

  auto text = read_text(sys_root / "proc/cpuinfo");
  auto blocks = text ? parse_cpuinfo(*text) : std::map<unsigned, CpuBlock>{};
  std::vector<std::string> models;
  std::map<std::uint64_t, std::uint64_t> speeds;
  for (unsigned c : allowed) {
    auto it = blocks.find(c);
    if (it == blocks.end()) {
      ++speeds[undisclosed_processor_speed];
      continue;
    }
    if (auto model = processor_model(it->second)) models.push_back(*model);
    ++speeds[processor_speed(it->second)];
  }
  m.processor_models = normalize_processor_models(models);
  if (m.processor_models.empty()) m.processor_models.push_back("unknown");
  for (const auto& [speed, count] : speeds) m.processor_speeds.emplace_back(speed, count);
  m.fingerprint = compute_machine_key(machine_key_inputs(m));
  return m;
}

MachineDescription describe_hardware(const std::filesystem::path& sys_root) {
  return describe_hardware(sys_root, process_cpu_affinity());
}

MachineKeyInputs machine_key_inputs(const MachineDescription& machine) {
  return MachineKeyInputs{machine.processors, machine.memory_regions, machine.processor_models};
}

}  // namespace benchhist::probe
