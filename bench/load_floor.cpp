// The floor for `analyze` on a store: the time merely to read, gunzip and decode every run
// object of a project (what any analysis must at least do), with the same thread count.
// Used for the "analyze ≤ 1.5× the floor" measurement on the synthetic store:
//
//   load_floor <store-dir> <project> [threads]
//
// Prints the object count and the wall time in seconds.

#include <atomic>
#include <chrono>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: load_floor <store-dir> <project> [threads]\n");
    return 2;
  }
  const unsigned threads = argc > 3 ? unsigned(std::stoul(argv[3])) : 2u;
  benchhist::storage::LocalStore store(argv[1]);
  const auto t0 = std::chrono::steady_clock::now();
  std::vector<std::string> keys;
  for (auto& k : store.list(benchhist::codec::project_data_prefix(argv[2])))
    if (benchhist::codec::parse_data_key(k)) keys.push_back(std::move(k));
  std::atomic<std::size_t> next{0}, results{0};
  auto worker = [&] {
    for (std::size_t i; (i = next++) < keys.size();)
      results += benchhist::codec::decode_run(*store.get(keys[i]), keys[i]).results.size();
  };
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) pool.emplace_back(worker);
  for (auto& t : pool) t.join();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("objects=%zu results=%zu threads=%u seconds=%.3f\n", keys.size(), results.load(), threads, s);
  return 0;
}
