// The TOML configuration (docs/configuration.md): parse_config either yields a Config that, written
// back as TOML (toml++'s own serializer), parses to the same Config, or throws
// Error{config} naming the file.

#include <sstream>

#include <toml++/toml.h>

#include "benchhist/config/config.hpp"
#include "fuzz_support.hpp"

namespace {

bool same(const benchhist::config::Config& a, const benchhist::config::Config& b) {
  return a.project_id == b.project_id && a.default_branch == b.default_branch && a.azure == b.azure &&
         a.ignore_prefixes == b.ignore_prefixes;
}

std::string render(const benchhist::config::Config& c) {
  toml::table root;
  toml::table project;
  if (c.project_id) project.insert("id", *c.project_id);
  if (c.default_branch) project.insert("default_branch", *c.default_branch);
  if (!project.empty()) root.insert("project", std::move(project));
  if (c.azure) {
    toml::table azure;
    azure.insert("account", c.azure->account);
    azure.insert("container", c.azure->container);
    if (c.azure->endpoint) azure.insert("endpoint", *c.azure->endpoint);
    toml::table storage;
    storage.insert("azure", std::move(azure));
    root.insert("storage", std::move(storage));
  }
  if (!c.ignore_prefixes.empty()) {
    toml::array ignore;
    for (const auto& p : c.ignore_prefixes) ignore.push_back(p);
    toml::table analysis;
    analysis.insert("ignore", std::move(ignore));
    root.insert("analysis", std::move(analysis));
  }
  std::ostringstream out;
  out << root;
  return out.str();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string origin = "fuzz/.cargo/bench_history.toml";
  benchhist::config::Config config;
  try {
    config = benchhist::config::parse_config(fuzz::as_view(data, size), origin);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::config, "parse_config failed with a kind other than config",
                e.what());
    fuzz::check_names(e, origin);
    return 0;
  }
  const std::string text = render(config);
  try {
    const auto back = benchhist::config::parse_config(text, origin);
    fuzz::check(same(back, config), "a parsed configuration written back parses differently", text);
  } catch (const benchhist::Error& e) {
    fuzz::fail("a parsed configuration written back does not parse", std::string(e.what()) + "\n" + text);
  }
  return 0;
}
