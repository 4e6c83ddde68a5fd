#pragma once
// The GitHub REST stand-in of github_standin.js, started once per test process on a free
// loopback port with a fresh self-signed certificate, plus its control calls.

#include <boost/json.hpp>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "benchhist/https/client.hpp"
#include "benchhist/probe/environment.hpp"
#include "benchhist/publish/github_client.hpp"

namespace bhtest {

class GitHubStandIn {
 public:
  static constexpr const char* token = "ghs_standinTOKEN_4f1d2c9a7e";
  static constexpr const char* repository = "octo-org/octo-repo";

  GitHubStandIn();
  ~GitHubStandIn();
  GitHubStandIn(const GitHubStandIn&) = delete;
  GitHubStandIn& operator=(const GitHubStandIn&) = delete;

  std::string api_url() const;                  // https://127.0.0.1:<port>
  const std::filesystem::path& cert() const { return cert_; }
  const std::filesystem::path& dir() const { return dir_; }

  // The variables publish reads (GITHUB_API_URL, GITHUB_REPOSITORY, GITHUB_TOKEN).
  benchhist::probe::MapEnvironment env() const;
  // A client that trusts the stand-in's certificate, with short timeouts and fast retries.
  benchhist::publish::GitHubClient client(int attempts = 4) const;
  std::shared_ptr<benchhist::https::HttpClient> http(std::chrono::milliseconds timeout = std::chrono::milliseconds(1500)) const;

  void reset() const;
  boost::json::value seed(const std::string& json) const;
  void faults(const std::string& json) const;
  void configure(const std::string& json) const;
  boost::json::value state() const;
  boost::json::array requests() const;

 private:
  std::string control(const std::string& method, const std::string& path, const std::string& body) const;

  std::filesystem::path dir_, cert_;
  int pid_ = -1;
  std::uint16_t port_ = 0;
  std::shared_ptr<benchhist::https::HttpClient> control_http_;
};

// The one stand-in of this test process (started on first use; a failure to start is a test
// failure naming its log, never a skip).
GitHubStandIn& standin();

}  // namespace bhtest
