#include <catch2/catch.hpp>

#include <grp.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <stdexcept>
#include <csignal>
#include <cstdlib>
#include <functional>
#include <optional>

#include <fstream>
#include <set>
#include <thread>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "common/test_data.hpp"
#include "common/files.hpp"

using namespace benchhist;
namespace fs = std::filesystem;

namespace {

const std::string key_a = "v1/p/objects/criterion/t/m/c1/clean.json";
const std::string key_b = "v1/p/objects/criterion/t/m/c2/dirty-5.json";

void write_raw(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << bytes;
}

Error expect_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("no error was thrown");
  throw std::logic_error("unreachable");
}

std::vector<std::string> files_under(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), root).string());
  std::sort(out.begin(), out.end());
  return out;
}

// Runs `check` where file permissions are enforced: in-process for an ordinary user; as root
// (permissions are not enforced for root) in a forked child that drops to nobody (65534)
// after `dir` has been given to that user. Returns check's verdict: 0 = pass, 90 = could not
// run unprivileged here.
int with_permissions_enforced(const fs::path& dir, const std::function<int()>& check) {
  if (::geteuid() != 0) return check();
  ::lchown(dir.c_str(), 65534, 65534);
  for (const auto& e : fs::recursive_directory_iterator(dir)) ::lchown(e.path().c_str(), 65534, 65534);
  const pid_t pid = ::fork();
  if (pid == 0) {
    // 90 = this environment cannot run the check unprivileged (no CAP_SETUID, or the temp
    // directory is not reachable by nobody); the caller then skips rather than fails.
    if (::setgroups(0, nullptr) != 0 || ::setgid(65534) != 0 || ::setuid(65534) != 0) ::_exit(90);
    if (::access(dir.c_str(), W_OK | X_OK) != 0) ::_exit(90);
    int verdict = 91;
    try {
      verdict = check();
    } catch (...) {
      verdict = 92;
    }
    ::_exit(verdict);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 93;
}

}  // namespace

TEST_CASE("put then get returns the JSON text and the file on disk is gzip", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path() / "store");
  CHECK(store.root() == dir.path() / "store");
  CHECK(store.describe() == "local store at " + (dir.path() / "store").string());
  CHECK(store.put(key_a, "{\"a\": 1}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(store.get(key_a) == std::optional<std::string>("{\"a\": 1}"));
  const std::string raw = testing::read_file((dir.path() / "store" / key_a).string());
  CHECK(raw == codec::gzip_compress("{\"a\": 1}"));
  CHECK(store.path_of(key_a) == dir.path() / "store" / key_a);
  CHECK(files_under(dir.path() / "store") == std::vector<std::string>{key_a});  // no temp debris
}

TEST_CASE("a missing object reads as nullopt and a missing root lists as empty", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path() / "nowhere");
  CHECK_FALSE(store.get(key_a).has_value());
  CHECK(store.list("").empty());
  CHECK(store.list("v1/p/objects/").empty());
  CHECK_FALSE(store.remove(key_a));
  CHECK_FALSE(fs::exists(dir.path() / "nowhere"));  // reads never create the root
}

TEST_CASE("a reader's store (root_must_exist) refuses a missing root naming it instead of listing it as empty",
          "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore reader(dir.path() / "nowhere", {.root_must_exist = true});
  try {
    (void)reader.list("v1/p/objects/");
    FAIL("listed");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::not_found);
    CHECK(e.subject() == (dir.path() / "nowhere").string());
    CHECK(e.message() == "no local store at " + (dir.path() / "nowhere").string() + ": the directory does not exist");
    CHECK(e.hint() == "check the path (a relative path resolves against the working directory); a new store is "
                      "created by `collect`, `backfill` or `import`");
  }
  CHECK_FALSE(fs::exists(dir.path() / "nowhere"));
  // A file where the store belongs is a usage error, whether or not the root must exist.
  std::ofstream(dir.path() / "file") << "x";
  try {
    storage::LocalStore(dir.path() / "file").require_root();
    FAIL("accepted");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(e.message() == "the local store path " + (dir.path() / "file").string() + " is a file, not a directory");
  }
  // Once the root exists (a writer made it), the reader lists it as usual.
  storage::LocalStore writer(dir.path() / "nowhere");
  writer.put(key_a, "{}", storage::CollisionPolicy::refuse);
  CHECK(reader.list("") == std::vector<std::string>{std::string(key_a)});
}

