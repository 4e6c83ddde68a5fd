#include <catch2/catch.hpp>

#include "benchhist/codec/gzip.hpp"
#include "benchhist/error.hpp"

using namespace benchhist;

TEST_CASE("gzip bodies use the fixed header and round trip", "[gzip]") {
  const std::string plain = "{\n  \"schema_version\": 5\n}";
  const std::string gz = codec::gzip_compress(plain);
  REQUIRE(gz.size() > 18);
  CHECK(static_cast<unsigned char>(gz[0]) == 0x1f);
  CHECK(static_cast<unsigned char>(gz[9]) == 0xff);
  CHECK(codec::gunzip(gz) == plain);
  CHECK(codec::gzip_compress(plain) == gz);  // deterministic
  CHECK(codec::gunzip(codec::gzip_compress("")).empty());
}

TEST_CASE("gunzip refuses plaintext, foreign flags, truncation and bad trailers", "[gzip]") {
  const std::string gz = codec::gzip_compress(std::string(5000, 'x') + "tail");
  CHECK_THROWS_AS(codec::gunzip("{\"schema_version\":5}"), Error);
  std::string flagged = gz;
  flagged[3] = 0x08;  // FNAME
  CHECK_THROWS_WITH(codec::gunzip(flagged), Catch::Contains("flag"));
  CHECK_THROWS_WITH(codec::gunzip(gz.substr(0, gz.size() - 3)), Catch::Contains("truncated"));
  CHECK_THROWS_WITH(codec::gunzip(gz.substr(0, 14)), Catch::Contains("truncated"));
  std::string badcrc = gz;
  badcrc[badcrc.size() - 6] ^= 0x55;
  CHECK_THROWS_WITH(codec::gunzip(badcrc), Catch::Contains("CRC"));
  CHECK_THROWS_WITH(codec::gunzip(gz + "x"), Catch::Contains("after"));
}
