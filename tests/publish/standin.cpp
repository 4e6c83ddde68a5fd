#include "standin.hpp"

#include <chrono>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <stdexcept>

#include "common/loopback_service.hpp"

namespace bhtest {

using namespace std::chrono_literals;

GitHubStandIn::GitHubStandIn() {
  char tmpl[] = "/tmp/bh-github-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  dir_ = tmpl;
  auto certs = make_loopback_certificate(dir_);
  cert_ = certs.cert;
  const auto script = std::filesystem::path(BH_SOURCE_DIR) / "tests/publish/github_standin.js";
  auto svc = start_service({"node", script.string(), certs.cert.string(), certs.key.string(), token}, dir_ / "standin.log");
  pid_ = svc.pid;
  port_ = svc.port;
  benchhist::https::HttpClientOptions o;
  o.extra_ca_file = cert_.string();
  control_http_ = benchhist::https::make_http_client(o);
}

GitHubStandIn::~GitHubStandIn() {
  ServiceProcess s{pid_, port_};
  stop_service(s);
  std::error_code ec;
  if (!std::getenv("BH_KEEP_GITHUB_TMP")) std::filesystem::remove_all(dir_, ec);
}

std::string GitHubStandIn::api_url() const { return "https://127.0.0.1:" + std::to_string(port_); }

benchhist::probe::MapEnvironment GitHubStandIn::env() const {
  benchhist::probe::MapEnvironment e;
  e.set("GITHUB_API_URL", api_url());
  e.set("GITHUB_REPOSITORY", repository);
  e.set("GITHUB_TOKEN", token);
  return e;
}

std::shared_ptr<benchhist::https::HttpClient> GitHubStandIn::http(std::chrono::milliseconds timeout) const {
  benchhist::https::HttpClientOptions o;
  o.extra_ca_file = cert_.string();
  o.request_timeout = timeout;
  o.connect_timeout = timeout;
  return benchhist::https::make_http_client(o);
}

benchhist::publish::GitHubClient GitHubStandIn::client(int attempts) const {
  benchhist::publish::GitHubClientOptions o;
  o.retry.max_attempts = attempts;
  o.retry.initial_delay = 5ms;
  o.retry.max_delay = 50ms;
  o.retry.sleep = [](std::chrono::milliseconds d) { std::this_thread::sleep_for(std::min(d, 50ms)); };
  return benchhist::publish::GitHubClient(benchhist::publish::GitHubTarget::from_environment(env()), http(), o);
}

std::string GitHubStandIn::control(const std::string& method, const std::string& path, const std::string& body) const {
  benchhist::https::HttpRequest req;
  req.method = method;
  req.url = api_url() + path;
  req.body = body;
  if (!body.empty()) req.headers = {{"Content-Type", "application/json"}};
  auto r = control_http_->send(req);
  if (r.status != 200) throw std::runtime_error("stand-in control " + path + " answered " + std::to_string(r.status));
  return r.body;
}

void GitHubStandIn::reset() const { control("POST", "/__control/reset", "{}"); }
boost::json::value GitHubStandIn::seed(const std::string& json) const {
  return boost::json::parse(control("POST", "/__control/seed", json));
}
void GitHubStandIn::faults(const std::string& json) const { control("POST", "/__control/faults", json); }
void GitHubStandIn::configure(const std::string& json) const { control("POST", "/__control/config", json); }
boost::json::value GitHubStandIn::state() const { return boost::json::parse(control("GET", "/__control/state", "")); }
boost::json::array GitHubStandIn::requests() const {
  return boost::json::parse(control("GET", "/__control/requests", "")).as_array();
}

GitHubStandIn& standin() {
  static std::unique_ptr<GitHubStandIn> instance;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      instance = std::make_unique<GitHubStandIn>();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  if (!instance) throw std::runtime_error(failure);
  return *instance;
}

}  // namespace bhtest
