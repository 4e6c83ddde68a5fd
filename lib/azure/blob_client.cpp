// Blob REST calls (formats.md §1.6) with the retry policy of docs/azure.md.

#include "benchhist/azure/blob_client.hpp"

#include <ctime>
#include <random>

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

std::string xml_text(std::string_view body, std::string_view tag) {
  std::string open = "<" + std::string(tag) + ">", close = "</" + std::string(tag) + ">";
  auto a = body.find(open);
  if (a == std::string_view::npos) return {};
  a += open.size();
  auto b = body.find(close, a);
  if (b == std::string_view::npos) return {};
  return std::string(body.substr(a, b - a));
}

std::string xml_unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '&') {
      out.push_back(s[i]);
      continue;
    }
    auto semi = s.find(';', i);
    if (semi == std::string_view::npos) {
      out.push_back(s[i]);
      continue;
    }
    auto ent = s.substr(i + 1, semi - i - 1);
    if (ent == "amp") out += '&';
    else if (ent == "lt") out += '<';
    else if (ent == "gt") out += '>';
    else if (ent == "quot") out += '"';
    else if (ent == "apos") out += '\'';
    else if (!ent.empty() && ent[0] == '#') {
      unsigned long cp = ent.size() > 1 && (ent[1] == 'x' || ent[1] == 'X')
                             ? std::stoul(std::string(ent.substr(2)), nullptr, 16)
                             : std::stoul(std::string(ent.substr(1)), nullptr, 10);
      if (cp < 0x80) out += static_cast<char>(cp);
      else if (cp < 0x800) { out += static_cast<char>(0xC0 | (cp >> 6)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
      else if (cp < 0x10000) { out += static_cast<char>(0xE0 | (cp >> 12)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
      else { out += static_cast<char>(0xF0 | (cp >> 18)); out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F)); out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F)); out += static_cast<char>(0x80 | (cp & 0x3F)); }
    } else {
      out.append(s.substr(i, semi - i + 1));
    }
    i = semi;
  }
  return out;
}

std::string percent_decode(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      out += static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// <Blob><Name [Encoded="true"]>...</Name>...</Blob> in an EnumerationResults page.
void parse_blob_names(std::string_view body, std::vector<std::string>& out) {
  std::size_t pos = 0;
  while ((pos = body.find("<Blob>", pos)) != std::string_view::npos) {
    auto end = body.find("</Blob>", pos);
    if (end == std::string_view::npos) break;
    auto blob = body.substr(pos, end - pos);
    pos = end;
    auto n = blob.find("<Name");
    if (n == std::string_view::npos) continue;
    auto gt = blob.find('>', n);
    auto close = blob.find("</Name>", gt);
    if (gt == std::string_view::npos || close == std::string_view::npos) continue;
    bool encoded = blob.substr(n, gt - n).find("Encoded=\"true\"") != std::string_view::npos;
    std::string name = xml_unescape(blob.substr(gt + 1, close - gt - 1));
    out.push_back(encoded ? percent_decode(name) : name);
  }
}

std::string next_marker(std::string_view body) { return xml_unescape(xml_text(body, "NextMarker")); }

}  // namespace

std::string BlobReply::describe() const {
  std::string d = "HTTP " + std::to_string(status);
  if (!error_code.empty()) d += " " + error_code;
  return d;
}

BlobClient::BlobClient(std::string account_url, std::string container, std::shared_ptr<TokenCache> tokens,
                       std::shared_ptr<HttpClient> http, RetryPolicy retry, BlobClientOptions options)
    : account_url_(std::move(account_url)),
      container_(std::move(container)),
      tokens_(std::move(tokens)),
      http_(std::move(http)),
      retry_(std::move(retry)),
      options_(std::move(options)) {
  while (!account_url_.empty() && account_url_.back() == '/') account_url_.pop_back();
  container_url_ = account_url_ + "/" + url_encode(container_);
  if (!http_) http_ = make_http_client();
}

std::string BlobClient::blob_url(std::string_view key) const {
  std::string url = container_url_;
  std::size_t start = 0;
  while (true) {
    auto end = key.find('/', start);
    url += '/';
    url += url_encode(key.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return url;
}

BlobReply BlobClient::execute(const std::string& method, const std::string& url, HeaderList headers,
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
    HttpRequest req;
    req.method = method;
    req.url = url;
    req.headers = headers;
    req.headers.emplace_back("Authorization", "Bearer " + token);
    req.headers.emplace_back("x-ms-version", std::string(kBlobApiVersion));
    req.headers.emplace_back("x-ms-date", rfc1123(now()));
    req.body = std::string(body);
    try {
      HttpResponse r = http_->send(req);
      if (r.resent) reply.maybe_applied_before = true;
      reply.status = r.status;
      reply.error_code = r.header("x-ms-error-code").value_or("");
      if (reply.error_code.empty() && r.status >= 400) reply.error_code = xml_text(r.body, "Code");
      reply.body = std::move(r.body);
      reply.headers = std::move(r.headers);
      if (!is_transient_status(r.status)) return reply;
      last = reply.describe();
      for (const auto& [name, value] : reply.headers)
        if (iequals(name, "Retry-After")) retry_after = parse_retry_after(value, now());
      if (r.status >= 500) reply.maybe_applied_before = true;
    } catch (const Error& e) {
      if (e.kind() != ErrorKind::network) throw;
      // The request may have reached the service before the connection failed.
      reply.maybe_applied_before = true;
      last = e.what();
    }
    if (attempt >= max_attempts)
      throw Error(ErrorKind::network, "gave up after " + std::to_string(attempt) + " attempts", "", last,
                  "the storage service or network is failing; try again later");
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
  HeaderList headers = {{"x-ms-blob-type", "BlockBlob"},
                        {"Content-Type", "application/json"},
                        {"Content-Encoding", "gzip"},
                        {"x-ms-blob-content-type", "application/json"},
                        {"x-ms-blob-content-encoding", "gzip"}};
  if (if_none_match) headers.emplace_back("If-None-Match", "*");
  const std::string url = blob_url(key);
  auto reply = execute("PUT", url, headers, gzip_body);
  if (reply.status == 404 && reply.error_code == "ContainerNotFound") {
    auto created = create_container();
    if (!created.ok())
      throw Error(created.status == 401 || created.status == 403 ? ErrorKind::auth : ErrorKind::network,
                  "could not create Azure blob container", container_, created.describe(),
                  "check that the identity may create containers, or create \"" + container_ + "\" yourself");
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

std::vector<std::string> BlobClient::list_blobs(std::string_view prefix) {
  std::vector<std::string> names;
  std::string marker;
  do {
    std::string url = container_url_ + "?restype=container&comp=list&prefix=" + url_encode(prefix);
    if (options_.list_page_size) url += "&maxresults=" + std::to_string(options_.list_page_size);
    if (!marker.empty()) url += "&marker=" + url_encode(marker);  // opaque: passed back verbatim
    auto reply = execute("GET", url, {}, {});
    if (reply.status == 404 && reply.error_code == "ContainerNotFound") return {};
    if (!reply.ok())
      throw Error(reply.status == 401 || reply.status == 403 ? ErrorKind::auth : ErrorKind::network,
                  reply.describe(), container_);
    parse_blob_names(reply.body, names);
    marker = next_marker(reply.body);
  } while (!marker.empty());
  return names;
}

}  // namespace benchhist::azure
