// A Blob service error body: parse_error_code never throws, and yields "" or a plain code
// (visible ASCII, ≤ 128 bytes) that, written back as an <Error> document, parses to itself.

#include "benchhist/azure/blob_client.hpp"
#include "benchhist/azure/responses.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string code;
  try {
    code = benchhist::azure::parse_error_code(fuzz::as_view(data, size));
  } catch (...) {
    fuzz::fail("parse_error_code threw");
  }
  fuzz::check(code.size() <= 128, "an error code longer than 128 bytes");
  for (char c : code) fuzz::check(c > ' ' && c <= '~', "an error code with a byte outside visible ASCII", code);
  if (!code.empty()) {
    const std::string doc = "<?xml version=\"1.0\"?><Error><Code>" + code + "</Code><Message>m</Message></Error>";
    fuzz::check(benchhist::azure::parse_error_code(doc) == code, "an error code written back parses differently", doc);
  }
  benchhist::azure::BlobReply reply;
  reply.status = 409;
  reply.error_code = code;
  fuzz::check(reply.describe().find('\n') == std::string::npos, "a reply description spans lines");
  return 0;
}
