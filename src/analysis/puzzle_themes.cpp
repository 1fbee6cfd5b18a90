#include "analysis/puzzle_themes.h"

#include <array>

namespace ur::analysis {
namespace {

constexpr std::array<std::string_view, kThemeCount> kNames = {
    "capture", "escape", "rosette", "blockade", "entering", "race", "bear-off", "safety"};

constexpr std::array<std::string_view, kThemeCount> kReasons = {
    "it hits an enemy piece",
    "it takes a threatened piece out of reach",
    "it lands on a rosette and throws again",
    "it holds the centre rosette, blocking the enemy's way",
    "it brings a new piece onto the board",
    "it is a pure race: only speed counts",
    "it bears a piece off",
    "it leaves no piece the enemy can hit",
};

// Cells (bit c) holding pieces of `pl` on its path.
std::uint64_t occupied_cells(const Engine& e, const Position& p, Player pl) {
  std::uint64_t cells = 0;
  for (int i = 1; i <= e.path_length(); ++i)
    if (p.count[index_of(pl)][i] > 0) cells |= std::uint64_t{1} << e.cell_at(pl, i);
  return cells;
}

bool on_path(const Engine& e, Player pl, Cell c) {
  for (int i = 1; i <= e.path_length(); ++i)
    if (e.cell_at(pl, i) == c) return true;
  return false;
}

// Path indices of `pl` that are a rosette the other player's path also crosses.
std::uint32_t centre_rosettes(const Engine& e, Player pl) {
  std::uint32_t bits = 0;
  for (int i = 1; i <= e.path_length(); ++i)
    if ((e.landing(pl, i) & land_flag::kRosette) && on_path(e, other(pl), e.cell_at(pl, i)))
      bits |= 1u << i;
  return bits;
}

// Whether `attacker` could ever land on a piece of the other side: one of its pieces (a piece
// not yet entered counts from index 0) has a hittable square holding an enemy piece ahead.
bool can_reach(const Engine& e, const Position& p, Player attacker) {
  const std::uint64_t enemy = occupied_cells(e, p, other(attacker));
  const int a = index_of(attacker);
  int from = -1;  // the rearmost piece: every square ahead of any piece is ahead of it
  if (e.waiting(p, attacker) > 0) from = 0;
  for (int i = 1; i <= e.path_length() && from < 0; ++i)
    if (p.count[a][i] > 0) from = i;
  if (from < 0) return false;
  for (int t = from + 1; t <= e.path_length(); ++t) {
    const std::uint8_t f = e.landing(attacker, t);
    if ((f & land_flag::kCapture) && !(f & land_flag::kSafe) &&
        (enemy >> e.cell_at(attacker, t) & 1))
      return true;
  }
  return false;
}

bool any_other_move_threatened(const Engine& e, const Position& p, const Move& best) {
  MoveList legal;
  e.legal_moves(p, legal);
  for (const Move& m : legal) {
    if (m == best) continue;
    Position q = p;
    e.apply_move(q, m);
    if (threatened(e, q, p.turn) != 0) return true;
  }
  return false;
}

bool keeps_blockade(const Engine& e, const Position& p, const Move& best) {
  const std::uint32_t centre = centre_rosettes(e, p.turn);
  if (best.to <= e.path_length() && (centre >> best.to & 1)) return true;
  const std::uint32_t held = p.occ[index_of(p.turn)] & centre;
  if (held == 0 || (best.from > 0 && (held >> best.from & 1))) return false;
  MoveList legal;
  e.legal_moves(p, legal);
  for (const Move& m : legal)
    if (m.from > 0 && (held >> m.from & 1)) return true;
  return false;
}

}  // namespace

std::string_view theme_name(Theme t) {
  return kNames[static_cast<int>(t)];
}

bool theme_from_name(std::string_view name, Theme& out) {
  for (int i = 0; i < kThemeCount; ++i)
    if (kNames[i] == name) {
      out = static_cast<Theme>(i);
      return true;
    }
  return false;
}

std::vector<std::string> theme_names(ThemeSet set) {
  std::vector<std::string> out;
  for (int i = 0; i < kThemeCount; ++i)
    if (set >> i & 1) out.emplace_back(kNames[i]);
  return out;
}

std::string_view theme_reason(Theme t) {
  return kReasons[static_cast<int>(t)];
}

std::uint32_t threatened(const Engine& e, const Position& p, Player victim) {
  if (p.is_over()) return 0;
  const Player attacker = other(victim);
  const int v = index_of(victim);
  Position q = p;
  q.turn = attacker;
  q.phase = Phase::kAwaitingRoll;
  std::uint32_t bits = 0;
  MoveList moves;
  for (const ChanceOutcome& o : e.chance_outcomes(q)) {
    e.moves_for_throw(q, o.outcome, moves);
    for (const Move& m : moves) {
      if (!(m.flags & move_flag::kCapture)) continue;
      Position r = q;
      r.phase = Phase::kAwaitingMove;
      r.roll = static_cast<std::int8_t>(o.outcome);
      e.apply_move(r, m);
      for (int i = 1; i <= e.path_length(); ++i)
        if (r.count[v][i] < q.count[v][i]) bits |= 1u << i;
    }
  }
  return bits;
}

bool is_race(const Engine& e, const Position& p) {
  return !can_reach(e, p, Player::kLight) && !can_reach(e, p, Player::kDark);
}

ThemeSet puzzle_themes(const Engine& e, const Position& p, const Move& best) {
  ThemeSet set = 0;
  const Player me = p.turn;
  Position after = p;
  e.apply_move(after, best);
  if (best.flags & move_flag::kCapture) set |= theme_bit(Theme::kCapture);
  if (best.flags & move_flag::kRosette) set |= theme_bit(Theme::kRosette);
  if (best.flags & move_flag::kEnter) set |= theme_bit(Theme::kEntering);
  if (best.flags & move_flag::kScores) set |= theme_bit(Theme::kBearOff);
  if (keeps_blockade(e, p, best)) set |= theme_bit(Theme::kBlockade);
  if (is_race(e, p)) set |= theme_bit(Theme::kRace);
  const std::uint32_t after_threats = threatened(e, after, me);
  if (best.from > 0 && (threatened(e, p, me) >> best.from & 1) &&
      (best.to > e.path_length() || !(after_threats >> best.to & 1)))
    set |= theme_bit(Theme::kEscape);
  if (after_threats == 0 && !(set & theme_bit(Theme::kRace)) &&
      any_other_move_threatened(e, p, best))
    set |= theme_bit(Theme::kSafety);
  return set;
}

}  // namespace ur::analysis
