#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>
#include <thread>

#include "probe/hardware.hpp"
#include "temp_dir.hpp"

using namespace benchhist;
using bh_test::TempDir;

namespace {

std::string x86_block(unsigned id, const std::string& model, const std::string& bogomips) {
  std::ostringstream s;
  s << "processor\t: " << id << "\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 85\n"
    << "model name\t: " << model << "\nstepping\t: 7\ncpu MHz\t\t: 2593.906\n"
    << "flags\t\t: fpu vme de pse\nbogomips\t: " << bogomips << "\naddress sizes\t: 46 bits physical\n\n";
  return s.str();
}

std::string arm_block(unsigned id, const std::string& implementer, const std::string& part,
                      const std::string& variant) {
  std::ostringstream s;
  s << "processor\t: " << id << "\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes\n"
    << "CPU implementer\t: " << implementer << "\nCPU architecture: 8\nCPU variant\t: " << variant
    << "\nCPU part\t: " << part << "\nCPU revision\t: 1\n\n";
  return s.str();
}

}  // namespace

TEST_CASE("cpu lists parse ranges and singles and reject malformed text", "[probe][hardware]") {
  CHECK(probe::parse_cpu_list("0-3,8,10-11\n") == std::vector<unsigned>{0, 1, 2, 3, 8, 10, 11});
  CHECK(probe::parse_cpu_list("5") == std::vector<unsigned>{5});
  CHECK(probe::parse_cpu_list("\n") == std::vector<unsigned>{});
  CHECK_FALSE(probe::parse_cpu_list("3-1").has_value());
  CHECK_FALSE(probe::parse_cpu_list("a-b").has_value());
  CHECK_FALSE(probe::parse_cpu_list("1,,2").has_value());
}

TEST_CASE("an x86 tree is described from model name and bogomips of the allowed processors only",
          "[probe][hardware]") {
  TempDir root("x86");
  std::string cpuinfo;
  for (unsigned i = 0; i < 4; ++i) {
    cpuinfo += x86_block(i, "Intel(R) Xeon(R)   Platinum 8370C CPU @ 2.80GHz", i < 3 ? "5187.81" : "5999.50");
  }
  cpuinfo += x86_block(4, "Other Model", "100.00");  // not in the affinity set below
  root.write("proc/cpuinfo", cpuinfo);

  auto m = probe::describe_hardware(root.path(), {0, 1, 2, 3});
  CHECK(m.processors == 4);
  CHECK(m.memory_regions == 1);  // no NUMA info → everything in region 0
  CHECK(m.processor_models == std::vector<std::string>{"Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"});
  // trunc(round(5187.81) × π) = trunc(5188 × π) = 16298; round(5999.5) = 6000 → 18849.
  using Speeds = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(m.processor_speeds == Speeds{{16298, 3}, {18849, 1}});
  CHECK(m.fingerprint == probe::compute_machine_key(probe::machine_key_inputs(m)));
  CHECK(m.fingerprint == probe::compute_machine_key({4, 1, {"Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz"}}));
}

TEST_CASE("NUMA regions count only the nodes that hold allowed processors", "[probe][hardware]") {
  TempDir root("numa");
  std::string cpuinfo;
  for (unsigned i = 0; i < 8; ++i) cpuinfo += x86_block(i, "AMD EPYC 9V74 80-Core Processor", "4800.00");
  root.write("proc/cpuinfo", cpuinfo);
  root.write("sys/devices/system/node/node0/cpulist", "0-3\n");
  root.write("sys/devices/system/node/node1/cpulist", "4-7\n");
  root.write("sys/devices/system/node/possible", "0-1\n");  // not a node directory

  CHECK(probe::describe_hardware(root.path(), {0, 1, 2, 3, 4, 5, 6, 7}).memory_regions == 2);
  CHECK(probe::describe_hardware(root.path(), {0, 1}).memory_regions == 1);
  CHECK(probe::describe_hardware(root.path(), {3, 4}).memory_regions == 2);
  CHECK(probe::describe_hardware(root.path(), {5}).memory_regions == 1);
  CHECK(probe::describe_hardware(root.path(), {3, 4}).processors == 2);
}

TEST_CASE("an ARM tree gets the synthesized implementer/part label without variant", "[probe][hardware]") {
  TempDir root("arm");
  std::string cpuinfo;
  cpuinfo += arm_block(0, "0x41", "0xd0c", "0x3");
  cpuinfo += arm_block(1, "0x41", "0xd0c", "0x1");  // another variant: same label
  cpuinfo += arm_block(2, "0x41", "0x0D40", "0x0");  // padded uppercase hex re-rendered
  root.write("proc/cpuinfo", cpuinfo);

  auto m = probe::describe_hardware(root.path(), {0, 1, 2});
  CHECK(m.processor_models == std::vector<std::string>{"cpuinfo(cpu implementer=0x41, cpu part=0xd0c)",
                                                       "cpuinfo(cpu implementer=0x41, cpu part=0xd40)"});
  // BogoMIPS 50.00 → trunc(50 × π) = 157.
  using Speeds = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(m.processor_speeds == Speeds{{157, 3}});
}

TEST_CASE("missing sources give the unknown model and undisclosed speeds", "[probe][hardware]") {
  TempDir root("empty");
  auto m = probe::describe_hardware(root.path(), {0, 1, 2, 3});
  CHECK(m.processors == 4);
  CHECK(m.memory_regions == 1);
  CHECK(m.processor_models == std::vector<std::string>{"unknown"});
  using Speeds = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(m.processor_speeds == Speeds{{probe::undisclosed_processor_speed, 4}});
  CHECK(m.fingerprint == "b4326776cfc87767");  // golden vector 5
}

TEST_CASE("a processor without bogomips has the undisclosed speed", "[probe][hardware]") {
  TempDir root("nobogo");
  root.write("proc/cpuinfo",
             "processor\t: 0\nmodel name\t: M\n\n"
             "processor\t: 1\nmodel name\t: M\nbogomips\t: 2.00\n\n"
             "processor\t: 2\nmodel name\t: M\nbogomips\t: n/a\n\n");
  auto m = probe::describe_hardware(root.path(), {0, 1, 2, 3});  // cpu 3 has no block at all
  using Speeds = std::vector<std::pair<std::uint64_t, std::uint64_t>>;
  CHECK(m.processor_speeds == Speeds{{6, 1}, {probe::undisclosed_processor_speed, 3}});
  CHECK(m.processor_models == std::vector<std::string>{"M"});
}

TEST_CASE("the real machine is described consistently with the process affinity", "[probe][hardware]") {
  auto cpus = probe::process_cpu_affinity();
  REQUIRE_FALSE(cpus.empty());
  CHECK(cpus.size() <= std::max(1u, std::thread::hardware_concurrency()));
  auto m = probe::describe_hardware();
  CHECK(m.processors == cpus.size());
  CHECK(m.memory_regions >= 1);
  CHECK(m.memory_regions <= m.processors);
  CHECK_FALSE(m.processor_models.empty());
  std::uint64_t total = 0;
  for (const auto& [speed, count] : m.processor_speeds) total += count;
  CHECK(total == m.processors);
  CHECK(m.fingerprint.size() == 16);
  CHECK(m.fingerprint == probe::compute_machine_key(probe::machine_key_inputs(m)));
  // Deterministic: probing twice gives the same key.
  CHECK(probe::describe_hardware().fingerprint == m.fingerprint);
}
