// decode_run: a stored run record (docs/formats.md#run-record, #read-compatibility, #metric-kinds)
// either decodes to a value whose encoding decodes back to it (and re-encodes byte-identically), or
// fails naming its key.

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  constexpr std::string_view key = "v1/p/objects/criterion/t/m/c/clean.json";
  benchhist::Run run;
  try {
    run = benchhist::codec::decode_run(fuzz::as_view(data, size), key);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::decode, "decode_run failed with a kind other than decode", e.what());
    fuzz::check_names(e, key);
    return 0;
  }
  const std::string encoded = benchhist::codec::encode_run(run);
  benchhist::Run back;
  try {
    back = benchhist::codec::decode_run(encoded, key);
  } catch (const benchhist::Error& e) {
    fuzz::fail("the encoding of a decoded run does not decode", std::string(e.what()) + "\n" + encoded);
  }
  // encode_run always writes the current schema_version; everything else must survive.
  back.schema_version = run.schema_version;
  fuzz::check(back == run, "decode_run(encode_run(r)) != r", encoded);
  fuzz::check(benchhist::codec::encode_run(back) == encoded, "encode_run is not stable", encoded);
  return 0;
}
