// The simple agents: random, first and greedy.
//
// random picks uniformly among the legal moves with its own seeded generator; first plays
// the first legal move in the engine's order (a fixed baseline for tests and benchmarks);
// greedy looks one ply ahead: it applies each legal move and keeps the one whose resulting
// position the evaluation (evaluation.h) likes best for the mover, breaking exact ties at
// random. Through the evaluation it values, in this order, winning, bearing off, capturing
// (the enemy's progress drops), landing on a rosette (the extra throw is the tempo term, a
// shared safe rosette adds the safety term), leaving no piece in reach of an enemy, and
// progress. It decides the boxed game's award and forfeit responses the same way.
#pragma once

#include "ai/agent.h"
#include "ai/evaluation.h"
#include "engine/random.h"

namespace ur::ai {

class RandomAgent final : public Agent {
 public:
  explicit RandomAgent(std::uint64_t seed) : rng_(seed) {}
  std::string name() const override { return "random"; }
  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override;

 private:
  Rng rng_;
};

class FirstAgent final : public Agent {
 public:
  std::string name() const override { return "first"; }
  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override;
};

class GreedyAgent final : public Agent {
 public:
  GreedyAgent(std::uint64_t seed, const EvalWeights& weights) : rng_(seed), weights_(weights) {}
  std::string name() const override { return "greedy"; }
  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override;

 private:
  Rng rng_;
  EvalWeights weights_;
};

}  // namespace ur::ai
