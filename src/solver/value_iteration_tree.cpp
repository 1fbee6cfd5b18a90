// The multiset encoding's successor streams. In the rule sets it serves a throw's outcome is not
// always one choice among successors: a move may be followed by the mover's rosette award, the
// second move of a double-move square or the opponent's forfeit move, each a decision of its own
// before the next throw. A throw's outcome is therefore a small tree, written depth first:
//
//   node   header: bits 0-7 children, bit 8 a constant follows, bit 9 the opponent decides (min),
//          bit 30 set (a node inside another node), then [constant], then the children
//   leaf   an in-layer state: bits 0-29 offset in the layer, bit 31 seen from the other side
//
// Every child outside the layer (a solved layer, or the end of the game) is folded into the
// node's constant: the best of them for the side that decides there. Values are the mover's
// (the side that threw) winning chance throughout.
#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <stdexcept>

#include "solver/value_iteration.h"

namespace ur::solver {
namespace {

constexpr std::uint32_t kFlip = 1u << 31;
constexpr std::uint32_t kNested = 1u << 30;
constexpr std::uint32_t kOffsetMask = kNested - 1;
constexpr std::uint32_t kHasConst = 1u << 8;
constexpr std::uint32_t kMin = 1u << 9;
constexpr std::uint32_t kCountMask = 0xff;

float load(const float& x) {
  return std::atomic_ref<const float>(x).load(std::memory_order_relaxed);
}
void store(float& x, float v) {
  std::atomic_ref<float>(x).store(v, std::memory_order_relaxed);
}

// Writes the decision trees of the states of one chunk (light to move) into a stream.
struct TreeWriter {
  const Engine& engine;
  const MultisetIndex& index;
  const Layer& layer;
  const float* values;     // null: only count words (memory estimate)
  std::uint64_t released;  // values below it are no longer held
  std::vector<std::uint32_t>& out;

  // A node deciding among `children` positions (already reached), the decider `actor`.
  void node(const Position* children, int n, Player actor, bool nested) {
    const bool minimise = actor != Player::kLight;
    float constant = minimise ? 2.0f : -1.0f;
    const std::size_t header_at = out.size();
    out.push_back(0);
    out.push_back(0);  // room for the constant, dropped below when there is none
    int entries = 0;
    for (int i = 0; i < n; ++i) {
      const Position& r = children[i];
      float v = -1.0f;
      if (r.is_over()) {
        v = r.turn == Player::kLight ? 1.0f : 0.0f;
      } else if (r.phase == Phase::kAwaitingRoll) {
        const std::uint64_t idx = index.rank(r);
        const bool flip = r.turn != Player::kLight;
        if (idx >= layer.end || idx < released)
          throw std::logic_error("a move leads to a layer not held: " + engine.check(r));
        if (idx >= layer.begin) {
          out.push_back(static_cast<std::uint32_t>(idx - layer.begin) | (flip ? kFlip : 0u));
          ++entries;
          continue;
        }
        const float x = values ? values[idx] : 0.5f;
        v = flip ? 1.0f - x : x;
      } else {
        decision(r, true);
        ++entries;
        continue;
      }
      constant = minimise ? std::min(constant, v) : std::max(constant, v);
    }
    const bool has_const = constant >= 0.0f && constant <= 1.0f;
    out[header_at] = static_cast<std::uint32_t>(entries) | (has_const ? kHasConst : 0u) |
                     (minimise ? kMin : 0u) | (nested ? kNested : 0u);
    if (has_const)
      out[header_at + 1] = std::bit_cast<std::uint32_t>(constant);
    else
      out.erase(out.begin() + static_cast<std::ptrdiff_t>(header_at) + 1);
    if (entries > static_cast<int>(kCountMask)) throw std::logic_error("too many choices");
  }

  // The decision waiting in q (a move, an award, a forfeit response).
  void decision(const Position& q, bool nested) {
    MoveList moves;
    engine.legal_moves(q, moves);
    Position children[MoveList::kCapacity];
    for (int i = 0; i < moves.size; ++i) {
      children[i] = q;
      engine.apply_move(children[i], moves[i]);
    }
    node(children, moves.size, q.turn, nested);
  }

