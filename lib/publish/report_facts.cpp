// The analyze JSON report as publication reads it (docs/formats.md#report-formats) and the
// publication state.

#include "benchhist/publish/report_facts.hpp"

#include <boost/json.hpp>

#include <string>
#include <string_view>

#include "benchhist/error.hpp"

namespace benchhist::publish {
namespace {

[[noreturn]] void bad(const std::string& path, const std::string& what) {
  throw Error(ErrorKind::decode, path + " is not an analyze JSON report", path, what,
              "pass the file written by `cargo bench-history analyze --json <path>`");
}

// `where` by value: a reference parameter bound to a temporary ("" at a call) beside the
// returned reference is what gcc 13+'s -Wdangling-reference warns about.
const boost::json::value& member(const boost::json::object& o, const char* name, const std::string& path,
                                 std::string_view where) {
  auto* v = o.if_contains(name);
  if (!v) bad(path, "missing member \"" + std::string(where) + name + "\"");
  return *v;
}

std::string str(const boost::json::object& o, const char* name, const std::string& path, const std::string& where = {}) {
  const auto& v = member(o, name, path, where);
  if (!v.is_string()) bad(path, "\"" + where + name + "\" is not a string");
  return std::string(v.as_string());
}

std::uint64_t count(const boost::json::object& o, const char* name, const std::string& path,
                    const std::string& where = {}) {
  const auto& v = member(o, name, path, where);
  if (v.is_uint64()) return v.as_uint64();
  if (v.is_int64() && v.as_int64() >= 0) return static_cast<std::uint64_t>(v.as_int64());
  bad(path, "\"" + where + name + "\" is not a non-negative integer");
}

// A report token through its one parser (model/verdict.hpp), or the file is rejected.
template <class Parse>
auto token(const std::string& text, Parse parse, const std::string& path, const char* name) {
  if (const auto e = parse(text)) return *e;
  bad(path, std::string("unknown ") + name + " \"" + text + "\"");
}

}  // namespace

ReportFacts read_report_facts(std::string_view json_text, const std::string& path) {
  boost::system::error_code ec;
  auto doc = boost::json::parse(json_text, ec);
  if (ec) bad(path, ec.message());
  if (!doc.is_object()) bad(path, "the document is not a JSON object");
  const auto& o = doc.as_object();
  ReportFacts f;
  f.project = str(o, "project", path);
  f.tip_commit = str(o, "tip_commit", path);
  f.mode = token(str(o, "mode", path), parse_analysis_mode, path, "mode");
  f.outcome = token(str(o, "outcome", path), parse_outcome, path, "outcome");
  f.regressions = count(o, "regressions", path);
  if (o.if_contains("improvements")) f.improvements = count(o, "improvements", path);
  const auto& census = member(o, "census", path, "");
  if (!census.is_object()) bad(path, "\"census\" is not an object");
  const auto& c = census.as_object();
  f.coverage = token(str(c, "coverage", path, "census."), parse_coverage, path, "coverage");
  f.in_scope = count(c, "in_scope", path, "census.");
  f.judged = count(c, "judged", path, "census.");
  return f;
}

std::string_view to_string(PublicationState state) noexcept {
  switch (state) {
    case PublicationState::findings: return "findings";
    case PublicationState::clean: return "clean";
    case PublicationState::inconclusive: return "inconclusive";
  }
  return "inconclusive";
}

PublicationState publication_state(const ReportFacts& facts, bool collection_complete) noexcept {
  if (facts.outcome == benchhist::Outcome::findings) return PublicationState::findings;
  if (facts.outcome == benchhist::Outcome::clean && facts.coverage == benchhist::Coverage::full && collection_complete)
    return PublicationState::clean;
  return PublicationState::inconclusive;
}

std::string inconclusive_reason(const ReportFacts& f, bool collection_complete) {
  if (publication_state(f, collection_complete) != PublicationState::inconclusive) return {};
  switch (f.outcome) {
    case benchhist::Outcome::insufficient_baseline:
      return "there is not enough comparable history yet: none of the " + std::to_string(f.in_scope) +
             " in-scope series could be judged";
    case benchhist::Outcome::partial:
      return "only " + std::to_string(f.judged) + " of " + std::to_string(f.in_scope) +
             " in-scope series could be judged";
    case benchhist::Outcome::nothing_in_scope:
      return "nothing was in scope: every accounted series was absent at the analyzed commit or ignored by "
             "configuration";
    default:
      break;
  }
  return "collection was not confirmed complete on every expected platform (--collection-complete true), so a "
         "clean analysis of the collected series is not an all-clear";
}

}  // namespace benchhist::publish
