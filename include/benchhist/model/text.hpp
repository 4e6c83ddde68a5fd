#pragma once
// The wording helpers every message and report shares: a commit's short id, a counted noun and
// a list; and the one stable hash of a text. Header-only.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace benchhist {

// Commit ids are shown by their first 12 characters everywhere (messages, reports, notes).
inline constexpr std::size_t short_id_length = 12;
inline std::string short_id(std::string_view commit) { return std::string(commit.substr(0, short_id_length)); }

// A commit id or a prefix of one: hexadecimal digits only (either case), not empty. A ref, a tag
// or `HEAD~1` is not one.
inline bool is_commit_id(std::string_view s) noexcept {
  if (s.empty()) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) return false;
  return true;
}

// Count + noun with the plural rule of docs/formats.md#listings-and-command-messages: `1 run`, `2
// runs`; `series` never changes.
inline std::string plural(std::uint64_t n, std::string_view noun) {
  std::string out = std::to_string(n);
  out += ' ';
  out += noun;
  if (n != 1 && noun != "series") out += 's';
  return out;
}

// "a, b, c": a list of names, ids or keys in a message or a report line. With `last` ("and",
// "or") the last two are joined by it instead: "a, b or c".
inline std::string joined(const std::vector<std::string>& items, std::string_view last = {}) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) out += !last.empty() && i + 1 == items.size() ? " " + std::string(last) + " " : std::string(", ");
    out += items[i];
  }
  return out;
}

// A command-line word a user can paste into a POSIX shell: as is when it holds only characters
// no shell reads specially, else in single quotes (`my dir/c.toml` → `'my dir/c.toml'`).
inline std::string shell_word(std::string_view word) {
  const bool plain = !word.empty() && word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                             "0123456789_./:=@%+,-") == std::string_view::npos;
  if (plain) return std::string(word);
  std::string out = "'";
  for (const char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// FNV-1a, 64 bits: the same value for the same text in every process, build and platform (the
// seed of a named series, the name of a lock file); not for anything an adversary chooses.
inline std::uint64_t fnv1a64(std::string_view text) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 0x100000001b3ULL;
  }
  return h;
}

}  // namespace benchhist
