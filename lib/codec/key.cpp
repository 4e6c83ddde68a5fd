#include "benchhist/codec/key.hpp"

#include <charconv>
#include <vector>

#include "benchhist/codec/utf8.hpp"
#include "benchhist/error.hpp"

namespace benchhist::codec {
namespace {

constexpr bool is_safe_ascii(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.';
}

std::vector<std::string_view> split(std::string_view key) {
  std::vector<std::string_view> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = key.find('/', start);
    if (slash == std::string_view::npos) {
      out.push_back(key.substr(start));
      return out;
    }
    out.push_back(key.substr(start, slash - start));
    start = slash + 1;
  }
}

bool is_ordinary_component(std::string_view seg) noexcept {
  if (seg.empty() || seg == "." || seg == "..") return false;
  for (char c : seg)
    if (c == '\\' || c == '\0') return false;
  // A drive prefix (`C:`) would make the path absolute on Windows
  // (docs/formats.md#segment-sanitisation).
  if (seg.size() >= 2 && seg[1] == ':' && ((seg[0] >= 'a' && seg[0] <= 'z') || (seg[0] >= 'A' && seg[0] <= 'Z')))
    return false;
  return true;
}

// Canonical base-10 i64: optional '-', no '+', no leading zeros (except "0"), so that the
// parsed value re-renders to the same text (str() round trip).
std::optional<std::int64_t> parse_canonical_i64(std::string_view s) noexcept {
  if (s.empty()) return std::nullopt;
  std::string_view digits = s[0] == '-' ? s.substr(1) : s;
  if (digits.empty() || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  if (s[0] == '-' && digits == "0") return std::nullopt;
  for (char c : digits)
    if (c < '0' || c > '9') return std::nullopt;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// `<stem>-<n>.json` → n
std::optional<std::int64_t> parse_stamped_file(std::string_view file, std::string_view stem) noexcept {
  if (!file.starts_with(stem) || !file.ends_with(".json")) return std::nullopt;
  if (file.size() < stem.size() + 5) return std::nullopt;
  return parse_canonical_i64(file.substr(stem.size(), file.size() - stem.size() - 5));
}

std::string join_data_key(std::string_view project, Engine engine, std::string_view triple,
                          std::string_view machine, std::string_view commit, std::string_view file) {
  std::string out = "v1/";
  out += project;
  out += "/objects/";
  out += to_string(engine);
  out += '/';
  out += triple;
  out += '/';
  out += machine;
  out += '/';
  out += commit;
  out += '/';
  out += file;
  return out;
}

std::string stamped(std::string_view stem, std::int64_t n) { return std::string(stem) + std::to_string(n) + ".json"; }

}  // namespace

std::string sanitize_segment(std::string_view raw) {
  std::string out;
  out.reserve(raw.size());
  for (std::size_t pos = 0; pos < raw.size();) {
    const std::size_t n = utf8::scalar_length(raw, pos);
    if (n == 1 && is_safe_ascii(raw[pos])) {
      out.push_back(ascii::lower(raw[pos]));
    } else {
      out.push_back('_');  // one `_` per scalar, or per byte of an invalid sequence
    }
    pos += n == 0 ? 1 : n;
  }
  if (out.find_first_not_of('.') == std::string::npos) return "_";  // empty or all dots
  return out;
}

std::optional<std::string> overlong_segment(std::string_view raw) {
  const std::size_t length = sanitize_segment(raw).size();
  if (length <= max_segment_bytes) return std::nullopt;
  return "is " + std::to_string(length) + " characters long; it names a directory of the store, which takes at most " +
         std::to_string(max_segment_bytes);
}

bool is_valid_key(std::string_view key) noexcept {
  if (key.empty()) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = key.find('/', start);
    const std::string_view seg =
        key.substr(start, slash == std::string_view::npos ? std::string_view::npos : slash - start);
    if (!is_ordinary_component(seg)) return false;
    if (slash == std::string_view::npos) return true;
    start = slash + 1;
  }
}

void validate_key(std::string_view key) {
  if (!is_valid_key(key)) {
    std::string shown;
    for (char c : key) shown += c == '\0' ? std::string("\\0") : std::string(1, c);
    throw Error(ErrorKind::invalid_key, "invalid storage key: " + shown, shown,
                "every `/`-separated segment must be a plain name (no empty segments, `.`, `..`, "
                "backslashes, drive prefixes or NUL bytes)",
                "build keys with the key builders, which sanitize every segment");
  }
}

std::string DataKey::file_name() const {
  switch (kind) {
    case ObjectKind::clean: return "clean.json";
    case ObjectKind::dirty: return stamped("dirty-", timestamp);
    case ObjectKind::partition_blessing: return stamped("bless-", timestamp);
  }
  return "clean.json";
}

std::string DataKey::str() const {
  return join_data_key(project, engine, target_triple, machine_key, commit, file_name());
}

std::optional<DataKey> parse_data_key(std::string_view key) {
  // A listing may return any name (a blob name can hold NUL or backslashes): only a valid key
  // is a data key, so nothing parsed here is refused later by get() (found by fuzz_storage_key).
  if (!is_valid_key(key)) return std::nullopt;
  const auto seg = split(key);
  if (seg.size() != 8) return std::nullopt;
  for (auto s : seg)
    if (s.empty()) return std::nullopt;
  if (seg[0] != "v1" || seg[2] != "objects") return std::nullopt;
  const auto engine = parse_engine(seg[3]);
  if (!engine) return std::nullopt;
  DataKey k;
  k.project = std::string(seg[1]);
  k.engine = *engine;
  k.target_triple = std::string(seg[4]);
  k.machine_key = std::string(seg[5]);
  k.commit = std::string(seg[6]);
  const std::string_view file = seg[7];
  if (file == "clean.json") {
    k.kind = ObjectKind::clean;
  } else if (auto d = parse_stamped_file(file, "dirty-")) {
    k.kind = ObjectKind::dirty;
    k.timestamp = *d;
  } else if (auto b = parse_stamped_file(file, "bless-")) {
    k.kind = ObjectKind::partition_blessing;
    k.timestamp = *b;
  } else {
    return std::nullopt;
  }
  return k;
}

std::string clean_key(std::string_view project, Engine engine, std::string_view target_triple,
                      std::string_view machine_key, std::string_view commit) {
  return join_data_key(sanitize_segment(project), engine, sanitize_segment(target_triple),
                       sanitize_segment(machine_key), sanitize_segment(commit), "clean.json");
}

std::string dirty_key(std::string_view project, Engine engine, std::string_view target_triple,
                      std::string_view machine_key, std::string_view commit,
                      std::int64_t observation_unix_seconds) {
  return join_data_key(sanitize_segment(project), engine, sanitize_segment(target_triple),
                       sanitize_segment(machine_key), sanitize_segment(commit),
                       stamped("dirty-", observation_unix_seconds));
}

std::string partition_blessing_key(std::string_view project, Engine engine,
                                   std::string_view target_triple, std::string_view machine_key,
                                   std::string_view commit, std::int64_t issued_unix_seconds) {
  return join_data_key(sanitize_segment(project), engine, sanitize_segment(target_triple),
                       sanitize_segment(machine_key), sanitize_segment(commit),
                       stamped("bless-", issued_unix_seconds));
}

std::string project_blessing_key(std::string_view project, std::string_view commit,
                                 std::int64_t issued_unix_nanos) {
  return project_blessings_prefix(project) + sanitize_segment(commit) + "/" +
         stamped("bless-", issued_unix_nanos);
}

std::optional<std::string> parse_project_blessing_key(std::string_view key) {
  if (!is_valid_key(key)) return std::nullopt;  // as parse_data_key (found by fuzz_storage_key)
  const auto seg = split(key);
  if (seg.size() != 6) return std::nullopt;
  if (seg[0] != "v1" || seg[1].empty() || seg[2] != "objects" || seg[3] != "blessings" || seg[4].empty())
    return std::nullopt;
  // Any i64 nanosecond count is a representable sys_time<nanoseconds>.
  if (!parse_stamped_file(seg[5], "bless-")) return std::nullopt;
  return std::string(seg[4]);
}

std::string cache_epoch_key(std::string_view project) {
  return "v1/" + sanitize_segment(project) + "/_cache-epoch";
}

std::string project_data_prefix(std::string_view project) {
  return "v1/" + sanitize_segment(project) + "/objects/";
}

std::string project_blessings_prefix(std::string_view project) {
  return project_data_prefix(project) + "blessings/";
}

std::string partition_prefix(std::string_view project, const DiscriminantSet& set) {
  // The set already holds sanitized segments; sanitizing again is idempotent and keeps a
  // hand-built set from ever producing a path trick.
  std::string out = project_data_prefix(project);
  out += to_string(set.engine);
  out += '/';
  out += sanitize_segment(set.target_triple);
  out += '/';
  out += sanitize_segment(set.machine_key);
  out += '/';
  return out;
}

std::string commit_prefix(std::string_view project, const DiscriminantSet& set, std::string_view commit) {
  return partition_prefix(project, set) + sanitize_segment(commit) + "/";
}

}  // namespace benchhist::codec