TEST_CASE("write-once put refuses an existing key and leaves the stored object untouched", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  store.put(key_a, "first", storage::CollisionPolicy::refuse);
  const Error e = expect_error([&] { store.put(key_a, "second", storage::CollisionPolicy::refuse); });
  CHECK(e.kind() == ErrorKind::already_exists);
  CHECK(e.message() == "object already exists: " + key_a);
  CHECK(e.subject() == key_a);
  CHECK(store.get(key_a) == std::optional<std::string>("first"));
}

TEST_CASE("skip_existing leaves an existing object and reports it", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  CHECK(store.put(key_a, "first", storage::CollisionPolicy::skip_existing) == storage::PutOutcome::stored);
  CHECK(store.put(key_a, "second", storage::CollisionPolicy::skip_existing) == storage::PutOutcome::skipped_existing);
  CHECK(store.get(key_a) == std::optional<std::string>("first"));
}

TEST_CASE("overwrite replaces an existing object atomically and stores a new one", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  CHECK(store.put(key_a, "first", storage::CollisionPolicy::overwrite) == storage::PutOutcome::stored);
  CHECK(store.put(key_a, "second", storage::CollisionPolicy::overwrite) == storage::PutOutcome::replaced);
  CHECK(store.get(key_a) == std::optional<std::string>("second"));
  CHECK(files_under(dir.path()) == std::vector<std::string>{key_a});
}

TEST_CASE("remove deletes an object, reports false when missing and removes the directories it left empty", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  CHECK(store.remove(key_a));
  CHECK_FALSE(store.remove(key_a));
  CHECK_FALSE(store.get(key_a).has_value());
  CHECK_FALSE(fs::exists(dir.path() / "v1"));
  CHECK(fs::is_directory(dir.path()));  // the root stays
  CHECK(store.put(key_a, "again", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);

  SECTION("a directory that still holds an object stays") {
    const std::string sibling = "v1/p/objects/criterion/t/m/c2/clean.json";
    store.put(sibling, "y", storage::CollisionPolicy::refuse);
    CHECK(store.remove(key_a));
    CHECK(fs::is_directory(dir.path() / "v1/p/objects/criterion/t/m"));
    CHECK_FALSE(fs::exists(dir.path() / "v1/p/objects/criterion/t/m/c1"));
    CHECK(store.get(sibling) == std::optional<std::string>("y"));
  }
}

TEST_CASE("list returns sorted keys under the prefix and respects the trailing slash", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  const std::vector<std::string> keys = {
      "v1/p/objects/criterion/t/ci/c/clean.json",
      "v1/p/objects/criterion/t/ci-pool/c/clean.json",
      "v1/p/objects/criterion/t/ci/c/dirty-10.json",
      "v1/p/objects/criterion/t/ci/c/dirty-9.json",
      "v1/p/objects/blessings/c/bless-1.json",
      "v1/p/_cache-epoch",
      "v1/q/objects/criterion/t/ci/c/clean.json",
  };
  for (const auto& k : keys) store.put(k, k, storage::CollisionPolicy::refuse);
  CHECK(store.list("v1/p/objects/criterion/t/ci/") ==
        std::vector<std::string>{"v1/p/objects/criterion/t/ci/c/clean.json", "v1/p/objects/criterion/t/ci/c/dirty-10.json",
                                 "v1/p/objects/criterion/t/ci/c/dirty-9.json"});
  CHECK(store.list("v1/p/objects/criterion/t/ci").size() == 4);  // incomplete segment: plain string prefix
  CHECK(store.list("v1/p/objects/").size() == 5);
  CHECK(store.list("v1/p/").size() == 6);
  auto all = keys;
  std::sort(all.begin(), all.end());
  CHECK(store.list("") == all);
  CHECK(store.list("v1/p/objects/callgrind/").empty());
  CHECK(store.list("v1/zzz").empty());
}

TEST_CASE("list never returns temp files, symbolic links or names that are not valid keys", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  const fs::path commit_dir = dir.path() / "v1/p/objects/criterion/t/m/c1";
  write_raw(commit_dir / ".cbh-tmp-1-2-3", "partial");
  write_raw(commit_dir / "odd\\name.json", "x");
  fs::create_symlink(commit_dir / "clean.json", commit_dir / "link.json");
  CHECK(store.list("v1/") == std::vector<std::string>{key_a});
}

TEST_CASE("a listing prefix through a temporary name lists nothing (fuzz finding F7)", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  // A leftover temporary directory holding a file: neither the whole-store listing nor a
  // prefix that starts inside it may name it, since get() refuses such keys.
  write_raw(dir.path() / ".cbh-tmp-v1/v1/p/.%cbp/.%cbx-t-3", "junk");
  write_raw(dir.path() / "v1/p/.cbh-tmp-9/inner.json", "junk");
  CHECK(store.list("").empty());
  CHECK(store.list(".cbh-tmp-v1/v1/p/").empty());
  CHECK(store.list(".cbh-tmp-v1/").empty());
  CHECK(store.list("v1/p/.cbh-tmp-9/").empty());
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  CHECK(store.list("") == std::vector<std::string>{key_a});
}

TEST_CASE("get refuses a truncated gzip file and a plaintext JSON file, naming the path and leaving it", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  const std::string gz = codec::gzip_compress(std::string(4000, 'x'));
  const fs::path truncated = dir.path() / key_a;
  const fs::path plain = dir.path() / key_b;
  write_raw(truncated, gz.substr(0, gz.size() / 2));
  write_raw(plain, "{\"schema_version\": 5}");
  for (const auto& [key, path] : {std::pair{key_a, truncated}, std::pair{key_b, plain}}) {
    const std::string before = testing::read_file(path.string());
    const Error e = expect_error([&, k = key] { store.get(k); });  // clang 14 cannot capture a binding
    CHECK(e.kind() == ErrorKind::decode);
    CHECK(e.message() == "could not decompress local storage object at " + path.string());
    CHECK(e.subject() == path.string());
    CHECK_FALSE(e.cause().empty());
    CHECK_FALSE(e.hint().empty());
    CHECK(testing::read_file(path.string()) == before);
  }
  CHECK(store.list("v1/").size() == 2);  // still listed: nothing was moved or deleted
}

TEST_CASE("keys with path tricks are refused before the filesystem is touched", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path() / "store");
  for (std::string_view bad : {"../escape.json", "v1/../../escape.json", "/etc/passwd", "v1//x", "v1/./x", "v1\\..\\x", ""}) {
    INFO(bad);
    CHECK(expect_error([&] { store.put(bad, "x", storage::CollisionPolicy::overwrite); }).kind() == ErrorKind::invalid_key);
    CHECK(expect_error([&] { store.get(bad); }).message() == "invalid storage key: " + std::string(bad));
    CHECK(expect_error([&] { store.remove(bad); }).kind() == ErrorKind::invalid_key);
  }
  CHECK(expect_error([&] { store.list("v1/../"); }).kind() == ErrorKind::invalid_key);
  CHECK_FALSE(fs::exists(dir.path() / "store"));
  CHECK_FALSE(fs::exists(dir.path() / "escape.json"));
}

