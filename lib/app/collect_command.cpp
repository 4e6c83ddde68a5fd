#include <unistd.h>

#include <cstdio>
#include <ostream>

#include "benchhist/app/collect_command.hpp"
#include "benchhist/collect/collect.hpp"
#include "benchhist/error.hpp"
#include "command_support.hpp"

namespace benchhist::app {

using namespace detail;

void run_collect(const CollectOptions& o, const Invocation& inv) {
  const bool v = o.env.verbose;
  // collect resolves relative paths against --repo (formats.md §6.3).
  const auto base = o.env.repo ? (inv.cwd / *o.env.repo).lexically_normal() : inv.cwd;
  auto ctx = open_context(o.env, nullptr, inv, base, !o.no_store);

  CollectRequest req;
  req.repo_dir = base;
  req.project = ctx.project;
  req.scope.packages = o.scope.packages;
  req.scope.excludes = o.scope.excludes;
  req.scope.benches = o.scope.benches;
  req.scope.features = o.features.features;
  req.scope.all_features = o.features.all_features;
  req.scope.no_default_features = o.features.no_default_features;
  req.scope.passthrough = o.cargo_args;
  req.best_of = o.best_of;
  req.policy = o.overwrite ? CollisionPolicy::overwrite
                           : o.skip_existing ? CollisionPolicy::skip_existing : CollisionPolicy::refuse;
  req.store = !o.no_store;

  auto services = CollectServices::system(inv.env);
  services.announce = [&inv](std::string_view s) { announce(inv, s); };
  if (v) services.note = [&inv](std::string_view s) { announce(inv, s); };
  // Repetition progress only where a person watches (a terminal): CI logs stay clean.
  if (inv.stderr_is_terminal && o.best_of > 1)
    services.progress = [&inv](std::uint32_t rep, std::uint32_t of, double elapsed) {
      char buf[96];
      std::snprintf(buf, sizeof buf, "repetition %u of %u (%.1f s elapsed)", rep, of, elapsed);
      announce(inv, buf);
    };
  const auto outcome = collect(req, inv.env, ctx.store.get(), services);
  inv.out << outcome.message() << '\n';
}

}  // namespace benchhist::app
