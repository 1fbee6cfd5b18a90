// Position, Move and MoveList: the plain values the engine works on.
//
// A Position is the complete Markov state of a game: where every piece is, whose action it
// is, and what kind of action (a throw, a move, the boxed game's award or forfeit response).
// It is trivially copyable, 88 bytes, holds no pointer and never allocates, so search and the
// solver can copy it freely. It is only meaningful together with the Engine (engine.h) that
// made it; the Engine keeps the invariants, the Position just stores:
//
//   count[p][i]  pieces of player p at path index i: i = 0 is "not entered" (or, when the rule
//                set has a staging space, the space S), 1..N the path, N+1 borne off
//   pool[p]      staging presets only: pieces not yet entered (index 0 is then S)
//   occ[p]       bit i set iff count[p][i] > 0, for i in 0..N (never N+1)
//   block[p]     bit t set iff p has a piece on the square of p's own path index t (t = 1..N);
//                equal to occ on most paths, wider on the Murray paths that revisit squares
//   view[p]      bit t set iff p's opponent has a piece on the square of p's path index t
// The masks let move generation test every piece at once with shifts (engine.cpp).
//
// Pieces of one colour are interchangeable, so a multiset of path indices is the whole story.
#pragma once

#include <array>
#include <cassert>
#include <cstdint>
#include <type_traits>

#include "rules/paths.h"
#include "rules/rule_set.h"

namespace ur {

inline constexpr int kMaxIndex = kMaxPathLength + 2;  // indices 0..N+1
inline constexpr std::int8_t kPool = -1;  // Move::from of an entry onto S (staging presets)

enum class Phase : std::uint8_t {
  kStart,            // chance: the first roll-off throw (light's) or the coin call
  kRollOff,          // chance: dark's roll-off throw; roll holds light's throw
  kAwaitingRoll,     // chance: `turn` throws
  kAwaitingMove,     // decision: `turn` picks a move for throw `roll`
  kAwaitingAward,    // decision: `turn` may enter a counter onto S (boxed rosette award)
  kAwaitingForfeit,  // decision: `turn` moves a counter forfeit_move squares (boxed forfeit)
  kGameOver,         // `turn` has won
};

enum class MoveKind : std::uint8_t { kMove, kAwardYes, kAwardNo };

// What a move does, for display, statistics and move ordering.
namespace move_flag {
// kCapture is bit 0: engine.cpp relies on it.
inline constexpr std::uint8_t kCapture = 1;   // hits a single enemy piece
inline constexpr std::uint8_t kRosette = 2;   // lands on a rosette
inline constexpr std::uint8_t kScores = 4;    // bears the piece off
inline constexpr std::uint8_t kBounce = 8;    // lands on >= 2 enemy pieces: the mover goes back
inline constexpr std::uint8_t kEnter = 16;    // brings a piece in from off the board
inline constexpr std::uint8_t kDouble = 32;   // lands on a double-move award square
inline constexpr std::uint8_t kForfeit = 64;  // lands on a forfeit square
}  // namespace move_flag

struct Move {
  std::int8_t from = 0;  // path index; kPool = enter onto S
  std::int8_t to = 0;    // path index; N+1 = bear off
  std::uint8_t flags = 0;
  MoveKind kind = MoveKind::kMove;

  bool operator==(const Move& o) const { return from == o.from && to == o.to && kind == o.kind; }
};

struct MoveList {
  static constexpr int kCapacity = 32;
  std::array<Move, kCapacity> items;
  int size = 0;

  void push(Move m) {
    assert(size < kCapacity);
    items[size++] = m;
  }
  const Move* begin() const { return items.data(); }
  const Move* end() const { return items.data() + size; }
  const Move& operator[](int i) const { return items[i]; }
  bool empty() const { return size == 0; }
};

struct Position {
  std::array<std::array<std::uint8_t, kMaxIndex>, 2> count{};
  std::array<std::uint8_t, 2> pool{};
  Player turn = Player::kLight;  // who acts now (throws or decides); the winner at kGameOver
  Player next = Player::kLight;  // award / forfeit phases: who throws once they are done
  Phase phase = Phase::kAwaitingRoll;
  std::int8_t roll = 0;  // kAwaitingMove: the raw throw k; kRollOff: light's throw
  std::array<std::uint32_t, 2> occ{};
  std::array<std::uint32_t, 2> block{};
  std::array<std::uint32_t, 2> view{};

  bool is_chance() const {
    return phase == Phase::kStart || phase == Phase::kRollOff || phase == Phase::kAwaitingRoll;
  }
  bool is_decision() const {
    return phase == Phase::kAwaitingMove || phase == Phase::kAwaitingAward ||
           phase == Phase::kAwaitingForfeit;
  }
  bool is_over() const { return phase == Phase::kGameOver; }

  bool operator==(const Position& o) const = default;
};

// The layouts promised above: search, the solver and the move lists copy these by value and
// the transposition table hashes a position's piece counts as raw bytes (ai/transposition.h).
static_assert(std::is_trivially_copyable_v<Position>);
static_assert(sizeof(Position) == 88, "Position is documented as 88 bytes");
static_assert(std::is_trivially_copyable_v<Move> && sizeof(Move) == 4);
static_assert(std::is_trivially_copyable_v<MoveList>);

}  // namespace ur
