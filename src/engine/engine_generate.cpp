// Engine, the general move generator: the rule sets outside the common family (staging,
// stacking, bounces, special squares, forfeit moves). generate() in engine_moves.cpp sends the
// common family to generate_simple and everything else here; this runs once per decision, so a
// call across files costs nothing that shows.
#include <bit>

#include "engine/engine.h"

namespace ur {

void Engine::generate_general(const Position& p, int m, int k, bool forfeit, MoveList& out) const {
  const int me = index_of(p.turn), op = 1 - me;
  const int off = n_ + 1;
  const std::uint32_t own = stacking_ ? 0u : p.block[me];
  const std::uint32_t enemy = p.view[me];
  // Stacks of two or more enemy pieces bounce the mover (or block it).
  auto stack_flag = [&](int t) -> int {
    if (p.count[op][index_at_[op][cell_[me][t]][0]] < 2) return move_flag::kCapture;
    return bounce_ ? move_flag::kBounce : -1;
  };
  if (staging_) {
    if (!forfeit && p.pool[me] > 0 && may_enter_[k])
      out.push({kPool, 0, move_flag::kEnter, MoveKind::kMove});
  } else if ((p.occ[me] & 1u) && !forfeit && may_enter_[k]) {
    const int t = entry_ == EntryTarget::kFixedIndex ? entry_index_ : m;
    const std::uint32_t bit = 1u << t;
    if (t == off) {
      out.push({0, static_cast<std::int8_t>(off), move_flag::kEnter | move_flag::kScores,
                MoveKind::kMove});
    } else if (t < off && !(own & bit) && !(enemy & bit & blocked_bits_[me])) {
      int flags = move_flag::kEnter | move_flags_[me][t];
      if (enemy & bit) flags |= stacking_ ? stack_flag(t) : move_flag::kCapture;
      if (flags >= 0)
        out.push(
            {0, static_cast<std::int8_t>(t), static_cast<std::uint8_t>(flags), MoveKind::kMove});
    }
  }
  if (m > off) return;
  // Every piece at once: sources that do not overshoot, shifted onto their targets.
  std::uint32_t src = p.occ[me] & (staging_ ? ~0u : ~1u) & ((2u << (off - m)) - 1);
  const bool bears_off = (src >> (off - m)) & 1u;
  src &= ~(1u << (off - m));
  std::uint32_t legal = (src << m) & ~own;
  legal &= ~(enemy & blocked_bits_[me]);
  const std::uint32_t hits = legal & enemy;
  while (legal) {
    const int t = std::countr_zero(legal);
    legal &= legal - 1;
    int flags = move_flags_[me][t];
    if (hits & (1u << t)) {
      flags |= stacking_ ? stack_flag(t) : move_flag::kCapture;
      if (flags < 0) continue;
    }
    out.push({static_cast<std::int8_t>(t - m), static_cast<std::int8_t>(t),
              static_cast<std::uint8_t>(flags), MoveKind::kMove});
  }
  if (bears_off)  // the highest `from`, so the list stays in ascending order
    out.push({static_cast<std::int8_t>(off - m), static_cast<std::int8_t>(off), move_flag::kScores,
              MoveKind::kMove});
}

}  // namespace ur
