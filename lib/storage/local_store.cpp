#include "benchhist/storage/local_store.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/error.hpp"
#include "benchhist/codec/key.hpp"
#include "platform/platform.hpp"

namespace fs = std::filesystem;

namespace benchhist::storage {
namespace {

std::string errno_text(int err) { return std::generic_category().message(err); }

constexpr std::string_view write_hint = "check that the storage directory is writable and has free space";
constexpr std::string_view read_hint = "check the permissions of the storage directory";

// A project id or target triple of hundreds of characters makes a key segment longer than a
// file name may be: free space and permissions are then the wrong advice, whatever the operation.
constexpr std::string_view name_too_long_hint =
    "a name on the object's path is longer than the file system allows (usually 255 bytes per name, 4,096 per "
    "path): shorten the project id ([project] id) or the target triple, or use a shorter storage directory";

// Local I/O failures use the docs/formats.md#error-messages wording: `could not <what> at <path>`,
// with the OS error (and any detail such as the temp file involved) as the cause.
[[noreturn]] void io_error(std::string_view what, const fs::path& path, int err, std::string_view hint,
                           const std::string& detail = {}) {
  throw Error(ErrorKind::io, "could not " + std::string(what) + " at " + path.string(), path.string(),
              detail.empty() ? errno_text(err) : detail + ": " + errno_text(err),
              std::string(err == ENAMETOOLONG ? name_too_long_hint : hint));
}

// Objects are write-once (docs/formats.md#write-semantics); callers such as collect rephrase this
// with their own flags.
[[noreturn]] void already_exists(std::string_view key) {
  throw Error(ErrorKind::already_exists, "object already exists: " + std::string(key), std::string(key), {},
              "stored objects are write-once; replace one only with an explicit overwrite");
}

bool path_within(const fs::path& inner, const fs::path& outer) {
  auto i = inner.begin();
  for (auto o = outer.begin(); o != outer.end(); ++o, ++i) {
    if (o->empty()) continue;  // trailing separator
    if (i == inner.end() || *i != *o) return false;
  }
  return true;
}

bool starts_with_temp_prefix(std::string_view name) { return name.starts_with(LocalStore::temp_prefix); }

// Does any `/`-separated segment of `key` start with the temp prefix?
bool has_temp_segment(std::string_view key) {
  for (std::size_t pos = 0; pos <= key.size();) {
    const std::size_t slash = key.find('/', pos);
    if (starts_with_temp_prefix(key.substr(pos, slash == std::string_view::npos ? std::string_view::npos : slash - pos)))
      return true;
    if (slash == std::string_view::npos) break;
    pos = slash + 1;
  }
  return false;
}

// Nothing is stored at a path that does not exist, that runs through a file, or whose name is
// too long for the file system to hold (found by fuzz_listing_path).
bool not_found(const std::error_code& e) {
  return e == std::errc::no_such_file_or_directory || e == std::errc::not_a_directory ||
         e == std::errc::filename_too_long;
}

// A file where the store keeps a directory (`v1`, a project's directory): what is below it
// cannot be read, and a write there fails the same way, so the store is broken, not empty.
[[noreturn]] void not_a_directory(const fs::path& path, std::string_view prefix) {
  throw Error(ErrorKind::io, "could not list the local store's objects at " + path.string(), path.string(),
              path.string() + " is a file, not a directory, so nothing under " + std::string(prefix) + " can be read",
              "move the file out of the storage directory (objects are stored in directories below it)");
}

}  // namespace

LocalStore::LocalStore(fs::path root, LocalStoreOptions options) : root_(std::move(root)), options_(options) {}

std::string LocalStore::describe() const { return "local store at " + root_.string(); }

void LocalStore::require_root() const {
  std::error_code ec;
  const auto status = fs::status(root_, ec);
  if (fs::exists(status) && !fs::is_directory(status))
    throw Error(ErrorKind::usage, "the local store path " + root_.string() + " is a file, not a directory",
                root_.string(), {}, "point it at the store's directory (or at a new directory, which collect creates)");
  if (!fs::exists(status))
    throw Error(ErrorKind::not_found, "no local store at " + root_.string() + ": the directory does not exist",
                root_.string(), {},
                "check the path (a relative path resolves against the working directory); a new store is created "
                "by `collect`, `backfill` or `import`");
}

void LocalStore::check_access() {
  // The first put makes the root and the directories above it when they are missing: the nearest
  // one that exists must take them. A probe file with the temp prefix (never listed) is the one
  // test that answers as that put would (permissions, a read-only mount, a full disk's inodes).
  std::error_code ec;
  fs::path at = root_;
  while (!at.empty() && !fs::exists(fs::symlink_status(at, ec))) at = at.parent_path();
  if (at.empty()) at = ".";
  const std::string what = at == root_ ? "write to the local store" : "create the local store";
  const std::string in = at == root_ ? std::string("in it") : "in " + at.string();
  const fs::path probe = at / (std::string(temp_prefix) + "access-" + std::to_string(platform::current_process_id()) +
                               "-" + std::to_string(counter_.fetch_add(1)));
  try {
    platform::write_new_file(probe, {}, false);
  } catch (const platform::WriteError& e) {
    io_error(what, root_, e.code().value(), write_hint,
             "a new file could not be made " + in + " (checked before any benchmark runs)");
  }
  fs::remove(probe, ec);
}

fs::path LocalStore::path_of(std::string_view key) const {
  codec::validate_key(key);
  // Names starting with the temp prefix are never listed and are deleted when stale, so an
  // object stored under one would silently vanish: refuse such keys outright.
  if (has_temp_segment(key))
    throw Error(ErrorKind::invalid_key, "invalid storage key: " + std::string(key), std::string(key),
                "names starting with " + std::string(temp_prefix) + " are reserved for the local store's temporary files",
                "build keys with the key builders");
  return root_ / fs::path(std::string(key));
}

// A symbolic link inside the store must never lead a key outside the root (path tricks are
// already excluded by validate_key; this covers links planted in the tree).
void LocalStore::check_inside_root(const fs::path& dir, std::string_view key) const {
  std::error_code ec;
  const fs::path real_root = fs::canonical(root_, ec);
  if (ec) return;  // no root yet: nothing below it can be a link
  const fs::path real_dir = fs::canonical(dir, ec);
  if (ec) return;  // does not exist (yet)
  if (!path_within(real_dir, real_root))
    throw Error(ErrorKind::invalid_key,
                "storage key " + std::string(key) + " leads outside the " + describe() + " through a symbolic link",
                std::string(key), "directory " + dir.string() + " resolves to " + real_dir.string(),
                "remove the symbolic link from the storage directory");
}

namespace {
// How often a write makes its directories again after a concurrent remove() took one away
// (docs/formats.md#local-backend).
constexpr int vanished_directory_retries = 16;
}  // namespace

void LocalStore::make_parent_dirs(const fs::path& target, std::string_view key) const {
  // The directory named in the message is not the object: the cause says which key it was for
  // (a full disk or a read-only store fails here first for a new commit).
  const std::string for_key = "storing " + std::string(key);
  std::error_code ec;
  fs::create_directories(root_, ec);
  if (!fs::is_directory(root_))
    io_error("create local storage parent directories", root_, ec ? ec.value() : ENOTDIR, write_hint, for_key);
  // One mkdir per key segment so that concurrent writers creating the same directories
  // never fail on each other (EEXIST is success here). An existing component that is a
  // symbolic link is checked BEFORE anything is created through it, so a link leading
  // outside the root never gets directories (or objects) planted on the other side.
  // A concurrent remove() takes away directories it leaves empty, possibly the one just
  // made before its child is: the walk then starts again from the root (a bounded number of
  // times; each remover only ever takes directories that are empty).
  const fs::path rel = target.parent_path().lexically_relative(root_);
  for (int attempt = 0;; ++attempt)
    if (make_parent_dirs_once(rel, key, for_key, /*last=*/attempt == vanished_directory_retries)) return;
}

// One walk from the root down to the key's directory; false if a directory vanished under
// it (the caller walks again); on the last walk that is an error like any other.
bool LocalStore::make_parent_dirs_once(const fs::path& rel, std::string_view key, const std::string& for_key,
                                       bool last) const {
  std::error_code ec;
  fs::path dir = root_;
  for (const auto& part : rel) {
    dir /= part;
    if (fs::create_directory(dir, ec)) continue;
    if (ec == std::errc::no_such_file_or_directory && !last) return false;
    if (ec && ec != std::errc::file_exists)
      io_error("create local storage parent directories", dir, ec.value(), write_hint, for_key);
    const auto st = fs::symlink_status(dir, ec);
    if (ec == std::errc::no_such_file_or_directory && !last) return false;
    if (ec) io_error("create local storage parent directories", dir, ec.value(), write_hint, for_key);
    if (!fs::is_symlink(st) && !fs::is_directory(st))
      io_error("create local storage parent directories", dir, ENOTDIR, "move the file out of the storage directory");
    if (fs::is_symlink(st)) check_inside_root(dir, key);
  }
  return true;
}

fs::path LocalStore::write_temp(const fs::path& target, std::string_view body) {
  const fs::path dir = target.parent_path();
  const auto nanos = std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count();
  for (int attempt = 0;; ++attempt) {
    const fs::path tmp = dir / (std::string(temp_prefix) + std::to_string(platform::current_process_id()) + "-" +
                                std::to_string(nanos) + "-" + std::to_string(counter_.fetch_add(1)));
    // With `durable` the bytes reach the disk before the name is published, or a crash could
    // publish an empty or partial file under the final name.
    try {
      platform::write_new_file(tmp, body, options_.durable);
    } catch (const platform::WriteError& e) {
      const bool create = e.step == platform::WriteStep::create;
      if (create && e.code() == std::errc::file_exists && attempt < 100) continue;
      io_error("write local storage object", target, e.code().value(), write_hint,
               (create ? "creating temporary file " : "writing temporary file ") + tmp.string());
    }
    return tmp;
  }
}

// Temp files of writers that died (SIGKILL, power loss) are garbage once they are older
// than any write could take; deleting them keeps commit directories clean.
void LocalStore::remove_stale_temps(const fs::path& dir) const noexcept {
  std::error_code ec;
  const auto now = fs::file_time_type::clock::now();
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!starts_with_temp_prefix(name)) continue;
    std::error_code tec;
    const auto mtime = fs::last_write_time(it->path(), tec);
    if (tec) continue;
    if (now - mtime > options_.stale_temp_age) fs::remove(it->path(), tec);
  }
}

