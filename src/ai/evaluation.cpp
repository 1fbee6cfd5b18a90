#include "ai/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <mutex>
#include <unordered_map>
#include <vector>

namespace ur::ai {
namespace {

using ChainHit = std::array<double, kMaxIndex>;

// P(one whole throw chain offers a sum of exactly d squares), d = 0..N+1: the chain's moving
// throws, any subset of them spent on one piece (the others may go to other pieces). The
// reachable sums of a chain so far form a bit mask; the chain is a Markov chain over masks,
// run until its live probability is negligible. A few thousand masks at most.
ChainHit compute_chain_hit(const Engine& engine) {
  const DiceModel& dice = engine.rules().dice;
  const int off = engine.path_length() + 1;
  const std::uint64_t limit = (std::uint64_t{2} << off) - 1;  // sums 0..off
  ChainHit hit{};
  std::unordered_map<std::uint64_t, double> live{{1, 1.0}};
  auto finish = [&](std::uint64_t mask, double pr) {
    for (int d = 1; d <= off; ++d)
      if (mask >> d & 1) hit[d] += pr;
  };
  for (int step = 0; step < 200 && !live.empty(); ++step) {
    std::unordered_map<std::uint64_t, double> next;
    double mass = 0;
    for (const auto& [mask, pr] : live) {
      for (int k = 0; k <= dice.dice; ++k) {
        const double pk = dice.probability(k) * pr;
        if (pk <= 0) continue;
        const int m = engine.move_value(k);
        const std::uint64_t after = m > 0 ? (mask | mask << m) & limit : mask;
        if (engine.throw_ends_turn(k)) {
          finish(after, pk);
        } else {
          next[after] += pk;
          mass += pk;
        }
      }
    }
    live.swap(next);
    if (mass < 1e-9) break;
  }
  for (const auto& [mask, pr] : live) finish(mask, pr);
  return hit;
}

// The chain table depends only on the dice and the path length; greedy builds an Evaluator
// for every decision, so the table is computed once per dice model and kept.
const ChainHit& chain_hit_table(const Engine& engine) {
  static std::mutex mutex;
  static std::vector<std::pair<std::vector<double>, ChainHit>> cache;
  const DiceModel& dice = engine.rules().dice;
  std::vector<double> key{static_cast<double>(engine.path_length())};
  for (int k = 0; k <= dice.dice; ++k) {
    key.push_back(dice.probability(k));
    key.push_back(engine.move_value(k));
    key.push_back(engine.throw_ends_turn(k) ? 1 : 0);
  }
  const std::lock_guard lock(mutex);
  for (const auto& [k, table] : cache)
    if (k == key) return table;
  cache.emplace_back(key, compute_chain_hit(engine));
  return cache.back().second;
}

// For throw chains: to_go[i] = the expected moving throws a piece of `me` needs from index i to
// bear off (exact bear-off makes the last squares slow; a double square speeds its approach),
// spending only throws that fit: to_go[i] = (1 + sum_fit p_m to_go[dest]) / sum_fit p_m.
std::array<double, kMaxIndex> throws_to_go(const Engine& engine, Player me) {
  const RuleSet& rules = engine.rules();
  const int n = engine.path_length(), off = n + 1;
  std::array<double, kMaxIndex> to_go{};
  double moving = 0;
  for (int k = 0; k <= rules.dice.dice; ++k)
    if (engine.move_value(k) > 0) moving += rules.dice.probability(k);
  for (int i = n; i >= 0; --i) {
    double fit = 0, sum = 0;
    for (int k = 0; k <= rules.dice.dice; ++k) {
      const int m = engine.move_value(k);
      const double pk = rules.dice.probability(k) / moving;
      if (m <= 0 || pk <= 0 || i + m > off) continue;
      int t = i + m;
      if (t < off && (engine.landing(me, t) & land_flag::kDouble) && t + m <= off) t += m;
      fit += pk;
      sum += pk * to_go[t];
    }
    to_go[i] = fit > 0 ? (1 + sum) / fit : to_go[i + 1] + 1;
  }
  return to_go;
}

}  // namespace

EvalWeights greedy_weights() {
  return EvalWeights{};
}

EvalWeights search_weights() {
  EvalWeights w;
  w.tempo = 0.1;
  w.danger = 0.6;
  return w;
}

Evaluator::Evaluator(const Engine& engine, const EvalWeights& w)
    : engine_(&engine),
      w_(w),
      n_(engine.path_length()),
      staging_(engine.has_staging()),
      stacking_(engine.rules().stacking),
      chain_(engine.rules().turn_mode == TurnMode::kThrowChain) {
  const RuleSet& rules = engine.rules();
  const int off = n_ + 1;
  if (chain_) chain_hit_ = chain_hit_table(engine);
  for (int pl = 0; pl < 2; ++pl) {
    const Player me = static_cast<Player>(pl);
    const Player enemy = other(me);
    // Throw chains: progress as the share of the expected moving throws to bear off that is
    // done.
    std::array<double, kMaxIndex> to_go{};
    if (chain_) to_go = throws_to_go(engine, me);
    // Does the enemy's path cross square c at all? Only such squares need safety.
    auto enemy_indices = [&](Cell c, std::array<std::int8_t, 2>& out) {
      out = {-1, -1};
      int found = 0;
      for (int t = 1; t <= n_ && found < 2; ++t)
        if (engine.cell_at(enemy, t) == c) out[found++] = static_cast<std::int8_t>(t);
      return found;
    };
    for (int i = 0; i <= off; ++i) {
      hit_at_[pl][i] = {-1, -1};
      double v = 0;
      if (i == off) {
        v = (chain_ ? w_.chain_borne_off : w_.borne_off) + (staging_ ? w_.staged : 0.0);
      } else if (i == 0) {
        v = staging_ ? w_.staged : 0.0;
      } else {
        // Staging presets: every entered counter (on S or the path) carries the bonus.
        const double done = chain_ ? (to_go[0] - to_go[i]) / to_go[0] : static_cast<double>(i) / n_;
        v = w_.progress * done + (staging_ ? w_.staged : 0.0);
        const Cell c = engine.cell_at(me, i);
        std::array<std::int8_t, 2> ts{};
        if (c != kNoCell && enemy_indices(c, ts) > 0) {
          if (engine.landing(me, i) & land_flag::kSafe) v += w_.safe;
          int k = 0;
          for (std::int8_t t : ts) {
            if (t < 0) continue;
            const std::uint8_t land = engine.landing(enemy, t);
            if ((land & land_flag::kCapture) && !(land & land_flag::kSafe)) hit_at_[pl][i][k++] = t;
          }
        }
      }
      piece_value_[pl][i] = v;
    }
    // One throw from s to t: ordinary moves by move value; from "not entered" (index 0 in
    // the non-staging presets) only with a throw that may enter, onto the entry index.
    for (int k = 0; k <= rules.dice.dice; ++k) {
      const double pk = rules.dice.probability(k);
      const int m = engine.move_value(k);
      if (m <= 0 || pk <= 0) continue;
      for (int s = 0; s <= n_; ++s) {
        int t = s + m;
        if (s == 0 && !staging_) {
          if (!rules.dice.by_k[k].may_enter) continue;
          if (rules.entry == EntryTarget::kFixedIndex) t = rules.entry_index;
        }
        if (t >= 1 && t <= n_) reach_[pl][s][t] += static_cast<float>(pk);
      }
    }
  }
}

double Evaluator::side_score(const Position& p, int me, bool owner) const {
  const int op = 1 - me;
  double score = 0;
  // Calls f(s, t) for every enemy piece at its index s behind a square it hits at index t,
  // for each square (t) where my piece at index i can be hit.
  auto for_each_attacker = [&](int i, auto&& f) {
    for (std::int8_t t : hit_at_[me][i]) {
      if (t < 0) break;
      std::uint32_t attackers = p.occ[op] & ((1u << t) - 1);
      while (attackers) {
        const int s = std::countr_zero(attackers);
        attackers &= attackers - 1;
        f(s, static_cast<int>(t));
      }
    }
  };
  // Pieces on the path and borne off; index 0 counts 0 unless it is the staging space.
  std::uint32_t occ = p.occ[me];
  while (occ) {
    const int i = std::countr_zero(occ);
    occ &= occ - 1;
    const int cnt = p.count[me][i];
    score += piece_value_[me][i] * cnt;
    if (i == 0 && staging_ && cnt > 1) score -= w_.crowd * (cnt - 1);
    if (i == 0 || hit_at_[me][i][0] < 0) continue;
    if (stacking_ && cnt >= 2) continue;  // a stack bounces the attacker
    if (chain_) {
      // The enemy's whole chain (now if the chain under way is his, else next) threatens
      // the piece; the attackers are taken as independent.
      double survive = 1;
      for_each_attacker(i, [&](int s, int t) { survive *= 1 - chain_hit_[t - s]; });
      const double weight = w_.chain_danger * (owner ? w_.chain_own : 1.0);
      score -= weight * (1 - survive) * (piece_value_[me][i] + w_.danger_base);
      continue;
    }
    double threat = 0;
    for_each_attacker(i, [&](int s, int t) { threat += reach_[op][s][t]; });
    if (threat > 0)
      score -= w_.danger * std::min(1.0, threat) * (piece_value_[me][i] + w_.danger_base);
  }
  score += piece_value_[me][n_ + 1] * p.count[me][n_ + 1];
  return score;
}

double Evaluator::score_difference(const Position& p, Player me) const {
  const int mi = index_of(me);
  // Throw chains: whose chain is under way (an award or forfeit response interrupts it).
  const bool award_or_forfeit =
      p.phase == Phase::kAwaitingAward || p.phase == Phase::kAwaitingForfeit;
  const Player owner = award_or_forfeit ? p.next : p.turn;
  double d = side_score(p, mi, owner == me) - side_score(p, 1 - mi, owner != me);
  if (chain_) d += owner == me ? w_.chain_tempo : -w_.chain_tempo;
  if (p.is_chance()) {
    if (chain_) return d;
    d += p.turn == me ? w_.tempo : -w_.tempo;
  } else if (p.is_decision()) {
    // The player to decide holds a move in hand: roughly its squares of progress (a forfeit
    // response is a free move for the opponent; an award a counter onto S).
    double in_hand = w_.staged;
    if (p.phase == Phase::kAwaitingMove)
      in_hand = w_.progress * engine_->move_value(p.roll) / n_;
    else if (p.phase == Phase::kAwaitingForfeit)
      in_hand = w_.progress * engine_->rules().forfeit_move / n_;
    d += p.turn == me ? in_hand : -in_hand;
  }
  return d;
}

double Evaluator::win_probability(const Position& p, Player me) const {
  if (p.is_over()) return p.turn == me ? 1.0 : 0.0;
  return 1.0 / (1.0 + std::exp(-score_difference(p, me) / w_.scale));
}

}  // namespace ur::ai
