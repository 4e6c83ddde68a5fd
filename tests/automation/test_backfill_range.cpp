// Backfill range preparation on a real repository with dated commits (docs/github.md
// "Backfill range"): rolling selection from one clock snapshot, the `to` override, explicit
// ranges frozen to full ids, the no-op explanation, and input validation.

#include <catch2/catch.hpp>

#include "benchhist/analysis/git_topology.hpp"
#include "benchhist/automation/backfill_range.hpp"
#include "benchhist/error.hpp"
#include "git_repo.hpp"

using namespace benchhist;
using namespace benchhist::automation;

namespace {

long long at(const char* rfc3339) { return unix_seconds(*parse_rfc3339(rfc3339)); }

// main (first parent): c0 … c4, c5, m (merges `side`), c6; `side` holds s1 only.
struct DatedRepo {
  bhtest::TempRepo repo{"range"};
  std::string c0, c1, c2, c3, c4, s1, c5, m, c6;
  Timestamp now = *parse_rfc3339("2026-03-15T12:00:00Z");
  DatedRepo() {
    c0 = repo.commit("c0", at("2026-02-01T09:00:00Z"));
    c1 = repo.commit("c1", at("2026-02-20T09:00:00Z"));
    c2 = repo.commit("c2", at("2026-03-02T09:00:00Z"));
    c3 = repo.commit("c3", at("2026-03-05T09:00:00Z"));
    c4 = repo.commit("c4", at("2026-03-10T09:00:00Z"));
    repo.git({"checkout", "-q", "-b", "side"});
    s1 = repo.commit("s1", at("2026-03-13T09:00:00Z"), "side.txt");
    repo.git({"checkout", "-q", "main"});
    c5 = repo.commit("c5", at("2026-03-14T10:00:00Z"));
    repo.git({"merge", "-q", "--no-ff", "-m", "merge side", "side"}, at("2026-03-15T06:00:00Z"));
    m = repo.git({"rev-parse", "HEAD"});
    c6 = repo.commit("c6", at("2026-03-15T11:00:00Z"));
    repo.git({"tag", "v1", c1});
  }
  BackfillRangePlan plan(BackfillRangeRequest r) const {
    r.now = now;
    auto git = analysis::open_git_topology(repo.dir());
    return prepare_backfill_range(*git, r);
  }
  BackfillRangePlan rolling(std::string lookback, std::string age, std::string to = {}) const {
    BackfillRangeRequest r;
    r.lookback = std::move(lookback);
    r.minimum_age = std::move(age);
    r.to = std::move(to);
    return plan(r);
  }
};

const DatedRepo& dated() {
  static const DatedRepo r;
  return r;
}

std::string error_of(const DatedRepo& d, BackfillRangeRequest r) {
  try {
    d.plan(std::move(r));
  } catch (const Error& e) {
    return e.message();
  }
  return "(no error)";
}

// A real shallow clone of the dated repository (`git clone --depth <depth> file://…`), planned
// at the same `now`.
struct ShallowClone {
  bhtest::TempRepo holder{"range-shallow"};
  std::filesystem::path dir;
  Timestamp now;
  ShallowClone(const DatedRepo& d, int depth) : dir(holder.dir().parent_path() / "clone"), now(d.now) {
    holder.git({"clone", "-q", "--depth", std::to_string(depth), "file://" + d.repo.dir().string(), dir.string()});
  }
  BackfillRangePlan rolling(std::string lookback, std::string age) const {
    BackfillRangeRequest r;
    r.lookback = std::move(lookback);
    r.minimum_age = std::move(age);
    r.now = now;
    auto git = analysis::open_git_topology(dir);
    REQUIRE(git->is_shallow());
    return prepare_backfill_range(*git, r);
  }
};

}  // namespace

