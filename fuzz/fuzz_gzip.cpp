// gunzip of a stored body (docs/formats.md#gzip-body-encoding): either the plain text, which
// compresses to a body that gunzips to it again, or Error{decode}; and every input survives
// gzip_compress → gunzip.

#include "benchhist/codec/gzip.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto in = fuzz::as_view(data, size);
  try {
    const std::string plain = benchhist::codec::gunzip(in);
    const std::string again = benchhist::codec::gzip_compress(plain);
    fuzz::check(benchhist::codec::gunzip(again) == plain, "gunzip(gzip_compress(gunzip(x))) != gunzip(x)");
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::decode, "gunzip failed with a kind other than decode", e.what());
    fuzz::check(!e.message().empty(), "gunzip error without a message");
  }
  const std::string body = benchhist::codec::gzip_compress(in);
  fuzz::check(body.size() >= 18 && static_cast<unsigned char>(body[0]) == 0x1f, "gzip_compress wrote no gzip header");
  try {
    fuzz::check(benchhist::codec::gunzip(body) == in, "gunzip(gzip_compress(x)) != x");
  } catch (const benchhist::Error& e) {
    fuzz::fail("gunzip refused what gzip_compress wrote", e.what());
  }
  return 0;
}
