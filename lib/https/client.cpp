// The only Beast/Asio translation unit of the library: a pooled, bounded, TLS-verifying
// HTTP/1.1 client. Each connection owns a private io_context so the calling thread drives
// its own exchange with timeouts (async ops + run()), which keeps the client usable from
// any number of caller threads without a shared event loop.

#include "benchhist/https/client.hpp"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <charconv>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

#include "benchhist/error.hpp"

namespace benchhist::https {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = boost::beast::http;
namespace ssl = boost::asio::ssl;
using tcp = asio::ip::tcp;

bool iequals(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto la = static_cast<unsigned char>(a[i]), lb = static_cast<unsigned char>(b[i]);
    if (la >= 'A' && la <= 'Z') la = static_cast<unsigned char>(la + 32);
    if (lb >= 'A' && lb <= 'Z') lb = static_cast<unsigned char>(lb + 32);
    if (la != lb) return false;
  }
  return true;
}

std::string url_encode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    bool unreserved = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                      c == '-' || c == '_' || c == '.' || c == '~';
    if (unreserved) {
      out.push_back(static_cast<char>(c));
    } else {
      out.push_back('%');
      out.push_back(kHex[c >> 4]);
      out.push_back(kHex[c & 15]);
    }
  }
  return out;
}

std::optional<std::string> HttpResponse::header(std::string_view name) const {
  for (const auto& [k, v] : headers)
    if (iequals(k, name)) return v;
  return std::nullopt;
}

Url Url::parse(std::string_view text) {
  auto bad = [&](const char* why) {
    return Error(ErrorKind::usage, "invalid URL \"" + std::string(text) + "\"", std::string(text), why);
  };
  Url u;
  auto sep = text.find("://");
  if (sep == std::string_view::npos) throw bad("missing scheme");
  for (char c : text.substr(0, sep)) u.scheme.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c + 32 : c));
  if (u.scheme != "http" && u.scheme != "https") throw bad("scheme must be http or https");
  auto rest = text.substr(sep + 3);
  auto path_at = rest.find_first_of("/?#");
  auto authority = rest.substr(0, path_at);
  std::string_view tail = path_at == std::string_view::npos ? std::string_view{} : rest.substr(path_at);
  if (auto hash = tail.find('#'); hash != std::string_view::npos) tail = tail.substr(0, hash);
  if (authority.find('@') != std::string_view::npos) throw bad("user information is not supported");
  std::string_view host = authority, port;
  if (!authority.empty() && authority.front() == '[') {
    auto close = authority.find(']');
    if (close == std::string_view::npos) throw bad("unterminated IPv6 literal");
    host = authority.substr(1, close - 1);
    auto after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') throw bad("garbage after IPv6 literal");
      port = after.substr(1);
    }
  } else if (auto colon = authority.rfind(':'); colon != std::string_view::npos) {
    host = authority.substr(0, colon);
    port = authority.substr(colon + 1);
  }
  if (host.empty()) throw bad("missing host");
  u.host = std::string(host);
  if (port.empty()) {
    u.port = u.scheme == "https" ? 443 : 80;
  } else {
    unsigned value = 0;
    auto [p, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || p != port.data() + port.size() || value == 0 || value > 65535)
      throw bad("invalid port");
    u.port = static_cast<std::uint16_t>(value);
  }
  u.target = tail.empty() ? "/" : std::string(tail);
  if (u.target.front() == '?') u.target.insert(u.target.begin(), '/');
  return u;
}

std::string Url::origin() const {
  std::string h = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  bool default_port = (scheme == "https" && port == 443) || (scheme == "http" && port == 80);
  return scheme + "://" + h + (default_port ? "" : ":" + std::to_string(port));
}

namespace {

bool is_ip_literal(const std::string& host) {
  boost::system::error_code ec;
  asio::ip::make_address(host, ec);
  return !ec;
}

// One keep-alive connection and the io_context that drives it.
struct Connection {
  asio::io_context ioc;
  bool tls = false;
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer;
  std::chrono::steady_clock::time_point idle_since;

  beast::tcp_stream& lowest() { return tls ? beast::get_lowest_layer(*secure) : *plain; }
};

class BeastHttpClient final : public HttpClient {
 public:
  explicit BeastHttpClient(HttpClientOptions options)
      : options_(options), ssl_ctx_(ssl::context::tls_client) {
    if (options_.max_in_flight == 0) options_.max_in_flight = 1;
    // The system trust store; OpenSSL consults SSL_CERT_FILE / SSL_CERT_DIR here.
    ssl_ctx_.set_default_verify_paths();
    if (!options_.extra_ca_file.empty()) {
      boost::system::error_code ec;
      ssl_ctx_.load_verify_file(options_.extra_ca_file, ec);
      if (ec)
        throw Error(ErrorKind::config, "could not load the CA certificates in " + options_.extra_ca_file,
                    options_.extra_ca_file, describe(ec), "pass a readable PEM file of CA certificates");
    }
    ssl_ctx_.set_verify_mode(ssl::verify_peer);
  }

