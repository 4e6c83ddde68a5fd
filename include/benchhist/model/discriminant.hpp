#pragma once
// A discriminant set (partition): engine × target triple × machine key. Only runs of one
// discriminant set are ever compared with each other. Triple and machine key are held in
// their sanitized key-segment form (docs/formats.md#segment-sanitisation).

#include <compare>
#include <string>
#include <utility>

#include "benchhist/model/engine.hpp"

namespace benchhist {

struct DiscriminantSet {
  Engine engine = Engine::criterion;
  std::string target_triple;  // sanitized
  std::string machine_key;    // sanitized

  // `engine/triple/machine_key`, the label used in reports.
  std::string label() const {
    return std::string(to_string(engine)) + "/" + target_triple + "/" + machine_key;
  }

  // Ordered by engine name, then triple, then machine key (byte order), docs/formats.md#outputs.
  friend auto operator<=>(const DiscriminantSet& a, const DiscriminantSet& b) {
    if (auto c = to_string(a.engine) <=> to_string(b.engine); c != 0) return c;
    if (auto c = a.target_triple <=> b.target_triple; c != 0) return c;
    return a.machine_key <=> b.machine_key;
  }
  friend bool operator==(const DiscriminantSet&, const DiscriminantSet&) = default;
};

}  // namespace benchhist
