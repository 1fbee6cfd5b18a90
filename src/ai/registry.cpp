// The agent registry: spec strings and difficulty levels to agents (agent.h).
#include <fmt/format.h>

#include <charconv>
#include <map>

#include "ai/agent.h"
#include "ai/agent_errc.h"
#include "ai/basic_agents.h"
#include "ai/expectimax.h"
#include "ai/external_agent.h"
#include "ai/net_agent.h"
#include "ai/perfect.h"
#include "rules/text.h"

namespace ur::ai {
namespace {

constexpr int kMaxDepth = 60;          // the transposition table stores depth in 8 bits
constexpr int kMaxTimeMs = 3'600'000;  // an hour
constexpr int kTimedDepthCap = kMaxDepth;

struct Spec {
  std::string name;
  std::map<std::string, std::string, std::less<>> params;
};

// "name" or "name(key=value,...)"; an error message names the problem.
std::variant<Spec, Error> parse_spec(std::string_view text) {
  Spec spec;
  text = trim_blanks(text);
  const auto open = text.find('(');
  if (open == std::string_view::npos) {
    spec.name = std::string(text);
  } else {
    if (text.back() != ')')
      return Error{AgentErrc::kBadAgent, fmt::format("agent '{}': missing ')' at the end", text)};
    spec.name = std::string(trim_blanks(text.substr(0, open)));
    std::string_view body = text.substr(open + 1, text.size() - open - 2);
    while (!trim_blanks(body).empty()) {
      const auto comma = body.find(',');
      const std::string_view item = trim_blanks(body.substr(0, comma));
      body = comma == std::string_view::npos ? std::string_view{} : body.substr(comma + 1);
      const auto eq = item.find('=');
      if (eq == std::string_view::npos)
        return Error{
            AgentErrc::kBadAgent,
            fmt::format("agent '{}': parameter '{}' needs a value (key=value)", text, item)};
      std::string key(trim_blanks(item.substr(0, eq)));
      std::string value(trim_blanks(item.substr(eq + 1)));
      if (key.empty() || value.empty())
        return Error{AgentErrc::kBadAgent,
                     fmt::format("agent '{}': bad parameter '{}'", text, item)};
      if (!spec.params.emplace(key, value).second)
        return Error{AgentErrc::kBadAgent,
                     fmt::format("agent '{}': parameter '{}' given twice", text, key)};
    }
  }
  if (spec.name.empty()) return Error{AgentErrc::kBadAgent, "empty agent name"};
  return spec;
}

std::optional<int> parse_int(std::string_view s) {
  int v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<Error> no_params(const Spec& spec) {
  if (spec.params.empty()) return std::nullopt;
  return Error{AgentErrc::kBadAgent, fmt::format("agent '{}' takes no parameters (got '{}')",
                                                 spec.name, spec.params.begin()->first)};
}

std::optional<double> parse_double(const std::string& s) {
  double v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// The evaluation weights (evaluation.h) can be overridden by name, for tuning:
// "greedy(danger=1.2,tempo=0.3)". Returns false when `key` is not a weight.
std::variant<bool, Error> weight_param(const std::string& agent, const std::string& key,
                                       const std::string& value, EvalWeights& w) {
  const std::pair<const char*, double*> slots[] = {{"progress", &w.progress},
                                                   {"borne_off", &w.borne_off},
                                                   {"staged", &w.staged},
                                                   {"safe", &w.safe},
                                                   {"danger", &w.danger},
                                                   {"danger_base", &w.danger_base},
                                                   {"tempo", &w.tempo},
                                                   {"scale", &w.scale},
                                                   {"chain_danger", &w.chain_danger},
                                                   {"chain_own", &w.chain_own},
                                                   {"chain_tempo", &w.chain_tempo},
                                                   {"chain_borne_off", &w.chain_borne_off},
                                                   {"crowd", &w.crowd}};
  double* slot = nullptr;
  for (const auto& [name, ptr] : slots)
    if (key == name) slot = ptr;
  if (slot == nullptr) return false;
  const std::optional<double> v = parse_double(value);
  if (!v || !(*v >= -100 && *v <= 100) || (key == "scale" && *v <= 0))
    return Error{AgentErrc::kBadAgent,
                 fmt::format("{}: weight {} must be a number from -100 to 100{}, not '{}'", agent,
                             key, key == "scale" ? " (above 0)" : "", value)};
  *slot = *v;
  return true;
}

constexpr const char* kWeightNames =
    "progress, borne_off, staged, safe, danger, danger_base, tempo, scale, chain_danger, "
    "chain_own, chain_tempo, chain_borne_off, crowd";

AgentResult make_greedy(const Spec& spec, std::uint64_t seed) {
  EvalWeights w = greedy_weights();
  for (const auto& [key, value] : spec.params) {
    auto r = weight_param("greedy", key, value, w);
    if (auto* e = std::get_if<Error>(&r)) return std::move(*e);
    if (!std::get<bool>(r))
      return Error{
          AgentErrc::kBadAgent,
          fmt::format("greedy: unknown parameter '{}' (known: the weights {})", key, kWeightNames)};
  }
  return std::make_unique<GreedyAgent>(seed, w);
}

AgentResult make_expectimax(const Spec& spec) {
  ExpectimaxOptions options;
  bool depth_given = false;
  for (const auto& [key, value] : spec.params) {
    const std::optional<int> v = parse_int(value);
    auto weight = weight_param("expectimax", key, value, options.weights);
    if (auto* e = std::get_if<Error>(&weight)) return std::move(*e);
    if (std::get<bool>(weight)) continue;
    if (key == "depth") {
      if (!v || *v < 1 || *v > kMaxDepth)
        return Error{AgentErrc::kBadAgent,
                     fmt::format("expectimax: depth must be an integer from 1 to {}, not '{}'",
                                 kMaxDepth, value)};
      options.depth = *v;
      depth_given = true;
    } else if (key == "time_ms") {
      if (!v || *v < 1 || *v > kMaxTimeMs)
        return Error{AgentErrc::kBadAgent,
                     fmt::format("expectimax: time_ms must be an integer from 1 to {}, not '{}'",
                                 kMaxTimeMs, value)};
      options.time_ms = *v;
    } else {
      return Error{
          AgentErrc::kBadAgent,
          fmt::format(
              "expectimax: unknown parameter '{}' (known: depth, time_ms and the weights {})", key,
              kWeightNames)};
    }
  }
  if (options.time_ms > 0 && !depth_given) options.depth = kTimedDepthCap;
  return std::make_unique<ExpectimaxAgent>(options);
}

}  // namespace

int index_of_move(const MoveList& moves, const Move& m) {
  for (int i = 0; i < moves.size; ++i)
    if (moves[i] == m) return i;
  return -1;
}

std::span<const Level> levels() {
  static constexpr Level kLevels[] = {{"beginner", "random"},
                                      {"easy", "greedy"},
                                      {"medium", "expectimax(depth=2)"},
                                      {"hard", "expectimax(depth=4)"},
                                      {"perfect", "perfect"}};
  return kLevels;
}

bool is_level(std::string_view name) {
  for (const Level& l : levels())
    if (l.name == name) return true;
  return false;
}

std::string level_spec(std::string_view level, const RuleSet& rules,
                       const solver::TableStore* tables) {
  // Without a solved table for `rules` the perfect level plays the learned network where there
  // is one, else as hard (level_note says which).
  if (level == "perfect" && !(tables && tables->solved(rules)))
    return has_network(tables, rules) ? kLearnedLevelSpec : level_spec("hard", rules, tables);
  if (level == "hard" && learned_hard(rules) && has_network(tables, rules)) return kLearnedHardSpec;
  for (const Level& l : levels())
    if (l.name == level) return std::string(l.agent);
  return "";
}

std::string level_note(std::string_view level, const RuleSet& rules,
                       const solver::TableStore* tables) {
  if (level != "perfect") return "";
  const solver::TableLookup found = solver::find_table(tables, rules, "");
  if (found.ready() && found.solved.endgame() > 0)
    return "perfect: exact with at most " + std::to_string(found.solved.endgame()) +
           " pieces left a side (the endgame table), " +
           (has_network(tables, rules)
                ? "the learned network (" + std::string(kLearnedLevelSpec) + ") before"
                : std::string("as hard before")) +
           ", reading the table at the search's leaves";
  if (found.ready()) return "";
  if (has_network(tables, rules))
    return "perfect: " + found.why + "; strongest: learned, no exact table (" +
           std::string(kLearnedLevelSpec) + ")";
  return "perfect: " + found.why + "; the perfect level plays as hard (" +
         level_spec("hard", rules, tables) + ")";
}

AgentResult make_agent(std::string_view text, const RuleSet& rules, std::uint64_t seed,
                       const solver::TableStore* tables) {
  // A command line is not a spec: its arguments may hold parentheses and commas.
  if (is_external_spec(trim_blanks(text))) return make_external_agent(trim_blanks(text), rules);
  auto parsed = parse_spec(text);
  if (auto* e = std::get_if<Error>(&parsed)) return std::move(*e);
  const Spec& spec = std::get<Spec>(parsed);
  if (spec.name == "expectimax") return make_expectimax(spec);
  if (spec.name == "greedy") return make_greedy(spec, seed);
  if (spec.name == "net") return make_net_agent(spec.params, rules, tables);
  if (spec.name == "perfect") {
    std::string table;
    for (const auto& [key, value] : spec.params) {
      if (key != "table")
        return Error{AgentErrc::kBadAgent,
                     fmt::format("perfect: unknown parameter '{}' (known: table)", key)};
      table = value;
    }
    auto made = make_perfect_agent(rules, table, tables);
    if (auto* e = std::get_if<Error>(&made)) return *e;
    return std::move(std::get<std::unique_ptr<Agent>>(made));
  }
  if (spec.name == "random" || spec.name == "first") {
    if (auto e = no_params(spec)) return std::move(*e);
    if (spec.name == "random") return std::make_unique<RandomAgent>(seed);
    return std::make_unique<FirstAgent>();
  }
  const std::string level = level_spec(spec.name, rules, tables);
  if (!level.empty()) {
    if (auto e = no_params(spec)) return std::move(*e);
    return make_agent(level, rules, seed, tables);
  }
  return Error{AgentErrc::kBadAgent,
               fmt::format("unknown agent '{}' (known: random, first, greedy, "
                           "expectimax(depth=N,time_ms=T), net(depth=N,time_ms=T,file=F), "
                           "perfect; "
                           "levels: beginner, easy, medium, hard)",
                           spec.name)};
}

std::string with_perfect_table(std::string spec, const std::string& table) {
  if (table.empty() || spec != "perfect") return spec;
  return "perfect(table=" + table + ")";
}

std::string agent_help() {
  return "agents: random | first | greedy | expectimax(depth=N[,time_ms=T]) | perfect[(table=F)]\n"
         "        net[(depth=N,time_ms=T,file=F)] (a trained network, `ur train`)\n"
         "        engine:PATH ARGS | engine(timeout_ms=T):PATH ARGS (a UEP program)\n"
         "levels: beginner (random), easy (greedy), medium (expectimax depth 2),\n"
         "        hard (expectimax depth 4; net depth 2 on finkel with its network),\n"
         "        perfect (lookup table, else the network at depth 3, else as hard)";
}

}  // namespace ur::ai
