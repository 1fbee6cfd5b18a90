// Value iteration: the exact winning chance of every state under optimal play by both sides.
//
// V(s) = sum over throws k of P(k) * max over the mover's choices of the successor's value
// for the mover: V(s') when the mover throws again (rosette, Bell chain), 1 - V(s') when the
// turn passes, 1 when the move wins. A throw without a move is a choice of one.
//
// The states are solved layer by layer (StateIndex::layers(): pieces borne off {a, b}, most
// first): a layer's successors lie in the layer itself or in layers already solved. For each
// layer the solver first materialises every state's successors in a compact stream (in-layer
// successors as 31-bit offsets with a perspective bit; everything in solved layers folded into
// one constant per throw), then runs in-place Gauss-Seidel sweeps over it on every thread
// (values shared through relaxed atomics) until the largest change in a sweep is below the
// tolerance, and finally certifies the layer with a read-only residual pass. Values are
// float32 while iterating. A finished layer is written to the checkpoint directory, so an
// interrupted solve resumes after its last finished layer.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "solver/state_index.h"

namespace ur::solver {

struct SolveOptions {
  int threads = 2;
  double tolerance = 1e-7;     // stop a layer when a sweep changes no value by more
  std::string checkpoint_dir;  // empty: no checkpoints
  int max_sweeps = 100000;
};

struct LayerReport {
  int a = 0, b = 0;
  std::uint64_t states = 0;
  int sweeps = 0;
  double last_change = 0;  // the largest change in the final sweep
  double residual = 0;     // certified: max |Bellman(V) - V| over the layer
  double seconds = 0;
  bool from_checkpoint = false;
};

struct Progress {
  int layer = 0, layers = 0;
  int a = 0, b = 0;
  int sweep = 0;
  double change = 0;
  double fraction_done = 0;  // of all states, weighted by work
  double eta_seconds = 0;
  bool layer_done = false;
};

class ValueIteration {
 public:
  ValueIteration(const StateIndex& index, SolveOptions options);

  // Solves every layer; `progress` (may be empty) is called after every sweep.
  void solve(const std::function<void(const Progress&)>& progress);

  const std::vector<float>& values() const { return values_; }
  std::vector<float>& values() { return values_; }
  const std::vector<LayerReport>& reports() const { return reports_; }
  double max_residual() const;

  // What a solve of `index` needs at its peak, in bytes, estimated before allocating anything:
  // the values (4 bytes a state) and the largest layer's successor stream, whose size per state
  // is measured on a sample of that layer's states.
  static std::uint64_t memory_needed(const StateIndex& index);
  // Why `index` cannot be solved whatever the memory ("" when it can): a layer too large for
  // the streams' in-layer offsets.
  static std::string cannot_solve(const StateIndex& index);

  // The value for the mover of a position awaiting a throw, from the solved values.
  float value(const Position& p) const;

 private:
  struct Chunk {
    std::uint64_t begin = 0, end = 0;  // global state indices
    int a = 0, b = 0, hi_from = 0, hi_to = 0;
    std::vector<std::uint32_t> stream;
  };
  void solve_layer(std::size_t li, const std::function<void(const Progress&)>& progress,
                   double done_before, double total_work, double elapsed_before);
  std::vector<Chunk> make_chunks(const Layer& layer) const;
  void build_chunk(const Layer& layer, Chunk& chunk) const;
  double sweep_chunk(const Layer& layer, const Chunk& chunk, bool write);
  // The multiset encoding's streams (value_iteration_tree.cpp): a throw's outcome is a tree of
  // decisions (a move, then the boxed game's award, double or the opponent's forfeit move).
  void build_tree_chunk(const Layer& layer, Chunk& chunk) const;
  double sweep_tree_chunk(const Layer& layer, const Chunk& chunk, bool write);
  bool load_checkpoint(const Layer& layer);
  void save_checkpoint(const Layer& layer) const;

  const StateIndex& index_;
  const DenseIndex* dense_;  // null: the multiset encoding
  const Engine& engine_;
  SolveOptions options_;
  std::vector<ChanceOutcome> outcomes_;
  std::vector<float> values_;
  std::vector<LayerReport> reports_;
};

}  // namespace ur::solver