TEST_CASE("a symbolic link inside the store cannot lead a key outside the root", "[local_store]") {
  testing::TempDir dir;
  const fs::path outside = dir.path() / "outside";
  fs::create_directories(outside);
  fs::create_directories(dir.path() / "store/v1");
  fs::create_directory_symlink(outside, dir.path() / "store/v1/p");
  storage::LocalStore store(dir.path() / "store");
  const std::string key = "v1/p/objects/criterion/t/m/c/clean.json";
  CHECK(expect_error([&] { store.put(key, "x", storage::CollisionPolicy::refuse); }).kind() == ErrorKind::invalid_key);
  write_raw(outside / "objects/criterion/t/m/c/clean.json", codec::gzip_compress("secret"));
  CHECK_THROWS_WITH(store.get(key), Catch::Contains("leads outside"));
  CHECK(store.list("v1/").empty());  // the walk does not follow the link
  CHECK_THROWS_AS(store.list("v1/p/"), Error);
  CHECK(fs::exists(outside / "objects/criterion/t/m/c/clean.json"));
}

TEST_CASE("a store whose root is itself a symbolic link works normally", "[local_store]") {
  testing::TempDir dir;
  fs::create_directories(dir.path() / "real");
  fs::create_directory_symlink(dir.path() / "real", dir.path() / "link");
  storage::LocalStore store(dir.path() / "link");
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  CHECK(store.get(key_a) == std::optional<std::string>("x"));
  CHECK(store.list("") == std::vector<std::string>{key_a});
}

TEST_CASE("an object file that is a symbolic link is not followed", "[local_store]") {
  testing::TempDir dir;
  write_raw(dir.path() / "elsewhere.json", codec::gzip_compress("secret"));
  fs::create_directories((dir.path() / "store" / key_a).parent_path());
  fs::create_symlink(dir.path() / "elsewhere.json", dir.path() / "store" / key_a);
  storage::LocalStore store(dir.path() / "store");
  CHECK_THROWS_WITH(store.get(key_a), Catch::Contains("symbolic link"));
  CHECK(expect_error([&] { store.put(key_a, "x", storage::CollisionPolicy::refuse); }).kind() == ErrorKind::already_exists);
}

