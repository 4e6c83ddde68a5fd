#pragma once
// A minimal HTTP/1.1 client shared by the Azure backend and Entra ID credentials (azure/) and
// the GitHub REST API (publish/). The implementation (Boost.Beast + OpenSSL) lives in
// lib/https/client.cpp so that no widely included header pulls in Beast/Asio.
//
// TLS is always verified: the peer chain against the system trust store (OpenSSL's default
// paths, so SSL_CERT_FILE / SSL_CERT_DIR are honoured) plus an optional extra CA file, and
// the certificate's name or IP address against the URL's host. There is deliberately no
// switch to turn this off.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace benchhist::https {

// An absolute http(s) URL split into what a connection and a request line need.
struct Url {
  std::string scheme;  // "http" or "https" (lower case)
  std::string host;    // without brackets for IPv6 literals
  std::uint16_t port = 0;
  std::string target;  // path + query, always starting with '/'

  // Throws Error{usage} naming the text when it is not an absolute http(s) URL.
  static Url parse(std::string_view text);
  // scheme://host[:port] (the port only when not the scheme's default).
  std::string origin() const;
};

using HeaderList = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "GET";
  std::string url;  // absolute
  HeaderList headers;
  std::string body;
};

struct HttpResponse {
  int status = 0;
  std::string reason;
  HeaderList headers;
  std::string body;
  // True when a pooled connection failed silently (no response byte) and the request was
  // sent again on a fresh one: the first copy may have been processed by the server.
  bool resent = false;

  // First header with this name (case-insensitive).
  std::optional<std::string> header(std::string_view name) const;
};

struct HttpClientOptions {
  std::size_t max_in_flight = 16;         // requests on the wire at once (others wait)
  std::size_t max_idle_per_origin = 16;   // keep-alive connections kept for reuse
  std::chrono::milliseconds connect_timeout{10'000};
  std::chrono::milliseconds request_timeout{60'000};  // write + read of one exchange
  // Idle pooled connections older than this are closed instead of reused: servers close idle
  // keep-alive connections (Node/Azurite after 5 s), and a request racing that close cannot
  // tell whether it was processed.
  std::chrono::milliseconds idle_timeout{4'000};
  // A PEM file of CA certificates trusted in addition to the system store (a private CA of a
  // GitHub Enterprise Server, or a test's self-signed loopback certificate). Empty = none.
  // An unreadable or invalid file fails make_http_client with Error{config}.
  std::string extra_ca_file;
};

// Thread-safe: any number of threads may call send() at once.
class HttpClient {
 public:
  virtual ~HttpClient() = default;
  // One exchange. Any HTTP status is a response (the caller interprets it); a failure to
  // connect, verify TLS, send or receive (including a timeout) throws Error{network} whose
  // message names the origin and path (never the query string or headers, which may carry
  // credentials). A certificate that fails verification throws Error{config} instead: it is
  // not transient, so it is never retried. Error{usage} when request.url is not an http(s) URL.
  virtual HttpResponse send(const HttpRequest& request) = 0;
};

// Throws Error{config} (subject = the file) when options.extra_ca_file cannot be loaded.
std::shared_ptr<HttpClient> make_http_client(HttpClientOptions options = {});

// Percent-encodes everything except RFC 3986 unreserved characters.
std::string url_encode(std::string_view text);
// Case-insensitive ASCII equality, for header names.
bool iequals(std::string_view a, std::string_view b) noexcept;

}  // namespace benchhist::https
