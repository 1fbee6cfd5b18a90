#include "ai/expectimax.h"

#include "ai/network.h"

#include <fmt/format.h>
#include <algorithm>
#include <cassert>

namespace ur::ai {
namespace {

constexpr int kPollInterval = 256;  // nodes between looks at the clock and the stop token
// Throw chains, without a time limit: the node budget of a decision (ply_costs()).
constexpr std::uint64_t kChainNodeBudget = 50'000;

// The Markov state of two positions is equal (the masks follow from the counts).
bool same_state(const Position& a, const Position& b) {
  return a.count == b.count && a.pool == b.pool && a.turn == b.turn && a.next == b.next &&
         a.phase == b.phase && a.roll == b.roll;
}

}  // namespace

ExpectimaxAgent::ExpectimaxAgent(const ExpectimaxOptions& options)
    : options_(options), tt_(options.tt_bits) {}

ExpectimaxAgent::~ExpectimaxAgent() = default;

std::string ExpectimaxAgent::name() const {
  if (options_.network) {
    std::string name = fmt::format("net(depth={}", options_.depth);
    if (options_.time_ms > 0) name += fmt::format(",time_ms={}", options_.time_ms);
    if (!options_.network_file.empty()) name += ",file=" + options_.network_file;
    return name + ")";
  }
  if (options_.time_ms > 0)
    return fmt::format("expectimax(depth={},time_ms={})", options_.depth, options_.time_ms);
  return fmt::format("expectimax(depth={})", options_.depth);
}

PlyCosts ply_costs(const Engine& engine) {
  PlyCosts c;
  if (engine.rules().turn_mode == TurnMode::kThrowChain) {
    c = PlyCosts{.unit = 2, .decision = 1, .pass = 2, .node_budget = kChainNodeBudget};
  }
  return c;
}

void ExpectimaxAgent::prepare(const Engine& engine, Player pov, const StopToken& stop) {
  if (options_.network && (!net_eval_ || engine_ != &engine))
    net_eval_ = std::make_unique<NetEvaluator>(engine, options_.network);
  engine_ = &engine;
  costs_ = ply_costs(engine);
  eval_.emplace(engine, options_.weights);
  pov_ = pov;
  stop_ = &stop;
  nodes_ = 0;
  aborted_ = false;
  tt_.new_search();
  has_deadline_ = options_.time_ms > 0;
  if (has_deadline_)
    deadline_ = std::chrono::steady_clock::now() + std::chrono::milliseconds(options_.time_ms);
}

void ExpectimaxAgent::poll() {
  if ((stop_ != nullptr && stop_->stop_requested()) ||
      (has_deadline_ && std::chrono::steady_clock::now() >= deadline_))
    aborted_ = true;
}

std::optional<double> ExpectimaxAgent::value(const Engine& engine, const Position& pos, int depth,
                                             Player pov, const StopToken& stop) {
  prepare(engine, pov, stop);
  const double v = search(pos, depth * costs_.unit, 0.0, 1.0);
  stats_.nodes = nodes_;
  if (aborted_) return std::nullopt;
  return v;
}

Move ExpectimaxAgent::choose(const Engine& engine, const Position& pos, const StopToken& stop) {
  MoveList moves;
  engine.legal_moves(pos, moves);
  assert(!moves.empty());
  stats_ = SearchStats{};
  if (moves.size == 1) return moves[0];
  prepare(engine, pos.turn, stop);
  const auto start = std::chrono::steady_clock::now();
  order_moves(moves, -1);
  int best = 0;  // index into `moves`, which keeps the best move found so far first
  std::uint64_t last_iteration = 0;
  for (int depth = 1; depth <= options_.depth; ++depth) {
    const std::uint64_t nodes_before = nodes_;
    int iteration_best = -1;
    double best_value = -1.0;
    for (int i = 0; i < moves.size; ++i) {
      Position child = pos;
      engine.apply_move(child, moves[i]);
      // Only a strictly better move is of interest: a null window at the best so far.
      const double v =
          search(child, depth * costs_.unit - costs_.decision, std::max(best_value, 0.0), 1.0);
      if (aborted_) break;
      if (v > best_value) {
        best_value = v;
        iteration_best = i;
      }
    }
    // A cut-short iteration still counts if it finished the previous best move (searched
    // first): whatever it preferred is at least as good at the deeper depth.
    if (iteration_best >= 0) {
      best = iteration_best;
      stats_.value = best_value;
    }
    if (aborted_) break;
    stats_.completed_depth = depth;
    // The best move goes first for the next iteration; the rest keep their order.
    const Move m = moves[best];
    for (int i = best; i > 0; --i) moves.items[i] = moves.items[i - 1];
    moves.items[0] = m;
    best = 0;
    if (has_deadline_) {
      // The next iteration costs several times this one: do not start what cannot finish.
      const auto spent = std::chrono::steady_clock::now() - start;
      if (spent * 3 > std::chrono::milliseconds(options_.time_ms)) break;
    } else if (costs_.node_budget > 0 && depth < options_.depth) {
      // Throw chains: the rare position whose tree explodes (long forced chains, many
      // counters) stops deepening when the next iteration would pass the node budget. The
      // growth is the ratio of the last two iterations, at least 4 (after the first one: its
      // own node count). Counted in nodes, so the choice stays deterministic.
      const std::uint64_t iteration = nodes_ - nodes_before;
      const double growth = std::max(
          4.0, static_cast<double>(iteration) / std::max<std::uint64_t>(last_iteration, 1));
      if (static_cast<double>(nodes_) + growth * static_cast<double>(iteration) >
          static_cast<double>(costs_.node_budget))
        break;
      last_iteration = iteration;
    }
  }
  stats_.nodes = nodes_;
  return moves[best];
}

double ExpectimaxAgent::search(const Position& p, int depth, double alpha, double beta) {
  if (p.is_over()) return p.turn == pov_ ? 1.0 : 0.0;
  if (options_.table && p.phase == Phase::kAwaitingRoll && options_.table->covers(p))
    return options_.table->value(p, pov_);
  if (depth <= 0) return leaf(p);
  if (++nodes_ % kPollInterval == 0) poll();
  if (aborted_) return 0.5;  // ignored: the caller discards an aborted iteration
  return p.is_chance() ? chance(p, depth, alpha, beta) : decision(p, depth, alpha, beta);
}

double ExpectimaxAgent::leaf(const Position& p) {
  return net_eval_ ? net_eval_->win_probability(p, pov_) : eval_->win_probability(p, pov_);
}

// Cheap move ordering: the table's best move, then captures, bearing off, rosettes, progress.
void ExpectimaxAgent::order_moves(MoveList& moves, int tt_best) const {
  std::array<int, MoveList::kCapacity> key{};
  std::array<std::uint8_t, MoveList::kCapacity> idx{};
  for (int i = 0; i < moves.size; ++i) {
    const Move& m = moves[i];
    int k = m.to;
    if (m.flags & move_flag::kCapture) k += 400;
    if (m.flags & move_flag::kScores) k += 300;
    if (m.flags & move_flag::kRosette) k += 200;
    if (m.flags & move_flag::kBounce) k -= 400;
    if (m.kind == MoveKind::kAwardYes) k += 500;
    if (i == tt_best) k += 10000;
    key[i] = k;
    idx[i] = static_cast<std::uint8_t>(i);
  }
  // Insertion sort, stable: at most a handful of moves.
  for (int i = 1; i < moves.size; ++i) {
    const std::uint8_t x = idx[i];
    int j = i - 1;
    while (j >= 0 && key[idx[j]] < key[x]) {
      idx[j + 1] = idx[j];
      --j;
    }
    idx[j + 1] = x;
  }
  MoveList sorted;
  for (int i = 0; i < moves.size; ++i) sorted.push(moves[idx[i]]);
  moves = sorted;
}

double ExpectimaxAgent::decision(const Position& p, int depth, double alpha, double beta) {
  const std::uint64_t key = position_hash(p);
  MoveList moves;
  engine_->legal_moves(p, moves);
  int tt_best = -1;
  if (const TtEntry* e = tt_.probe(key)) {
    tt_best = e->best < moves.size ? e->best : -1;
    if (double v; e->depth == depth && narrow(*e, alpha, beta, v)) return v;
  }
  const double alpha0 = alpha, beta0 = beta;
  // The table stores the best move's index in generation order; search in a better order.
  const MoveList original = moves;
  order_moves(moves, tt_best);
  const bool maximise = p.turn == pov_;
  double best = maximise ? -1.0 : 2.0;
  int best_index = 0;
  for (int i = 0; i < moves.size; ++i) {
    Position child = p;
    engine_->apply_move(child, moves[i]);
    const double v = search(child, depth - costs_.decision, alpha, beta);
    if (aborted_) return 0.5;
    if (maximise ? v > best : v < best) {
      best = v;
      best_index = i;
    }
    if (maximise) {
      alpha = std::max(alpha, v);
      if (best >= beta) break;
    } else {
      beta = std::min(beta, v);
      if (best <= alpha) break;
    }
  }
  store(key, depth, best, alpha0, beta0, index_of_move(original, moves[best_index]));
  return best;
}

// Uses a stored entry of the same depth: true (with the value) when its bounds decide the
// node, else the window narrowed to them.
bool ExpectimaxAgent::narrow(const TtEntry& e, double& alpha, double& beta, double& value) {
  if (e.lower >= beta || e.lower == e.upper) {
    value = e.lower;
    return true;
  }
  if (e.upper <= alpha) {
    value = e.upper;
    return true;
  }
  alpha = std::max(alpha, e.lower);
  beta = std::min(beta, e.upper);
  return false;
}

// Fail-soft bounds: a value at or beyond an edge of the window it was searched with is only
// a bound on the true value.
void ExpectimaxAgent::store(std::uint64_t key, int depth, double v, double alpha, double beta,
                            int best) {
  double lo = v, hi = v;
  if (v <= alpha)
    lo = 0.0;
  else if (v >= beta)
    hi = 1.0;
  tt_.store(key, depth, lo, hi, best);
}

double ExpectimaxAgent::chance(const Position& p, int depth, double alpha, double beta) {
  const std::uint64_t key = position_hash(p);
  if (const TtEntry* e = tt_.probe(key); e != nullptr && e->depth == depth) {
    if (double v; narrow(*e, alpha, beta, v)) return v;
  }
  const double alpha0 = alpha, beta0 = beta;
  const ChanceList outcomes = engine_->chance_outcomes(p);
  std::array<Position, kMaxDice + 2> children;
  std::array<double, kMaxDice + 2> prob{};
  std::array<std::int8_t, kMaxDice + 2> child_depth{};
  int n = 0;
  double live = 0;  // the probability of the outcomes that are not self-loops
  MoveList scratch;
  for (const ChanceOutcome& o : outcomes) {
    Position& c = children[n];
    c = p;
    engine_->apply_throw(c, o.outcome, scratch);
    if (same_state(c, p)) continue;
    prob[n] = o.probability;
    // A throw that hands the turn over without a decision is a ply of its own.
    child_depth[n] = static_cast<std::int8_t>(c.is_chance() ? depth - costs_.pass : depth);
    live += o.probability;
    ++n;
  }
  if (n == 0) return leaf(p);
  // Star1: with every value in [0, 1], after the first i outcomes the average lies in
  // [sum, sum + rest]; each child gets the window that could still move it across an edge.
  double sum = 0, rest = 1;
  for (int i = 0; i < n; ++i) {
    const double q = prob[i] / live;
    rest -= q;
    const double a = (alpha - sum - rest) / q;
    const double b = (beta - sum) / q;
    const double v = search(children[i], child_depth[i], std::max(a, 0.0), std::min(b, 1.0));
    if (aborted_) return 0.5;
    if (v <= a) {  // even the best case of the rest leaves the average below alpha
      const double bound = sum + q * v + std::max(rest, 0.0);
      store(key, depth, bound, alpha0, beta0, 0);
      return bound;
    }
    sum += q * v;
    if (v >= b) {  // even the worst case of the rest leaves it above beta
      store(key, depth, sum, alpha0, beta0, 0);
      return sum;
    }
  }
  store(key, depth, sum, alpha0, beta0, 0);
  return sum;
}

}  // namespace ur::ai