  HttpResponse send(const HttpRequest& request) override {
    Url url = Url::parse(request.url);
    Slot slot(*this);  // bounds the requests in flight
    const std::string key = url.origin();
    // A pooled connection may have been closed by the server while idle; such a failure
    // before any response byte is retried once on a fresh connection (the request was not
    // processed: servers only close idle connections between requests).
    for (int round = 0;; ++round) {
      std::unique_ptr<Connection> conn = take(key);
      bool reused = conn != nullptr;
      std::string stage;
      try {
        if (!conn) {
          stage = "connect";
          conn = connect(url);
        }
        bool keep_alive = false;
        HttpResponse response = exchange(*conn, url, request, stage, keep_alive);
        response.resent = round > 0;
        if (keep_alive) give_back(key, std::move(conn));
        return response;
      } catch (const boost::system::system_error& e) {
        if (reused && round == 0 && stage != "read-body") continue;
        if (is_verification_failure(e.code()))
          // Deterministic, so not a transient network failure: never retried.
          throw Error(ErrorKind::config,
                      "HTTP " + request.method + " " + url.origin() + path_only(url.target) + " failed",
                      url.origin(), stage + ": " + describe(e.code()),
                      "the server's certificate must chain to a trusted CA (system store, or SSL_CERT_FILE / "
                      "SSL_CERT_DIR) and name the host \"" + url.host + "\"");
        throw Error(ErrorKind::network,
                    "HTTP " + request.method + " " + url.origin() + path_only(url.target) + " failed",
                    url.origin(), stage + ": " + describe(e.code()),
                    "check the network connection and that the endpoint is reachable");
      }
    }
  }

 private:
  struct Slot {
    explicit Slot(BeastHttpClient& c) : client(c) {
      std::unique_lock lock(client.slot_mutex_);
      client.slot_cv_.wait(lock, [&] { return client.in_flight_ < client.options_.max_in_flight; });
      ++client.in_flight_;
    }
    ~Slot() {
      {
        std::lock_guard lock(client.slot_mutex_);
        --client.in_flight_;
      }
      client.slot_cv_.notify_one();
    }
    BeastHttpClient& client;
  };

  static std::string path_only(const std::string& target) {
    return target.substr(0, target.find('?'));
  }

  static bool is_verification_failure(const boost::system::error_code& ec) {
    return ec.category() == asio::error::get_ssl_category() &&
           ERR_GET_REASON(static_cast<unsigned long>(ec.value())) == SSL_R_CERTIFICATE_VERIFY_FAILED;
  }

  static std::string describe(const boost::system::error_code& ec) {
    std::string text = ec.message();
    if (ec.category() == asio::error::get_ssl_category()) {
      // Surface OpenSSL's reason (e.g. "certificate verify failed") rather than a number.
      if (const char* reason = ERR_reason_error_string(static_cast<unsigned long>(ec.value())))
        text = reason;
      text += " (TLS; the certificate must be trusted by the system store or SSL_CERT_FILE/SSL_CERT_DIR "
              "and match the host)";
    }
    if (ec == beast::error::timeout) text = "timed out";
    return text;
  }

  std::unique_ptr<Connection> take(const std::string& key) {
    std::lock_guard lock(pool_mutex_);
    auto it = idle_.find(key);
    if (it == idle_.end()) return nullptr;
    auto& list = it->second;
    const auto now = std::chrono::steady_clock::now();
    // Oldest first in the list: drop the stale ones, reuse the most recently used.
    std::erase_if(list, [&](const std::unique_ptr<Connection>& c) { return now - c->idle_since > options_.idle_timeout; });
    if (list.empty()) return nullptr;
    auto conn = std::move(list.back());
    list.pop_back();
    return conn;
  }

  void give_back(const std::string& key, std::unique_ptr<Connection> conn) {
    std::lock_guard lock(pool_mutex_);
    auto& list = idle_[key];
    conn->idle_since = std::chrono::steady_clock::now();
    if (list.size() < options_.max_idle_per_origin) list.push_back(std::move(conn));
  }

