// Test helper for the multi-process LocalStore tests (tests/storage/test_local_store_processes.cpp).
//
//   storage_store_helper race <root> <key> <barrier_fd>
//       Blocks until <barrier_fd> (an inherited pipe read end) reports EOF, then puts <key>
//       with CollisionPolicy::refuse. Exit 0 = stored, 10 = already_exists, 1 = other error.
//   storage_store_helper writer <root> <project> <results> [fast]
//       Writes ever new clean runs of <results> benchmark cases (and overwrites one shared
//       key every third round) until it is killed. Never exits on its own. `fast` uses a
//       LocalStore without fsync (LocalStoreOptions::durable = false).

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"

using namespace benchhist;

namespace {

Run big_run(int results, int round) {
  Run run;
  run.context.observation = Timestamp(std::chrono::seconds(1700000000 + round));
  run.context.git = {"c" + std::to_string(round), "main", false};
  run.context.toolchain = {"x86_64-unknown-linux-gnu", "1.91.0"};
  run.context.tool_version = "test";
  run.context.best_of = 1;
  for (int i = 0; i < results; ++i) {
    BenchmarkResult r;
    r.id = BenchmarkId({"group_" + std::to_string(i % 17), "function_with_a_long_name_" + std::to_string(i),
                        "parameter_" + std::to_string(round)});
    r.metrics = {{MetricKind::wall_time, 1000.0 + i + round * 0.001, 0.5 + i, Interval{999.0 + i, 1001.0 + i}}};
    run.results.push_back(std::move(r));
  }
  return run;
}

int race(const char* root, const char* key, int barrier_fd) {
  char c;
  while (::read(barrier_fd, &c, 1) > 0) {
  }
  ::close(barrier_fd);
  storage::LocalStore store(root);
  try {
    store.put(key, "{\"writer\": " + std::to_string(::getpid()) + "}", storage::CollisionPolicy::refuse);
    return 0;
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::already_exists) return 10;
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

[[noreturn]] void writer(const char* root, const char* project, int results, bool durable) {
  storage::LocalStoreOptions options;
  options.durable = durable;
  storage::LocalStore store(root, options);
  for (int round = 0;; ++round) {
    const std::string json = codec::encode_run(big_run(results, round));
    const std::string commit = std::to_string(::getpid()) + "-" + std::to_string(round);
    store.put(codec::clean_key(project, Engine::criterion, "t", "m", commit), json, storage::CollisionPolicy::refuse);
    if (round % 3 == 2)
      store.put(codec::clean_key(project, Engine::criterion, "t", "m", "shared"), json, storage::CollisionPolicy::overwrite);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string mode = argc > 1 ? argv[1] : "";
  try {
    if (mode == "race" && argc == 5) return race(argv[2], argv[3], std::atoi(argv[4]));
    if (mode == "writer" && (argc == 5 || argc == 6))
      writer(argv[2], argv[3], std::atoi(argv[4]), !(argc == 6 && std::string(argv[5]) == "fast"));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "storage_store_helper: %s\n", e.what());
    return 1;
  }
  std::fprintf(stderr, "usage: storage_store_helper race <root> <key> <fd> | writer <root> <project> <results> [fast]\n");
  return 2;
}
