// Blob REST calls (docs/formats.md#azure-backend) with the retry policy of docs/azure.md.

#include "benchhist/azure/blob_client.hpp"

#include <ctime>
#include <random>

#include "benchhist/azure/responses.hpp"
#include "benchhist/error.hpp"

namespace benchhist::azure {

namespace {

std::string rfc1123(std::chrono::system_clock::time_point t) {
  std::time_t tt = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

}  // namespace

std::string BlobReply::describe() const {
  std::string d = "HTTP " + std::to_string(status);
  if (!error_code.empty()) d += " " + error_code;
  if (!error_detail.empty()) d += ": " + error_detail;
  return d;
}

std::string access_hint(const BlobReply& reply) {
  const std::string& code = reply.error_code;
  if (code == "AuthenticationFailed" || code == "InvalidAuthenticationInfo" || code == "NoAuthenticationInformation")
    return "the storage service did not accept the access token: check that this machine's clock is right (an expired "
           "token), that the token is for https://storage.azure.com/ and from the storage account's tenant "
           "(AZURE_TENANT_ID, docs/azure.md)";
  return "grant the identity the \"Storage Blob Data Contributor\" role on the storage account or container";
}

BlobClient::BlobClient(std::string account_url, std::string container, std::shared_ptr<TokenCache> tokens,
                       std::shared_ptr<https::HttpClient> http, https::RetryPolicy retry, BlobClientOptions options)
    : account_url_(std::move(account_url)),
      container_(std::move(container)),
      tokens_(std::move(tokens)),
      http_(std::move(http)),
      retry_(std::move(retry)),
      options_(std::move(options)) {
  while (!account_url_.empty() && account_url_.back() == '/') account_url_.pop_back();
  container_url_ = account_url_ + "/" + https::url_encode(container_);
  if (!http_) http_ = https::make_http_client();
}

std::string BlobClient::blob_url(std::string_view key) const {
  std::string url = container_url_;
  std::size_t start = 0;
  while (true) {
    auto end = key.find('/', start);
    url += '/';
    url += https::url_encode(key.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return url;
}

BlobReply BlobClient::execute(const std::string& method, const std::string& url, https::HeaderList headers,
                              std::string_view body) {
  thread_local std::mt19937_64 rng(std::random_device{}());
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  auto now = [&] { return options_.now ? options_.now() : std::chrono::system_clock::now(); };
  const int max_attempts = std::max(1, retry_.max_attempts);
  BlobReply reply;
  std::string last;
  for (int attempt = 1;; ++attempt) {
    reply.attempts = attempt;
    std::optional<std::chrono::milliseconds> retry_after;
    // Token first: a renewal (token near expiry) happens transparently here.
    std::string token = tokens_->token(kStorageScope);
    https::HttpRequest req;
    req.method = method;
    req.url = url;
    req.headers = headers;
    req.headers.emplace_back("Authorization", "Bearer " + token);
    req.headers.emplace_back("x-ms-version", std::string(kBlobApiVersion));
    req.headers.emplace_back("x-ms-date", rfc1123(now()));
    req.body = std::string(body);
    try {
      https::HttpResponse r = http_->send(req);
      if (r.resent) reply.maybe_applied_before = true;
      reply.status = r.status;
      reply.error_code = r.header("x-ms-error-code").value_or("");
      if (reply.error_code.empty() && r.status >= 400) reply.error_code = parse_error_code(r.body);
      reply.error_detail = r.status == 401 || r.status == 403 ? parse_authentication_detail(r.body) : std::string();
      reply.body = std::move(r.body);
      reply.headers = std::move(r.headers);
      if (!https::is_transient_status(r.status)) return reply;
      last = reply.describe();
      for (const auto& [name, value] : reply.headers)
        if (https::iequals(name, "Retry-After")) retry_after = https::parse_retry_after(value, now());
      if (r.status >= 500) reply.maybe_applied_before = true;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::network) throw;
      // The request may have reached the service before the connection failed.
      reply.maybe_applied_before = true;
      last = e.what();
    }
    if (attempt >= max_attempts)
      throw Error(ErrorKind::network, "gave up after " + std::to_string(attempt) + " attempts", "", last,
                  "the storage service did not answer: check `endpoint` and `account` in [storage.azure] of the "
                  "configuration file, or try again later if the service or the network is down");
    retry_.wait(retry_.delay_after(attempt, retry_after, unit(rng)));
  }
}

BlobReply BlobClient::create_container() {
  auto reply = execute("PUT", container_url_ + "?restype=container", {}, {});
  if (reply.status == 409 && reply.error_code == "ContainerAlreadyExists") {
    reply.status = 201;  // someone else created it first: fine
    reply.error_code.clear();
  }
  return reply;
}

BlobReply BlobClient::put_block_blob(std::string_view key, std::string_view gzip_body, bool if_none_match) {
  https::HeaderList headers = {{"x-ms-blob-type", "BlockBlob"},
                        {"Content-Type", "application/json"},
                        {"Content-Encoding", "gzip"},
                        {"x-ms-blob-content-type", "application/json"},
                        {"x-ms-blob-content-encoding", "gzip"}};
  if (if_none_match) headers.emplace_back("If-None-Match", "*");
  const std::string url = blob_url(key);
  auto reply = execute("PUT", url, headers, gzip_body);
  if (reply.status == 404 && reply.error_code == "ContainerNotFound") {
    auto created = create_container();
    if (!created.ok()) {
      created.container_creation_failed = true;
      return created;
    }
    bool before = reply.maybe_applied_before;
    int attempts = reply.attempts;
    reply = execute("PUT", url, headers, gzip_body);
    reply.maybe_applied_before = reply.maybe_applied_before || before;
    reply.attempts += attempts;
  }
  return reply;
}

BlobReply BlobClient::get_blob(std::string_view key) { return execute("GET", blob_url(key), {}, {}); }

BlobReply BlobClient::delete_blob(std::string_view key) { return execute("DELETE", blob_url(key), {}, {}); }

std::optional<std::vector<std::string>> BlobClient::list_blobs(std::string_view prefix) {
  std::vector<std::string> names;
  std::string marker;
  do {
    std::string url = container_url_ + "?restype=container&comp=list&prefix=" + https::url_encode(prefix);
    if (options_.list_page_size) url += "&maxresults=" + std::to_string(options_.list_page_size);
    if (!marker.empty()) url += "&marker=" + https::url_encode(marker);  // opaque: passed back verbatim
    auto reply = execute("GET", url, {}, {});
    if (reply.status == 404 && reply.error_code == "ContainerNotFound") return std::nullopt;
    if (!reply.ok())
    {
      const bool refused = reply.status == 401 || reply.status == 403;
      throw Error(refused ? ErrorKind::auth : ErrorKind::network, reply.describe(), container_, {},
                  refused ? access_hint(reply) : std::string());
    }
    auto page = parse_list_blobs_page(reply.body, container_);
    names.insert(names.end(), std::make_move_iterator(page.names.begin()), std::make_move_iterator(page.names.end()));
    marker = std::move(page.next_marker);
  } while (!marker.empty());
  return names;
}

}  // namespace benchhist::azure
