// LocalStore listings (docs/formats.md#local-backend). Input byte 0 picks the mode:
//  * even: the rest is a listing prefix over a fixed store. list(prefix) either throws
//    Error{invalid_key} naming the prefix, or returns exactly the keys of the whole listing
//    that start with it;
//  * odd: the rest is a `/`-separated path created as a file (and its directories) in an
//    empty store — names from a foreign or damaged store directory. Every listed key is
//    valid, starts with the prefix, and names a file that get() reads or refuses with an
//    error naming the key's path. The listing fails only where the store is broken: with
//    Error{io} naming the file when it stands where a directory on the prefix's path belongs
//    (docs/formats.md#local-backend), or Error{invalid_key} naming a prefix it refuses.

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>

#include "benchhist/codec/run_json.hpp"
#include "benchhist/codec/key.hpp"
#include "benchhist/storage/local_store.hpp"
#include "fuzz_support.hpp"

namespace fs = std::filesystem;

namespace {

fs::path make_temp_root(const char* tag) {
  std::string tmpl = (fs::temp_directory_path() / (std::string("bh-fuzz-") + tag + "-XXXXXX")).string();
  if (!mkdtemp(tmpl.data())) fuzz::fail("mkdtemp failed");
  return tmpl;
}

struct Fixed {
  fs::path root = make_temp_root("list");
  benchhist::storage::LocalStore store{root};
  std::vector<std::string> all;
  Fixed() {
    const char* keys[] = {
        "v1/p/objects/criterion/x86_64-unknown-linux-gnu/ci/abc/clean.json",
        "v1/p/objects/criterion/x86_64-unknown-linux-gnu/ci/abc/dirty-5.json",
        "v1/p/objects/criterion/x86_64-unknown-linux-gnu/ci-pool/abc/clean.json",
        "v1/p/objects/callgrind/t/m/def/clean.json",
        "v1/p/objects/blessings/abc/bless-1787306400000000000.json",
        "v1/p/_cache-epoch",
        "v1/q/objects/all_the_time/t/m/0/clean.json",
    };
    for (const char* k : keys) store.put(k, "{}", benchhist::storage::CollisionPolicy::refuse);
    // Debris a store may hold: a temp file and a stray symbolic link.
    std::FILE* f = std::fopen((root / "v1/p/objects/.cbh-tmp-1-2-3").c_str(), "w");
    if (f) std::fclose(f);
    fs::create_symlink("/etc", root / "v1/p/objects/link");
    all = store.list("");
  }
};

void prefix_mode(std::string_view prefix) {
  static Fixed fixed;
  std::vector<std::string> listed;
  try {
    listed = fixed.store.list(prefix);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::invalid_key, "list failed with a kind other than invalid_key",
                e.what());
    fuzz::check_names(e, prefix);
    return;
  }
  std::vector<std::string> expected;
  for (const auto& k : fixed.all)
    if (std::string_view(k).starts_with(prefix)) expected.push_back(k);
  fuzz::check(listed == expected, "list(prefix) differs from the full listing filtered by the prefix");
}

void path_mode(std::string_view path) {
  const fs::path root = make_temp_root("path");
  // Create each component below root without following links; give up quietly on names the
  // filesystem refuses (they cannot occur in a store either).
  std::string rel;
  std::size_t start = 0;
  bool made = true;
  while (made) {
    const auto slash = path.find('/', start);
    const std::string part(path.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start));
    if (part.empty() || part == "." || part == ".." || part.find('\0') != std::string::npos || part.size() > 200) {
      made = false;
      break;
    }
    rel += (rel.empty() ? "" : "/") + part;
    if (slash == std::string_view::npos) {
      const int fd = ::open((root / rel).c_str(), O_CREAT | O_WRONLY | O_NOFOLLOW | O_EXCL, 0644);
      if (fd < 0) {
        made = false;
        break;
      }
      (void)!::write(fd, "junk", 4);
      ::close(fd);
      break;
    }
    if (::mkdir((root / rel).c_str(), 0755) != 0) made = false;
    start = slash + 1;
  }
  if (made) {
    benchhist::storage::LocalStore store(root);
    for (const std::string& prefix : {std::string(), std::string("v1/"), rel.substr(0, rel.size() / 2)}) {
      // The created file blocks the prefix's path when it is the prefix's directory part or
      // one of that part's ancestors: then, and only then, the store is broken, not empty.
      const auto slash = prefix.rfind('/');
      const std::string dir = slash == std::string::npos ? std::string() : prefix.substr(0, slash);
      const bool blocked = !dir.empty() && (dir == rel || dir.starts_with(rel + "/"));
      std::vector<std::string> keys;
      try {
        keys = store.list(prefix);
        fuzz::check(!blocked, "a file standing where a directory on the prefix's path belongs was listed as empty",
                    rel);
      } catch (const benchhist::Error& e) {
        if (blocked && e.kind() == benchhist::ErrorKind::io) {
          fuzz::check_names(e, (root / rel).string());
          continue;
        }
        fuzz::check(e.kind() == benchhist::ErrorKind::invalid_key, "listing a damaged store failed", e.what());
        fuzz::check_names(e, prefix);
        continue;
      }
      fuzz::check(std::is_sorted(keys.begin(), keys.end()), "listing is not sorted");
      for (const auto& k : keys) {
        fuzz::check(benchhist::codec::is_valid_key(k) && std::string_view(k).starts_with(prefix),
                    "listing returned an invalid key or one outside the prefix", k);
        fuzz::check(k == rel, "listing returned a key that was never created", k);
        try {
          (void)store.get(k);
          fuzz::fail("a junk body was read as an object", k);
        } catch (const benchhist::Error& e) {
          fuzz::check(e.kind() == benchhist::ErrorKind::decode, "reading a junk object failed with the wrong kind",
                      e.what());
          fuzz::check_names(e, k);
        }
      }
    }
  }
  std::error_code ec;
  fs::remove_all(root, ec);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const auto rest = fuzz::as_view(data + 1, size - 1);
  if (data[0] % 2 == 0) prefix_mode(rest);
  else path_mode(rest);
  return 0;
}
