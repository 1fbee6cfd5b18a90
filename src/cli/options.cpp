// What every subcommand shares: the exit status, the environment (read here, once, and handed
// down as options: nothing below src/cli/ reads it) and the --rules option's parsing.
#include <algorithm>
#include <cstdlib>
#include <iostream>

#include "cli/commands.h"
#include "solver/table_store.h"

namespace ur::cli {

int& exit_status() {
  static int status = 0;
  return status;
}

const std::string& data_dir() {
  static const std::string dir = [] {
    const char* env = std::getenv("UR_DATA_DIR");
    return std::string(env && *env ? env : "data");
  }();
  return dir;
}

const solver::TableStore& table_store() {
  static const solver::TableStore store(data_dir());
  return store;
}

std::optional<RuleSet> rules_option(std::string_view command, const std::string& text) {
  RuleSetResult parsed = parse_rule_set(text);
  if (auto* e = std::get_if<Error>(&parsed)) {
    std::cerr << "ur " << command << ": bad --rules value: " << e->message << "\n";
    exit_status() = 2;
    return std::nullopt;
  }
  return std::get<RuleSet>(std::move(parsed));
}

void add_rules_and_out(CLI::App& cmd, std::string& rules, std::string& out,
                       const std::string& out_help) {
  cmd.add_option("--rules,-r", rules, "rule set")->capture_default_str();
  cmd.add_option("--out,-o", out, out_help);
}

double percentile(std::vector<double>& v, double q) {
  if (v.empty()) return 0;
  auto k =
      std::min(v.size() - 1, static_cast<std::size_t>(q * static_cast<double>(v.size() - 1) + 0.5));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace ur::cli