TEST_CASE("put removes stale temp files older than the stale age but keeps fresh ones", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path(), storage::LocalStoreOptions{std::chrono::seconds(3600), true});
  const fs::path commit_dir = dir.path() / "v1/p/objects/criterion/t/m/c1";
  write_raw(commit_dir / ".cbh-tmp-99-1-0", "stale");
  write_raw(commit_dir / ".cbh-tmp-99-2-0", "fresh");
  fs::last_write_time(commit_dir / ".cbh-tmp-99-1-0", fs::file_time_type::clock::now() - std::chrono::hours(2));
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  CHECK_FALSE(fs::exists(commit_dir / ".cbh-tmp-99-1-0"));
  CHECK(fs::exists(commit_dir / ".cbh-tmp-99-2-0"));
}

TEST_CASE("an unwritable directory gives an io error naming the path and leaves no temp file", "[local_store]") {
  testing::TempDir dir;
  const fs::path commit_dir = dir.path() / "v1/p/objects/criterion/t/m/c1";
  fs::create_directories(commit_dir);
  const int verdict = with_permissions_enforced(dir.path(), [&] {
    fs::permissions(commit_dir, fs::perms::owner_read | fs::perms::owner_exec);
    storage::LocalStore store(dir.path());
    try {
      store.put(key_a, "x", storage::CollisionPolicy::refuse);
      return 1;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::io) return 2;
      if (e.message() != "could not write local storage object at " + (commit_dir / "clean.json").string()) return 3;
      if (e.cause().find("Permission denied") == std::string::npos) return 4;
    }
    fs::permissions(commit_dir, fs::perms::owner_all);
    return 0;
  });
  if (verdict == 90) {
    WARN("skipped: cannot drop privileges to test permission errors here");
    return;
  }
  CHECK(verdict == 0);
  CHECK(files_under(dir.path()).empty());
}

TEST_CASE("threads racing one clean key produce exactly one winner", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  for (int round = 0; round < 20; ++round) {
    const std::string key = codec::clean_key("p", Engine::criterion, "t", "m", "c" + std::to_string(round));
    std::atomic<int> stored{0}, refused{0}, other{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
      threads.emplace_back([&, t] {
        while (!go) std::this_thread::yield();
        try {
          if (store.put(key, "writer " + std::to_string(t), storage::CollisionPolicy::refuse) == storage::PutOutcome::stored) ++stored;
        } catch (const Error& e) {
          (e.kind() == ErrorKind::already_exists ? refused : other)++;
        }
      });
    }
    go = true;
    for (auto& th : threads) th.join();
    CHECK(stored == 1);
    CHECK(refused == 7);
    CHECK(other == 0);
    CHECK(store.get(key).value().starts_with("writer "));
  }
  CHECK(store.list("").size() == 20);
  CHECK(files_under(dir.path()).size() == 20);
}

TEST_CASE("keys naming the reserved temp prefix are refused so objects never vanish", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  for (std::string_view bad : {"v1/p/.cbh-tmp-1-2-3", "v1/.cbh-tmp-x/clean.json"}) {
    INFO(bad);
    const Error e = expect_error([&] { store.put(bad, "x", storage::CollisionPolicy::refuse); });
    CHECK(e.kind() == ErrorKind::invalid_key);
    CHECK(e.message() == "invalid storage key: " + std::string(bad));
  }
  CHECK(files_under(dir.path()).empty());
}

TEST_CASE("threads racing with skip_existing store once and skip the rest", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  for (int round = 0; round < 10; ++round) {
    const std::string key = codec::clean_key("p", Engine::callgrind, "t", "m", "s" + std::to_string(round));
    std::atomic<int> stored{0}, skipped{0};
    std::atomic<bool> go{false};
    std::vector<std::thread> threads;
    for (int t = 0; t < 6; ++t)
      threads.emplace_back([&] {
        while (!go) std::this_thread::yield();
        (store.put(key, "x", storage::CollisionPolicy::skip_existing) == storage::PutOutcome::stored ? stored : skipped)++;
      });
    go = true;
    for (auto& th : threads) th.join();
    CHECK(stored == 1);
    CHECK(skipped == 5);
  }
  CHECK(files_under(dir.path()).size() == 10);
}

