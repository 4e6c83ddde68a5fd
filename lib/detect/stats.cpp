// Shared statistical primitives (detection.md §0.2, §3).
#include "benchhist/detect/stats.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <numeric>

#include "exact_table.hpp"

namespace benchhist::detect {

// Exact intermediate products of binomial sequences (GCC/Clang extension).
__extension__ typedef unsigned __int128 u128;

std::int64_t total_order_key(double x) noexcept {
  auto bits = std::bit_cast<std::int64_t>(x);
  // Negative values: flip the magnitude bits so more negative sorts first.
  return bits ^ static_cast<std::int64_t>(static_cast<std::uint64_t>(bits >> 63) >> 1);
}

namespace {
struct TotalLess {
  bool operator()(double a, double b) const noexcept { return total_less(a, b); }
};
}  // namespace

double median(std::vector<double> xs) {
  const std::size_t n = xs.size();
  const std::size_t mid = n / 2;
  std::nth_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(mid), xs.end(), TotalLess{});
  const double b = xs[mid];
  if (n % 2 == 1) return b;
  const double a = *std::max_element(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(mid), TotalLess{});
  return (a + b) / 2;  // literally, §0.2 (not a + (b - a) / 2)
}

double relative(double delta, double base) noexcept {
  if (std::fabs(base) <= machine_epsilon) return delta < 0 ? -1.0 : 1.0;
  return delta / base;
}

double clamp_p(double p) noexcept {
  if (!std::isfinite(p)) return 1.0;
  return std::min(std::max(p, p_value_floor), 1.0);
}

double normal_two_sided_p(double z) noexcept { return clamp_p(std::erfc(std::fabs(z) / std::sqrt(2.0))); }

std::vector<std::int64_t> doubled_ranks(std::span<const double> xs) {
  const std::size_t n = xs.size();
  std::vector<std::int64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = total_order_key(xs[i]);
  std::vector<std::size_t> idx(n);
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::sort(idx.begin(), idx.end(), [&](std::size_t a, std::size_t b) { return keys[a] < keys[b]; });
  std::vector<std::int64_t> out(n);
  std::size_t s = 0;
  while (s < n) {
    std::size_t e = s + 1;
    while (e < n && keys[idx[e]] == keys[idx[s]]) ++e;
    // Sorted positions s+1 .. e (1-based) share the doubled rank (s+1) + e.
    const auto d = static_cast<std::int64_t>(s + 1 + e);
    for (std::size_t i = s; i < e; ++i) out[idx[i]] = d;
    s = e;
  }
  return out;
}

double tie_term_from_doubled_ranks(std::span<const std::int64_t> doubled) {
  std::vector<std::int64_t> sorted(doubled.begin(), doubled.end());
  std::sort(sorted.begin(), sorted.end());
  double t_sum = 0;
  std::size_t s = 0;
  while (s < sorted.size()) {
    std::size_t e = s + 1;
    while (e < sorted.size() && sorted[e] == sorted[s]) ++e;
    const auto t = static_cast<double>(e - s);
    t_sum += t * t * t - t;
    s = e;
  }
  return t_sum;
}

PettittSplit pettitt_from_ranks(std::span<const std::int64_t> doubled) {
  const std::size_t n = doubled.size();
  PettittSplit out;
  const auto np1 = static_cast<std::int64_t>(n + 1);
  std::int64_t d = 0;
  std::int64_t best = -1;
  for (std::size_t t = 1; t < n; ++t) {
    d += doubled[t - 1];
    const std::int64_t u = d - static_cast<std::int64_t>(t) * np1;
    const std::int64_t a = u < 0 ? -u : u;
    if (a > best) {  // strictly greater: ties keep the earlier t (§3.2)
      best = a;
      out.index = t;
      out.d_tau = d;
    }
  }
  out.k = best < 0 ? 0 : best;
  const auto nd = static_cast<double>(n);
  const auto kd = static_cast<double>(out.k);
  out.p_value = clamp_p(2.0 * std::exp(-6.0 * kd * kd / (nd * nd * nd + nd * nd)));
  return out;
}

std::optional<PettittSplit> pettitt(std::span<const double> xs) {
  if (xs.size() < 2) return std::nullopt;
  return pettitt_from_ranks(doubled_ranks(xs));
}

bool exact_mw_feasible(std::size_t n1, std::size_t n2) noexcept {
  const std::size_t k = std::min(n1, n2);
  const std::size_t N = n1 + n2;
  constexpr std::uint64_t limit = std::uint64_t{1} << 53;
  // C(N-k+i, i) for i = 1..k, each an exact integer; abort once it reaches 2^53.
  u128 c = 1;
  for (std::size_t i = 1; i <= k; ++i) {
    c = c * (N - k + i) / i;
    if (c >= limit) return false;
  }
  return c < limit;
}

double mw_normal_p(std::size_t n1, std::size_t n2, double rank_sum_left, double tie_term) noexcept {
  const auto a = static_cast<double>(n1);
  const auto b = static_cast<double>(n2);
  const double N = a + b;
  const double u_left = rank_sum_left - a * (a + 1) / 2;
  const double u_right = a * b - u_left;
  const double u = std::min(u_left, u_right);
  const double mu = a * b / 2;
  const double var = (a * b / 12) * ((N + 1) - tie_term / (N * (N - 1)));
  if (!(var > 0)) return 1.0;
  const double z = std::max(mu - u - 0.5, 0.0) / std::sqrt(var);
  return clamp_p(std::erfc(z / std::sqrt(2.0)));
}