TEST_CASE("rolling selection: the newest commit at least minimum-age old, back to the oldest within lookback",
          "[automation][range]") {
  const auto& d = dated();
  auto p = d.rolling("14 days", "24 hours");
  CHECK(p.eligible);
  CHECK(p.selection == RangeSelection::rolling);
  CHECK(p.to == d.c5);    // c6 and the merge are younger than 24 hours
  CHECK(p.from == d.c2);  // c1 is older than 14 days before now
  CHECK(p.commits == 4);
  CHECK(p.lookback_cutoff == *parse_rfc3339("2026-03-01T12:00:00Z"));
  CHECK(p.age_cutoff == *parse_rfc3339("2026-03-14T12:00:00Z"));
  CHECK(p.explanation.find("backfilling 4 first-parent commits " + d.c2.substr(0, 12) + " → " + d.c5.substr(0, 12)) == 0);

  // The spellings the guide names resolve to the same instants.
  for (auto [lookback, age] : {std::pair{"P14D", "24 hours ago"}, std::pair{"2 weeks", "PT24H"},
                               std::pair{"14 days ago", "1 day"}}) {
    INFO(lookback << " / " << age);
    auto q = d.rolling(lookback, age);
    CHECK(q.from == d.c2);
    CHECK(q.to == d.c5);
  }
}

TEST_CASE("calendar units resolve against the one UTC clock snapshot", "[automation][range]") {
  const auto& d = dated();
  // One month before 2026-03-15T12:00Z is 2026-02-15T12:00Z: c1 (02-20) is inside.
  for (const char* lookback : {"1 month", "P1M"}) {
    auto p = d.rolling(lookback, "24 hours");
    CHECK(p.lookback_cutoff == *parse_rfc3339("2026-02-15T12:00:00Z"));
    CHECK(p.from == d.c1);
    CHECK(p.commits == 5);
  }
}

TEST_CASE("a zero minimum age takes the newest commit; the merge's second parent is never walked",
          "[automation][range]") {
  const auto& d = dated();
  auto p = d.rolling("14 days", "0 hours");
  CHECK(p.to == d.c6);
  CHECK(p.from == d.c2);
  CHECK(p.commits == 6);  // c2 c3 c4 c5 m c6 — not s1
  CHECK(p.explanation.find("newest first: the end is the newest commit (minimum-age 0) (committed ") != std::string::npos);
  CHECK(d.rolling("14 days", "0").to == d.c6);
}

TEST_CASE("to overrides the end while the lookback still runs from now", "[automation][range]") {
  const auto& d = dated();
  auto p = d.rolling("14 days", "24 hours", d.c3.substr(0, 10));
  CHECK(p.to == d.c3);  // frozen to the full id
  CHECK(p.from == d.c2);
  CHECK(p.commits == 2);
  // An end older than the horizon is measured alone.
  auto alone = d.rolling("14 days", "24 hours", "v1");
  CHECK(alone.to == d.c1);
  CHECK(alone.from == d.c1);
  CHECK(alone.commits == 1);
  CHECK(alone.explanation.find("(the end is already older than that horizon, so it is measured alone)") !=
        std::string::npos);
  CHECK(alone.explanation.rfind("backfilling 1 first-parent commit, " + d.c1.substr(0, 12) + ": the end given by to", 0) == 0);
}

TEST_CASE("no eligible end is not an error: the plan explains the no-op", "[automation][range]") {
  const auto& d = dated();
  auto p = d.rolling("90 days", "60 days");
  CHECK_FALSE(p.eligible);
  CHECK(p.from.empty());
  CHECK(p.to.empty());
  CHECK(p.commits == 0);
  CHECK(p.explanation == "nothing to backfill: no first-parent commit of HEAD (" + d.c6.substr(0, 12) +
                             ") was committed at least 60 days before 2026-03-15T12:00:00Z (the oldest, " +
                             d.c0.substr(0, 12) + ", dates from 2026-02-01T09:00:00Z), so no benchmark job starts");
}

