// Evaluation: a heuristic win probability for positions the search cannot see to the end.
//
// Built once per Engine (it reads only the engine's tables: dice probabilities, move values,
// landing flags, which squares the two paths share), then evaluate() is allocation-free and
// costs a few hundred nanoseconds. The score of a player is a sum over his pieces:
//
//   progress    kProgress x (path index / path length) per piece on the path; a piece borne
//               off counts kBorneOff instead; a piece not yet entered counts 0. Staging
//               presets add kStaged to every entered counter (on S or on the path): only a
//               3-dot throw or a rosette award brings a counter in, and a hit sends it out
//   safety      kSafe for a piece on a safe square that the enemy's path also crosses (the
//               central rosette): it holds the square and cannot be hit
//   danger      -kDanger x P(hit next throw) x (its progress + kDangerBase) for a piece the
//               enemy can land on: P(hit) sums, over the enemy pieces behind it, the chance of
//               throwing exactly the distance (capped at 1)
//   tempo       kTempo for the player whose throw it is (at a chance node), since the turn is
//               worth having
//
// Throw-chain rule sets (bell, boxed: a turn is throws until a turn-ending one) differ:
//
//   progress    the share done of the expected moving throws a piece needs to bear off (exact
//               bear-off makes the last squares slow, a double square speeds its approach),
//               instead of i/N; a piece borne off counts kChainBorneOff (plus kStaged when
//               staging: it was entered too)
//   danger      -kChainDanger x P(hit) x (value + kDangerBase), where P(hit) is the chance that
//               the enemy's whole chain offers the exact distance from some piece behind (any
//               subset of its moving throws; attackers independent). The pieces of the chain's
//               owner (whose chain is under way) get kChainOwn of it: he may still move them
//   tempo       kChainTempo for the owner of the chain under way, at every node (the rest of a
//               chain is worth the same from any throw)
//   crowd       staging presets: -kCrowd per counter on S after the first (they wait for the
//               same throws)
//
// and the win probability of `me` is logistic((score(me) - score(enemy)) / kScale). Finished
// games are exact (1 or 0). The weights were tuned with short tournaments (docs/ai.md).
#pragma once

#include <array>

#include "engine/engine.h"

namespace ur::ai {

struct EvalWeights {
  double progress = 1.0;     // a piece's whole path, start to last square
  double borne_off = 1.35;   // a piece borne off
  double staged = 0.6;       // staging presets: an entered counter (on S or the path)
  double safe = 0.25;        // a piece on a shared safe square
  double danger = 0.9;       // per unit of P(hit) x (progress + danger_base)
  double danger_base = 0.3;  // losing even a fresh piece costs a tempo
  double tempo = 0.25;       // the player to throw
  double scale = 1.6;        // logistic scale: score units per e-fold of odds
  // Throw-chain rule sets (bell, boxed) replace danger and tempo with these:
  double chain_danger = 0.5;     // per unit of P(hit in the enemy's chain) x (value + danger_base)
  double chain_own = 0.5;        // share of it for the chain owner's pieces (he may move them yet)
  double chain_borne_off = 0.9;  // a piece borne off (with staging: plus staged)
  double chain_tempo = 0.3;      // the rest of the chain under way, for its owner
  double crowd = 0.2;            // staging presets: less per counter waiting on S after the first
};

// The tuned weights (docs/ai.md). Greedy uses the defaults above; the search's leaves value
// the turn less and danger less (tempo 0.1, danger 0.6), since the search itself sees the
// next throws: expectimax(depth=2) against greedy on Finkel went from 60% to 67% with them.
EvalWeights greedy_weights();
EvalWeights search_weights();

class Evaluator {
 public:
  explicit Evaluator(const Engine& engine, const EvalWeights& w = EvalWeights{});

  // P(`me` wins) in [0, 1]; exact for finished games.
  double win_probability(const Position& p, Player me) const;
  // score(me) - score(enemy) in the weights' units (before the logistic).
  double score_difference(const Position& p, Player me) const;
  const EvalWeights& weights() const { return w_; }

 private:
  double side_score(const Position& p, int me, bool owner) const;

  const Engine* engine_;
  EvalWeights w_;
  int n_ = 14;
  bool staging_ = false;
  bool stacking_ = false;
  bool chain_ = false;  // throw-chain turns (bell, boxed)
  // Throw chains: P(the chain's moving throws offer a sum of exactly d), by distance d.
  std::array<double, kMaxIndex> chain_hit_{};
  // piece_value_[p][i]: progress (+ safety) of one piece of p at index i, 0..N+1.
  std::array<std::array<double, kMaxIndex>, 2> piece_value_{};
  // For a piece of p at index i: the (up to two) indices of the enemy's path on the same
  // square where the enemy may land to hit it; -1 when none.
  std::array<std::array<std::array<std::int8_t, 2>, kMaxIndex>, 2> hit_at_{};
  // reach_[p][s][t]: P(one throw takes a piece of p from index s to index t).
  std::array<std::array<std::array<float, kMaxIndex>, kMaxIndex>, 2> reach_{};
};

}  // namespace ur::ai
