#include "benchhist/codec/run_json.hpp"

#include <limits>

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/codec/utf8.hpp"
#include "benchhist/error.hpp"
#include "json_read.hpp"

namespace benchhist::codec {
namespace {

using namespace detail;
namespace bj = boost::json;

constexpr std::string_view damaged_hint =
    "the object is damaged or was not written by cargo-bench-history; move it out of the store "
    "(or restore it from a backup) and re-collect that commit";

void write_nullable(json::Writer& w, std::string_view key, const std::optional<std::string>& v) {
  w.key(key);
  if (v) {
    w.value(*v);
  } else {
    w.null();
  }
}

void write_metric(json::Writer& w, const MetricValue& m) {
  w.begin_inline_object();
  w.member("kind", to_string(m.kind));
  w.key("value").raw(json::format_double(m.value, std::string(to_string(m.kind)) + " value"));
  if (m.std_dev) w.key("std_dev").raw(json::format_double(*m.std_dev, "std_dev"));
  if (m.interval) {
    w.key("interval_low").raw(json::format_double(m.interval->low, "interval_low"));
    w.key("interval_high").raw(json::format_double(m.interval->high, "interval_high"));
  }
  w.end_object();
}

MachineDescription decode_machine(const bj::value& v, const std::string& path) {
  const auto& o = as_object(v, path);
  MachineDescription m;
  m.processors = as_uint(required(o, "processors", path), child(path, "processors"));
  m.memory_regions = as_uint(required(o, "memory_regions", path), child(path, "memory_regions"));
  if (const auto* pm = find_non_null(o, "processor_models"))
    m.processor_models = string_array(*pm, child(path, "processor_models"));
  if (const auto* ps = find_non_null(o, "processor_speeds")) {
    const std::string sp = child(path, "processor_speeds");
    const auto& arr = as_array(*ps, sp);
    for (std::size_t i = 0; i < arr.size(); ++i) {
      const std::string ep = index(sp, i);
      const auto& pair = as_array(arr[i], ep);
      if (pair.size() != 2) fail(ep, "expected a [speed, count] pair");
      m.processor_speeds.emplace_back(as_uint(pair[0], index(ep, 0)), as_uint(pair[1], index(ep, 1)));
    }
  }
  m.fingerprint = as_string(required(o, "fingerprint", path), child(path, "fingerprint"));
  return m;
}

RunContext decode_context(const bj::value& v, const std::string& path) {
  const auto& o = as_object(v, path);
  RunContext c;
  c.observation = as_timestamp(required(o, "observation", path), child(path, "observation"));

  const std::string gp = child(path, "git");
  const auto& git = as_object(required(o, "git", path), gp);
  c.git.commit = nullable_string(git, "commit", gp);
  c.git.branch = nullable_string(git, "branch", gp);
  c.git.dirty = as_bool(required(git, "dirty", gp), child(gp, "dirty"));

  const std::string ep = child(path, "env");
  const auto& env = as_object(required(o, "env", path), ep);
  const std::string provider = as_string(required(env, "provider", ep), child(ep, "provider"));
  const auto p = parse_ci_provider(provider);
  if (!p) fail(child(ep, "provider"), "unknown provider \"" + provider + "\" (expected local, github_actions or azure_devops)");
  c.env.provider = *p;
  c.env.run_id = nullable_string(env, "run_id", ep);
  c.env.pull_request = nullable_string(env, "pull_request", ep);

  const std::string tp = child(path, "toolchain");
  const auto& tc = as_object(required(o, "toolchain", path), tp);
  c.toolchain.target_triple = as_string(required(tc, "target_triple", tp), child(tp, "target_triple"));
  c.toolchain.rustc_version = nullable_string(tc, "rustc_version", tp);

  c.tool_version = as_string(required(o, "tool_version", path), child(path, "tool_version"));

  if (const auto* m = find_non_null(o, "machine")) c.machine = decode_machine(*m, child(path, "machine"));
  if (const auto* b = find_non_null(o, "best_of")) {
    const std::string bp = child(path, "best_of");
    const std::uint64_t n = as_uint(*b, bp);
    if (n < 1 || n > std::numeric_limits<std::uint32_t>::max()) fail(bp, "expected an integer of at least 1");
    c.best_of = static_cast<std::uint32_t>(n);
  }
  return c;
}

BenchmarkResult decode_result(const bj::value& v, const std::string& path) {
  const auto& o = as_object(v, path);
  BenchmarkResult r;
  const std::string ip = child(path, "id");
  const auto& id = as_object(required(o, "id", path), ip);
  const std::string sp = child(ip, "segments");
  r.id = BenchmarkId(string_array(required(id, "segments", ip), sp));

  const std::string mp = child(path, "metrics");
  const auto& metrics = as_array(required(o, "metrics", path), mp);
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    const std::string ep = index(mp, i);
    const auto& mo = as_object(metrics[i], ep);
    const std::string kind_text = as_string(required(mo, "kind", ep), child(ep, "kind"));
    const auto kind = parse_metric_kind(kind_text);
    if (!kind) continue;  // old stores carry estimated_cycles, cache hits, ...: dropped (docs/formats.md#read-compatibility)
    MetricValue m;
    m.kind = *kind;
    m.value = as_number(required(mo, "value", ep), child(ep, "value"));
    m.std_dev = optional_number(mo, "std_dev", ep);
    const auto low = optional_number(mo, "interval_low", ep);
    const auto high = optional_number(mo, "interval_high", ep);
    if (low.has_value() != high.has_value())
      fail(child(ep, low ? "interval_high" : "interval_low"), "missing (interval bounds come in pairs)");
    if (low) m.interval = Interval{*low, *high};
    r.metrics.push_back(m);
  }
  return r;
}

}  // namespace

