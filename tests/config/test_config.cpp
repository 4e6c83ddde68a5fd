#include <catch2/catch.hpp>

#include <fstream>
#include <sstream>

#include "benchhist/config/config.hpp"
#include "benchhist/config/starter.hpp"
#include "benchhist/error.hpp"
#include "common/files.hpp"

using namespace benchhist;
using benchhist::testing::TempDir;
namespace fs = std::filesystem;

namespace {

// The Error a config text raises (fails the test when none is raised).
Error parse_error_of(const std::string& text) {
  try {
    config::parse_config(text, "cfg/bench_history.toml");
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an Error for:\n" << text);
  throw;  // unreachable
}

}  // namespace

TEST_CASE("a full configuration file is read into Config", "[probe][config]") {
  auto c = config::parse_config(R"(
[project]
id = "my-workspace"
default_branch = "trunk"
something_else = 3   # unknown keys in [project] are ignored

[storage.azure]
account = "myhistoryaccount"
container = "bench-history"

[analysis]
ignore = ["pkg/multithreaded/", "pkg/net_"]

[machine]            # unknown top-level tables are ignored (old versions had one)
key = "abc"
)",
                        "x.toml");
  CHECK(c.file_found);
  CHECK(c.path == "x.toml");
  CHECK(c.project_id == "my-workspace");
  CHECK(c.default_branch == "trunk");
  REQUIRE(c.azure);
  CHECK(c.azure->account == "myhistoryaccount");
  CHECK(c.azure->container == "bench-history");
  CHECK_FALSE(c.azure->endpoint);
  CHECK(c.azure->effective_endpoint() == "https://myhistoryaccount.blob.core.windows.net");
  CHECK(c.ignore_prefixes == std::vector<std::string>{"pkg/multithreaded/", "pkg/net_"});
  CHECK(c.ignored_tables == std::vector<std::string>{"machine"});
}

TEST_CASE("unknown top-level tables are ignored and listed by name", "[config]") {
  const auto c = config::parse_config("[analyis]\nignore = ['pkg/slow_']\n[zeta]\n[project]\nid = 'p'\n", "x.toml");
  CHECK(c.ignore_prefixes.empty());
  CHECK(c.project_id == "p");
  CHECK(c.ignored_tables == std::vector<std::string>{"analyis", "zeta"});
  CHECK(config::parse_config("[project]\n[storage.azure]\naccount = 'acct'\ncontainer = 'bench'\n[analysis]\n[collect]\n", "y.toml")
            .ignored_tables.empty());
}

TEST_CASE("unknown keys of [project] are ignored and listed in name order", "[config]") {
  const auto c = config::parse_config("[project]\nidd = 'x'\ndefualt_branch = 'develop'\nid = 'p'\n", "x.toml");
  CHECK(c.project_id == "p");
  CHECK_FALSE(c.default_branch);
  CHECK(c.ignored_project_keys == std::vector<std::string>{"defualt_branch", "idd"});
  CHECK(config::parse_config("[project]\nid = 'p'\ndefault_branch = 'main'\n", "y.toml").ignored_project_keys.empty());
}

TEST_CASE("an explicit Azure endpoint is kept as written", "[probe][config]") {
  auto c = config::parse_config("[storage.azure]\naccount='acct'\ncontainer='bench'\nendpoint='https://127.0.0.1:10000/acct'\n", "x");
  REQUIRE(c.azure);
  CHECK(c.azure->effective_endpoint() == "https://127.0.0.1:10000/acct");
}

TEST_CASE("dotted keys and inline tables are the same as table headers", "[probe][config]") {
  auto dotted = config::parse_config("project.id = 'p'\nstorage.azure.account = 'acct'\nstorage.azure.container = 'bench'\n", "x");
  CHECK(dotted.project_id == "p");
  REQUIRE(dotted.azure);
  CHECK(dotted.azure->container == "bench");
  auto inline_table = config::parse_config("storage = { azure = { account = 'acct', container = 'bench' } }\n", "x");
  REQUIRE(inline_table.azure);
  CHECK(inline_table.azure->account == "acct");
}

TEST_CASE("Azure names the service would refuse are errors naming the key and the rule", "[config]") {
  auto error_of = [](const std::string& text) {
    try {
      config::parse_config(text, "x.toml");
    } catch (const benchhist::Error& e) {
      return e.cause() + " | " + e.hint();
    }
    return std::string("accepted");
  };
  CHECK(error_of("[storage.azure]\naccount = 'acct'\ncontainer = 'Bench_History'\n") ==
        "x.toml: `storage.azure.container` at line 3: \"Bench_History\" is not a blob container name (3-63 "
        "characters, lowercase letters, digits and '-', not starting or ending with '-' and without '--') | set "
        "`container` to the blob container's name (setup-azure's --container)");
  CHECK(error_of("[storage.azure]\naccount = 'My-Account'\ncontainer = 'bench'\n").rfind(
            "x.toml: `storage.azure.account` at line 2: \"My-Account\" is not a storage account name", 0) == 0);
  CHECK(error_of("[storage.azure]\naccount = 'devstoreaccount1'\ncontainer = 'bench-history'\n") == "accepted");
}

