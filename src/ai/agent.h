// Computer players: the Agent interface, the registry that builds agents from spec strings,
// and the difficulty levels of the terminal game and the server.
//
// An agent is asked for one decision at a time: it gets the Engine and a Position that awaits
// a decision (Position::is_decision(): a move for a throw, the boxed game's rosette-award
// yes/no, the opponent's forfeit move) and returns one of engine.legal_moves(position). It
// never sees dice before they are thrown: chance is the engine's (chance_outcomes()), and the
// agents search over it rather than over a copy of the rules.
//
// Specs are strings with optional parameters, like rule-set strings:
//   random                      uniform among the legal moves (seeded)
//   first                       the first legal move (a fixed, dumb baseline)
//   greedy                      one ply with the tuned evaluation of evaluation.h
//   expectimax(depth=3)         expectiminimax over the throw distribution (expectimax.h);
//   expectimax(time_ms=200)     iterative deepening under a time budget (depth = the cap)
//   perfect                     the solver's lookup table (perfect.h)
//   net(depth=3)                expectimax with a trained value network at its leaves
//                               (net_agent.h; `ur train` makes the network)
//   engine:PATH ARGS            another program that speaks UEP (external_agent.h)
//
// Threads: an Agent object is NOT thread-safe (it owns a random generator and a search
// cache). Use one agent object per thread; the Engine is shared read-only. A search can be
// stopped through the std::stop_token passed to choose(): it then returns the best move found
// so far (always a legal one) within a few milliseconds. AgentRunner (agent_runner.h) runs an
// agent on its own worker thread for callers that must not block.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>
#include <variant>

#include "engine/engine.h"
#include "rules/error.h"

namespace ur::solver {
class TableStore;
}

namespace ur::ai {

using StopToken = std::stop_token;

class Agent {
 public:
  virtual ~Agent() = default;
  // The canonical spec of this agent, e.g. "expectimax(depth=3)".
  virtual std::string name() const = 0;
  // One of engine.legal_moves(pos); pos.is_decision() must hold.
  virtual Move choose(const Engine& engine, const Position& pos, const StopToken& stop) = 0;
  // Why this agent can play no more, "" while it can. Only an external engine (a program,
  // external_agent.h) fails: it crashed, hung or answered an illegal move. Its choose() then
  // returned a stand-in legal move that must not be played: the seat has lost the game.
  virtual std::string failure() const { return ""; }
};

using AgentResult = Result<std::unique_ptr<Agent>>;

// Builds an agent from a spec ("greedy", "expectimax(depth=3,time_ms=500)") or a difficulty
// level ("medium"). `rules` is the rule set the agent will play (the perfect player needs a
// table for it, from `tables`: the process's table store, null where there is none); `seed`
// makes the agent's random choices reproducible.
AgentResult make_agent(std::string_view spec, const RuleSet& rules, std::uint64_t seed,
                       const solver::TableStore* tables = nullptr);

// A difficulty level: its name and the agent spec it stands for.
struct Level {
  std::string_view name;
  std::string_view agent;
};

// The difficulty levels, weakest first: the one list that `level_spec`, `is_level`, the
// server's GET /api/levels and, through it, the web lobby read.
std::span<const Level> levels();

// Whether `name` is one of `levels()`.
bool is_level(std::string_view name);

// The agent spec of a difficulty level (one of `levels()`); "" when `level` is not one.
// While `tables` (null: no tables) holds no verified table for `rules`, perfect is the learned
// network's `net(depth=3)` where the data directory has a network for `rules`, else hard's spec.
std::string level_spec(std::string_view level, const RuleSet& rules,
                       const solver::TableStore* tables);

// Why `level` does not play as named for `rules`, for the player to read ("" when it does):
// the perfect level without a solved table in `tables` says so and what plays instead
// ("strongest: learned, no exact table" for a network, else hard).
std::string level_note(std::string_view level, const RuleSet& rules,
                       const solver::TableStore* tables);

// `spec` with the perfect player's table set to `table` (a `--table FILE` option): "perfect"
// (the agent or the level) becomes "perfect(table=FILE)"; any other spec, or an empty `table`,
// is returned as it is.
std::string with_perfect_table(std::string spec, const std::string& table);

// One line per agent and level, for --help texts.
std::string agent_help();

// The index of `m` in `moves` (by from, to and kind), or -1.
int index_of_move(const MoveList& moves, const Move& m);

}  // namespace ur::ai
