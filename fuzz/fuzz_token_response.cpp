// Token-endpoint JSON: the Entra ID v2 token exchange (`expires_in`) and managed identity /
// IMDS (`expires_on`, often a numeric string). parse_token_response either yields a token of
// visible ASCII with a representable expiry that, written back as JSON, parses to the same
// token, or throws Error{auth} naming the endpoint; the refusal detail is one bounded line.

#include <boost/json.hpp>

#include "benchhist/azure/responses.hpp"
#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace std::chrono;
  const auto body = fuzz::as_view(data, size);
  const system_clock::time_point now{seconds(1787306400)};
  const std::string endpoint = "https://login.example/tenant/oauth2/v2.0/token";

  const std::string detail = benchhist::azure::token_rejection_detail(400, body);
  fuzz::check(detail.starts_with("HTTP 400") && detail.size() < 440, "rejection detail unbounded", detail);
  for (char c : detail)
    fuzz::check(static_cast<unsigned char>(c) >= 0x20 && c != 0x7f, "rejection detail holds a control byte", detail);

  benchhist::azure::AccessToken token;
  try {
    token = benchhist::azure::parse_token_response(body, now, "the token request", endpoint);
  } catch (const benchhist::Error& e) {
    fuzz::check(e.kind() == benchhist::ErrorKind::auth, "token parse failed with a kind other than auth", e.what());
    fuzz::check_names(e, endpoint);
    return 0;
  }
  fuzz::check(!token.token.empty(), "an empty token was accepted");
  for (char c : token.token) fuzz::check(c > ' ' && c <= '~', "a token with a byte outside visible ASCII");
  const auto expiry = duration_cast<seconds>(token.expires_on.time_since_epoch()).count();
  fuzz::check(expiry >= 0 && expiry <= 9000000000LL, "an expiry outside 1970..2255 (the clock ends in 2262)");
  boost::json::object o;
  o["access_token"] = token.token;
  o["expires_on"] = std::to_string(expiry);  // the IMDS spelling
  const std::string text = boost::json::serialize(o);
  const auto back = benchhist::azure::parse_token_response(text, now, "the token request", endpoint);
  fuzz::check(back.token == token.token && back.expires_on == token.expires_on,
              "a parsed token written back parses differently", text);
  return 0;
}
