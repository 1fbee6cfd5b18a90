#include "ai/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ur::ai {

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
      stacking_(engine.rules().stacking) {
  const RuleSet& rules = engine.rules();
  const int off = n_ + 1;
  for (int pl = 0; pl < 2; ++pl) {
    const Player me = static_cast<Player>(pl);
    const Player enemy = other(me);
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
        v = w_.borne_off;
      } else if (i == 0) {
        v = staging_ ? w_.staged : 0.0;
      } else {
        // Staging presets: every entered counter (on S or the path) carries the bonus.
        v = w_.progress * i / n_ + (staging_ ? w_.staged : 0.0);
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

double Evaluator::side_score(const Position& p, int me) const {
  const int op = 1 - me;
  double score = 0;
  // Pieces on the path and borne off; index 0 counts 0 unless it is the staging space.
  std::uint32_t occ = p.occ[me];
  while (occ) {
    const int i = std::countr_zero(occ);
    occ &= occ - 1;
    const int cnt = p.count[me][i];
    score += piece_value_[me][i] * cnt;
    if (i == 0 || hit_at_[me][i][0] < 0) continue;
    if (stacking_ && cnt >= 2) continue;  // a stack bounces the attacker
    double threat = 0;
    for (std::int8_t t : hit_at_[me][i]) {
      if (t < 0) break;
      std::uint32_t attackers = p.occ[op] & ((1u << t) - 1);
      while (attackers) {
        const int s = std::countr_zero(attackers);
        attackers &= attackers - 1;
        threat += reach_[op][s][t];
      }
    }
    if (threat > 0)
      score -= w_.danger * std::min(1.0, threat) * (piece_value_[me][i] + w_.danger_base);
  }
  score += piece_value_[me][n_ + 1] * p.count[me][n_ + 1];
  return score;
}

double Evaluator::score_difference(const Position& p, Player me) const {
  const int mi = index_of(me);
  double d = side_score(p, mi) - side_score(p, 1 - mi);
  if (p.is_chance()) {
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
