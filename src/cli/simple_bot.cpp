#include "cli/simple_bot.h"

#include <algorithm>
#include <array>
#include <cassert>

namespace ur::cli {
namespace {

// Hand-set weights; only their order matters much (see the header).
constexpr double kWin = 1000;
constexpr double kBearOff = 40;
constexpr double kCapture = 35;
constexpr double kRosette = 25;
constexpr double kBounce = -50;
constexpr double kForfeitGiven = -10;  // landing on a forfeit square hands the enemy a move
constexpr double kLeaveSafeRosette = -8;
constexpr double kExposure = -30;  // per unit of (hit chance x piece weight)
constexpr double kProgress = 1;    // per path square

// P(a single throw moves exactly d squares), for d = 0..kMaxIndex-1.
std::array<double, kMaxIndex> move_chances(const Engine& e) {
  std::array<double, kMaxIndex> out{};
  const DiceModel& dice = e.rules().dice;
  for (int k = 0; k <= dice.dice; ++k) {
    const int m = e.move_value(k);
    if (m > 0 && m < kMaxIndex) out[m] += dice.probability(k);
  }
  return out;
}

double entry_chance(const Engine& e) {
  double p = 0;
  const DiceModel& dice = e.rules().dice;
  for (int k = 0; k <= dice.dice; ++k)
    if (dice.by_k[k].may_enter && e.move_value(k) > 0) p += dice.probability(k);
  return p;
}

// How much of `me`'s army the enemy could hit with his next throw: each piece's chance of
// being hit, weighted up the further it has come.
double exposure(const Engine& e, const Position& p, Player me) {
  const std::array<double, kMaxIndex> chance = move_chances(e);
  const RuleSet& rules = e.rules();
  const int n = e.path_length(), mi = index_of(me), op = 1 - mi;
  const Player enemy = other(me);
  double total = 0;
  for (int i = 1; i <= n; ++i) {
    const int cnt = p.count[mi][i];
    if (cnt == 0) continue;
    if (rules.stacking && cnt >= 2) continue;  // a stack cannot be hit
    const Cell c = e.cell_at(me, i);
    double threat = 0;
    for (int j = 1; j <= n; ++j) {
      if (e.cell_at(enemy, j) != c) continue;
      const std::uint8_t land = e.landing(enemy, j);
      if ((land & land_flag::kSafe) || !(land & land_flag::kCapture)) continue;
      for (int s = 0; s < j; ++s) {
        if (p.count[op][s] == 0) continue;
        if (s == 0 && !e.has_staging()) {
          if (rules.entry == EntryTarget::kMoveValue)
            threat += chance[j];
          else if (rules.entry == EntryTarget::kFixedIndex && j == rules.entry_index)
            threat += entry_chance(e);
          continue;
        }
        threat += chance[j - s];
      }
    }
    total += std::min(1.0, threat) * cnt * (1.0 + static_cast<double>(i) / n);
  }
  return total;
}

// The sum of the path indices of me's pieces; pieces still waiting count -1 in staging sets.
int progress(const Engine& e, const Position& p, Player me) {
  const int mi = index_of(me);
  int sum = -static_cast<int>(p.pool[mi]);
  for (int i = 1; i <= e.off_index(); ++i) sum += i * p.count[mi][i];
  return sum;
}

double score_move(const Engine& e, const Position& pos, const Move& m) {
  const Player me = pos.turn;
  Position q = pos;
  const MoveEffects fx = e.apply_move(q, m);
  if (fx.won) return kWin;
  double s = kBearOff * fx.borne_off + kCapture * fx.captures + kRosette * fx.rosettes +
             kBounce * fx.bounces;
  if (fx.forfeit) s += kForfeitGiven;
  if (m.from >= 1 && m.from <= e.path_length()) {
    const std::uint8_t land = e.landing(me, m.from);
    if ((land & land_flag::kSafe) && (land & land_flag::kRosette)) s += kLeaveSafeRosette;
  }
  s += kExposure * (exposure(e, q, me) - exposure(e, pos, me));
  s += kProgress * (progress(e, q, me) - progress(e, pos, me));
  return s;
}

}  // namespace

int choose_simple_move(const Engine& engine, const Position& pos, const MoveList& moves, Rng& rng) {
  assert(!moves.empty());
  if (pos.phase == Phase::kAwaitingAward) {
    for (int i = 0; i < moves.size; ++i)
      if (moves[i].kind == MoveKind::kAwardYes) return i;
    return 0;
  }
  std::array<int, MoveList::kCapacity> best{};
  int n_best = 0;
  double best_score = 0;
  for (int i = 0; i < moves.size; ++i) {
    const double s = score_move(engine, pos, moves[i]);
    if (n_best == 0 || s > best_score + 1e-9) {
      best_score = s;
      n_best = 0;
      best[n_best++] = i;
    } else if (s > best_score - 1e-9) {
      best[n_best++] = i;
    }
  }
  return best[n_best == 1 ? 0 : rng.below(static_cast<std::uint32_t>(n_best))];
}

}  // namespace ur::cli
