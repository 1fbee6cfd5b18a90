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
#include <thread>

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
  const std::uint32_t* position = nullptr;  // an in-layer state's place in the sweep order

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
          const auto offset = static_cast<std::uint32_t>(idx - layer.begin);
          out.push_back((position ? position[offset] : offset) | (flip ? kFlip : 0u));
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
  const std::uint32_t* position = position_.empty() ? nullptr : position_.data();
  TreeWriter writer{engine_, index, layer, values_.data(), values_.released(), out, position};
  for (std::uint64_t k = chunk.begin; k < chunk.end; ++k) {
    writer.state(index.unrank(layer.begin + (order_.empty() ? k : order_[k])), outcomes_);
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
  std::uint64_t s = layer.begin + chunk.begin;
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

// Gauss-Seidel converges in as many sweeps as information needs to cross the layer. A move
// that captures nothing takes a piece forward, so the layer's states sorted by the pieces'
// total progress, most advanced first, meet most successors already updated in the same
// sweep; only captures (and throws without a move) carry values backwards. The index's slots
// follow light's path, which follows progress unless the path comes back over squares; where
// it does (Murray's), the index's order took 85-222 sweeps a layer of murray --endgame 3, this
// one 53-127. While the layer is solved its values are held in this order too (the streams
// address positions in it), so that a sweep writes in sequence and mostly reads near where it
// writes; unpermute_layer puts them back in the index's order. Where the slots follow progress
// (the boxed game, Finkel in this encoding) the index's order is kept: sorting saved few sweeps
// there and cost more per sweep than it saved.
void ValueIteration::order_by_progress(const Layer& layer) {
  const MultisetIndex& index = *index_.multiset();
  const std::uint64_t n = layer.end - layer.begin;
  const int last = engine_.path_length();  // indices 1..N on the board; N + 1 borne off
  std::vector<std::uint16_t> keys(n);
  std::vector<std::thread> pool;
  const int threads = std::max(1, options_.threads);
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&, t] {
      for (std::uint64_t i = n * t / threads; i < n * (t + 1) / threads; ++i) {
        const Position p = index.unrank(layer.begin + i);
        int total = 0;
        for (int side = 0; side < 2; ++side)
          for (int j = 1; j <= last; ++j) total += j * p.count[side][j];
        keys[i] = static_cast<std::uint16_t>(total);
      }
    });
  for (auto& th : pool) th.join();
  // A counting sort, most progress first, index order within equal progress.
  std::vector<std::uint64_t> start(std::size_t{2} * (last + 1) * kMaxPieces + 2, 0);
  for (const std::uint16_t k : keys) ++start[k];
  std::uint64_t at = 0;
  for (std::size_t k = start.size(); k-- > 0;) {
    const std::uint64_t count = start[k];
    start[k] = at;
    at += count;
  }
  order_.resize(n);
  position_.resize(n);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::uint64_t at_pos = start[keys[i]]++;
    order_[at_pos] = static_cast<std::uint32_t>(i);
    position_[i] = static_cast<std::uint32_t>(at_pos);
  }
}

void ValueIteration::unpermute_layer(const Layer& layer) {
  float* values = values_.data() + layer.begin;
  const std::vector<float> sorted(values, values + order_.size());
  for (std::size_t k = 0; k < order_.size(); ++k) values[order_[k]] = sorted[k];
  order_ = {};
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
    // The multiset encoding's sweep order and its inverse, held while the stream is built.
    const bool by_progress = index.multiset() && index.multiset()->revisits();
    const std::uint64_t order = by_progress ? (l.end - l.begin) * 2 * sizeof(std::uint32_t) : 0;
    peak = std::max(peak, values + stream + order);
  }
  return peak + kSolveOverhead + 2 * kThreadBuffers;
}

}  // namespace ur::solver
