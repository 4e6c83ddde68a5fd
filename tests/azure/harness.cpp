#include "harness.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>
#include <vector>

namespace bhtest {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::uint16_t free_port() {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  getsockname(s, reinterpret_cast<sockaddr*>(&a), &len);
  close(s);
  return ntohs(a.sin_port);
}

bool port_open(std::uint16_t port) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(port);
  bool ok = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  close(s);
  return ok;
}

// fork/exec with stdout to `out_fd` (or the log) and stderr to the log file.
pid_t spawn(const std::vector<std::string>& argv, const fs::path& log, int out_fd) {
  pid_t pid = fork();
  if (pid == 0) {
    // Die with the test process even if it crashes, so no emulator outlives the run.
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    int logfd = open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    int devnull = open("/dev/null", O_RDONLY);
    dup2(devnull, 0);
    dup2(out_fd >= 0 ? out_fd : logfd, 1);
    dup2(logfd, 2);
    std::vector<char*> args;
    for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execvp(args[0], args.data());
    _exit(127);
  }
  return pid;
}

// Starts a fixtures.js mode and waits for its `PORT <n>` line.
pid_t start_fixture(const std::vector<std::string>& argv, const fs::path& log, std::uint16_t& port) {
  int p[2];
  if (pipe(p) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = spawn(argv, log, p[1]);
  close(p[1]);
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (line.find('\n') == std::string::npos) {
    pollfd pfd{p[0], POLLIN, 0};
    if (std::chrono::steady_clock::now() > deadline || poll(&pfd, 1, 200) < 0) break;
    if (pfd.revents & (POLLIN | POLLHUP)) {
      char buf[128];
      ssize_t n = read(p[0], buf, sizeof buf);
      if (n <= 0) break;
      line.append(buf, static_cast<std::size_t>(n));
    }
  }
  // Keep the pipe's read end open (leaked on purpose until exit) so a later write by the
  // child never raises SIGPIPE.
  if (line.rfind("PORT ", 0) != 0)
    throw std::runtime_error("test fixture " + argv[2] + " did not start; see " + log.string());
  port = static_cast<std::uint16_t>(std::stoi(line.substr(5)));
  return pid;
}

void stop(pid_t& pid) {
  if (pid <= 0) return;
  kill(pid, SIGTERM);
  for (int i = 0; i < 50; ++i) {
    if (waitpid(pid, nullptr, WNOHANG) == pid) {
      pid = -1;
      return;
    }
    std::this_thread::sleep_for(50ms);
  }
  kill(pid, SIGKILL);
  waitpid(pid, nullptr, 0);
  pid = -1;
}

benchhist::https::HttpResponse control_request(benchhist::https::HttpClient& http, const std::string& method,
                                               const std::string& url, const std::string& body) {
  benchhist::https::HttpRequest req;
  req.method = method;
  req.url = url;
  req.body = body;
  if (!body.empty()) req.headers = {{"Content-Type", "application/json"}};
  return http.send(req);
}

}  // namespace

void require_azurite(const fs::path& azurite_blob) {
  if (!fs::exists(azurite_blob))
    throw std::runtime_error("Azurite is not installed at " + azurite_blob.string() +
                             ": run the README setup (scripts/install-deps.sh, or just `npm install --prefix tests/azure`) "
                             "(installs the pinned azurite 3.35.0) and re-run the tests");
}

Harness::Harness() {
  const fs::path source = BH_SOURCE_DIR;
  const fs::path azurite = source / "tests/azure/node_modules/.bin/azurite-blob";
  require_azurite(azurite);
  char tmpl[] = "/tmp/bh-azure-XXXXXX";
  if (!mkdtemp(tmpl)) throw std::runtime_error("mkdtemp failed");
  dir = tmpl;
  cert = dir / "cert.pem";
  key = dir / "key.pem";
  std::string cmd = "openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2"
                    " -subj /CN=127.0.0.1 -addext subjectAltName=IP:127.0.0.1 -keyout '" +
                    key.string() + "' -out '" + cert.string() + "' >'" + (dir / "openssl.log").string() + "' 2>&1";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("openssl could not generate the test certificate");
  // The client trusts the emulator exactly like any other CA: through OpenSSL's default
  // verify paths (never by switching verification off).
  setenv("SSL_CERT_FILE", cert.c_str(), 1);

  azurite_port = free_port();
  fs::create_directories(dir / "azurite");
  azurite_ = spawn({azurite.string(), "--blobHost", "127.0.0.1", "--blobPort", std::to_string(azurite_port),
                    "--location", (dir / "azurite").string(), "--disableTelemetry", "--silent", "--cert",
                    cert.string(), "--key", key.string(), "--oauth", "basic"},
                   dir / "azurite.log", -1);
  const std::string fixtures = (source / "tests/azure/fixtures.js").string();
  token_ = start_fixture({"node", fixtures, "token-server", cert.string(), key.string()}, dir / "token.log",
                         token_port);
  proxy_ = start_fixture({"node", fixtures, "fault-proxy", cert.string(), key.string(), std::to_string(azurite_port)},
                         dir / "proxy.log", proxy_port);
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while (!port_open(azurite_port)) {
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error("Azurite did not start; see " + (dir / "azurite.log").string());
    std::this_thread::sleep_for(100ms);
  }
  control_http = benchhist::https::make_http_client();
}