PutOutcome LocalStore::put(std::string_view key, std::string_view json, CollisionPolicy policy) {
  const fs::path target = path_of(key);  // validates first: nothing touched for a bad key
  const std::string body = codec::gzip_compress(json);
  make_parent_dirs(target, key);
  const fs::path dir = target.parent_path();

  std::error_code ec;
  const auto st = fs::symlink_status(target, ec);
  const bool existed = !ec;
  if (ec && ec != std::errc::no_such_file_or_directory)
    io_error("inspect local storage object", target, ec.value(), read_hint);
  if (existed && fs::is_directory(st))
    io_error("write local storage object", target, EISDIR, "move the directory out of the storage directory");
  if (existed && policy == CollisionPolicy::skip_existing) return PutOutcome::skipped_existing;
  if (existed && policy == CollisionPolicy::refuse)
    already_exists(key);

  remove_stale_temps(dir);
  fs::path tmp;
  for (int attempt = 0;; ++attempt) {
    try {
      tmp = write_temp(target, body);
      break;
    } catch (const Error&) {
      // A concurrent remove() may take the directory away between its creation and the temp
      // file (it removes directories left empty): make it again. Once the temp file is in it,
      // the directory is not empty and stays.
      std::error_code dec;
      if (attempt >= vanished_directory_retries || fs::exists(dir, dec)) throw;
      make_parent_dirs(target, key);
    }
  }
  PutOutcome outcome = PutOutcome::stored;
  if (policy == CollisionPolicy::overwrite) {
    fs::rename(tmp, target, ec);
    if (ec) {
      std::error_code rec;
      fs::remove(tmp, rec);
      io_error("write local storage object", target, ec.value(), write_hint);
    }
    outcome = existed ? PutOutcome::replaced : PutOutcome::stored;
  } else {
    bool published = false;
    std::error_code rec;
    try {
      published = platform::publish_no_replace(tmp, target);
    } catch (const std::system_error& e) {
      fs::remove(tmp, rec);
      io_error("write local storage object", target, e.code().value(), write_hint);
    }
    fs::remove(tmp, rec);  // after a hard link the object has its own name; gone after a rename
    if (!published) {
      if (policy == CollisionPolicy::skip_existing) return PutOutcome::skipped_existing;
      already_exists(key);
    }
  }
  if (options_.durable) platform::sync_directory(dir);
  return outcome;
}

