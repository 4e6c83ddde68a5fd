// The HTML report end to end: a real git repository and store (runs written through the
// library, a blessing written by the real `bless`), `analyze --html` and `examine --html` of the
// real binary in history and branch mode, structural checks on the files, and each file opened in
// a real headless Chromium (tests/e2e/html_browser.mjs, DevTools protocol over a pipe): no console
// error, no network request, every finding's chart drawn, a screenshot that is not blank, the
// lazily drawn charts, the filter and the tap-to-show tooltip. Also a synthetic 2,000-series
// report for size and opening time.

#include <boost/json.hpp>
#include <catch2/catch.hpp>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/report/html_reporter.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "e2e_support.hpp"
#include "report/html_check.hpp"

namespace fs = std::filesystem;
namespace json = boost::json;
namespace bh = benchhist;
using e2e::contains;
using e2e::run_cli;

namespace {

const std::string triple = "x86_64-unknown-linux-gnu";
const std::string project = "html-repo";
constexpr long long t0 = 1780272000;  // 2026-06-01T00:00:00Z; commits an hour apart
constexpr int n_commits = 40;
constexpr int missing_at = 12;  // no run at all
const std::vector<std::string> weird{"parse", "<big> & \"quoted\" 'x'"};
const std::string weird_id = "parse/<big> & \"quoted\" 'x'";
const std::string weird_escaped = "parse/&lt;big&gt; &amp; &quot;quoted&quot; &#39;x&#39;";

double noise(int i) { return (((i * 37) % 11) - 5) * 0.1; }

bh::BenchmarkResult result(std::vector<std::string> segments, double v) {
  bh::BenchmarkResult r;
  r.id = bh::BenchmarkId(std::move(segments));
  bh::MetricValue m;
  m.kind = bh::MetricKind::wall_time;
  m.value = v;
  r.metrics.push_back(m);
  return r;
}

bh::Run make_run(const std::string& commit, long long when, bool dirty, std::vector<bh::BenchmarkResult> results) {
  bh::Run run;
  run.context.observation = bh::Timestamp{std::chrono::seconds(when + 60)};
  run.context.git.commit = commit;
  run.context.git.branch = "main";
  run.context.git.dirty = dirty;
  run.context.toolchain.target_triple = triple;
  run.context.toolchain.rustc_version = "1.95.0";
  run.context.tool_version = "e2e";
  run.context.best_of = 1;
  run.results = std::move(results);
  return run;
}

// main: 40 first-parent commits. `parse/<big> & "quoted" 'x'` steps 100 → 130 at commit 25;
// scan/blessed stepped at commit 6 (blessed at 8) and steps again at 30; parse/small is flat;
// fresh/new has three points, old/gone stops at commit 30 (a ghost); commit 12 has no run.
struct Repo {
  e2e::TempDir tmp{"bhe2e-html"};
  fs::path repo = tmp.path() / project;
  fs::path store = tmp.path() / "store";
  std::vector<std::string> commits;

  void put(const std::string& key, const bh::Run& run) {
    bh::storage::LocalStore s(store);
    s.put(key, bh::codec::encode_run(run), bh::storage::CollisionPolicy::refuse);
  }
  void commit(const std::string& subject, long long when) {
    e2e::write_file(repo / "log.txt", subject + "\n");
    e2e::git(repo, {"add", "log.txt"});
    e2e::git(repo, {"commit", "-q", "-m", subject}, when);
  }