TEST_CASE("a range that reaches a shallow clone's boundary is refused, not taken for the history's start",
          "[automation][range]") {
  const auto& d = dated();
  const std::string hint = "a shallow clone cuts the history off: fetch full history (actions/checkout with "
                           "`fetch-depth: 0`, or `git fetch --unshallow`)";
  // Depth 1 holds c6 alone; c5 (a day old) is within 60 days, the clone just does not have it.
  const ShallowClone one(d, 1);
  try {
    one.rolling("60 days", "0");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::git);
    CHECK(e.message() == "this shallow clone's history ends at " + d.c6.substr(0, 12) +
                             " (committed 2026-03-15T11:00:00Z), within 60 days of 2026-03-15T12:00:00Z: the range's "
                             "start may lie beyond it");
    CHECK(e.subject() == d.c6);
    CHECK(e.hint() == hint);
  }
  // No commit the clone holds is old enough: an older end may lie past the boundary.
  try {
    one.rolling("14 days", "24 hours");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.message() == "this shallow clone's history ends at " + d.c6.substr(0, 12) +
                             " (committed 2026-03-15T11:00:00Z), and no first-parent commit of HEAD from there on was "
                             "committed at least 24 hours before 2026-03-15T12:00:00Z: the range's end may lie beyond it");
    CHECK(e.hint() == hint);
  }
  // Depth 3 holds c5, m, c6 of the first-parent line: the end c5 is the boundary itself.
  const ShallowClone three(d, 3);
  CHECK_THROWS_WITH(three.rolling("14 days", "24 hours"),
                    Catch::StartsWith("this shallow clone's history ends at " + d.c5.substr(0, 12) + " "));
  // A range whose start lies inside the clone is the same as in a full clone.
  auto inside = three.rolling("1 day", "0");
  CHECK(inside.from == d.m);
  CHECK(inside.to == d.c6);
  CHECK(inside.commits == 2);
  // So is an end older than the horizon: measured alone, whatever lies before it.
  auto old_end = three.rolling("6 hours", "24 hours");
  CHECK(old_end.from == d.c5);
  CHECK(old_end.commits == 1);
  CHECK(old_end.explanation.find("(the end is already older than that horizon, so it is measured alone)") !=
        std::string::npos);
}

TEST_CASE("a repository's first commit is measured alone because nothing precedes it", "[automation][range]") {
  bhtest::TempRepo repo("range-root");
  const auto root = repo.commit("root", at("2026-03-10T09:00:00Z"));
  BackfillRangeRequest r;
  r.lookback = "14 days";
  r.minimum_age = "0";
  r.now = *parse_rfc3339("2026-03-15T12:00:00Z");
  auto git = analysis::open_git_topology(repo.dir());
  auto p = prepare_backfill_range(*git, r);
  CHECK(p.from == root);
  CHECK(p.commits == 1);
  CHECK(p.explanation.find("(the end is the first commit of the history, so it is measured alone)") != std::string::npos);
}

TEST_CASE("an explicit range is frozen to full ids and its start must be a first-parent ancestor of its end",
          "[automation][range]") {
  const auto& d = dated();
  BackfillRangeRequest r;
  r.from = "v1";
  r.to = "main";
  auto p = d.plan(r);
  CHECK(p.selection == RangeSelection::explicit_range);
  CHECK(p.eligible);
  CHECK(p.from == d.c1);
  CHECK(p.to == d.c6);
  CHECK(p.commits == 7);
  r.from = d.s1;  // reachable only through the merge's second parent
  CHECK(error_of(d, r) == "from (" + d.s1 + ") is not a first-parent ancestor of to (main)");
  r.from = "no-such-ref";
  CHECK(error_of(d, r) == "cannot resolve from (no-such-ref) to a commit");
}

