// $GITHUB_OUTPUT lines (docs/github.md "Step outputs").

#include "benchhist/automation/step_output.hpp"

#include "benchhist/error.hpp"

namespace benchhist::automation {

std::string format_step_outputs(const StepOutputs& outputs) {
  std::string out;
  for (const auto& [name, value] : outputs) {
    bool ok = !name.empty();
    for (char c : name)
      if (c == '=' || c == '<' || c == ' ' || c == '\t' || c == '\n' || c == '\r') ok = false;
    if (!ok) throw Error(ErrorKind::internal, "invalid step output name \"" + name + "\"");
    if (value.find('\n') == std::string::npos && value.find('\r') == std::string::npos) {
      out += name + "=" + value + "\n";
      continue;
    }
    std::string delimiter = "BENCH_HISTORY_EOF";
    for (int n = 0; value.find(delimiter) != std::string::npos; ++n) delimiter = "BENCH_HISTORY_EOF_" + std::to_string(n);
    out += name + "<<" + delimiter + "\n" + value + (value.back() == '\n' ? "" : "\n") + delimiter + "\n";
  }
  return out;
}

}  // namespace benchhist::automation
