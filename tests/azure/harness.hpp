#pragma once
// Per-run test environment for the Azure suite: a private HTTPS Azurite (pinned 3.35.0,
// `--oauth basic`) on a free loopback port with a certificate generated for 127.0.0.1, the
// token server and the fault proxy of fixtures.js. Started on first use, stopped at exit.
// Missing Azurite is a hard failure (never a skip): run `npm install --prefix tests/azure`.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <sys/types.h>

#include "benchhist/azure/azure_blob_store.hpp"
#include "benchhist/https/client.hpp"
#include "benchhist/probe/environment.hpp"

namespace bhtest {

struct Harness {
  std::filesystem::path dir;   // private temp dir (cert, Azurite workspace, scratch)
  std::filesystem::path cert, key;
  std::uint16_t azurite_port = 0, token_port = 0, proxy_port = 0;
  std::shared_ptr<benchhist::https::HttpClient> control_http;

  Harness();
  ~Harness();
  Harness(const Harness&) = delete;
  Harness& operator=(const Harness&) = delete;

  std::string endpoint() const;        // https://127.0.0.1:<azurite>/devstoreaccount1
  std::string proxy_endpoint() const;  // the same account through the fault proxy
  std::string token_origin() const;    // https://127.0.0.1:<token>

  // GitHub OIDC variables pointing at the token server.
  benchhist::probe::MapEnvironment oidc_env() const;
  // POST /__control/config with a JSON object to a fixture (token server or proxy).
  std::string configure(std::uint16_t port, const std::string& json) const;
  std::string stats(std::uint16_t port) const;
  void reset(std::uint16_t port) const;

 private:
  pid_t azurite_ = -1, token_ = -1, proxy_ = -1;
};

// Throws (never skips) with the setup instruction when `azurite_blob` does not exist.
void require_azurite(const std::filesystem::path& azurite_blob);

// The shared harness; throws with setup instructions when Azurite is not installed.
Harness& harness();

// A fresh, unique container name.
std::string unique_container(const std::string& stem);
// A fresh scratch directory under the harness dir.
std::filesystem::path scratch_dir(const std::string& stem);

// Store against Azurite (or the proxy) with the OIDC credential from `env` (default: oidc_env()).
std::unique_ptr<benchhist::azure::AzureBlobStore> make_store(
    const std::string& container, const std::string& project = "proj", bool through_proxy = false,
    benchhist::https::RetryPolicy retry = {}, benchhist::azure::AzureStoreOptions options = {});

// Integer field of a flat JSON object such as the stats replies.
long long json_int(const std::string& json, const std::string& field);

// Runs fn(i) for i in [0, n) on `threads` threads; rethrows the first exception.
void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn);

// A retry policy whose waits are tiny, so fault tests stay fast; records requested delays.
benchhist::https::RetryPolicy fast_retry(int attempts, std::shared_ptr<std::vector<long long>> waits = nullptr);

}  // namespace bhtest
