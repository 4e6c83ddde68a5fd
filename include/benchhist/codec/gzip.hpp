#pragma once
// The gzip body encoding of every stored object (docs/formats.md#gzip-body-encoding).

#include <string>
#include <string_view>

namespace benchhist::codec {

// One gzip member with the fixed header 1f 8b 08 00 00000000 00 ff, raw DEFLATE at level 6,
// CRC-32 and ISIZE. A pure function of its input.
// Throws Error{internal} only when zlib cannot initialise (out of memory).
std::string gzip_compress(std::string_view plain);

// Inverse of gzip_compress. Accepts only `1f 8b 08 00` (deflate, no flags) and verifies
// CRC-32 and length.
// Throws Error{decode} (no subject; the message describes the defect) for anything else:
// plaintext JSON, foreign flags, truncation, trailing garbage. Backends rethrow it with their
// own message naming the key or path.
std::string gunzip(std::string_view body);

}  // namespace benchhist::codec
