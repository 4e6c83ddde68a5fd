// `import` (docs/import.md): stores results produced elsewhere.

#include "../command.hpp"

namespace benchhist::cli {
namespace {

CommandSpec spec() {
  CommandSpec c{"import", "Store results produced elsewhere: a target directory or benchmark report files",
                {}, {}, false, false};
  add_environment(c.opts, RepoRole::measured);
  c.opts.push_back({"target-dir", 0, Kind::value, "PATH", "Target directory whose engine output to store (criterion, callgrind, alloc_tracker, all_the_time)"});
  c.opts.push_back({"target-triple", 0, Kind::value, "TRIPLE",
                    "Target triple to record and partition by [default: as collect would probe it]"});
  c.opts.push_back({"commit", 0, Kind::value, "REF", "Commit to record the results at [default: HEAD]"});
  c.opts.push_back({"dirty", 0, Kind::flag, "", "Store as a dirty snapshot"});
  c.opts.push_back({"overwrite", 0, Kind::flag, "", "Replace an existing stored result"});
  c.opts.push_back({"skip-existing", 0, Kind::flag, "", "Succeed without writing when a result exists (conflicts with --overwrite)"});
  c.positionals = {{"REPORT",
                    "Report files (Google Benchmark JSON, hyperfine JSON, Catch2 XML, BMF, cargo bench #[bench] output), "
                    "or directories holding them",
                    false, true}};
  return c;
}

Runner build(const Parsed& p) {
  app::ImportOptions o;
  o.env = environment(p);
  o.target_dir = p.path("target-dir");
  for (const auto& r : p.positionals) o.reports.emplace_back(r);
  o.target_triple = p.value("target-triple");
  o.commit = p.value("commit");
  o.dirty = p.flag("dirty");
  o.overwrite = p.flag("overwrite");
  o.skip_existing = p.flag("skip-existing");
  return library_command(p, std::move(o));
}

}  // namespace

extern const CommandDef import_command{spec, build};

}  // namespace benchhist::cli