  Repo() {
    fs::create_directories(repo);
    e2e::git(repo, {"init", "-q"});
    for (int i = 0; i < n_commits; ++i) {
      commit("commit " + std::to_string(i) + (i == 25 ? ": eager <header> parsing & more" : ""), t0 + i * 3600);
      commits.push_back(e2e::git(repo, {"rev-parse", "HEAD"}));
    }
    for (int i = 0; i < n_commits; ++i) {
      if (i == missing_at) continue;
      std::vector<bh::BenchmarkResult> r{result(weird, (i >= 25 ? 130.0 : 100.0) + noise(i)),
                                         result({"parse", "small"}, 50.0 + noise(i + 3)),
                                         result({"scan", "blessed"}, (i >= 30 ? 330.0 : i >= 6 ? 260.0 : 200.0) + noise(i))};
      if (i >= n_commits - 3) r.push_back(result({"fresh", "new"}, 10.0 + noise(i)));
      if (i <= 30) r.push_back(result({"old", "gone"}, 20.0 + noise(i)));
      put(bh::codec::clean_key(project, bh::Engine::criterion, triple, "m-a", commits[i]),
          make_run(commits[i], t0 + i * 3600, false, r));
    }
    auto b = run_cli({"bless", "--local=" + store.string(), "--context", commits[8], "--engine", "all",
                      "--target-triple", "all", "--machine-key", "all", "scan/"},
                     repo);
    if (b.exit_code != 0) throw std::runtime_error("bless failed: " + b.err);
  }
};

const std::vector<std::string> selection{"--engine", "all", "--target-triple", "all", "--machine-key", "all",
                                         "--since", "2026-05-01"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

void require_structure(const std::string& html) {
  const auto wf = html_check::well_formed(html);
  INFO(wf.what);
  REQUIRE(wf.ok);
  const auto sc = html_check::self_contained(html);
  INFO(sc.what);
  REQUIRE(sc.ok);
}

// Opens `page` in headless Chromium; the browser's view as JSON.
json::object browse(const fs::path& page, const fs::path& screenshot, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{"node", std::string(BH_SOURCE_DIR) + "/tests/e2e/html_browser.mjs", "--chromium",
                                "chromium", "--page", page.string(), "--screenshot", screenshot.string()};
  argv.insert(argv.end(), extra.begin(), extra.end());
  const auto r = e2e::run(argv, page.parent_path());
  INFO("node exit " << r.exit_code << "\nstdout:\n" << r.out << "\nstderr:\n" << r.err
                    << "\n(scripts/install-deps.sh installs Debian's chromium and Node.js)");
  REQUIRE(r.exit_code == 0);
  // BH_E2E_HTML_KEEP=<dir> keeps every page and screenshot for a person to look at.
  if (const char* keep = std::getenv("BH_E2E_HTML_KEEP")) {
    fs::create_directories(keep);
    for (const auto& f : {page, screenshot})
      fs::copy_file(f, fs::path(keep) / f.filename(), fs::copy_options::overwrite_existing);
  }
  return json::parse(r.out).as_object();
}

// What every page must satisfy in the browser.
void require_clean_load(const json::object& b, const fs::path& page) {
  INFO(json::serialize(b).substr(0, 3000));
  CHECK(b.at("consoleErrors").as_array().empty());
  CHECK(b.at("exceptions").as_array().empty());
  // The only request is the page itself: no script, style, font or image from anywhere.
  const auto& requests = b.at("requests").as_array();
  REQUIRE(requests.size() == 1);
  CHECK(std::string(requests[0].as_string()).rfind("file://", 0) == 0);
  CHECK(contains(std::string(requests[0].as_string()), page.filename().string()));
  const auto& shot = b.at("screenshot").as_object();
  CHECK(shot.at("nonBackgroundFraction").to_number<double>() > 0.02);
  CHECK(shot.at("distinctColors").to_number<double>() > 50);
}

// Every finding of the page has a drawn chart with marks and a tooltip.
void require_finding_charts(const json::object& b, std::size_t findings) {
  const auto& fs = b.at("findings").as_array();
  REQUIRE(fs.size() == findings);
  for (const auto& fv : fs) {
    const auto& f = fv.as_object();
    INFO(json::serialize(f));
    CHECK(f.at("chart").as_bool());
    CHECK(f.at("width").to_number<double>() > 300);
    CHECK(f.at("height").to_number<double>() > 100);
    CHECK(f.at("marks").to_number<double>() >= 2);
    CHECK(f.at("tooltip").is_string());
  }
}

const json::object* finding_for(const json::object& browser, const std::string& bench) {
  for (const auto& f : browser.at("findings").as_array())
    if (f.at("bench").as_string() == bench) return &f.as_object();
  return nullptr;
}

}  // namespace

TEST_CASE("the history HTML report is self-contained, deterministic and opens in Chromium with every finding charted",
          "[e2e][html]") {
  Repo h;
  const auto out = h.tmp.path() / "out";
  const auto args = with({"analyze", "--local=" + h.store.string(), "--no-text", "--html", (out / "a.html").string(),
                          "--json", (out / "a.json").string()},
                         selection);
  auto r = run_cli(args, h.repo);
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.empty());
  const auto html = e2e::read_file(out / "a.html");
  const auto j = json::parse(e2e::read_file(out / "a.json")).as_object();
  require_structure(html);