TEST_CASE("an empty or comment-only file is an empty configuration", "[probe][config]") {
  auto c = config::parse_config("# nothing\n\n", "x");
  CHECK(c.file_found);
  CHECK_FALSE(c.project_id);
  CHECK_FALSE(c.default_branch);
  CHECK_FALSE(c.azure);
  CHECK(c.ignore_prefixes.empty());
}

TEST_CASE("legacy static credentials in storage.azure are errors naming the key", "[probe][config]") {
  for (std::string key : {"account_key", "sas_token"}) {
    auto e = parse_error_of("[storage.azure]\naccount = 'a'\ncontainer = 'c'\n" + key + " = 'secret'\n");
    CHECK(e.kind() == ErrorKind::config);
    CHECK(e.message() == "failed to parse configuration");
    CHECK_THAT(e.cause(), Catch::Contains("storage.azure." + key));
    CHECK_THAT(e.cause(), Catch::Contains("line 4"));
    CHECK(e.subject() == "cfg/bench_history.toml");
    CHECK_THAT(e.hint(), Catch::Contains(key));
    CHECK_THAT(std::string(e.what()), Catch::Contains(key));
  }
  auto e = parse_error_of("[storage.azure]\naccount = 'a'\ncontainer = 'c'\nendpont = 'https://x'\n");
  CHECK_THAT(e.cause(), Catch::Contains("storage.azure.endpont"));
}

TEST_CASE("storage must hold exactly one backend table and it must be azure", "[probe][config]") {
  auto local = parse_error_of("[storage.local]\npath = './h'\n");
  CHECK_THAT(local.cause(), Catch::Contains("storage.local"));
  CHECK_THAT(local.hint(), Catch::Contains("--local"));

  auto two = parse_error_of("[storage.azure]\naccount='a'\ncontainer='c'\n[storage.local]\npath='x'\n");
  CHECK_THAT(two.cause(), Catch::Contains("storage.local"));

  auto s3 = parse_error_of("[storage.s3]\nbucket='b'\n");
  CHECK_THAT(s3.cause(), Catch::Contains("storage.s3"));

  auto empty = parse_error_of("[storage]\n");
  CHECK_THAT(empty.cause(), Catch::Contains("`storage`"));

  auto scalar = parse_error_of("storage = 'azure'\n");
  CHECK_THAT(scalar.cause(), Catch::Contains("expected a table"));

  auto azure_scalar = parse_error_of("[storage]\nazure = 'x'\n");
  CHECK_THAT(azure_scalar.cause(), Catch::Contains("storage.azure"));
}

TEST_CASE("storage.azure requires account and container as non-empty strings", "[probe][config]") {
  CHECK_THAT(parse_error_of("[storage.azure]\ncontainer='c'\n").cause(), Catch::Contains("storage.azure.account"));
  CHECK_THAT(parse_error_of("[storage.azure]\naccount='a'\n").cause(), Catch::Contains("storage.azure.container"));
  CHECK_THAT(parse_error_of("[storage.azure]\naccount=1\ncontainer='c'\n").cause(),
             Catch::Contains("storage.azure.account") && Catch::Contains("expected a string"));
  CHECK_THAT(parse_error_of("[storage.azure]\naccount=''\ncontainer='c'\n").cause(),
             Catch::Contains("must not be empty"));
}

TEST_CASE("project keys of the wrong type are errors naming the key", "[probe][config]") {
  CHECK_THAT(parse_error_of("[project]\nid = 5\n").cause(), Catch::Contains("project.id") && Catch::Contains("line 2"));
  CHECK_THAT(parse_error_of("[project]\ndefault_branch = true\n").cause(), Catch::Contains("project.default_branch"));
  // A blank id would store under `___`, and one with a line break split every report's header.
  CHECK_THAT(parse_error_of("[project]\nid = \"   \"\n").cause(), Catch::Contains("`project.id` at line 2: must not be blank"));
  CHECK_THAT(parse_error_of("[project]\nid = \"a\\nb\"\n").cause(), Catch::Contains("`project.id` at line 2: must be one line"));
  // The id is one directory name of the store: at most 255 characters once sanitized.
  CHECK_THAT(parse_error_of("[project]\nid = \"" + std::string(256, 'a') + "\"\n").cause(),
             Catch::Contains("`project.id` at line 2: is 256 characters long; it names a directory of the store, "
                             "which takes at most 255"));
  // A syntax error's hint speaks of syntax, not of a key it cannot name.
  CHECK_THAT(parse_error_of("[project\n").hint(), Catch::StartsWith("fix the TOML syntax at that line and column"));
  CHECK_THAT(parse_error_of("project = 'x'\n").cause(), Catch::Contains("`project`"));
}

