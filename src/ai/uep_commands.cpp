// UepEngine: the commands that read or change the options and the position (uep_engine.h):
// uep, setoption, newgame, position, eval, throw and move. Each one checks everything before it
// changes anything, so that an error leaves the engine as it was.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <limits>

#include "ai/expectimax.h"
#include "ai/perfect.h"
#include "ai/uep_engine.h"
#include "engine/notation.h"
#include "rules/text.h"

namespace ur::ai {
namespace {

constexpr std::uint64_t kMaxSeed = 2147483647;
constexpr int kMaxEvalDepth = 6;  // deeper estimates take seconds in the throw-chain rule sets

std::optional<std::uint64_t> parse_uint(std::string_view s, std::uint64_t max) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc{} || ptr != s.data() + s.size() || v > max) return std::nullopt;
  return v;
}

}  // namespace

std::string UepEngine::build(const Settings& s, Built& out) const {
  RuleSetResult rules = parse_rule_set(s.rules);
  if (auto* e = std::get_if<Error>(&rules)) return "Rules: " + e->message;
  const RuleSet& r = std::get<RuleSet>(rules);
  std::string spec = with_perfect_table(s.agent, s.table);
  // The perfect level without a table plays as the hard level, and says so.
  std::string note = level_note(spec, r, tables_);
  if (std::string level = level_spec(spec, r, tables_); !level.empty()) spec = level;
  if (spec.starts_with("engine"))
    return "Agent: an external engine cannot be served through ur engine";
  AgentResult made = make_agent(spec, r, s.seed, tables_);
  if (auto* e = std::get_if<Error>(&made)) return "Agent: " + e->message;
  out.engine = built_.engine && built_.engine->rules().to_string() == r.to_string()
                   ? built_.engine
                   : std::make_shared<const Engine>(r);
  out.agent = std::move(std::get<std::unique_ptr<Agent>>(made));
  out.note = std::move(note);
  return "";
}

void UepEngine::cmd_uep() {
  emit("id name " + name_);
  emit("id version " + version_);
  // The defaults are the current values: `ur engine --agent hard` offers hard.
  const Settings& s = settings_;
  emit("option name Rules type string default " + s.rules);
  emit("option name Agent type string default " + s.agent);
  emit("option name Table type string default " + (s.table.empty() ? "<empty>" : s.table));
  emit(fmt::format("option name Seed type spin default {} min 0 max {}", s.seed, kMaxSeed));
  emit(fmt::format("option name EvalDepth type spin default {} min 1 max {}", s.eval_depth,
                   kMaxEvalDepth));
  emit("uepok");
}

void UepEngine::cmd_setoption(std::string_view rest) {
  const std::vector<std::string_view> words = uep_words(rest);
  if (words.empty() || words[0] != "name")
    return error("setoption: expected setoption name <Name> value <v>");
  if (words.size() < 2 || words[1] == "value")
    return error("setoption: the option name is missing");
  if (words.size() < 3 || words[2] != "value")
    return error(fmt::format("setoption: option {}: expected 'value <v>' after the name",
                             words[1].substr(0, 40)));
  const std::string_view value =
      trim_blanks(rest.substr(static_cast<std::size_t>(words[2].data() - rest.data()) + 5));
  if (std::string why = set_option(words[1], value); !why.empty()) error("setoption: " + why);
}

std::string UepEngine::set_option(std::string_view option, std::string_view value) {
  if (searching_) return "busy searching";
  const std::string name = ascii_lower(option);
  Settings next = settings_;
  if (name == "rules" || name == "agent") {
    if (value.empty()) return fmt::format("{} needs a value", option);
    (name == "rules" ? next.rules : next.agent) = std::string(value);
  } else if (name == "table") {
    next.table = value == "<empty>" ? "" : std::string(value);
  } else if (name == "seed" || name == "evaldepth") {
    const std::uint64_t max = name == "seed" ? kMaxSeed : kMaxEvalDepth;
    const std::optional<std::uint64_t> v = parse_uint(value, max);
    if (!v || (name == "evaldepth" && *v == 0))
      return fmt::format("{} must be a whole number from {} to {}, not '{}'", option,
                         name == "seed" ? 0 : 1, max, value.substr(0, 40));
    if (name == "seed") next.seed = *v;
    if (name == "evaldepth") next.eval_depth = static_cast<int>(*v);
  } else {
    return fmt::format("unknown option '{}' (known: Rules, Agent, Table, Seed, EvalDepth)",
                       option.substr(0, 40));
  }
  if (name == "table" && !next.table.empty()) {
    const solver::TableLookup found =
        solver::find_table(tables_, built_.engine->rules(), next.table);
    if (!found.ready()) return "Table: " + found.why;
  }
  Built built;
  if (std::string why = build(next, built); !why.empty()) return why;
  const bool new_rules = built.engine != built_.engine;
  settings_ = std::move(next);
  built_ = std::move(built);
  if (new_rules) pos_ = built_.engine->initial_position();
  if (!built_.note.empty()) emit("info string " + built_.note);
  return "";
}