  // The same analysis as JSON: the findings in rank order, the outcome and the census.
  const auto& findings = j.at("findings").as_array();
  REQUIRE(findings.size() == 2);
  CHECK(contains(html, "id=\"outcome\">" + std::string(j.at("outcome").as_string()) + "<"));
  CHECK(contains(html, "<code>ghost</code></td><td class=\"num\">1</td>"));
  CHECK(contains(html, "<code>too_few_points</code></td><td class=\"num\">1</td>"));
  // Escaping: the benchmark name and the commit subject are text, never markup.
  CHECK(contains(html, weird_escaped));
  CHECK_FALSE(contains(html, "<big>"));
  CHECK_FALSE(contains(html, "<header> parsing"));
  CHECK(contains(html, "eager &lt;header&gt; parsing &amp; more"));

  // Deterministic: a second run writes the same bytes. --html alone satisfies --no-text, and
  // --verbose names the file written.
  auto r2 = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--verbose", "--html",
                          (out / "b.html").string()},
                         selection),
                    h.repo);
  REQUIRE(r2.exit_code == 0);
  CHECK(e2e::read_file(out / "b.html") == html);
  CHECK(contains(r2.err, "wrote the HTML report to " + (out / "b.html").string()));
  // Two outputs aimed at one file are refused before anything is analysed or written.
  auto clash = run_cli(with({"analyze", "--local=" + h.store.string(), "--markdown", (out / "a.html").string(),
                             "--html", (out / "a.html").string()},
                            selection),
                       h.repo);
  CHECK(clash.exit_code == 1);
  CHECK(contains(clash.err, "have conflicting output destinations"));
  CHECK(e2e::read_file(out / "a.html") == html);

  const auto b = browse(out / "a.html", out / "a.png", {"--interact", "--filter", "blessed"});
  require_clean_load(b, out / "a.html");
  require_finding_charts(b, findings.size());
  for (std::size_t i = 0; i < findings.size(); ++i) {
    // Ranked as in JSON.
    const auto& segments = findings[i].at("segments").as_array();
    std::string id;
    for (const auto& s : segments) id += (id.empty() ? "" : "/") + std::string(s.as_string());
    CHECK(b.at("findings").as_array()[i].at("bench").as_string() == id);
  }
  const auto* step = finding_for(b, weird_id);
  REQUIRE(step);
  CHECK(step->at("splits").to_number<int>() == 1);
  CHECK(step->at("marks").to_number<int>() == n_commits - 1);  // commit 12 is a gap, not a point
  CHECK(contains(std::string(step->at("tooltip").as_string()), "2026-06-01T00:00:00Z"));
  const auto* blessed = finding_for(b, "scan/blessed");
  REQUIRE(blessed);
  CHECK(blessed->at("blessings").to_number<int>() == 1);
  // The judged series table: drawn on demand, filterable.
  const auto& lazy = b.at("lazy").as_object();
  CHECK(lazy.at("total").to_number<int>() == 3);  // parse/<big>, parse/small, scan/blessed
  CHECK(lazy.at("drawnAfterScroll").to_number<int>() == 3);
  CHECK(lazy.at("emptyDrawn").to_number<int>() == 0);
  const auto& filter = b.at("filter").as_object();
  CHECK_FALSE(filter.at("hidden").as_bool());
  CHECK(filter.at("all").to_number<int>() == 3);
  CHECK(filter.at("filtered").to_number<int>() == 1);
  CHECK(filter.at("shown").as_string() == "1");
  CHECK(filter.at("restored").to_number<int>() == 3);
  CHECK(contains(std::string(b.at("tap").as_string()), " ns"));

  // The dark scheme: same page, dark background, still drawn; and printed, every small chart is
  // drawn first.
  const auto dark = browse(out / "a.html", out / "a-dark.png", {"--dark", "--pdf", (out / "a.pdf").string()});
  const auto& pdf = dark.at("pdf").as_object();
  CHECK(pdf.at("bytes").to_number<int>() > 10000);
  CHECK(pdf.at("pages").to_number<int>() >= 1);
  CHECK(pdf.at("drawnAfterPrint").to_number<int>() == 3);
  require_clean_load(dark, out / "a.html");
  const auto& bg = dark.at("screenshot").at("background").as_array();
  CHECK(bg[0].to_number<int>() + bg[1].to_number<int>() + bg[2].to_number<int>() < 120);
  // A phone's width.
  const auto phone = browse(out / "a.html", out / "a-phone.png", {"--width", "390", "--height", "844"});
  require_clean_load(phone, out / "a.html");
  require_finding_charts(phone, findings.size());
}