TEST_CASE("concurrent overwrites leave one whole object and no temp files", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  std::vector<std::string> bodies;
  for (int t = 0; t < 6; ++t) bodies.push_back(std::string(200000 + t, static_cast<char>('a' + t)));
  std::vector<std::thread> threads;
  for (int t = 0; t < 6; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) store.put(key_a, bodies[t], storage::CollisionPolicy::overwrite);
    });
  for (auto& th : threads) th.join();
  const auto got = store.get(key_a);
  REQUIRE(got);
  CHECK(std::find(bodies.begin(), bodies.end(), *got) != bodies.end());
  CHECK(files_under(dir.path()) == std::vector<std::string>{key_a});
}

TEST_CASE("a writer whose new directories a concurrent remove takes away makes them again", "[local_store]") {
  // Each remove() takes the directories it leaves empty: between a put's mkdir of one key
  // segment and the next, another thread's remove may take the one just made (found by the
  // sanitizer build of the prune race test, as "could not create ... parent directories").
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  std::atomic<int> failures{0};
  std::string first_failure;
  std::mutex m;
  const auto churn = [&](const std::string& machine) {
    for (int i = 0; i < 400; ++i) {
      const std::string key = "v1/p/objects/criterion/t/" + machine + "/c" + std::to_string(i % 3) + "/clean.json";
      try {
        store.put(key, "x", storage::CollisionPolicy::overwrite);
        if (!store.remove(key)) throw std::runtime_error("the object just stored at " + key + " was gone");
      } catch (const std::exception& e) {
        std::lock_guard lock(m);
        if (failures++ == 0) first_failure = e.what();
      }
    }
  };
  {
    std::vector<std::jthread> threads;
    for (const char* machine : {"m1", "m2", "m3", "m4"}) threads.emplace_back(churn, machine);
  }
  INFO(first_failure);
  CHECK(failures == 0);
  CHECK(files_under(dir.path()).empty());
}

TEST_CASE("a file where a key directory belongs gives an io error naming the path", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  write_raw(dir.path() / "v1/p/objects", "not a directory");
  const Error e = expect_error([&] { store.put(key_a, "x", storage::CollisionPolicy::refuse); });
  CHECK(e.kind() == ErrorKind::io);
  CHECK(e.message() == "could not create local storage parent directories at " + (dir.path() / "v1/p/objects").string());
  CHECK_FALSE(store.get(key_a).has_value());  // ENOTDIR reads as not found
  CHECK_FALSE(store.remove(key_a));
}

TEST_CASE("a key segment too long for the file system fails the write with a hint to shorten it, not to free space",
          "[local_store]") {
  // A 300-character [project] id ran the whole suite and then said "check that the storage
  // directory is writable and has free space".
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  const std::string project(300, 'p');
  const std::string key = "v1/" + project + "/objects/criterion/t/m/c1/clean.json";
  const Error e = expect_error([&] { store.put(key, "x", storage::CollisionPolicy::refuse); });
  CHECK(e.kind() == ErrorKind::io);
  CHECK(e.message() == "could not create local storage parent directories at " + (dir.path() / "v1" / project).string());
  CHECK_THAT(e.cause(), Catch::StartsWith("storing " + key + ": "));
  CHECK(e.hint() ==
        "a name on the object's path is longer than the file system allows (usually 255 bytes per name, 4,096 per "
        "path): shorten the project id ([project] id) or the target triple, or use a shorter storage directory");
  CHECK_FALSE(store.get(key).has_value());
  CHECK(store.list("").empty());
}

TEST_CASE("a listing prefix through a name too long for the file system lists as empty: nothing can be stored there",
          "[local_store]") {
  // found by fuzz_listing_path: such a name failed the listing with "File name too long"
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  const std::string long_name(300, 'm');  // longer than any file system's NAME_MAX
  CHECK(store.list("v1/p/objects/criterion/" + long_name + "/").empty());
  CHECK(store.list("v1/p/objects/criterion/" + long_name + "/m/c/").empty());
  CHECK(store.list("v1/").size() == 1);  // the store itself is listed as before
}

