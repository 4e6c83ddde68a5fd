#pragma once
// The shared vectors record the reference detector.
// docs/divergences.md#s1--the-analytic-certificate-at-the-unclamped-observed-p,
// #s2--the-reported-split-is-the-new-levels-estimated-start move some of their expectations on
// purpose; each move is listed in vector_revisions.json (case, JSON pointer into the case,
// reference value, revised value, which change moved it). The product is tested against the vectors
// with those revisions applied, the reference behaviour against the vectors as they are, and
// test_vector_revisions.cpp proves the list is exactly what S1/S2 move: nothing missing, nothing
// else.

#include <string>
#include <vector>

#include "benchhist/detect/history.hpp"
#include "common/vectors.hpp"

namespace bhtest {

enum class Behaviour { reference, product };

inline benchhist::detect::detail::Departures departures_of(Behaviour b) {
  return b == Behaviour::reference ? benchhist::detect::detail::Departures::reference()
                                   : benchhist::detect::detail::Departures{};
}
inline const char* to_string(Behaviour b) { return b == Behaviour::reference ? "reference" : "product"; }

struct FieldRevision {
  std::string path;         // JSON pointer within the case, e.g. /expected/candidate/commit
  std::string op;           // replace | add | remove
  json::value reference;    // the vector's value (null for add)
  json::value revised;      // the new value (null for remove)
  std::string change;       // S1 | S2 | S1+S2
};
struct CaseRevision {
  std::string file;
  std::string name;
  std::vector<FieldRevision> fields;
};

inline std::string revisions_path() { return std::string(BH_SOURCE_DIR) + "/tests/detect/vector_revisions.json"; }

inline std::vector<CaseRevision> load_revisions() {
  std::vector<CaseRevision> out;
  std::ifstream in(revisions_path(), std::ios::binary);
  if (!in) FAIL("cannot open " << revisions_path());
  std::stringstream ss;
  ss << in.rdbuf();
  const auto doc = json::parse(quote_decimals(ss.str())).as_object();
  for (const auto& r : doc.at("revisions").as_array()) {
    CaseRevision c;
    c.file = str(r.at("file"));
    c.name = str(r.at("case"));
    for (const auto& f : r.at("fields").as_array()) {
      FieldRevision fr;
      fr.path = str(f.at("path"));
      fr.op = str(f.at("op"));
      fr.reference = f.as_object().contains("reference") ? f.at("reference") : json::value();
      fr.revised = f.as_object().contains("revised") ? f.at("revised") : json::value();
      fr.change = str(f.at("change"));
      c.fields.push_back(std::move(fr));
    }
    out.push_back(std::move(c));
  }
  return out;
}

// Numbers compare by value (vectors carry decimals as marked strings, see quote_decimals).
inline bool same_json(const json::value& a, const json::value& b) {
  auto is_num = [](const json::value& v) {
    return v.is_number() || (v.is_string() && std::string_view(v.as_string()).starts_with(number_marker));
  };
  if (is_num(a) && is_num(b)) return num(a) == num(b);
  if (a.kind() != b.kind()) return false;
  if (a.is_array()) {
    const auto &x = a.as_array(), &y = b.as_array();
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i)
      if (!same_json(x[i], y[i])) return false;
    return true;
  }
  if (a.is_object()) {
    const auto &x = a.as_object(), &y = b.as_object();
    if (x.size() != y.size()) return false;
    for (const auto& kv : x)
      if (!y.contains(kv.key()) || !same_json(kv.value(), y.at(kv.key()))) return false;
    return true;
  }
  return a == b;
}

// Splits a JSON pointer into its parent pointer and last token (no escapes are used here).
inline std::pair<std::string, std::string> split_pointer(const std::string& p) {
  const auto cut = p.rfind('/');
  return {p.substr(0, cut), p.substr(cut + 1)};
}

inline void apply_revision(json::value& kase, const FieldRevision& f) {
  INFO("revision " << f.op << " " << f.path);
  const auto [parent_path, token] = split_pointer(f.path);
  json::value& parent = parent_path.empty() ? kase : kase.at_pointer(parent_path);
  if (parent.is_array()) {
    REQUIRE(f.op == "replace");
    auto& arr = parent.as_array();
    const auto i = static_cast<std::size_t>(std::stoul(token));
    REQUIRE(i < arr.size());
    REQUIRE(same_json(arr[i], f.reference));
    arr[i] = f.revised;
    return;
  }
  auto& obj = parent.as_object();
  if (f.op == "add") {
    REQUIRE_FALSE(obj.contains(token));
    obj[token] = f.revised;
  } else if (f.op == "remove") {
    REQUIRE(obj.contains(token));
    REQUIRE(same_json(obj.at(token), f.reference));
    obj.erase(token);
  } else {
    REQUIRE(f.op == "replace");
    REQUIRE(obj.contains(token));
    REQUIRE(same_json(obj.at(token), f.reference));  // the revision still describes this file
    obj[token] = f.revised;
  }
}

// The cases of one vector file as `behaviour` must reproduce them.
inline json::array vectors_for(const std::string& file, Behaviour behaviour) {
  json::array cases = load_vectors(file);
  if (behaviour == Behaviour::reference) return cases;
  for (const auto& r : load_revisions()) {
    if (r.file != file) continue;
    bool found = false;
    for (auto& c : cases) {
      if (str(c.at("name")) != r.name) continue;
      found = true;
      for (const auto& f : r.fields) apply_revision(c, f);
    }
    INFO("revised case " << r.file << "#" << r.name);
    REQUIRE(found);
  }
  return cases;
}

}  // namespace bhtest