TEST_CASE("the branch HTML report shows the base window's observed range and the dirty tip, and examine --html opens "
          "cleanly",
          "[e2e][html]") {
  Repo h;
  const int fork = 35;
  e2e::git(h.repo, {"checkout", "-q", "-b", "feature", h.commits[fork]});
  std::vector<std::string> feature;
  for (int k = 0; k < 3; ++k) {
    const long long when = t0 + 100 * 3600 + k * 3600;
    h.commit("feature " + std::to_string(k), when);
    feature.push_back(e2e::git(h.repo, {"rev-parse", "HEAD"}));
    h.put(bh::codec::clean_key(project, bh::Engine::criterion, triple, "m-a", feature.back()),
          make_run(feature.back(), when, false,
                   {result(weird, 130.0 + noise(k)), result({"parse", "small"}, 80.0 + noise(k)),
                    result({"scan", "blessed"}, 330.0 + noise(k))}));
  }
  // A dirty snapshot at the branch tip: the context value is taken from it and marked dirty.
  h.put(bh::codec::dirty_key(project, bh::Engine::criterion, triple, "m-a", feature.back(), t0 + 200 * 3600),
        make_run(feature.back(), t0 + 200 * 3600, true,
                 {result(weird, 130.0), result({"parse", "small"}, 81.0), result({"scan", "blessed"}, 330.0)}));
  const auto out = h.tmp.path() / "out";
  auto r = run_cli(with({"analyze", "--local=" + h.store.string(), "--no-text", "--html", (out / "b.html").string(),
                         "--json", (out / "b.json").string()},
                        selection),
                   h.repo);
  INFO("stderr:\n" << r.err);
  REQUIRE(r.exit_code == 0);
  const auto html = e2e::read_file(out / "b.html");
  require_structure(html);
  const auto j = json::parse(e2e::read_file(out / "b.json")).as_object();
  CHECK(j.at("mode").as_string() == "branch");
  CHECK(contains(html, "Mode</dt><dd>branch</dd>"));
  CHECK(contains(html, "<strong>Historical comparison:</strong>"));
  const auto& findings = j.at("findings").as_array();
  REQUIRE_FALSE(findings.empty());

  const auto b = browse(out / "b.html", out / "b.png", {"--interact"});
  require_clean_load(b, out / "b.html");
  require_finding_charts(b, findings.size());
  const auto* small = finding_for(b, "parse/small");
  REQUIRE(small);
  CHECK(small->at("bands").to_number<int>() == 1);
  CHECK(small->at("tipMarks").to_number<int>() == 1);
  CHECK(small->at("dirtyMarks").to_number<int>() == 1);  // the dirty tip

  // examine --html of the oddly named benchmark, with a dirty point and the gap.
  auto e = run_cli(with({"examine", "--local=" + h.store.string(), "--benchmark", weird_id, "--metric", "wall_time",
                         "--no-text", "--html", (out / "e.html").string()},
                        selection),
                   h.repo);
  INFO("examine stderr:\n" << e.err);
  REQUIRE(e.exit_code == 0);
  const auto ehtml = e2e::read_file(out / "e.html");
  require_structure(ehtml);
  CHECK(contains(ehtml, "<h1>Data points for <code>" + weird_escaped + "</code></h1>"));
  CHECK(contains(ehtml, "<td>dirty</td>"));
  const auto eb = browse(out / "e.html", out / "e.png");
  require_clean_load(eb, out / "e.html");
}

