#pragma once
// A small strict JSON reader private to the engine harvesters.
//
// Why not Boost.JSON: Boost 1.81 has no precise number mode, and its fast double parser may be
// one ulp off; docs/formats.md#engine-harvest pins engine values as exact doubles, so numbers are
// converted with std::from_chars (correctly rounded) from their original text. The reader also
// reports line/column positions, which make "truncated file" errors actionable.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist::engines::detail {

// Thrown by parse_json and by the typed accessors below; the harvesters wrap it into
// Error{benchmark_output, "failed to parse benchmark output: <path>", cause = what()}.
class JsonProblem : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  // A problem whose fix is known, which the file's re-run would not cure (names that collide).
  JsonProblem(const std::string& what, std::string hint) : std::runtime_error(what), hint_(std::move(hint)) {}
  // Empty: the parse error's default hint (a damaged or foreign file).
  const std::string& hint() const noexcept { return hint_; }

 private:
  std::string hint_;
};

class JsonValue {
 public:
  enum class Type { null, boolean, number, string, array, object };

  Type type() const noexcept { return type_; }
  bool is_null() const noexcept { return type_ == Type::null; }
  bool is_number() const noexcept { return type_ == Type::number; }
  bool is_string() const noexcept { return type_ == Type::string; }
  bool is_object() const noexcept { return type_ == Type::object; }
  bool is_array() const noexcept { return type_ == Type::array; }

  // Number as a correctly rounded double; ±inf when the literal overflows a double.
  double number() const noexcept { return number_; }
  // The literal as written (numbers) or the decoded text (strings).
  const std::string& text() const noexcept { return text_; }
  // Set when the literal is a non-negative integer that fits 64 bits.
  std::optional<std::uint64_t> unsigned_integer() const noexcept { return uint_; }
  bool boolean() const noexcept { return bool_; }

  const std::vector<std::pair<std::string, JsonValue>>& members() const noexcept { return members_; }
  const std::vector<JsonValue>& items() const noexcept { return items_; }

  // First member with that name (duplicates: the first wins), or nullptr.
  const JsonValue* find(std::string_view name) const noexcept;

  static std::string_view type_name(Type t) noexcept;

 private:
  friend class Parser;
  Type type_ = Type::null;
  bool bool_ = false;
  double number_ = 0;
  std::optional<std::uint64_t> uint_;
  std::string text_;
  std::vector<std::pair<std::string, JsonValue>> members_;
  std::vector<JsonValue> items_;
};

struct JsonReadOptions {
  // Accept the bare literals NaN, Infinity and -Infinity (and -NaN) as non-finite numbers.
  // Not JSON, but Google Benchmark's reporter writes them for non-finite values
  // (docs/google-benchmark.md); every other engine keeps the strict grammar.
  bool non_finite_literals = false;
};

// Parses one complete JSON document (RFC 8259; UTF-8 validated; nesting depth ≤ 128).
// Throws JsonProblem naming the line and column of the first problem.
JsonValue parse_json(std::string_view text, const JsonReadOptions& options = {});

// Typed access helpers: `where` is a JSON-pointer-like path used in the problem text,
// e.g. `/profiles/0/summaries`.
const JsonValue& require_object(const JsonValue& v, std::string_view where);
const JsonValue& require_member(const JsonValue& obj, std::string_view name, std::string_view where);
std::string require_string(const JsonValue& obj, std::string_view name, std::string_view where);
// Absent or null → nullopt; a string → its text; anything else → JsonProblem.
std::optional<std::string> optional_string(const JsonValue& obj, std::string_view name,
                                           std::string_view where);
// A number member that must be present, finite and (unless allow_negative) ≥ 0.
double require_number(const JsonValue& obj, std::string_view name, std::string_view where,
                      bool allow_negative = false);
// A number value checked the same way (`where` names the value itself).
double checked_number(const JsonValue& v, std::string_view where, bool allow_negative = false);

}  // namespace benchhist::engines::detail
