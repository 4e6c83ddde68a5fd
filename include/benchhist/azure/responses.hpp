#pragma once
// Decoding what the Azure services answer (docs/formats.md#azure-backend): List Blobs pages and
// error bodies of the Blob service, and the JSON of the token endpoints (Entra ID v2 token
// exchange, managed identity / IMDS). Bytes from the network may be truncated or mangled by a
// proxy, so decoding is strict where a wrong answer would lose data silently (a listing) and
// conservative where the value only decorates a message (an error code).

#include <chrono>
#include <string>
#include <string_view>
#include <vector>

#include "benchhist/azure/credential.hpp"

namespace benchhist::azure {

// One EnumerationResults page of List Blobs.
struct BlobListPage {
  std::vector<std::string> names;  // in page order, XML entities and Encoded="true" decoded
  std::string next_marker;         // empty on the last page
  friend bool operator==(const BlobListPage&, const BlobListPage&) = default;
};

// Throws Error{network} "the blob listing of <subject> is malformed" (subject = `subject`,
// cause = the defect) when the body is not one whole `<EnumerationResults …>…
// </EnumerationResults>` document (a truncated or foreign page would silently drop names),
// or a name holds a bad character reference or percent escape.
BlobListPage parse_list_blobs_page(std::string_view body, std::string_view subject);

// The `<Code>` of a Blob service error body, or "" when there is none or it is not a plain
// code (printable ASCII without spaces, at most 128 characters): it only decorates messages,
// so a mangled body never fails the request and never puts control bytes into a message.
std::string parse_error_code(std::string_view body);

// The `<AuthenticationErrorDetail>` of an error body (why Entra ID refused the token, e.g.
// "Lifetime validation failed. The token is expired."), or "" when there is none: its first
// line, cut at 300 characters, "" unless printable ASCII; entities left as written (it only
// decorates a message).
std::string parse_authentication_detail(std::string_view body);

// `access_token` + `expires_in` (seconds from `now`) or `expires_on` (Unix seconds; the
// managed identity spelling, number or numeric string). An absent, non-integral or implausible
// lifetime (expires_in outside 0..10 years, expires_on outside 1970..2255, where the
// nanosecond system clock still holds it) means "unknown":
// `now` + 10 minutes. Throws Error{auth} (subject = `subject`): `<what> returned a response
// that is not a JSON object`, `<what> returned no access token`, or `<what> returned a malformed
// access token` for one with bytes outside visible ASCII (it goes into an HTTP header).
AccessToken parse_token_response(std::string_view body, std::chrono::system_clock::time_point now,
                                 std::string_view what, std::string_view subject);

// Safe one-line detail of a token endpoint's refusal: `HTTP <status>` plus Entra's `error` and
// first line of `error_description` (which never echo secrets), control bytes replaced by
// `?` and the description cut at 300 bytes.
std::string token_rejection_detail(int status, std::string_view body);

}  // namespace benchhist::azure
