// Every case of vectors/selection.json (docs/pipeline.md#selection).
#include <catch2/catch.hpp>

#include <set>

#include "benchhist/analysis/selection.hpp"
#include "benchhist/analysis/since.hpp"
#include "benchhist/error.hpp"
#include "common/vectors.hpp"

using namespace benchhist;
using namespace benchhist::analysis;
namespace json = boost::json;

namespace {

Timestamp ts(const json::value& v) {
  auto t = parse_rfc3339(std::string(v.as_string()));
  REQUIRE(t);
  return *t;
}

void check_mode(const json::object& in, const json::object& expected) {
  const auto mode = derive_mode(in.at("context_is_merge_base").as_bool(), in.at("dirty_run_admitted_on_context").as_bool());
  CHECK(to_string(mode) == std::string_view(expected.at("mode").as_string()));
}

void check_dirty(const json::object& in, const json::object& expected) {
  std::vector<std::string> line;
  for (const auto& c : in.at("first_parent_oldest_first").as_array()) line.emplace_back(c.as_string());
  std::optional<std::string> split;
  if (!in.at("split_commit").is_null()) split = std::string(in.at("split_commit").as_string());
  const auto got = dirty_admission(line, split, in.at("allow_dirty").as_bool(),
                                   in.at("working_tree_dirty_exception").as_bool());
  REQUIRE(got.admits.size() == line.size());
  const auto& admits = expected.at("admits_dirty").as_object();
  REQUIRE(admits.size() == line.size());
  for (std::size_t i = 0; i < line.size(); ++i) {
    INFO("commit " << line[i]);
    CHECK(got.admits[i] == admits.at(line[i]).as_bool());
  }
  if (const auto* ex = expected.if_contains("base_exception_commits")) {
    std::vector<std::string> want;
    for (const auto& c : ex->as_array()) want.emplace_back(c.as_string());
    std::vector<std::string> have;
    if (got.base_exception) have.push_back(line[*got.base_exception]);
    CHECK(have == want);
  }
}

void check_since(const json::object& in, const json::object& expected) {
  const bool history = in.at("analysis_mode").as_string() == "history";
  const Timestamp now = ts(in.at("now"));
  std::optional<std::string> text;
  if (!in.at("since").is_null()) text = std::string(in.at("since").as_string());
  const auto parsed = [&]() -> std::optional<Since> {
    if (!text) return std::nullopt;
    return parse_since(*text);
  };
  if (const auto* err = expected.if_contains("error")) {
    try {
      resolve_since(parsed(), history, now);
      FAIL("expected an error");
    } catch (const Error& e) {
      CHECK(e.message().rfind(std::string(err->as_string()), 0) == 0);
      CHECK(e.message() == "invalid --since value \"" + *text +
                               "\"; expected an RFC 3339 timestamp, a YYYY-MM-DD date, or a relative duration "
                               "such as \"6 months\" or \"30 days ago\"");
    }
    return;
  }
  const auto window = resolve_since(parsed(), history, now);
  if (expected.at("cutoff").is_null()) {
    CHECK_FALSE(window.cutoff);
    CHECK(window.reason == SinceReason::no_default_outside_history);
  } else {
    REQUIRE(window.cutoff);
    CHECK(format_rfc3339(*window.cutoff) == std::string_view(expected.at("cutoff").as_string()));
    CHECK(window.reason == (text ? SinceReason::explicit_option : SinceReason::history_default));
  }
}

void check_since_filter(const json::object& in, const json::object& expected) {
  const std::optional<Timestamp> cutoff = from_unix_seconds(in.at("cutoff_unix").to_number<std::int64_t>());
  const auto& times = in.at("committer_times_unix").as_array();
  const auto& excluded = expected.at("excluded").as_array();
  REQUIRE(times.size() == excluded.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    std::optional<Timestamp> t;
    if (!times[i].is_null()) t = from_unix_seconds(times[i].to_number<std::int64_t>());
    CHECK(before_cutoff(t, cutoff) == excluded[i].as_bool());
  }
}

}  // namespace

TEST_CASE("every selection vector case is reproduced exactly", "[analysis][vectors]") {
  const auto cases = bhtest::load_vectors("selection.json");
  REQUIRE(cases.size() == 20);
  std::set<std::string> modes;
  for (const auto& c : cases) {
    const auto& obj = c.as_object();
    const std::string name(obj.at("name").as_string());
    const std::string mode(obj.at("mode").as_string());
    modes.insert(mode);
    const auto& in = obj.at("input").as_object();
    const auto& expected = obj.at("expected").as_object();
    SECTION(name) {
      if (mode == "mode_derivation")
        check_mode(in, expected);
      else if (mode == "dirty_admission")
        check_dirty(in, expected);
      else if (mode == "since")
        check_since(in, expected);
      else if (mode == "since_filter")
        check_since_filter(in, expected);
      else
        FAIL("unhandled vector mode " << mode);
    }
  }
  CHECK(modes == std::set<std::string>{"mode_derivation", "dirty_admission", "since", "since_filter"});
}