  void state(const Position& p, const std::vector<ChanceOutcome>& outcomes) {
    MoveList moves;
    for (const ChanceOutcome& c : outcomes) {
      Position q = p;
      if (engine.apply_throw(q, c.outcome, moves))
        decision(q, false);
      else
        node(&q, 1, Player::kLight, false);
    }
  }
};

float eval(const std::uint32_t*& w, const float* base) {
  const std::uint32_t h = *w++;
  const bool minimise = h & kMin;
  float best = minimise ? 2.0f : -1.0f;
  if (h & kHasConst) best = std::bit_cast<float>(*w++);
  for (std::uint32_t n = h & kCountMask; n > 0; --n) {
    const std::uint32_t e = *w;
    float v;
    if (e & kNested) {
      v = eval(w, base);
    } else {
      ++w;
      const float x = load(base[e & kOffsetMask]);
      v = (e & kFlip) ? 1.0f - x : x;
    }
    best = minimise ? std::min(best, v) : std::max(best, v);
  }
  return best;
}

}  // namespace

void ValueIteration::build_tree_chunk(const Layer& layer, Chunk& chunk) const {
  const MultisetIndex& index = *index_.multiset();
  std::vector<std::uint32_t> out;
  out.reserve(kBlockWords + 4096);
  TreeWriter writer{engine_, index, layer, values_.data(), values_.released(), out};
  for (std::uint64_t i = chunk.begin; i < chunk.end; ++i) {
    writer.state(index.unrank(i), outcomes_);
    close_block(chunk, out, false);
  }
  close_block(chunk, out, true);
}

double ValueIteration::sweep_tree_chunk(const Layer& layer, const Chunk& chunk, bool write) {
  float* values = values_.data();
  const float* base = values + layer.begin;
  const int outcomes = static_cast<int>(outcomes_.size());
  double largest = 0;
  thread_local std::vector<std::uint32_t> buffer;
  std::uint64_t s = chunk.begin;
  for (const StreamBlock& block : chunk.blocks) {
    const std::uint32_t* w = streams_->words(block, buffer);
    for (const std::uint32_t* const end = w + block.size; w < end; ++s) {
      double total = 0;
      for (int o = 0; o < outcomes; ++o) total += outcomes_[o].probability * eval(w, base);
      float& slot = values[s];
      const float v = static_cast<float>(total);
      largest = std::max(largest, std::fabs(static_cast<double>(v) - load(slot)));
      if (write) store(slot, v);
    }
  }
  return largest;
}

std::string ValueIteration::cannot_solve(const StateIndex& index) {
  // Offsets in a layer: 31 bits in the dense streams, 30 in the multiset encoding's trees.
  const std::uint64_t limit = index.dense() ? (1ull << 31) : kNested;
  for (const Layer& l : index.layers())
    if (l.end - l.begin >= limit)
      return "its layer (" + std::to_string(l.a) + "," + std::to_string(l.b) + ") has " +
             std::to_string(l.end - l.begin) + " states, more than the solver's streams address (" +
             std::to_string(limit) + ")";
  return "";
}

std::uint64_t ValueIteration::first_read(const StateIndex& index, std::size_t li) {
  // A turn bears off at most one piece with the dense index's rule sets; the boxed game's
  // double moves and forfeits, up to three (the stream builders refuse a value not held).
  const int reach = index.dense() ? 1 : 3;
  const std::vector<Layer>& layers = index.layers();
  const int sum = layers[li].a + layers[li].b;
  for (const Layer& l : layers)
    if (l.a + l.b <= sum + reach) return l.begin;
  return layers[li].begin;
}

namespace {

// Stream words a state of `layer` takes, on an even sample of its states: the dense stream's
// words as its builder writes them; every leaf of the multiset encoding's trees counted as a
// word (an upper bound, since successors in solved layers fold into one constant).
double words_per_state(const StateIndex& index, const Layer& layer,
                       const std::vector<ChanceOutcome>& outcomes) {
  const Engine& engine = index.engine();
  const std::uint64_t states = layer.end - layer.begin;
  const std::uint64_t samples = std::min<std::uint64_t>(states, 4000);
  std::uint64_t words = 0;
  Layer all;
  all.end = index.size();
  std::vector<std::uint32_t> tree;
  for (std::uint64_t k = 0; k < samples; ++k) {
    const Position p = index.unrank(layer.begin + states * k / samples);
    if (const MultisetIndex* m = index.multiset()) {
      tree.clear();
      TreeWriter{engine, *m, all, nullptr, 0, tree}.state(p, outcomes);
      words += tree.size();
      continue;
    }
    for (const ChanceOutcome& c : outcomes) {
      Position q = p;
      MoveList moves;
      bool constant = false;
      auto count = [&](const Position& r) {
        const bool in_layer =
            !r.is_over() && index.rank(r) >= layer.begin && index.rank(r) < layer.end;
        words += in_layer ? 1 : 0;
        constant = constant || !in_layer;
      };
      if (!engine.apply_throw(q, c.outcome, moves)) {
        count(q);
      } else {
        for (const Move& m : moves) {
          Position r = q;
          engine.apply_move(r, m);
          count(r);
        }
      }
      words += constant ? 2 : 1;  // the throw's header, and its constant
    }
  }
  return samples ? static_cast<double>(words) / static_cast<double>(samples) : 0;
}

}  // namespace

std::uint64_t ValueIteration::memory_needed(const StateIndex& index, bool spill) {
  const Engine& engine = index.engine();
  Position any = engine.initial_position();
  any.phase = Phase::kAwaitingRoll;
  std::vector<ChanceOutcome> outcomes;
  for (const ChanceOutcome& c : engine.chance_outcomes(any)) outcomes.push_back(c);
  // The peak is the largest layer's: the values held then and its stream (blocks of two
  // threads' buffers, and the process's own).
  std::uint64_t peak = 0;
  for (std::size_t li = 0; li < index.layers().size(); ++li) {
    const Layer& l = index.layers()[li];
    const std::uint64_t values = (l.end - first_read(index, li)) * sizeof(float);
    const double words = spill ? 0 : words_per_state(index, l, outcomes);
    const auto stream =
        static_cast<std::uint64_t>(words * 4 * static_cast<double>(l.end - l.begin));
    peak = std::max(peak, values + stream);
  }
  return peak + kSolveOverhead + 2 * kThreadBuffers;
}

}  // namespace ur::solver
