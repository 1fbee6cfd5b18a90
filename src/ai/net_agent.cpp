#include "ai/net_agent.h"

#include <fmt/format.h>

#include <cctype>
#include <charconv>
#include <filesystem>

#include "ai/agent_errc.h"
#include "ai/expectimax.h"
#include "ai/network.h"
#include "solver/table_store.h"

namespace ur::ai {
namespace {

constexpr int kMaxNetDepth = 60;
constexpr int kMaxNetTimeMs = 3'600'000;

std::optional<int> to_int(const std::string& s, int lo, int hi) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

}  // namespace

std::string network_file_name(const std::string& rules) {
  std::string name;
  for (char c : rules) name += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  while (!name.empty() && name.back() == '_') name.pop_back();
  return name + ".urn";
}

std::string network_path(const solver::TableStore* tables, const std::string& rules) {
  if (tables == nullptr) return "";
  // DATA_DIR/tables is the store's folder; the networks sit beside it.
  return (std::filesystem::path(tables->tables_dir()).parent_path() / "networks" /
          network_file_name(rules))
      .string();
}

bool learned_hard(const RuleSet& rules) {
  const std::string name = rules.to_string();
  return name == "finkel" || name == "masters";
}

std::shared_ptr<const Network> data_network(const solver::TableStore* tables,
                                            const Engine& engine) {
  const std::string path = network_path(tables, engine.rules().to_string());
  if (path.empty() || !std::filesystem::exists(path)) return nullptr;
  auto loaded = shared_network_for(path, engine);
  auto* net = std::get_if<std::shared_ptr<const Network>>(&loaded);
  return net ? *net : nullptr;
}

bool has_network(const solver::TableStore* tables, const RuleSet& rules) {
  return data_network(tables, Engine(rules)) != nullptr;
}

AgentResult make_net_agent(const std::map<std::string, std::string, std::less<>>& params,
                           const RuleSet& rules, const solver::TableStore* tables) {
  ExpectimaxOptions options;
  options.depth = 1;
  bool depth_given = false;
  for (const auto& [key, value] : params) {
    if (key == "depth") {
      const auto v = to_int(value, 1, kMaxNetDepth);
      if (!v)
        return Error{AgentErrc::kBadAgent,
                     fmt::format("net: depth must be an integer from 1 to {}, not '{}'",
                                 kMaxNetDepth, value)};
      options.depth = *v;
      depth_given = true;
    } else if (key == "time_ms") {
      const auto v = to_int(value, 1, kMaxNetTimeMs);
      if (!v)
        return Error{AgentErrc::kBadAgent,
                     fmt::format("net: time_ms must be an integer from 1 to {}, not '{}'",
                                 kMaxNetTimeMs, value)};
      options.time_ms = *v;
    } else if (key == "file") {
      options.network_file = value;
    } else {
      return Error{AgentErrc::kBadAgent,
                   fmt::format("net: unknown parameter '{}' (known: depth, time_ms, file)", key)};
    }
  }
  // A deadline without a depth deepens until the time is spent, as expectimax's does.
  if (options.time_ms > 0 && !depth_given) options.depth = kMaxNetDepth;
  const std::string rules_name = rules.to_string();
  std::string path = options.network_file;
  if (path.empty()) path = network_path(tables, rules_name);
  if (path.empty())
    return Error{
        AgentErrc::kBadAgent,
        fmt::format("net: no network for {} (no data directory; give net(file=F))", rules_name)};
  const Engine engine(rules);
  auto loaded = shared_network_for(path, engine);
  if (auto* e = std::get_if<Error>(&loaded))
    return Error{AgentErrc::kBadAgent, fmt::format("net: {} (train one with `ur train --rules {}`)",
                                                   e->message, rules_name)};
  options.network = std::get<std::shared_ptr<const Network>>(std::move(loaded));
  return std::make_unique<ExpectimaxAgent>(options);
}

}  // namespace ur::ai