Harness::~Harness() {
  stop(proxy_);
  stop(token_);
  stop(azurite_);
  std::error_code ec;
  if (!std::getenv("BH_KEEP_AZURE_TMP")) fs::remove_all(dir, ec);
}

std::string Harness::endpoint() const { return "https://127.0.0.1:" + std::to_string(azurite_port) + "/devstoreaccount1"; }
std::string Harness::proxy_endpoint() const {
  return "https://127.0.0.1:" + std::to_string(proxy_port) + "/devstoreaccount1";
}
std::string Harness::token_origin() const { return "https://127.0.0.1:" + std::to_string(token_port); }

benchhist::probe::MapEnvironment Harness::oidc_env() const {
  benchhist::probe::MapEnvironment env;
  env.set("ACTIONS_ID_TOKEN_REQUEST_URL", token_origin() + "/oidc?api-version=2.0");
  env.set("ACTIONS_ID_TOKEN_REQUEST_TOKEN", "test-request-token");
  env.set("AZURE_CLIENT_ID", "test-client-id");
  env.set("AZURE_TENANT_ID", "test-tenant");
  env.set("AZURE_AUTHORITY_HOST", token_origin());
  return env;
}

std::string Harness::configure(std::uint16_t port, const std::string& json) const {
  return control_request(*control_http, "POST", "https://127.0.0.1:" + std::to_string(port) + "/__control/config", json)
      .body;
}
std::string Harness::stats(std::uint16_t port) const {
  return control_request(*control_http, "GET", "https://127.0.0.1:" + std::to_string(port) + "/__control/stats", "")
      .body;
}
void Harness::reset(std::uint16_t port) const {
  control_request(*control_http, "POST", "https://127.0.0.1:" + std::to_string(port) + "/__control/reset", "{}");
}

Harness& harness() {
  static std::unique_ptr<Harness> instance;
  static std::string failure;
  static std::once_flag once;
  std::call_once(once, [] {
    try {
      instance = std::make_unique<Harness>();
    } catch (const std::exception& e) {
      failure = e.what();
    }
  });
  if (!instance) throw std::runtime_error(failure);
  return *instance;
}

std::string unique_container(const std::string& stem) {
  static std::atomic<int> counter{0};
  static const unsigned salt = std::random_device{}() % 100000;
  return stem + "-" + std::to_string(salt) + "-" + std::to_string(++counter);
}

fs::path scratch_dir(const std::string& stem) {
  fs::path p = harness().dir / unique_container(stem);
  fs::create_directories(p);
  return p;
}

std::unique_ptr<benchhist::azure::AzureBlobStore> make_store(const std::string& container, const std::string& project,
                                                             bool through_proxy, benchhist::https::RetryPolicy retry,
                                                             benchhist::azure::AzureStoreOptions options) {
  auto& h = harness();
  auto env = h.oidc_env();
  return std::make_unique<benchhist::azure::AzureBlobStore>(
      "devstoreaccount1", container, through_proxy ? h.proxy_endpoint() : h.endpoint(), project, nullptr, env,
      std::move(retry), std::move(options));
}

long long json_int(const std::string& json, const std::string& field) {
  auto at = json.find("\"" + field + "\":");
  if (at == std::string::npos) throw std::runtime_error("no field " + field + " in " + json);
  return std::stoll(json.substr(at + field.size() + 3));
}

void parallel_for(std::size_t n, std::size_t threads, const std::function<void(std::size_t)>& fn) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr first;
  std::mutex m;
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i; (i = next++) < n;) {
        try {
          fn(i);
        } catch (...) {
          std::lock_guard lock(m);
          if (!first) first = std::current_exception();
        }
      }
    });
  for (auto& t : pool) t.join();
  if (first) std::rethrow_exception(first);
}

benchhist::https::RetryPolicy fast_retry(int attempts, std::shared_ptr<std::vector<long long>> waits) {
  benchhist::https::RetryPolicy p;
  p.max_attempts = attempts;
  p.initial_delay = 10ms;
  p.max_delay = 2000ms;
  auto mutex = std::make_shared<std::mutex>();
  p.sleep = [waits, mutex](std::chrono::milliseconds d) {
    if (waits) {
      std::lock_guard lock(*mutex);
      waits->push_back(d.count());
    }
    // Honour the schedule at 1/50 scale: the order and bounds are what the tests check.
    std::this_thread::sleep_for(d / 50);
  };
  return p;
}

}  // namespace bhtest