TEST_CASE("a file where the store keeps a directory fails a listing naming it instead of listing as empty",
          "[local_store]") {
  testing::TempDir dir;
  const auto expect_broken = [&](const fs::path& file, std::string_view prefix) {
    INFO(file << " listing " << prefix);
    storage::LocalStore store(dir.path());
    const Error e = expect_error([&] { store.list(prefix); });
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "could not list the local store's objects at " + file.string());
    CHECK(e.subject() == file.string());
    CHECK(e.cause() == file.string() + " is a file, not a directory, so nothing under " + std::string(prefix) +
                           " can be read");
    CHECK_THAT(e.hint(), Catch::StartsWith("move the file out of the storage directory"));
  };
  // `v1` itself: every project's listing, as analyze and list make them.
  write_raw(dir.path() / "v1", "x\n");
  expect_broken(dir.path() / "v1", "v1/p/objects/");
  expect_broken(dir.path() / "v1", "v1/p/");
  fs::remove(dir.path() / "v1");
  // A project's directory, or one further down on the prefix's path.
  write_raw(dir.path() / "v1/p", "x\n");
  expect_broken(dir.path() / "v1/p", "v1/p/objects/criterion/t/m/");
  fs::remove(dir.path() / "v1/p");
  storage::LocalStore store(dir.path());
  store.put(key_a, "x", storage::CollisionPolicy::refuse);
  write_raw(dir.path() / "v1/p/objects/criterion/t/m2", "x\n");
  expect_broken(dir.path() / "v1/p/objects/criterion/t/m2", "v1/p/objects/criterion/t/m2/");
  // A stray file below where the walk starts is still listed (the key parser passes over it),
  // and directories that do not exist yet still list as empty.
  CHECK(store.list("v1/p/objects/") ==
        std::vector<std::string>{key_a, "v1/p/objects/criterion/t/m2"});
  CHECK(store.list("v1/q/objects/").empty());
  CHECK(store.list("v1/p/objects/callgrind/").empty());
  // The root itself, when a library caller hands one over that is a file.
  write_raw(dir.path() / "file-root", "x\n");
  const Error e = expect_error([&] { storage::LocalStore(dir.path() / "file-root").list("v1/p/objects/"); });
  CHECK(e.subject() == (dir.path() / "file-root").string());
}

TEST_CASE("an unreadable directory makes a listing fail instead of silently omitting keys", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore(dir.path()).put(key_a, "x", storage::CollisionPolicy::refuse);
  const fs::path locked = dir.path() / "v1/p/objects/criterion/t/m";
  const int verdict = with_permissions_enforced(dir.path(), [&] {
    fs::permissions(locked, fs::perms::none);
    storage::LocalStore store(dir.path());
    int result = 0;
    try {
      store.list("v1/");
      result = 1;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::io) result = 2;
      else if (e.message() != "could not open local storage listing directory at " + locked.string()) result = 3;
    }
    fs::permissions(locked, fs::perms::owner_all);
    return result;
  });
  if (verdict == 90) {
    WARN("skipped: cannot drop privileges to test permission errors here");
    return;
  }
  CHECK(verdict == 0);
}

TEST_CASE("a directory in the place of an object is an io error, not a collision", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  fs::create_directories(dir.path() / key_a);
  for (auto policy : {storage::CollisionPolicy::refuse, storage::CollisionPolicy::skip_existing, storage::CollisionPolicy::overwrite}) {
    const Error e = expect_error([&] { store.put(key_a, "x", policy); });
    CHECK(e.kind() == ErrorKind::io);
    CHECK(e.message() == "could not write local storage object at " + (dir.path() / key_a).string());
  }
  CHECK_THROWS_AS(store.get(key_a), Error);
}

TEST_CASE("empty and large bodies round trip", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  store.put(key_a, "", storage::CollisionPolicy::refuse);
  CHECK(store.get(key_a) == std::optional<std::string>(""));
  std::string big;
  for (std::int64_t i = 0; i < 300000; ++i) big += std::to_string(i * 7919 % 100003) + ",";
  store.put(key_b, big, storage::CollisionPolicy::refuse);
  CHECK(store.get(key_b) == std::optional<std::string>(big));
}