TEST_CASE("a 2,000-series HTML report stays a few megabytes, opens quickly and draws its small charts on demand",
          "[e2e][html]") {
  using namespace bh::report;
  AnalysisReport r;
  r.project = "large";
  r.context_commit = std::string(40, 'f');
  r.runs = {200, std::string(40, '0'), r.context_commit};
  r.census.judged = 2000;
  const bh::DiscriminantSet set{bh::Engine::criterion, triple, "m-a"};
  r.sets.push_back({set, 200, 2000, {}, std::nullopt});
  ChartData d;
  for (std::size_t i = 0; i < 200; ++i)
    d.line.push_back({std::string(40, "0123456789abcdef"[i % 16]), "2026-06-01T00:00:00Z", "commit " + std::to_string(i)});
  for (std::size_t k = 0; k < 2000; ++k) {
    SeriesSketch s;
    s.set = set;
    s.benchmark = bh::BenchmarkId({"group" + std::to_string(k / 100), "bench_" + std::to_string(k)});
    for (std::size_t i = 0; i < 200; ++i)
      if (i % 17 != 5) s.points.push_back({i, 1000.0 + static_cast<double>((i * 37 + k) % 23) + (k < 20 && i >= 150 ? 300.0 : 0.0)});
    s.target_index = 199;
    if (k < 20) {
      Finding f;
      f.set = set;
      f.benchmark = s.benchmark;
      f.baseline = 1011;
      f.latest = 1311;
      f.relative_delta = 0.3;
      f.commit = d.line[150].id;
      f.chart = FindingChart{s.points, 199, 150, std::nullopt};
      s.finding = k;
      r.findings.push_back(f);
    }
    d.judged.push_back(std::move(s));
  }
  r.charts = d;
  const auto html = HtmlReporter().render(r);
  require_structure(html);
  INFO("size " << html.size());
  CHECK(html.size() < 2'500'000);
  e2e::TempDir tmp("bhe2e-html-large");
  const auto page = tmp.path() / "large.html";
  e2e::write_file(page, html);

  const auto b = browse(page, tmp.path() / "large.png", {"--interact", "--filter", "bench_1999"});
  require_clean_load(b, page);
  require_finding_charts(b, 20);
  WARN("2,000-series report: " << html.size() << " bytes, load event after " << b.at("loadMs").to_number<double>()
                                << " ms");
  CHECK(b.at("loadMs").to_number<double>() < 15000);  // typically well under a second; the machine is shared
  const auto& lazy = b.at("lazy").as_object();
  CHECK(lazy.at("total").to_number<int>() == 2000);
  CHECK(lazy.at("drawnAtLoad").to_number<int>() < 2000);  // on demand, not all at once
  CHECK(lazy.at("drawnAfterScroll").to_number<int>() == 2000);
  CHECK(b.at("filter").at("filtered").to_number<int>() == 1);
}
