// `--since` and the duration spans (docs/formats.md#option-groups): parse_since either yields an
// instant whose RFC 3339 spelling parses back to it, or throws Error{usage} quoting the value;
// parse_span_before agrees with parse_since on every span it accepts.

#include "benchhist/analysis/since.hpp"
#include "benchhist/model/ascii.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = fuzz::as_view(data, size);
  // Messages quote the value without its surrounding whitespace.
  const auto named = benchhist::ascii::trim(text);
  const benchhist::Timestamp now = benchhist::from_unix_seconds(1787306400) + std::chrono::nanoseconds(123456789);
  std::optional<benchhist::Timestamp> since;
  try {
    since = benchhist::analysis::parse_since(text, now);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::usage, "parse_since failed with a kind other than usage", e.what());
    fuzz::check_names(e, named);
  }
  if (since) {
    const std::string spelled = benchhist::format_rfc3339(*since);
    const auto back = benchhist::parse_rfc3339(spelled);
    fuzz::check(back && *back == *since, "format_rfc3339 of a --since instant does not parse back", spelled);
    fuzz::check(benchhist::analysis::parse_since(spelled, now) == *since, "parse_since of its own spelling differs",
                spelled);
  }
  std::optional<benchhist::Timestamp> span;
  try {
    span = benchhist::analysis::parse_span_before(text, now);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::usage, "parse_span_before failed with a kind other than usage",
                e.what());
    fuzz::check_names(e, named);
    fuzz::check(!since, "parse_span_before refused a value parse_since accepted", text);
    return 0;
  }
  if (span) {
    fuzz::check(*span <= now, "a span reaches into the future", text);
    fuzz::check(since && *since == *span, "parse_span_before and parse_since disagree", text);
  }
  return 0;
}
