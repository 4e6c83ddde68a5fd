#include "benchhist/codec/gzip.hpp"

#include <zlib.h>

#include <array>
#include <cstdint>

#include "benchhist/error.hpp"

namespace benchhist::codec {
namespace {

constexpr std::array<unsigned char, 10> fixed_header{0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff};

void put_le32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::uint32_t get_le32(std::string_view s, std::size_t pos) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(static_cast<unsigned char>(s[pos + i])) << (8 * i);
  return v;
}

[[noreturn]] void bad(std::string what) { throw Error(ErrorKind::decode, std::move(what)); }

}  // namespace

std::string gzip_compress(std::string_view plain) {
  std::string out(reinterpret_cast<const char*>(fixed_header.data()), fixed_header.size());
  z_stream zs{};
  // windowBits -15: raw DEFLATE; we write the gzip framing ourselves so the header is fixed.
  if (deflateInit2(&zs, 6, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    throw Error(ErrorKind::internal, "could not initialise the gzip encoder");
  const std::size_t header = out.size();
  out.resize(header + deflateBound(&zs, static_cast<uLong>(plain.size())));
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(plain.data()));
  zs.avail_in = static_cast<uInt>(plain.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data() + header);
  zs.avail_out = static_cast<uInt>(out.size() - header);
  const int rc = deflate(&zs, Z_FINISH);
  const std::size_t produced = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) throw Error(ErrorKind::internal, "gzip encoding did not finish");
  out.resize(header + produced);
  const auto crc = crc32(0L, reinterpret_cast<const Bytef*>(plain.data()), static_cast<uInt>(plain.size()));
  put_le32(out, static_cast<std::uint32_t>(crc));
  put_le32(out, static_cast<std::uint32_t>(plain.size() & 0xffffffffu));
  return out;
}

std::string gunzip(std::string_view body) {
  if (body.size() < 2 || static_cast<unsigned char>(body[0]) != 0x1f || static_cast<unsigned char>(body[1]) != 0x8b)
    bad("the body is not gzip (no gzip magic; plaintext objects are not accepted)");
  if (body.size() < 4 || static_cast<unsigned char>(body[2]) != 0x08)
    bad("the gzip member does not use the deflate method");
  if (static_cast<unsigned char>(body[3]) != 0x00)
    bad("the gzip header sets flag bits (FTEXT/FHCRC/FEXTRA/FNAME/FCOMMENT); only the plain header is accepted");
  if (body.size() < 10 + 8) bad("the gzip body is truncated");

  std::string out;
  z_stream zs{};
  if (inflateInit2(&zs, -15) != Z_OK) throw Error(ErrorKind::internal, "could not initialise the gzip decoder");
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data() + 10));
  zs.avail_in = static_cast<uInt>(body.size() - 10);
  std::array<char, 16384> buf;
  int rc = Z_OK;
  while (rc != Z_STREAM_END) {
    zs.next_out = reinterpret_cast<Bytef*>(buf.data());
    zs.avail_out = static_cast<uInt>(buf.size());
    rc = inflate(&zs, Z_NO_FLUSH);
    if (rc != Z_OK && rc != Z_STREAM_END) {
      inflateEnd(&zs);
      if (rc == Z_BUF_ERROR) bad("the gzip body is truncated");
      bad("the DEFLATE stream is corrupt");
    }
    out.append(buf.data(), buf.size() - zs.avail_out);
    if (rc == Z_OK && zs.avail_in == 0 && zs.avail_out != 0) {
      inflateEnd(&zs);
      bad("the gzip body is truncated");
    }
  }
  const std::size_t consumed = 10 + zs.total_in;
  inflateEnd(&zs);
  if (body.size() < consumed + 8) bad("the gzip body is truncated (missing CRC-32/length trailer)");
  if (body.size() > consumed + 8) bad("unexpected bytes after the gzip member");
  const auto crc = crc32(0L, reinterpret_cast<const Bytef*>(out.data()), static_cast<uInt>(out.size()));
  if (get_le32(body, consumed) != static_cast<std::uint32_t>(crc)) bad("the gzip CRC-32 does not match the content");
  if (get_le32(body, consumed + 4) != static_cast<std::uint32_t>(out.size() & 0xffffffffu))
    bad("the gzip length trailer does not match the content");
  return out;
}

}  // namespace benchhist::codec