std::string encode_run(const Run& run) {
  // Never write what decode_run would refuse: a stored object must read back.
  if (const auto problem = run_problem(run.results))
    throw Error(ErrorKind::usage, "cannot store a run whose " + problem->where + " is wrong: " + problem->what,
                problem->where, {},
                "give each benchmark one result, with at least one id segment, each metric kind at most "
                "once, finite values (leave a failed measurement out of the results) and every interval's "
                "bounds finite, the low one at most the high one");
  const RunContext& c = run.context;
  json::Writer w;
  w.begin_object();
  w.member("schema_version", run_schema_version);
  w.key("context").begin_object();
  w.member("observation", format_rfc3339(c.observation));
  w.key("git").begin_object();
  write_nullable(w, "commit", c.git.commit);
  write_nullable(w, "branch", c.git.branch);
  w.member("dirty", c.git.dirty);
  w.end_object();
  w.key("env").begin_object();
  w.member("provider", to_string(c.env.provider));
  write_nullable(w, "run_id", c.env.run_id);
  write_nullable(w, "pull_request", c.env.pull_request);
  w.end_object();
  w.key("toolchain").begin_object();
  w.member("target_triple", c.toolchain.target_triple);
  write_nullable(w, "rustc_version", c.toolchain.rustc_version);
  w.end_object();
  w.member("tool_version", c.tool_version);
  if (c.machine) {
    const MachineDescription& m = *c.machine;
    w.key("machine").begin_object();
    w.member("processors", m.processors);
    w.member("memory_regions", m.memory_regions);
    w.key("processor_models").begin_array();
    for (const auto& model : m.processor_models) w.value(model);
    w.end_array();
    w.key("processor_speeds").begin_array();
    for (const auto& [speed, count] : m.processor_speeds) {
      w.begin_array().value(speed).value(count).end_array();
    }
    w.end_array();
    w.member("fingerprint", m.fingerprint);
    w.end_object();
  }
  if (c.best_of) w.member("best_of", static_cast<std::uint64_t>(*c.best_of));
  w.end_object();
  w.key("results").begin_array();
  for (const auto& r : run.results) {
    w.begin_object();
    w.key("id").begin_object();
    w.key("segments").begin_array();
    for (const auto& s : r.id.segments()) w.value(s);
    w.end_array();
    w.end_object();
    w.key("metrics").begin_array();
    for (const auto& m : r.metrics) write_metric(w, m);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take();
}

Run decode_run(std::string_view text, std::string_view key) {
  const std::string k(key);
  if (!utf8::is_valid(text))
    throw Error(ErrorKind::decode, "stored object " + k + " is not valid UTF-8", k, {}, std::string(damaged_hint));
  try {
    const bj::value doc = parse_document(text);
    const auto& root = as_object(doc, "");
    Run run;
    const std::int64_t version = as_int(required(root, "schema_version", ""), "schema_version");
    if (version > run_schema_version)
      throw Error(ErrorKind::decode,
                  "stored object " + k + " was written by a newer cargo-bench-history (schema_version " +
                      std::to_string(version) + "; this version reads 1 to " + std::to_string(run_schema_version) + ")",
                  k, {}, "upgrade cargo-bench-history to read this store");
    if (version < 1) fail("schema_version", "unsupported version " + std::to_string(version));
    run.schema_version = static_cast<int>(version);
    run.context = decode_context(required(root, "context", ""), "context");
    const auto& results = as_array(required(root, "results", ""), "results");
    run.results.reserve(results.size());
    for (std::size_t i = 0; i < results.size(); ++i)
      run.results.push_back(decode_result(results[i], index("results", i)));
    // Every result is kept, so the model's positions are the document's.
    if (const auto problem = run_problem(run.results)) fail(problem->where, problem->what);
    return run;
  } catch (const DecodeFailure& f) {
    throw Error(ErrorKind::decode, "stored object " + k + " is not a valid result set", k, f.cause,
                std::string(damaged_hint));
  }
}

}  // namespace benchhist::codec