  // Runs the connection's io_context until the started operation completes.
  static void drive(Connection& c) {
    c.ioc.restart();
    c.ioc.run();
  }

  std::unique_ptr<Connection> connect(const Url& url) {
    auto c = std::make_unique<Connection>();
    c->tls = url.scheme == "https";
    tcp::resolver resolver(c->ioc);
    boost::system::error_code ec;
    tcp::resolver::results_type endpoints;
    resolver.async_resolve(url.host, std::to_string(url.port),
                           [&](boost::system::error_code e, tcp::resolver::results_type r) {
                             ec = e;
                             endpoints = std::move(r);
                           });
    drive(*c);
    if (ec) throw boost::system::system_error(ec);
    if (c->tls) {
      c->secure.emplace(c->ioc, ssl_ctx_);
    } else {
      c->plain.emplace(c->ioc);
    }
    auto& low = c->lowest();
    low.expires_after(options_.connect_timeout);
    low.async_connect(endpoints, [&](boost::system::error_code e, const tcp::endpoint&) { ec = e; });
    drive(*c);
    if (ec) throw boost::system::system_error(ec);
    if (c->tls) {
      SSL* ssl_handle = c->secure->native_handle();
      X509_VERIFY_PARAM* param = SSL_get0_param(ssl_handle);
      // Name/IP verification is part of the chain check, so a mismatch fails the handshake.
      if (is_ip_literal(url.host)) {
        X509_VERIFY_PARAM_set1_ip_asc(param, url.host.c_str());
      } else {
        SSL_set_tlsext_host_name(ssl_handle, url.host.c_str());
        X509_VERIFY_PARAM_set_hostflags(param, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
        X509_VERIFY_PARAM_set1_host(param, url.host.c_str(), 0);
      }
      low.expires_after(options_.connect_timeout);
      c->secure->async_handshake(ssl::stream_base::client, [&](boost::system::error_code e) { ec = e; });
      drive(*c);
      if (ec) throw boost::system::system_error(ec);
    }
    return c;
  }

  HttpResponse exchange(Connection& c, const Url& url, const HttpRequest& request, std::string& stage,
                        bool& keep_alive) {
    http::request<http::string_body> req;
    req.method_string(request.method);
    req.target(url.target);
    req.version(11);
    bool default_port = (url.scheme == "https" && url.port == 443) || (url.scheme == "http" && url.port == 80);
    std::string host_header = url.host.find(':') != std::string::npos ? "[" + url.host + "]" : url.host;
    if (!default_port) host_header += ":" + std::to_string(url.port);
    req.set(http::field::host, host_header);
    for (const auto& [k, v] : request.headers) req.insert(k, v);
    req.body() = request.body;
    req.prepare_payload();
    if (request.body.empty() && (request.method == "PUT" || request.method == "POST"))
      req.set(http::field::content_length, "0");
    req.keep_alive(true);

    boost::system::error_code ec;
    c.lowest().expires_after(options_.request_timeout);
    stage = "write";
    auto on_write = [&](boost::system::error_code e, std::size_t) { ec = e; };
    if (c.tls) http::async_write(*c.secure, req, on_write); else http::async_write(*c.plain, req, on_write);
    drive(c);
    if (ec) throw boost::system::system_error(ec);

    stage = "read";
    http::response_parser<http::string_body> parser;
    parser.body_limit(std::uint64_t{1} << 31);
    auto on_read = [&](boost::system::error_code e, std::size_t) { ec = e; };
    if (c.tls) http::async_read(*c.secure, c.buffer, parser, on_read);
    else http::async_read(*c.plain, c.buffer, parser, on_read);
    drive(c);
    if (ec) {
      // Once the header arrived the server has processed the request; never resend then.
      if (parser.is_header_done()) stage = "read-body";
      throw boost::system::system_error(ec);
    }
    auto res = parser.release();
    HttpResponse out;
    out.status = static_cast<int>(res.result_int());
    out.reason = std::string(res.reason());
    for (const auto& field : res) out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    out.body = std::move(res.body());
    keep_alive = res.keep_alive() && !res.need_eof();
    return out;
  }

  HttpClientOptions options_;
  ssl::context ssl_ctx_;
  std::mutex slot_mutex_;
  std::condition_variable slot_cv_;
  std::size_t in_flight_ = 0;
  std::mutex pool_mutex_;
  std::map<std::string, std::vector<std::unique_ptr<Connection>>> idle_;
};

}  // namespace

std::shared_ptr<HttpClient> make_http_client(HttpClientOptions options) {
  return std::make_shared<BeastHttpClient>(options);
}

}  // namespace benchhist::https
