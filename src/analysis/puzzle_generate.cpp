#include "analysis/puzzle_generate.h"

#include <chrono>
#include <stdexcept>

#include "engine/notation.h"
#include "engine/random.h"

namespace ur::analysis {
namespace {

std::unique_ptr<ai::Agent> agent_or_throw(const char* spec, const RuleSet& rules,
                                          std::uint64_t seed) {
  ai::AgentResult r = ai::make_agent(spec, rules, seed);
  if (auto* e = std::get_if<Error>(&r)) throw std::invalid_argument(e->message);
  return std::move(std::get<std::unique_ptr<ai::Agent>>(r));
}

}  // namespace

PuzzleGenerator::PuzzleGenerator(ValueSource& source, GenerateOptions options)
    : source_(source),
      options_(options),
      engine_(std::make_shared<const Engine>(source.engine().rules())) {
  const RuleSet& rules = engine_->rules();
  beginner_ = agent_or_throw("random", rules, options.seed);
  easy_ = agent_or_throw("greedy", rules, options.seed + 1);
  medium_ = agent_or_throw("expectimax(depth=2)", rules, options.seed + 2);
}

Move PuzzleGenerator::pick(ai::Agent& agent, const Position& p) {
  return agent.choose(*engine_, p, {});
}

bool PuzzleGenerator::offer(const Position& p, const std::string& origin) {
  if (p.phase != Phase::kAwaitingMove) return false;
  ++stats_.decisions;
  std::string key = to_position_string(*engine_, p);
  if (!seen_.insert(std::move(key)).second) {
    ++stats_.duplicates;
    return false;
  }
  const auto start = std::chrono::steady_clock::now();
  std::optional<Puzzle> z = grade_puzzle(source_, p, options_.margin);
  stats_.grade_seconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ++stats_.graded;
  if (!z) {
    ++stats_.no_margin;
    return false;
  }
  const Move& best = z->moves[z->best].move;
  z->misses.easy = !(pick(*easy_, p) == best);
  z->misses.medium = !(pick(*medium_, p) == best);
  if (!z->misses.easy && !z->misses.medium) {
    ++stats_.trivial;
    return false;
  }
  z->difficulty = puzzle_difficulty(z->misses);
  z->origin = origin;
  puzzles_.push_back(std::move(*z));
  return true;
}

void PuzzleGenerator::offer_game(const Game& game) {
  Game g(engine_, game.start_position());
  for (const GameEvent& ev : game.events()) {
    if (ev.type == GameEvent::Type::kResign) break;
    if (ev.type == GameEvent::Type::kThrow) {
      if (!g.apply_throw(ev.outcome).ok()) return;
      continue;
    }
    offer(g.position(), "record");
    if (!g.apply_move(ev.move).ok()) return;
  }
}

void PuzzleGenerator::self_play(std::size_t count, std::uint64_t max_games) {
  ai::Agent* mix[] = {beginner_.get(), easy_.get(), medium_.get()};
  Rng dice(options_.seed);
  for (std::uint64_t n = 0; puzzles_.size() < count && n < max_games; ++n) {
    ai::Agent* side[] = {mix[n % 3], mix[(n / 3) % 3]};
    Game g(engine_);
    while (!g.is_over() && puzzles_.size() < count) {
      if (g.awaiting_throw()) {
        g.roll(dice);
        continue;
      }
      offer(g.position(), "self-play");
      const Move m = pick(*side[index_of(g.to_act())], g.position());
      if (!g.apply_move(m).ok()) break;
    }
    ++stats_.games;
  }
}

}  // namespace ur::analysis