TEST_CASE("analysis.ignore must be an array of non-empty strings and typos are rejected", "[probe][config]") {
  CHECK_THAT(parse_error_of("[analysis]\nignore = 'pkg/'\n").cause(), Catch::Contains("analysis.ignore"));
  CHECK_THAT(parse_error_of("[analysis]\nignore = ['a', 3]\n").cause(), Catch::Contains("analysis.ignore[1]"));
  CHECK_THAT(parse_error_of("[analysis]\nignore = ['']\n").cause(), Catch::Contains("must not be empty"));
  CHECK_THAT(parse_error_of("[analysis]\nignored = ['a']\n").cause(), Catch::Contains("analysis.ignored"));
  CHECK(config::parse_config("[analysis]\nignore = []\n", "x").ignore_prefixes.empty());
}

TEST_CASE("malformed TOML reports the parser detail with the line", "[probe][config]") {
  auto e = parse_error_of("[project]\nid = \"unterminated\n");
  CHECK(e.kind() == ErrorKind::config);
  CHECK(e.message() == "failed to parse configuration");
  CHECK_THAT(e.cause(), Catch::StartsWith("cfg/bench_history.toml:2:"));
  auto dup = parse_error_of("[project]\nid = 'a'\nid = 'b'\n");
  CHECK_THAT(dup.cause(), Catch::Contains("id"));
}

TEST_CASE("a missing file at the default location is an empty configuration", "[probe][config]") {
  TempDir dir("cfg_missing");
  auto path = config::default_config_path(dir.path());
  CHECK(path == dir.path() / ".cargo" / "bench_history.toml");
  auto c = config::load_config(path, false);
  CHECK_FALSE(c.file_found);
  CHECK(c.path == path);
  CHECK_FALSE(c.azure);
}

TEST_CASE("a missing file named by --config is an error naming the path", "[probe][config]") {
  TempDir dir("cfg_named");
  auto path = dir.path() / "nope.toml";
  try {
    config::load_config(path, true);
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::config);
    CHECK(e.message() == "failed to read configuration at " + path.string());
    CHECK(e.subject() == path.string());
  }
  // A directory where the file should be cannot be read either.
  fs::create_directories(dir.path() / "d.toml");
  CHECK_THROWS_WITH(config::load_config(dir.path() / "d.toml", false),
                    Catch::StartsWith("failed to read configuration at "));
  // Nor can a symbolic link whose target is gone: it is not an absent file, and the defaults
  // would silently drop the project id and backend it meant to give.
  fs::create_symlink(dir.path() / "gone.toml", dir.path() / "link.toml");
  try {
    config::load_config(dir.path() / "link.toml", false);
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.message() == "failed to read configuration at " + (dir.path() / "link.toml").string());
    CHECK(e.cause() == "it is a symbolic link to " + (dir.path() / "gone.toml").string() + ", which does not exist");
  }
}

TEST_CASE("load_config reads an existing file and names it in parse errors", "[probe][config]") {
  TempDir dir("cfg_load");
  auto path = dir.write(".cargo/bench_history.toml", "[project]\nid = \"p\"\n");
  auto c = config::load_config(path, false);
  CHECK(c.file_found);
  CHECK(c.project_id == "p");
  dir.write(".cargo/bench_history.toml", "[storage.azure]\naccount_key='k'\n");
  try {
    config::load_config(path, true);
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.subject() == path.string());
    CHECK_THAT(e.cause(), Catch::Contains(path.string()));
  }
}

TEST_CASE("the project id defaults to the base directory name, else project", "[probe][config]") {
  config::Config none;
  CHECK(config::resolve_project_id(none, "/home/u/my-crate") == "my-crate");
  CHECK(config::resolve_project_id(none, "/home/u/my-crate/") == "my-crate");
  CHECK(config::resolve_project_id(none, "/home/u/my-crate/sub/..") == "my-crate");
  CHECK(config::resolve_project_id(none, "/") == "project");
  CHECK(config::resolve_project_id(none, ".") == fs::current_path().filename().string());
  config::Config named;
  named.project_id = "Configured Name";
  CHECK(config::resolve_project_id(named, "/home/u/my-crate") == "Configured Name");
}

