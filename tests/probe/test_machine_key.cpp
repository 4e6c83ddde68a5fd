#include <catch2/catch.hpp>

#include "probe/machine_key.hpp"

using namespace benchhist;

TEST_CASE("machine keys match the five golden vectors of formats.md 4.5", "[probe][machine_key]") {
  struct Vector {
    std::uint64_t processors, regions;
    std::vector<std::string> models;
    const char* key;
  };
  const std::vector<Vector> vectors = {
      {8, 1, {"Test CPU 3000"}, "4ffd697efb295d32"},
      {4, 2, {}, "c4e693030879629f"},
      {8, 1, {"Model B", "Model A", "Model A"}, "58006bd43183bd7c"},
      {16, 2, {"  AMD EPYC 9V74   80-Core Processor "}, "ebd6ed1da7119db4"},
      {4, 1, {"unknown"}, "b4326776cfc87767"},
  };
  for (const auto& v : vectors) {
    INFO("processors=" << v.processors << " regions=" << v.regions);
    auto key = probe::compute_machine_key({v.processors, v.regions, v.models});
    CHECK(key == v.key);
    CHECK(key.size() == 16);
  }
}

TEST_CASE("the canonical string is exact bytes with no trailing newline", "[probe][machine_key]") {
  CHECK(probe::machine_key_canonical({8, 1, {"Model B", "Model A", "Model A"}}) ==
        "mk3\nprocessors=8\nmemory_regions=1\nprocessor_models=Model A,Model B");
  CHECK(probe::machine_key_canonical({4, 2, {}}) == "mk3\nprocessors=4\nmemory_regions=2\nprocessor_models=");
}

TEST_CASE("model normalization collapses Unicode whitespace, drops empties, dedups and sorts by bytes",
          "[probe][machine_key]") {
  CHECK(probe::normalize_processor_model("  AMD EPYC 9V74   80-Core Processor ") == "AMD EPYC 9V74 80-Core Processor");
  CHECK(probe::normalize_processor_model("a\t\n b") == "a b");
  // U+00A0 NO-BREAK SPACE and U+3000 IDEOGRAPHIC SPACE are Unicode whitespace.
  CHECK(probe::normalize_processor_model("\xC2\xA0X\xE3\x80\x80Y\xC2\xA0") == "X Y");
  // Non-whitespace multibyte characters are kept verbatim.
  CHECK(probe::normalize_processor_model("Intel\xC2\xAE Core") == "Intel\xC2\xAE Core");
  CHECK(probe::normalize_processor_model(" \t ").empty());

  auto models = probe::normalize_processor_models({"b", " ", "a", "B", "a ", "\xC3\xA9", "z"});
  // Byte order: uppercase before lowercase, multibyte (0xC3..) after ASCII.
  CHECK(models == std::vector<std::string>{"B", "a", "b", "z", "\xC3\xA9"});
}

TEST_CASE("the verbose components line lists the factors and <none> for no models", "[probe][machine_key]") {
  CHECK(probe::machine_key_components_line({8, 1, {"Model B", "Model A"}}) ==
        "version=mk3, processors=8, memory_regions=1, processor_models=Model A,Model B");
  CHECK(probe::machine_key_components_line({4, 2, {}}) ==
        "version=mk3, processors=4, memory_regions=2, processor_models=<none>");
  CHECK(probe::machine_key_components_line({4, 2, {"  "}}) ==
        "version=mk3, processors=4, memory_regions=2, processor_models=<none>");
}

TEST_CASE("every factor changes the key", "[probe][machine_key]") {
  const auto base = probe::compute_machine_key({8, 1, {"X"}});
  CHECK(probe::compute_machine_key({9, 1, {"X"}}) != base);
  CHECK(probe::compute_machine_key({8, 2, {"X"}}) != base);
  CHECK(probe::compute_machine_key({8, 1, {"Y"}}) != base);
  CHECK(probe::compute_machine_key({8, 1, {" X  "}}) == base);
}
