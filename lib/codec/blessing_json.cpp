#include "benchhist/codec/blessing_json.hpp"

#include "benchhist/codec/json_writer.hpp"
#include "benchhist/codec/utf8.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "json_read.hpp"

namespace benchhist::codec {
namespace {

using namespace detail;
namespace bj = boost::json;

constexpr std::string_view damaged_hint =
    "the blessing is damaged or was not written by cargo-bench-history; move it out of the store "
    "(or restore it from a backup) and bless the commit again";

void write_strings(json::Writer& w, std::string_view key, const std::vector<std::string>& values) {
  w.key(key).begin_array();
  for (const auto& v : values) w.value(v);
  w.end_array();
}

BlessingScope decode_scope(const bj::value& v, const std::string& path) {
  const auto& o = as_object(v, path);
  for (const auto& member : o) {
    const std::string_view name(member.key().data(), member.key().size());
    if (name != "engine" && name != "target_triple" && name != "machine_key")
      fail(child(path, name), "unknown scope member (expected engine, target_triple and machine_key)");
  }
  BlessingScope s;
  s.engine = string_array(required(o, "engine", path), child(path, "engine"));
  s.target_triple = string_array(required(o, "target_triple", path), child(path, "target_triple"));
  s.machine_key = string_array(required(o, "machine_key", path), child(path, "machine_key"));
  return s;
}

}  // namespace

std::string encode_blessing(const Blessing& b) {
  json::Writer w;
  w.begin_object();
  w.member("schema_version", blessing_schema_version);
  w.member("commit", b.commit);
  w.member("issued_at", format_rfc3339(b.issued_at));
  write_strings(w, "prefixes", b.prefixes);
  w.member("tool_version", b.tool_version);
  if (b.scope) {
    w.key("scope").begin_object();
    write_strings(w, "engine", b.scope->engine);
    write_strings(w, "target_triple", b.scope->target_triple);
    write_strings(w, "machine_key", b.scope->machine_key);
    w.end_object();
  }
  w.end_object();
  return w.take();
}

Blessing decode_blessing(std::string_view text, std::string_view key) {
  const std::string k(key);
  if (!utf8::is_valid(text))
    throw Error(ErrorKind::decode, "stored object " + k + " is not valid UTF-8", k, {}, std::string(damaged_hint));
  const bool project_level = parse_project_blessing_key(key).has_value();
  const auto data_key = parse_data_key(key);
  const bool sidecar = data_key && data_key->kind == ObjectKind::partition_blessing;
  try {
    const bj::value doc = parse_document(text);
    const auto& root = as_object(doc, "");
    Blessing b;
    const std::int64_t version = as_int(required(root, "schema_version", ""), "schema_version");
    if (version > blessing_schema_version)
      throw Error(ErrorKind::decode,
                  "stored object " + k + " was written by a newer cargo-bench-history (blessing schema_version " +
                      std::to_string(version) + "; this version reads 1 to " +
                      std::to_string(blessing_schema_version) + ")",
                  k, {}, "upgrade cargo-bench-history to read this store");
    if (version < 1) fail("schema_version", "unsupported version " + std::to_string(version));
    b.schema_version = static_cast<int>(version);
    b.commit = as_string(required(root, "commit", ""), "commit");
    if (b.commit.empty()) fail("commit", "expected a commit id, got an empty string");
    b.issued_at = as_timestamp(required(root, "issued_at", ""), "issued_at");
    b.prefixes = string_array(required(root, "prefixes", ""), "prefixes");
    for (std::size_t i = 0; i < b.prefixes.size(); ++i)
      if (b.prefixes[i].empty()) fail(index("prefixes", i), "an empty prefix is invalid (an empty prefixes array means every benchmark)");
    b.tool_version = as_string(required(root, "tool_version", ""), "tool_version");
    if (!sidecar) {
      const auto* scope = find(root, "scope");
      if (scope != nullptr) {
        b.scope = decode_scope(*scope, "scope");
      } else if (project_level) {
        fail("scope", "missing (a project-level blessing must state its scope; an empty axis array means unrestricted)");
      }
    }
    return b;
  } catch (const DecodeFailure& f) {
    throw Error(ErrorKind::decode, "stored object " + k + " is not a valid blessing", k, f.cause,
                std::string(damaged_hint));
  }
}

}  // namespace benchhist::codec