MannWhitney mann_whitney(std::span<const double> left, std::span<const double> right) {
  const std::size_t n1 = left.size(), n2 = right.size();
  MannWhitney out;
  if (n1 == 0 || n2 == 0) return out;
  std::vector<double> joint(left.begin(), left.end());
  joint.insert(joint.end(), right.begin(), right.end());
  const auto ranks = doubled_ranks(joint);
  std::int64_t d_left = 0;
  for (std::size_t i = 0; i < n1; ++i) d_left += ranks[i];
  const auto a = static_cast<double>(n1), b = static_cast<double>(n2);
  const double u_left = static_cast<double>(d_left) / 2 - a * (a + 1) / 2;
  const double u_right = a * b - u_left;
  out.superiority = u_right / (a * b);
  const std::size_t N = n1 + n2;
  if (exact_mw_feasible(n1, n2)) {
    const bool left_smaller = n1 <= n2;
    const std::size_t k = left_smaller ? n1 : n2;
    const std::int64_t total_sum = static_cast<std::int64_t>(N * (N + 1));
    const std::int64_t s = left_smaller ? d_left : total_sum - d_left;
    std::vector<std::int64_t> sorted(ranks);
    std::sort(sorted.begin(), sorted.end());
    internal::ExactTables tables(sorted, k);
    out.two_sided_p = clamp_p(tables.two_sided(k, s));
  } else {
    out.two_sided_p = mw_normal_p(n1, n2, static_cast<double>(d_left) / 2, tie_term_from_doubled_ranks(ranks));
  }
  return out;
}

namespace {
// Tie-group sizes of equal (bit-identical) values.
std::vector<std::size_t> tie_groups(std::span<const double> xs) {
  std::vector<std::int64_t> keys(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) keys[i] = total_order_key(xs[i]);
  std::sort(keys.begin(), keys.end());
  std::vector<std::size_t> out;
  std::size_t s = 0;
  while (s < keys.size()) {
    std::size_t e = s + 1;
    while (e < keys.size() && keys[e] == keys[s]) ++e;
    out.push_back(e - s);
    s = e;
  }
  return out;
}
}  // namespace

MannKendall mann_kendall(std::span<const double> xs) {
  const std::size_t n = xs.size();
  MannKendall out;
  if (n < 3) return out;
  std::vector<std::int64_t> keys(n);
  for (std::size_t i = 0; i < n; ++i) keys[i] = total_order_key(xs[i]);
  std::int64_t s = 0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) s += (keys[j] > keys[i]) - (keys[j] < keys[i]);
  out.s = static_cast<double>(s);
  const auto nd = static_cast<double>(n);
  double ties = 0;
  for (std::size_t t : tie_groups(xs)) {
    const auto td = static_cast<double>(t);
    ties += td * (td - 1) * (2 * td + 5);
  }
  const double var = (nd * (nd - 1) * (2 * nd + 5) - ties) / 18;
  if (!(var > 0)) return out;
  double z = 0;
  if (s > 0) z = (out.s - 1) / std::sqrt(var);
  else if (s < 0) z = (out.s + 1) / std::sqrt(var);
  out.p_value = clamp_p(std::erfc(std::fabs(z) / std::sqrt(2.0)));
  return out;
}

std::optional<TheilSen> theil_sen(std::span<const double> xs) {
  const std::size_t n = xs.size();
  if (n < 2) return std::nullopt;
  std::vector<double> slopes;
  slopes.reserve(n * (n - 1) / 2);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = i + 1; j < n; ++j) slopes.push_back((xs[j] - xs[i]) / static_cast<double>(j - i));
  TheilSen out;
  out.slope = median(std::move(slopes));
  std::vector<double> icpt(n);
  for (std::size_t i = 0; i < n; ++i) icpt[i] = xs[i] - out.slope * static_cast<double>(i);
  out.intercept = median(std::move(icpt));
  return out;
}

std::optional<double> step_residual(std::span<const double> xs, std::size_t tau) {
  if (tau == 0 || tau >= xs.size()) return std::nullopt;
  const double mb = median(std::vector<double>(xs.begin(), xs.begin() + static_cast<std::ptrdiff_t>(tau)));
  const double ma = median(std::vector<double>(xs.begin() + static_cast<std::ptrdiff_t>(tau), xs.end()));
  std::vector<double> r(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) r[i] = std::fabs(xs[i] - (i < tau ? mb : ma));
  return median(std::move(r));
}

std::optional<double> line_residual(std::span<const double> xs, const TheilSen& line) {
  if (xs.empty()) return std::nullopt;
  std::vector<double> r(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    r[i] = std::fabs(xs[i] - (line.intercept + line.slope * static_cast<double>(i)));
  return median(std::move(r));
}

std::optional<Interval> regime_interval(std::span<const std::optional<Interval>> intervals) {
  std::vector<double> lows, highs;
  for (const auto& iv : intervals) {
    if (!iv) continue;
    lows.push_back(iv->low);
    highs.push_back(iv->high);
  }
  if (lows.empty() || highs.empty()) return std::nullopt;
  return Interval{median(std::move(lows)), median(std::move(highs))};
}

std::optional<double> median_half_width(std::span<const std::optional<Interval>> intervals) {
  std::vector<double> hw;
  for (const auto& iv : intervals)
    if (iv) hw.push_back((iv->high - iv->low) / 2);
  if (hw.empty()) return std::nullopt;
  return median(std::move(hw));
}

}  // namespace benchhist::detect