void UepEngine::cmd_newgame() {
  Built fresh;
  if (std::string why = build(settings_, fresh); !why.empty()) return error("newgame: " + why);
  built_ = std::move(fresh);
  pos_ = built_.engine->initial_position();
  if (!built_.note.empty()) emit("info string " + built_.note);
}

void UepEngine::cmd_position(const std::vector<std::string_view>& words) {
  if (words.size() < 2)
    return error("position: expected 'position start' or 'position <position string>'");
  if (words.size() > 2)
    return error(
        fmt::format("position: unexpected '{}' after the position (a position string "
                    "has no spaces)",
                    words[2].substr(0, 40)));
  if (words[1] == "start") {
    pos_ = built_.engine->initial_position();
    return;
  }
  PositionResult r = parse_position_string(*built_.engine, words[1]);
  if (auto* e = std::get_if<Error>(&r))
    return error(fmt::format("position: {} (rules {})", e->message, settings_.rules));
  pos_ = std::get<Position>(r);
}

void UepEngine::cmd_throw(const std::vector<std::string_view>& words) {
  if (words.size() != 2) return error("throw: expected 'throw <k>', one raw throw");
  if (!pos_.is_chance())
    return error(pos_.is_over() ? "throw: the game is over"
                                : "throw: the position awaits a move, not a throw");
  const Engine& engine = *built_.engine;
  const std::optional<std::uint64_t> k = parse_uint(words[1], 1000);
  std::string outcomes;
  bool listed = false;
  for (const ChanceOutcome& o : engine.chance_outcomes(pos_)) {
    outcomes += (outcomes.empty() ? "" : ", ") + std::to_string(o.outcome);
    listed = listed || (k && static_cast<std::uint64_t>(o.outcome) == *k);
  }
  if (!listed)
    return error(fmt::format("throw: '{}' is not a throw of this position (throws: {})",
                             words[1].substr(0, 40), outcomes));
  engine.apply_throw(pos_, static_cast<int>(*k));
}

void UepEngine::cmd_move(const std::vector<std::string_view>& words) {
  if (words.size() != 2) return error("move: expected 'move <move>', e.g. move 0->4");
  MoveResult r = parse_move_text(*built_.engine, pos_, words[1]);
  if (auto* e = std::get_if<Error>(&r)) return error("move: " + e->message);
  built_.engine->apply_move(pos_, std::get<Move>(r));
}

void UepEngine::cmd_eval() {
  const Engine& engine = *built_.engine;
  const Player me = pos_.turn;
  const solver::TableLookup found = solver::find_table(tables_, engine.rules(), settings_.table);
  const solver::SolvedTable* table = found.ready() ? &found.solved : nullptr;
  // Tables hold the positions awaiting a throw or a decision (an endgame table those with at
  // most k pieces left a side); the rest are estimated, the search reading the table where it
  // reaches positions the table holds.
  const bool exact = table != nullptr && table->covers(pos_) &&
                     (pos_.phase == Phase::kAwaitingRoll || pos_.is_decision() || pos_.is_over());
  ExpectimaxOptions options;
  options.depth = settings_.eval_depth;
  if (table != nullptr) options.table = std::make_shared<const solver::SolvedTable>(*table);
  ExpectimaxAgent search(options);
  auto value = [&](const Position& q) {
    if (q.is_over()) return q.turn == me ? 1.0 : 0.0;
    if (exact) return table->value(q, me);
    return search.value(engine, q, settings_.eval_depth, me).value_or(0.5);
  };
  const char* mark = exact ? "" : " estimate";
  if (!pos_.is_decision()) {
    emit(fmt::format("eval win {:.6f}{}", value(pos_), mark));
    emit("evalok");
    return;
  }
  MoveList moves;
  engine.legal_moves(pos_, moves);
  std::vector<double> values;
  double best = 0;
  for (const Move& m : moves) {
    Position q = pos_;
    engine.apply_move(q, m);
    values.push_back(value(q));
    best = std::max(best, values.back());
  }
  emit(fmt::format("eval win {:.6f}{}", best, mark));
  for (int i = 0; i < moves.size; ++i)
    emit(fmt::format("move {} win {:.6f}{}", move_text(moves[i]),
                     values[static_cast<std::size_t>(i)], mark));
  emit("evalok");
}

}  // namespace ur::ai
