#pragma once
// Benchmark identity: an ordered, non-empty list of segments (docs/formats.md#identities). Identity
// comparison is exact on the segment list; the qualified form joins segments with '/'.

#include <compare>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist {

class BenchmarkId {
 public:
  BenchmarkId() = default;
  explicit BenchmarkId(std::vector<std::string> segments) : segments_(std::move(segments)) {}

  const std::vector<std::string>& segments() const noexcept { return segments_; }
  bool empty() const noexcept { return segments_.empty(); }

  // Segments joined with '/', e.g. `group/function/param`.
  std::string qualified() const {
    std::string out;
    for (std::size_t i = 0; i < segments_.size(); ++i) {
      if (i) out += '/';
      out += segments_[i];
    }
    return out;
  }

  // Raw string-prefix test against the qualified identity: `foo/bar` matches `foo/bar`,
  // `foo/bar/x` and `foo/barbaz` (docs/formats.md#blessing-records); callers append '/' for a
  // segment boundary.
  bool matches_prefix(std::string_view prefix) const { return qualified().starts_with(prefix); }

  friend bool operator==(const BenchmarkId&, const BenchmarkId&) = default;
  friend auto operator<=>(const BenchmarkId& a, const BenchmarkId& b) { return a.segments_ <=> b.segments_; }

 private:
  std::vector<std::string> segments_;
};

}  // namespace benchhist