TEST_CASE("inputs are validated naming the input", "[automation][range]") {
  const auto& d = dated();
  auto req = [](std::string lookback, std::string age, std::string from = {}, std::string to = {}) {
    BackfillRangeRequest r;
    r.lookback = std::move(lookback);
    r.minimum_age = std::move(age);
    r.from = std::move(from);
    r.to = std::move(to);
    return r;
  };
  CHECK(error_of(d, req("0 days", "24 hours")) == "lookback must be a nonzero duration (got \"0 days\")");
  CHECK(error_of(d, req("P0D", "0 hours")) == "lookback must be a nonzero duration (got \"P0D\")");
  // A bare 0 is the zero span (the guide: "minimum-age may be zero"); as lookback it is still zero.
  CHECK(error_of(d, req("0", "24 hours")) == "lookback must be a nonzero duration (got \"0\")");
  CHECK(d.plan(req("14 days", "0")).age_cutoff == d.plan(req("14 days", "0 hours")).age_cutoff);
  CHECK(error_of(d, req("14 days", "7")).rfind("invalid minimum-age \"7\": expected a duration", 0) == 0);
  CHECK(error_of(d, req("14 days", "")) == "rolling selection needs both lookback and minimum-age (minimum-age missing)");
  CHECK(error_of(d, req("", "")) == "rolling selection needs both lookback and minimum-age (both are missing)");
  CHECK(error_of(d, req("a fortnight", "1 day")).rfind("invalid lookback \"a fortnight\": expected a duration", 0) == 0);
  CHECK(error_of(d, req("14 days", "2026-03-01T00:00:00Z")).find("(a span back from now, not an instant)") !=
        std::string::npos);
  CHECK(error_of(d, req("14 days", "1 day", "v1", "main")) == "from cannot be combined with lookback or minimum-age");
  CHECK(error_of(d, req("", "", "v1")) == "from needs to: an explicit range names both ends");
  CHECK(error_of(d, req("", "", "v1", "   ")) == "to must not be blank");
  CHECK(error_of(d, req("", "", "v1", "main\nv1")) == "to must be a single-line commit reference");
  CHECK(error_of(d, req("14 days", "1 day", "", " \t")) == "to must not be blank");
}

TEST_CASE("a negative span is refused for lookback and minimum-age, naming the input", "[automation][range]") {
  const auto& d = dated();
  auto refusal = [&](std::string lookback, std::string age) -> Error {
    BackfillRangeRequest r;
    r.lookback = std::move(lookback);
    r.minimum_age = std::move(age);
    try {
      d.plan(r);
    } catch (const Error& e) {
      return e;
    }
    return Error(ErrorKind::internal, "(no error)");
  };
  auto lookback = refusal("-3 days", "24 hours");
  CHECK(lookback.kind() == ErrorKind::usage);
  CHECK(lookback.message() == "invalid lookback \"-3 days\": a span cannot be negative");
  CHECK(lookback.subject() == "lookback");
  CHECK(lookback.hint() == "give lookback without the minus sign, such as \"14 days\": it always counts back from now");
  auto age = refusal("14 days", " -PT24H ago");
  CHECK(age.message() == "invalid minimum-age \" -PT24H ago\": a span cannot be negative");
  CHECK(age.subject() == "minimum-age");
  CHECK(refusal("-14 days ago", "0").subject() == "lookback");
  // A plus sign says what the span means anyway.
  CHECK(d.rolling("+14 days", "+24 hours").from == d.c2);
}

TEST_CASE("max-commits is empty (unlimited) or a positive integer; ignore-errors true or false",
          "[automation][range]") {
  const auto& d = dated();
  BackfillRangeRequest r;
  r.lookback = "14 days";
  r.minimum_age = "1 day";
  CHECK_FALSE(d.plan(r).max_commits);
  CHECK_FALSE(d.plan(r).ignore_errors);
  r.max_commits = "1";
  r.ignore_errors = "true";
  CHECK(d.plan(r).max_commits == 1u);
  CHECK(d.plan(r).ignore_errors);
  for (const char* bad : {"0", "-1", "two", "1.5"}) {
    r.max_commits = bad;
    CHECK(error_of(d, r).rfind("invalid max-commits \"" + std::string(bad) + "\": expected a positive integer", 0) == 0);
  }
  r.max_commits = "";
  r.ignore_errors = "yes";
  CHECK(error_of(d, r) == "invalid ignore-errors \"yes\": expected true or false");
}
