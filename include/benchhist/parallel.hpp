#pragma once
// A small parallel loop for independent work items: items are handed out one at a time, in
// index order, to up to `threads` threads (the caller's included); each item writes only its own
// result slot, so the outcome never depends on thread timing. After a throw no new item starts,
// but every item already handed out finishes, so every item below a failing one has run: the
// exception rethrown (once all threads have stopped) is that of the lowest failing index.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <thread>
#include <vector>

namespace benchhist {

template <typename Body>
void parallel_for(std::size_t count, unsigned threads, Body body) {
  std::vector<std::exception_ptr> errors(count);
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  auto worker = [&] {
    for (std::size_t i; !failed.load(std::memory_order_relaxed) && (i = next.fetch_add(1)) < count;) {
      try {
        body(i);
      } catch (...) {
        errors[i] = std::current_exception();
        failed = true;
      }
    }
  };
  const auto workers = static_cast<unsigned>(std::min<std::size_t>(std::max(1u, threads), std::max<std::size_t>(count, 1)));
  std::vector<std::thread> pool;
  pool.reserve(workers - 1);
  try {
    for (unsigned t = 1; t < workers; ++t) pool.emplace_back(worker);
  } catch (...) {
    // Could not start another thread: the ones already running (and this one) do the rest.
  }
  worker();
  for (auto& t : pool) t.join();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace benchhist
