// Expectimax: expectiminimax over the engine's chance nodes, for every rule set.
//
// Values are win probabilities in [0, 1] from the point of view of the player who decides
// at the root. Who acts is read from each position (Position::turn), never assumed to
// alternate: after a move the same player may act again (rosette extra throws, Bell and boxed
// throw chains, the boxed award decision), or the opponent may (the boxed forfeit response).
//
// Depth counts plies. A ply is a decision, or a throw that passes the turn without one (a
// null throw, no legal move). Chance nodes whose throw leads to a decision cost nothing: the
// decision that follows does. depth=1 is one-ply lookahead with the evaluation (evaluation.h)
// at the leaves; depth=2 adds the expectation over the next throw and the reply to it; and so
// on. Throw-chain rule sets (bell, boxed) count in half plies instead (PlyCosts: a decision
// costs half a ply, a throw that passes the turn a whole one), because a turn there is a chain
// of several decisions: depth=2 then reaches the end of the chain and the opponent's first
// decision more often, at a few times the cost (docs/ai.md). Finished games are exact. A throw that
// changes nothing (a chain throw with no legal move: the same player throws again from the same
// position) is a self-loop, solved exactly by renormalising the other outcomes (V = sum p_i V_i /
// (1 - p_loop)).
//
// Pruning is exact: alpha-beta at decision nodes and Ballard's Star1 at chance nodes (the
// values are bounded by 0 and 1, so after some outcomes the rest can no longer lift the
// average into the window), with a transposition table of bounds per (position, depth) and
// move ordering from the previous iteration. The search deepens iteratively from 1 to
// `depth`; with `time_ms` it stops at the deadline and plays the best move of the deepest
// finished iteration. A stop request (std::stop_token) is honoured within a few hundred
// nodes. The hot path does not allocate.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "ai/agent.h"
#include "ai/evaluation.h"
#include "ai/transposition.h"
#include "solver/table_store.h"

namespace ur::ai {

struct Network;  // network.h, kept out of this header (Eigen)
class NetEvaluator;

struct ExpectimaxOptions {
  int depth = 3;     // the deepest iteration (with time_ms: the cap)
  int time_ms = 0;   // 0: no time limit
  int tt_bits = 16;  // 2^tt_bits transposition entries (32 bytes each)
  EvalWeights weights = search_weights();
  // A value network (network.h) at the leaves instead of the weights: the `net` agent, whose
  // name says where the network came from (`network_file`, "" for the data directory's).
  std::shared_ptr<const Network> network{};
  std::string network_file{};
  // A solved table of the rule set, whole or an endgame table: every position it covers is
  // valued exactly from it and not searched further (the endgame as the search's leaves).
  std::shared_ptr<const solver::SolvedTable> table{};
};

// How a search's depth is spent, in internal units: the user's depth is `unit` units, a
// decision costs `decision` and a throw that passes the turn without one costs `pass`. Plies
// (1, 1, 1) for single-throw turns; half plies (2, 1, 2) for throw chains.
struct PlyCosts {
  int unit = 1;
  int decision = 1;
  int pass = 1;
  // Without a time limit, deepening stops before an iteration predicted to pass this many
  // nodes (0: no budget).
  std::uint64_t node_budget = 0;
};
PlyCosts ply_costs(const Engine& engine);

struct SearchStats {
  std::uint64_t nodes = 0;
  int completed_depth = 0;
  double value = 0.5;  // of the chosen move, for the root player
};

class ExpectimaxAgent final : public Agent {
 public:
  explicit ExpectimaxAgent(const ExpectimaxOptions& options);
  ~ExpectimaxAgent() override;

  std::string name() const override;
  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override;

  // The value of `pos` at `depth` for `pov` (the search without the root move loop): tests
  // compare it with a plain expectiminimax. nullopt when stopped.
  std::optional<double> value(const Engine& engine, const Position& pos, int depth, Player pov,
                              const StopToken& stop = {});
  const SearchStats& last_stats() const { return stats_; }

 private:
  void prepare(const Engine& engine, Player pov, const StopToken& stop);
  double search(const Position& p, int depth, double alpha, double beta);
  double leaf(const Position& p);
  double decision(const Position& p, int depth, double alpha, double beta);
  double chance(const Position& p, int depth, double alpha, double beta);
  void order_moves(MoveList& moves, int tt_best) const;
  void store(std::uint64_t key, int depth, double v, double alpha, double beta, int best);
  static bool narrow(const TtEntry& e, double& alpha, double& beta, double& value);
  void poll();

  ExpectimaxOptions options_;
  TranspositionTable tt_;
  std::optional<Evaluator> eval_;
  std::unique_ptr<NetEvaluator> net_eval_;  // with options_.network
  const Engine* engine_ = nullptr;          // of the search under way; eval_ is rebuilt per search
  PlyCosts costs_;
  Player pov_ = Player::kLight;
  const StopToken* stop_ = nullptr;
  bool has_deadline_ = false;
  std::chrono::steady_clock::time_point deadline_{};
  std::uint64_t nodes_ = 0;
  bool aborted_ = false;
  SearchStats stats_;
};

}  // namespace ur::ai