TEST_CASE("ignore prefixes match by raw string prefix of the qualified id", "[probe][config]") {
  config::Config c;
  c.ignore_prefixes = {"pkg/multi", "other/"};
  CHECK(config::is_ignored_benchmark(c, "pkg/multithreaded/case"));
  CHECK(config::is_ignored_benchmark(c, "pkg/multi"));
  CHECK(config::is_ignored_benchmark(c, "other/x"));
  CHECK_FALSE(config::is_ignored_benchmark(c, "pkg/mult"));
  CHECK_FALSE(config::is_ignored_benchmark(c, "Pkg/multithreaded"));  // case-sensitive
  CHECK_FALSE(config::is_ignored_benchmark(c, "other"));
  CHECK(config::is_ignored_benchmark(std::vector<std::string>{"a/"}, "a/b"));
  CHECK_FALSE(config::is_ignored_benchmark(std::vector<std::string>{}, "a/b"));
}

TEST_CASE("the starter configuration parses to an empty configuration", "[probe][starter]") {
  auto text = std::string(config::starter_config_text());
  auto c = config::parse_config(text, "starter.toml");
  CHECK_FALSE(c.project_id);
  CHECK_FALSE(c.default_branch);
  CHECK_FALSE(c.azure);
  CHECK(c.ignore_prefixes.empty());
  // Every non-blank line is a comment.
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) CHECK(line[0] == '#');
  }
  CHECK(text.back() == '\n');
}

TEST_CASE("the starter configuration documents each section in order", "[probe][starter]") {
  const std::string text(config::starter_config_text());
  std::vector<std::string> markers = {
      ".cargo/bench_history.toml",
      "--local=./bench-history",
      "CARGO_BENCH_HISTORY_STORAGE",
      "# [project]",
      "# id = ",
      "# default_branch = ",
      "Entra ID",
      "HTTPS",
      "data-plane access",
      ":ref:refs/heads/main",
      ":pull_request",
      "docs.github.com",
      "# [storage.azure]",
      "# account = ",
      "# container = ",
      "# endpoint = ",
      "# [analysis]",
      "# ignore = [",
      "# [collect]",
      "hyperfine",
      "Catch2 XML",
      "# bench_command = ",
  };
  std::size_t pos = 0;
  for (const auto& m : markers) {
    INFO("marker " << m);
    auto at = text.find(m, pos);
    REQUIRE(at != std::string::npos);
    pos = at;
  }
  // No engine or machine-key settings (docs/configuration.md).
  CHECK(text.find("[machine") == std::string::npos);
  CHECK(text.find("machine_key") == std::string::npos);
  CHECK(text.find("engine") == std::string::npos);
}

TEST_CASE("uncommenting the starter examples yields a valid configuration", "[probe][starter]") {
  // Each example must work when uncommented: strip "# " from the TOML-looking lines.
  std::istringstream in{std::string(config::starter_config_text())};
  std::string line, toml;
  while (std::getline(in, line)) {
    for (std::string_view prefix : {"# [", "# id =", "# default_branch =", "# account =", "# container =",
                                    "# endpoint =", "# ignore =", "# bench_command ="}) {
      if (line.rfind(prefix, 0) == 0) {
        toml += line.substr(2) + "\n";
        break;
      }
    }
  }
  auto c = config::parse_config(toml, "uncommented.toml");
  CHECK(c.project_id == "my-workspace");
  CHECK(c.default_branch == "main");
  REQUIRE(c.azure);
  CHECK(c.azure->account == "myhistoryaccount");
  CHECK(c.ignore_prefixes.size() == 2);
  CHECK(c.bench_command == "./bench.sh");
}

TEST_CASE("write_starter_config creates parents, writes once and never overwrites", "[probe][starter]") {
  TempDir dir("starter");
  auto path = dir.path() / "a" / "b" / ".cargo" / "bench_history.toml";
  CHECK(config::write_starter_config(path));
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(ss.str() == config::starter_config_text());

  auto existing = dir.write("existing.toml", "[project]\nid = 'keep'\n");
  CHECK_FALSE(config::write_starter_config(existing));
  CHECK(config::load_config(existing, true).project_id == "keep");
}

TEST_CASE("write_starter_config fails with an io Error naming the path when it cannot write",
          "[probe][starter]") {
  TempDir dir("starter_fail");
  auto blocker = dir.write("file", "x");
  auto path = blocker / "sub" / "bench_history.toml";  // parent is a regular file
  try {
    config::write_starter_config(path);
    FAIL("expected an Error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "failed to write the configuration file to " + path.string());
  }
}
