// Configuration file loading with toml++ (docs/configuration.md; decisions in
// docs/configuration.md).

#include "benchhist/config/config.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include <toml++/toml.h>

#include "benchhist/codec/key.hpp"
#include "benchhist/config/azure_names.hpp"
#include "benchhist/error.hpp"

namespace benchhist::config {
namespace {

namespace fs = std::filesystem;

const std::string kParseHint =
    "fix the named key in the configuration file; `cargo bench-history install --config <new path>` "
    "writes a fully commented example";

// A schema violation, reported like a parser error: the message is the catalogue's
// `failed to parse configuration`, the cause names the key and its line.
[[noreturn]] void schema_error(const fs::path& origin, std::string_view key, const toml::node* node,
                               const std::string& what, std::string hint = kParseHint) {
  std::string cause = "`" + std::string(key) + "`";
  if (node && node->source().begin.line > 0) {
    cause += " at line " + std::to_string(node->source().begin.line);
  }
  cause += ": " + what;
  throw Error(ErrorKind::config, "failed to parse configuration", origin.string(),
              origin.string() + ": " + cause, std::move(hint));
}

const char* type_name(const toml::node& n) {
  switch (n.type()) {
    case toml::node_type::table: return "a table";
    case toml::node_type::array: return "an array";
    case toml::node_type::string: return "a string";
    case toml::node_type::integer: return "an integer";
    case toml::node_type::floating_point: return "a float";
    case toml::node_type::boolean: return "a boolean";
    case toml::node_type::date: return "a date";
    case toml::node_type::time: return "a time";
    case toml::node_type::date_time: return "a date-time";
    default: return "a value";
  }
}

const toml::table& require_table(const fs::path& origin, std::string_view key, const toml::node& n) {
  if (const auto* t = n.as_table()) return *t;
  schema_error(origin, key, &n, std::string("expected a table, found ") + type_name(n));
}

std::string require_string(const fs::path& origin, std::string_view key, const toml::node& n) {
  if (const auto* s = n.as_string()) return s->get();
  schema_error(origin, key, &n, std::string("expected a string, found ") + type_name(n));
}

void parse_project(const fs::path& origin, const toml::table& project, Config& out) {
  // Unknown keys inside [project] are ignored (reference behaviour, docs/configuration.md), and
  // listed for the caller to name.
  for (const auto& [key, node] : project)
    if (key.str() != "id" && key.str() != "default_branch") out.ignored_project_keys.emplace_back(key.str());
  if (const auto* id = project.get("id")) {
    out.project_id = require_string(origin, "project.id", *id);
    // An empty id would store every run under the placeholder segment `_`, beside no project;
    // a blank one under `___`; a line break splits every report's header.
    const auto& pid = *out.project_id;
    if (pid.find_first_not_of(" \t") == std::string::npos)
      schema_error(origin, "project.id", id, pid.empty() ? "must not be empty" : "must not be blank",
                   "remove `id` to name the project after the repository directory, or set an id");
    if (pid.find_first_of("\r\n") != std::string::npos)
      schema_error(origin, "project.id", id, "must be one line", "write the id on one line, without line breaks");
    // Every run is stored under the id as one directory name: a longer one fails only when the
    // first run is written, after its whole suite has run.
    if (const auto overlong = codec::overlong_segment(pid))
      schema_error(origin, "project.id", id, *overlong,
                   "shorten the id to at most " + std::to_string(codec::max_segment_bytes) + " characters");
  }
  if (const auto* b = project.get("default_branch")) {
    out.default_branch = require_string(origin, "project.default_branch", *b);
  }
}

AzureStorageConfig parse_azure(const fs::path& origin, const toml::table& azure) {
  AzureStorageConfig cfg;
  bool have_account = false, have_container = false;
  for (const auto& [k, v] : azure) {
    const std::string key(k.str());
    const std::string qualified = "storage.azure." + key;
    if (key == "account") {
      cfg.account = require_string(origin, qualified, v);
      have_account = true;
    } else if (key == "container") {
      cfg.container = require_string(origin, qualified, v);
      have_container = true;
    } else if (key == "endpoint") {
      cfg.endpoint = require_string(origin, qualified, v);
    } else if (key == "account_key" || key == "sas_token") {
      schema_error(origin, qualified, &v,
                   "unknown key (static credentials are not supported; the Azure backend "
                   "authenticates with Microsoft Entra ID)",
                   "remove `" + key + "` from [storage.azure] and grant the running identity "
                   "data-plane access to the container");
    } else {
      schema_error(origin, qualified, &v,
                   "unknown key (expected `account`, `container` or `endpoint`)",
                   "remove or rename `" + key + "` in [storage.azure]");
    }
  }
  if (!have_account) {
    schema_error(origin, "storage.azure.account", &azure, "missing required key",
                 "add `account = \"<storage account>\"` to [storage.azure]");
  }
  if (!have_container) {
    schema_error(origin, "storage.azure.container", &azure, "missing required key",
                 "add `container = \"<blob container>\"` to [storage.azure]");
  }
  if (cfg.account.empty()) schema_error(origin, "storage.azure.account", azure.get("account"), "must not be empty");
  if (cfg.container.empty()) {
    schema_error(origin, "storage.azure.container", azure.get("container"), "must not be empty");
  }
  // Names the service would refuse (HTTP 400 InvalidResourceName, or a 404 with no hint) are
  // caught here, naming the rule.
  if (const auto allowed = check_storage_account_name(cfg.account))
    schema_error(origin, "storage.azure.account", azure.get("account"),
                 "\"" + cfg.account + "\" is not a storage account name (" + *allowed + ")",
                 "set `account` to the storage account's name as the Azure portal shows it");
  if (const auto allowed = check_container_name(cfg.container))
    schema_error(origin, "storage.azure.container", azure.get("container"),
                 "\"" + cfg.container + "\" is not a blob container name (" + *allowed + ")",
                 "set `container` to the blob container's name (setup-azure's --container)");
  return cfg;
}

void parse_storage(const fs::path& origin, const toml::table& storage, Config& out) {
  // Exactly one backend table, and the only backend is azure (docs/configuration.md). Local storage
  // is a run-time choice, so a leftover [storage.local] is an error rather than ignored.
  for (const auto& [k, v] : storage) {
    const std::string key(k.str());
    if (key == "azure") continue;
    if (key == "local") {
      schema_error(origin, "storage.local", &v,
                   "local storage is not configured in this file; it is selected at run time",
                   "remove [storage.local] and pass --local=<path> (or set "
                   "CARGO_BENCH_HISTORY_STORAGE and pass a bare --local)");
    }
    schema_error(origin, "storage." + key, &v, "unknown storage backend (the only backend is `azure`)",
                 "remove `storage." + key + "`; configure [storage.azure] or use --local=<path>");
  }
  const auto* azure = storage.get("azure");
  if (!azure) {
    schema_error(origin, "storage", &storage, "must contain exactly one backend table, [storage.azure]",
                 "add [storage.azure] with `account` and `container`, or remove the empty [storage] table");
  }
  out.azure = parse_azure(origin, require_table(origin, "storage.azure", *azure));
}

void parse_analysis(const fs::path& origin, const toml::table& analysis, Config& out) {
  // Our own table (docs/configuration.md#analysis--benchmark-ignore-prefixes), so typos are
  // rejected instead of silently ignored.
  for (const auto& [k, v] : analysis) {
    const std::string key(k.str());
    if (key != "ignore") {
      schema_error(origin, "analysis." + key, &v, "unknown key (expected `ignore`)",
                   "remove or rename `" + key + "` in [analysis]");
    }
    const auto* arr = v.as_array();
    if (!arr) {
      schema_error(origin, "analysis.ignore", &v,
                   std::string("expected an array of benchmark-id prefixes, found ") + type_name(v),
                   "write `ignore = [\"prefix\", ...]`");
    }
    std::size_t i = 0;
    for (const auto& item : *arr) {
      const std::string item_key = "analysis.ignore[" + std::to_string(i++) + "]";
      std::string s = require_string(origin, item_key, item);
      if (s.empty()) {
        // An empty prefix would match every benchmark and silently empty the analysis.
        schema_error(origin, item_key, &item, "an ignore prefix must not be empty",
                     "remove the empty string from [analysis] ignore");
      }
      out.ignore_prefixes.push_back(std::move(s));
    }
  }
}

void parse_collect(const fs::path& origin, const toml::table& collect, Config& out) {
  // Our own table (docs/bench-command.md), strict like [analysis].
  for (const auto& [k, v] : collect) {
    const std::string key(k.str());
    if (key != "bench_command") {
      schema_error(origin, "collect." + key, &v, "unknown key (expected `bench_command`)",
                   "remove or rename `" + key + "` in [collect]");
    }
    std::string command = require_string(origin, "collect.bench_command", v);
    if (command.find_first_not_of(" \t\r\n") == std::string::npos) {
      // An empty command would "succeed" having measured nothing.
      schema_error(origin, "collect.bench_command", &v, "the benchmark command must not be empty",
                   "write the shell command that runs your benchmarks, or remove the key to run cargo bench");
    }
    out.bench_command = std::move(command);
  }
}

}  // namespace

std::string AzureStorageConfig::effective_endpoint() const {
  if (endpoint) return *endpoint;
  return "https://" + account + ".blob.core.windows.net";
}

fs::path default_config_path(const fs::path& base_dir) {
  return base_dir / fs::path(std::string(default_config_relative_path));
}

Config parse_config(std::string_view text, const fs::path& origin) {
  Config out;
  out.path = origin;
  out.file_found = true;
  toml::table root;
  try {
    root = toml::parse(text, origin.string());
  } catch (const toml::parse_error& e) {
    std::string cause = origin.string();
    if (e.source().begin.line > 0) {
      cause += ":" + std::to_string(e.source().begin.line) + ":" + std::to_string(e.source().begin.column);
    }
    cause += ": " + std::string(e.description());
    throw Error(ErrorKind::config, "failed to parse configuration", origin.string(), cause,
                "fix the TOML syntax at that line and column (a table header is `[name]`, a value `key = \"text\"`); "
                "`cargo bench-history install --config <new path>` writes a fully commented example");
  }
  // Unknown top-level tables (e.g. an old [machine]) are ignored, and listed for the caller to
  // name (docs/configuration.md).
  for (const auto& [key, node] : root) {
    const std::string_view name = key.str();
    if (std::find(read_tables.begin(), read_tables.end(), name) == read_tables.end())
      out.ignored_tables.emplace_back(name);
  }
  if (const auto* project = root.get("project")) parse_project(origin, require_table(origin, "project", *project), out);
  if (const auto* storage = root.get("storage")) parse_storage(origin, require_table(origin, "storage", *storage), out);
  if (const auto* analysis = root.get("analysis")) {
    parse_analysis(origin, require_table(origin, "analysis", *analysis), out);
  }
  if (const auto* collect = root.get("collect")) parse_collect(origin, require_table(origin, "collect", *collect), out);
  return out;
}

Config load_config(const fs::path& path, bool explicitly_named) {
  std::error_code ec;
  const bool exists = fs::exists(path, ec);
  // A symbolic link whose target is gone is a file the user put there, not an absent one: using
  // the defaults would silently drop its project id and backend.
  std::error_code lec;
  const bool dangling_link = !exists && fs::is_symlink(fs::symlink_status(path, lec));
  if (!exists && !ec && !explicitly_named && !dangling_link) {
    Config empty;
    empty.path = path;
    return empty;
  }
  auto read_error = [&](const std::string& cause) {
    return Error(ErrorKind::config, "failed to read configuration at " + path.string(), path.string(), cause,
                 explicitly_named ? "check the --config path, or omit --config to use "
                                    ".cargo/bench_history.toml"
                                  : "make the file readable or remove it");
  };
  if (dangling_link) {
    const auto target = fs::read_symlink(path, lec);
    throw read_error("it is a symbolic link to " + (lec ? std::string("a path") : target.string()) +
                     ", which does not exist");
  }
  if (!exists) throw read_error(ec ? ec.message() : "no such file");
  if (fs::is_directory(path, ec)) throw read_error("it is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw read_error(std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw read_error(std::strerror(errno));
  return parse_config(ss.str(), path);
}

std::string resolve_project_id(const Config& config, const fs::path& base_dir) {
  if (config.project_id) return *config.project_id;
  std::error_code ec;
  fs::path abs = fs::absolute(base_dir, ec);
  if (ec) abs = base_dir;
  abs = abs.lexically_normal();
  // `a/b/` normalizes to `a/b/` with an empty filename: step to the parent path.
  if (abs.filename().empty() && abs.has_parent_path() && abs != abs.root_path()) abs = abs.parent_path();
  std::string name = abs.filename().string();
  if (name.empty() || name == "." || name == "..") return "project";
  return name;
}

bool is_ignored_benchmark(const std::vector<std::string>& ignore_prefixes, std::string_view qualified_id) {
  for (const auto& p : ignore_prefixes) {
    if (qualified_id.substr(0, p.size()) == p) return true;
  }
  return false;
}

bool is_ignored_benchmark(const Config& config, std::string_view qualified_id) {
  return is_ignored_benchmark(config.ignore_prefixes, qualified_id);
}

}  // namespace benchhist::config
