// decode_blessing under each of its three key forms (docs/formats.md#blessing-records): a decoded
// blessing re-encodes and decodes to itself under the same key, or the error names the key.

#include "benchhist/codec/blessing_json.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  static constexpr std::string_view keys[] = {
      "v1/p/objects/blessings/0123abcd/bless-1787306400000000000.json",  // project-level: scope required
      "v1/p/objects/criterion/t/m/0123abcd/bless-1787306400.json",       // legacy sidecar
      "somewhere/else.json",                                             // any other key
  };
  const std::string_view key = keys[data[0] % 3];
  const auto text = fuzz::as_view(data + 1, size - 1);
  benchhist::Blessing b;
  try {
    b = benchhist::codec::decode_blessing(text, key);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::decode, "decode_blessing failed with a kind other than decode",
                e.what());
    fuzz::check_names(e, key);
    return 0;
  }
  std::string encoded;
  try {
    encoded = benchhist::codec::encode_blessing(b);
  } catch (const benchhist::Error& e) {
    fuzz::fail("a decoded blessing cannot be encoded", e.what());
  }
  benchhist::Blessing back;
  try {
    back = benchhist::codec::decode_blessing(encoded, key);
  } catch (const benchhist::Error& e) {
    fuzz::fail("the encoding of a decoded blessing does not decode", std::string(e.what()) + "\n" + encoded);
  }
  back.schema_version = b.schema_version;
  fuzz::check(back == b, "decode_blessing(encode_blessing(b)) != b", encoded);
  fuzz::check(benchhist::codec::encode_blessing(back) == encoded, "encode_blessing is not stable", encoded);
  return 0;
}