std::optional<std::string> LocalStore::get(std::string_view key) {
  const fs::path path = path_of(key);
  check_inside_root(path.parent_path(), key);
  std::optional<std::string> body;
  try {
    body = platform::read_file_no_follow(path);
  } catch (const std::system_error& e) {
    if (not_found(e.code())) return std::nullopt;
    if (e.code() == std::errc::too_many_symbolic_link_levels)
      io_error("read local storage object", path, e.code().value(), "replace the link with the object file itself",
               "it is a symbolic link, which the local store never follows");
    io_error("read local storage object", path, e.code().value(), read_hint);
  }
  if (!body) return std::nullopt;
  try {
    return codec::gunzip(*body);
  } catch (const Error& e) {
    throw Error(ErrorKind::decode, "could not decompress local storage object at " + path.string(), path.string(),
                e.message(),
                "the file is not a gzip body written by cargo-bench-history (plaintext JSON is never read as is); "
                "move it out of the store or restore it from a backup");
  }
}

std::vector<std::string> LocalStore::list(std::string_view prefix) {
  if (options_.root_must_exist) require_root();
  // Start at the deepest directory the prefix names completely (docs/formats.md#local-backend).
  const std::size_t last_slash = prefix.rfind('/');
  const std::string_view dir_part = last_slash == std::string_view::npos ? std::string_view{} : prefix.substr(0, last_slash);
  fs::path start = root_;
  std::string start_key;  // key prefix of entries under `start`, `/`-terminated or empty
  if (!dir_part.empty()) {
    if (!codec::is_valid_key(dir_part))
      throw Error(ErrorKind::invalid_key, "invalid storage key: " + std::string(prefix), std::string(prefix),
                  "a listing prefix may only name plain directories", {});
    // The walk never enters a temporary name, so a prefix through one names no object
    // (found by fuzz_listing_path: it listed the inside of a temporary directory).
    if (has_temp_segment(dir_part)) return {};
    start /= fs::path(std::string(dir_part));
    start_key = std::string(dir_part) + "/";
  }
  std::vector<std::string> keys;
  std::error_code ec;
  // Down to `start`, a missing directory (or a name too long to be one) only means nothing is
  // stored there yet; a file (or anything else) standing where a directory must be is a broken
  // store, and listing it as empty would read as "no runs yet" (the root itself may be a link).
  fs::path at = root_;
  const fs::path below(std::string{dir_part});
  for (auto part = below.begin();; at /= *part++) {
    const auto st = fs::status(at, ec);
    if (st.type() == fs::file_type::not_found || not_found(ec)) return keys;
    if (ec) io_error("open local storage listing directory", at, ec.value(), read_hint);
    if (!fs::is_directory(st)) not_a_directory(at, prefix);
    if (part == below.end()) break;
  }
  check_inside_root(start, prefix);

  // Iterative walk that never follows symbolic links and tolerates entries vanishing under
  // concurrent writers (temp files are unlinked all the time).
  std::vector<std::pair<fs::path, std::string>> pending{{start, start_key}};
  while (!pending.empty()) {
    auto [dir, dir_key] = std::move(pending.back());
    pending.pop_back();
    // A directory that vanished under a concurrent remove simply has no keys; any other
    // failure would make the listing silently incomplete, so it is an error
    // (docs/formats.md#error-messages wording).
    const auto vanished = [](const std::error_code& e) {
      return e == std::errc::no_such_file_or_directory || e == std::errc::not_a_directory;
    };
    fs::directory_iterator it(dir, ec);
    if (ec) {
      if (vanished(ec)) {
        ec.clear();
        continue;
      }
      io_error("open local storage listing directory", dir, ec.value(), read_hint);
    }
    for (const fs::directory_iterator end; it != end;) {
      const std::string name = it->path().filename().string();
      if (!starts_with_temp_prefix(name)) {
        std::error_code sec;
        const auto status = it->symlink_status(sec);
        std::string key = dir_key + name;
        if (sec) {
          // vanished between readdir and stat: skip
        } else if (fs::is_directory(status)) {
          // Descend only where keys with this prefix can live.
          const std::string sub = key + "/";
          const std::size_t n = std::min(sub.size(), prefix.size());
          if (std::string_view(sub).substr(0, n) == prefix.substr(0, n)) pending.emplace_back(it->path(), sub);
        } else if (fs::is_regular_file(status)) {
          if (std::string_view(key).starts_with(prefix) && codec::is_valid_key(key)) keys.push_back(std::move(key));
        }
      }
      it.increment(ec);
      if (ec) io_error("advance local storage listing directory", dir, ec.value(), read_hint);
    }
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// A key's directories exist only for its objects: once the last one is removed they go too
// (an unblessed commit leaves no empty directory behind). fs::remove refuses a non-empty
// directory, so one that another writer has just filled stays; the root itself always stays.
void LocalStore::remove_empty_parents(fs::path dir) const noexcept {
  std::error_code ec;
  fs::path root = root_.lexically_normal();
  if (root.filename().empty() && root.has_parent_path()) root = root.parent_path();  // `a/b/` → `a/b`
  dir = dir.lexically_normal();
  while (dir != root && path_within(dir, root) && dir.has_parent_path()) {
    if (!fs::is_empty(dir, ec) || ec || !fs::remove(dir, ec)) return;
    dir = dir.parent_path();
  }
}

bool LocalStore::remove(std::string_view key) {
  const fs::path path = path_of(key);
  check_inside_root(path.parent_path(), key);
  // Objects are files: a directory at a key is an error, never removed (fs::remove would).
  std::error_code ec;
  const auto st = fs::symlink_status(path, ec);
  if (ec) {
    if (not_found(ec)) return false;
    io_error("remove local storage object", path, ec.value(), write_hint);
  }
  if (fs::is_directory(st)) io_error("remove local storage object", path, EISDIR, write_hint);
  if (fs::remove(path, ec)) {
    remove_empty_parents(path.parent_path());
    return true;
  }
  if (!ec || not_found(ec)) return false;  // removed by someone else meanwhile
  io_error("remove local storage object", path, ec.value(), write_hint);
}

}  // namespace benchhist::storage