TEST_CASE("a non-durable store keeps the write-once and listing semantics", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStoreOptions options;
  options.durable = false;
  storage::LocalStore store(dir.path(), options);
  CHECK(store.put(key_a, "one", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
  CHECK(expect_error([&] { store.put(key_a, "two", storage::CollisionPolicy::refuse); }).kind() == ErrorKind::already_exists);
  CHECK(store.put(key_a, "two", storage::CollisionPolicy::skip_existing) == storage::PutOutcome::skipped_existing);
  CHECK(store.put(key_a, "three", storage::CollisionPolicy::overwrite) == storage::PutOutcome::replaced);
  CHECK(store.get(key_a) == std::optional<std::string>("three"));
  CHECK(store.list("") == std::vector<std::string>{key_a});
  CHECK(files_under(dir.path()) == std::vector<std::string>{key_a});
}

namespace {
std::string run_capture(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  REQUIRE(p != nullptr);
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  CHECK(::pclose(p) == 0);
  return out;
}
}  // namespace

TEST_CASE("stored files interoperate with the system gzip tool", "[local_store]") {
  if (std::system("gzip --version >/dev/null 2>&1") != 0) {
    SUCCEED("no gzip tool on this machine");
    return;
  }
  testing::TempDir dir;
  storage::LocalStore store(dir.path());
  const std::string json = testing::example("formats/run-record-v5.json");
  store.put(key_a, json, storage::CollisionPolicy::refuse);
  CHECK(run_capture("gzip -dc '" + store.path_of(key_a).string() + "'") == json);

  // `gzip -n` writes no name and no mtime, so its output is a plain-header member we accept;
  // plain `gzip` records the file name (FNAME flag), which the reader refuses
  // (docs/formats.md#gzip-body-encoding).
  const fs::path plain = dir.path() / "plain.json";
  write_raw(plain, json);
  write_raw(store.path_of(key_b), run_capture("gzip -nc '" + plain.string() + "'"));
  CHECK(store.get(key_b) == std::optional<std::string>(json));
  const std::string named_key = "v1/p/objects/criterion/t/m/c3/clean.json";
  write_raw(store.path_of(named_key), run_capture("gzip -c '" + plain.string() + "'"));
  CHECK_THROWS_WITH(store.get(named_key), Catch::Contains("could not decompress local storage object at"));
}

TEST_CASE("readers listing and fetching while writers store see only whole objects", "[local_store]") {
  testing::TempDir dir;
  storage::LocalStore store(dir.path(), storage::LocalStoreOptions{std::chrono::seconds(3600), false});
  std::atomic<bool> done{false};
  std::atomic<int> reads{0}, bad{0};
  auto body_for = [](const std::string& key) { return key + std::string(50000, '#') + key; };
  std::vector<std::thread> writers, readers;
  for (int w = 0; w < 2; ++w)
    writers.emplace_back([&, w] {
      for (int i = 0; i < 60; ++i) {
        const std::string key = codec::dirty_key("p", Engine::criterion, "t", "m", "c" + std::to_string(w), i);
        store.put(key, body_for(key), storage::CollisionPolicy::refuse);
        store.put("v1/p/objects/criterion/t/m/shared/clean.json", body_for("shared"), storage::CollisionPolicy::overwrite);
      }
    });
  for (int r = 0; r < 2; ++r)
    readers.emplace_back([&] {
      while (!done) {
        for (const auto& key : store.list("v1/p/")) {
          const auto got = store.get(key);
          const std::string expected = key.find("/shared/") != std::string::npos ? body_for("shared") : body_for(key);
          if (!got || *got != expected) ++bad;
          ++reads;
        }
      }
    });
  for (auto& t : writers) t.join();
  done = true;
  for (auto& t : readers) t.join();
  CHECK(bad == 0);
  CHECK(reads > 0);
  CHECK(store.list("").size() == 121);
}

// ---- Faults that lose nothing (issue 16) ----

namespace {

// A directory on a small tmpfs, when this machine lets us mount one (root with
// CAP_SYS_ADMIN); unmounted on destruction.
struct SmallTmpfs {
  fs::path dir;
  bool mounted = false;
  SmallTmpfs(const fs::path& where, const char* size) : dir(where) {
    fs::create_directories(dir);
    const std::string cmd = "mount -t tmpfs -o size=" + std::string(size) + " tmpfs '" + dir.string() + "' 2>/dev/null";
    mounted = ::geteuid() == 0 && std::system(cmd.c_str()) == 0;
  }
  ~SmallTmpfs() {
    if (mounted) (void)!std::system(("umount '" + dir.string() + "'").c_str());
  }
};

std::string incompressible(std::size_t n, unsigned seed) {
  std::string s;
  s.reserve(n);
  std::uint32_t x = seed * 2654435761u + 1;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    s.push_back(static_cast<char>('!' + x % 90));
  }
  return s;
}

// Fills `store` until a put fails; returns the failure and checks what the store kept.
void fill_until_full_then_check(storage::LocalStore& store, const fs::path& root) {
  std::vector<std::string> stored;
  std::optional<Error> failure;
  std::string failed_key;
  for (int i = 0; i < 400 && !failure; ++i) {
    const std::string key = "v1/p/objects/criterion/t/m/c" + std::to_string(i) + "/clean.json";
    try {
      store.put(key, incompressible(16 * 1024, static_cast<unsigned>(i)), storage::CollisionPolicy::refuse);
      stored.push_back(key);
    } catch (const Error& e) {
      failure = e;
      failed_key = key;
    }
  }
  REQUIRE(failure.has_value());
  INFO(failure->what());
  CHECK(failure->kind() == ErrorKind::io);
  // The error names the key (the object's file, or the key a directory was for), and nothing
  // of it is left: no object, no temp file.
  CHECK(std::string(failure->what()).find(failed_key) != std::string::npos);
  CHECK_FALSE(store.get(failed_key).has_value());
  for (const auto& e : fs::recursive_directory_iterator(root))
    CHECK_FALSE(e.path().filename().string().starts_with(storage::LocalStore::temp_prefix));
  // Everything stored before the disk filled is whole and listed.
  auto sorted = stored;
  std::sort(sorted.begin(), sorted.end());
  CHECK(store.list("") == sorted);
  for (std::size_t i = 0; i < stored.size(); ++i) CHECK(store.get(stored[i]) == incompressible(16 * 1024, static_cast<unsigned>(i)));
}

}  // namespace

TEST_CASE("a full disk fails the write naming the key and leaves nothing partial", "[local_store][faults]") {
  testing::TempDir dir;
  SmallTmpfs disk(dir.path() / "disk", "256k");
  if (disk.mounted) {
    INFO("a 256 KiB tmpfs: ENOSPC");
    storage::LocalStore store(disk.dir / "store");
    fill_until_full_then_check(store, disk.dir);
    // Room again: the same key stores normally.
    REQUIRE(store.remove(store.list("").front()));
    CHECK(store.put("v1/p/objects/criterion/t/m/after/clean.json", "{}", storage::CollisionPolicy::refuse) == storage::PutOutcome::stored);
    return;
  }
  // No mount here: the same write error from the kernel through a file-size limit (EFBIG),
  // in a child so the limit does not leak into the rest of the suite.
  const pid_t pid = ::fork();
  if (pid == 0) {
    std::signal(SIGXFSZ, SIG_IGN);
    rlimit lim{200 * 1024, 200 * 1024};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    int failures = 0;
    {
      storage::LocalStore store(dir.path() / "store");
      try {
        store.put("v1/p/objects/criterion/t/m/big/clean.json", incompressible(400 * 1024, 1), storage::CollisionPolicy::refuse);
        ::_exit(10);
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) ++failures;
        if (e.message().find("v1/p/objects/criterion/t/m/big/clean.json") == std::string::npos) ++failures;
      }
      for (const auto& e : fs::recursive_directory_iterator(dir.path()))
        if (e.is_regular_file()) ++failures;  // neither the object nor its temp file remains
    }
    ::_exit(failures);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("a read-only store directory serves reads and listings, refuses writes naming the key, keeps everything",
          "[local_store][faults]") {
  testing::TempDir dir;
  const fs::path root = dir.path() / "store";
  {
    storage::LocalStore writer(root);
    writer.put(key_a, "{\"a\":1}", storage::CollisionPolicy::refuse);
    writer.put(key_b, "{\"b\":2}", storage::CollisionPolicy::refuse);
  }
  const auto before = files_under(root);
  const int verdict = with_permissions_enforced(dir.path(), [&] {
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_directory()) fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::remove);
    fs::permissions(root, fs::perms::owner_write, fs::perm_options::remove);
    storage::LocalStore store(root);
    if (store.list("") != std::vector<std::string>{key_a, key_b}) return 1;
    if (store.get(key_a) != "{\"a\":1}") return 2;
    for (const std::string& key : {std::string("v1/p/objects/criterion/t/m/c1/dirty-9.json"),
                                  std::string("v1/p/objects/criterion/t/m/new/clean.json")}) {
      try {
        store.put(key, "{}", storage::CollisionPolicy::refuse);
        return 3;
      } catch (const Error& e) {
        if (e.kind() != ErrorKind::io) return 4;
        if (std::string(e.what()).find(key) == std::string::npos) return 5;
        if (e.hint().empty()) return 6;
      }
    }
    try {
      store.put(key_a, "{}", storage::CollisionPolicy::overwrite);
      return 7;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::io) return 8;
    }
    try {
      store.remove(key_b);
      return 9;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::io || e.message().find(key_b) == std::string::npos) return 10;
    }
    if (store.get(key_a) != "{\"a\":1}" || store.get(key_b) != "{\"b\":2}") return 11;
    for (const auto& e : fs::recursive_directory_iterator(root))
      if (e.is_directory()) fs::permissions(e.path(), fs::perms::owner_write, fs::perm_options::add);
    fs::permissions(root, fs::perms::owner_write, fs::perm_options::add);
    return 0;
  });
  if (verdict == 90) {
    WARN("skipped: cannot drop privileges to test a read-only store here");
    return;
  }
  CHECK(verdict == 0);
  CHECK(files_under(root) == before);
}
