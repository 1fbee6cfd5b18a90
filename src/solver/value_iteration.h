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
// float32 while iterating. A finished layer is written to the checkpoint directory, and the
// values of the layer being swept every few minutes, so an interrupted solve resumes after its
// last finished layer, from where its sweeps had got (value_iteration_checkpoint.cpp).
//
// Memory (solve_memory.h): with keep_values off, only the layers still read are resident (the
// layer being solved and the layers its moves bear off into); each finished layer is handed to
// on_layer, in index order, before it is released. With a memory limit, stream blocks beyond
// what fits are spilled to a file and read back in every sweep. Neither changes a value.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "solver/solve_memory.h"
#include "solver/state_index.h"

namespace ur::solver {

// What a solve holds besides its values and streams: the process itself (64 MiB), and per
// thread the block being built and a block read back from the spill file.
inline constexpr std::uint64_t kSolveOverhead = 64ull << 20;
inline constexpr std::uint64_t kThreadBuffers = 2 * (kBlockWords + 4096) * 4;

// A layer's sweeps also stop when its largest change has been at most two float32 steps near
// 1 (2^-23) for this many sweeps in a row: the values can get no closer (value_iteration.cpp).
inline constexpr double kFloatResolution = 1.0 / (1 << 23);
inline constexpr int kSweepsAtResolution = 8;

struct SolveOptions {
  int threads = 2;
  double tolerance = 1e-7;     // stop a layer when a sweep changes no value by more (or see above)
  std::string checkpoint_dir;  // empty: no checkpoints
  // With checkpoints, the layer being swept saves its values this often (0: after every
  // sweep): a large layer sweeps for hours, which a stopped solve would otherwise lose.
  double sweeps_checkpoint_seconds = 600;
  int max_sweeps = 100000;
  // false: release the layers no later layer reads (values() then holds only the last ones).
  bool keep_values = true;
  // Called with every finished layer's values, in index order (a file written as it goes).
  std::function<void(const Layer&, std::span<const float>)> on_layer;
  // Bytes the solve may use (0: no limit): stream blocks beyond it go to a spill file in
  // spill_dir (the checkpoint directory when empty, else the system's temporary directory).
  std::uint64_t memory_limit = 0;
  std::string spill_dir;
};

struct LayerReport {
  int a = 0, b = 0;
  std::uint64_t states = 0;
  int sweeps = 0;
  double last_change = 0;  // the largest change in the final sweep
  double residual = 0;     // certified: max |Bellman(V) - V| over the layer
  double seconds = 0;
  bool from_checkpoint = false;
  int resumed_at = 0;  // sweeps read back from a checkpoint of the layer's sweeps (0: none)
  std::uint64_t stream_bytes = 0;   // the layer's successor stream
  std::uint64_t spilled_bytes = 0;  // of which in the spill file
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

  std::span<const float> values() const { return {values_.data(), values_.size()}; }
  std::span<float> values() { return {values_.data(), values_.size()}; }
  const std::vector<LayerReport>& reports() const { return reports_; }
  double max_residual() const;

  // What a solve of `index` needs at its peak, in bytes, estimated before allocating anything,
  // with keep_values off: over the layers, the largest sum of the resident values (4 bytes a
  // state of the layer and of the layers it reads) and the layer's successor stream, whose
  // size per state is measured on a sample of its states. With `spill`, the least a solve
  // needs when every stream block beyond the values goes to the spill file.
  static std::uint64_t memory_needed(const StateIndex& index, bool spill = false);
  // The first state a solve still reads while solving layer `li` (keep_values off).
  static std::uint64_t first_read(const StateIndex& index, std::size_t li);
  // Why `index` cannot be solved whatever the memory ("" when it can): a layer too large for
  // the streams' in-layer offsets.
  static std::string cannot_solve(const StateIndex& index);

  // The value for the mover of a position awaiting a throw, from the solved values.
  float value(const Position& p) const;

 private:
  struct Chunk {
    // Global state indices (dense index); positions in order_ (multiset encoding).
    std::uint64_t begin = 0, end = 0;
    int a = 0, b = 0, hi_from = 0, hi_to = 0;
    std::vector<StreamBlock> blocks;  // whole states each, in index order
  };
  // Closes the chunk's open block into its list when full (or at the end, `last`).
  void close_block(Chunk& chunk, std::vector<std::uint32_t>& words, bool last) const;
  // Bytes of stream blocks the layer may hold in memory within options_.memory_limit.
  std::uint64_t stream_budget(const Layer& layer, int threads) const;
  // Gauss-Seidel sweeps of the layer until it has converged (from its saved sweeps, if any,
  // saving them as it goes); after_sweep(change) is called after each.
  void sweep_until_converged(const Layer& layer, std::vector<Chunk>& chunks, int threads,
                             LayerReport& report, const std::function<void(double)>& after_sweep);
  void solve_layer(std::size_t li, const std::function<void(const Progress&)>& progress,
                   double done_before, double total_work, double elapsed_before);
  std::vector<Chunk> make_chunks(const Layer& layer) const;
  void build_chunk(const Layer& layer, Chunk& chunk) const;
  double sweep_chunk(const Layer& layer, const Chunk& chunk, bool write);
  // One Gauss-Seidel sweep of every chunk on `threads` threads: the largest change.
  double sweep_layer(const Layer& layer, std::vector<Chunk>& chunks, int threads);
  // The multiset encoding's streams (value_iteration_tree.cpp): a throw's outcome is a tree of
  // decisions (a move, then the boxed game's award, double or the opponent's forfeit move).
  void build_tree_chunk(const Layer& layer, Chunk& chunk) const;
  double sweep_tree_chunk(const Layer& layer, const Chunk& chunk, bool write);
  // Fills order_ with the layer's offsets, most advanced states first, and position_ with its
  // inverse; the layer's values are held in that order while it is solved (see the .cpp).
  void order_by_progress(const Layer& layer);
  // Puts the solved layer's values back in the index's order and drops order_.
  void unpermute_layer(const Layer& layer);
  // Checkpoints (value_iteration_checkpoint.cpp): a finished layer, and a layer's sweeps so
  // far, in the order its values are held (order_hash(): 0 for the index's order).
  bool checkpoint_matches() const;
  void write_meta() const;
  // A finished layer's values and its certified residual; nullopt when there is none to read.
  std::optional<double> load_checkpoint(const Layer& layer);
  void save_checkpoint(const Layer& layer, double residual) const;
  std::uint64_t order_hash() const;
  int load_sweeps(const Layer& layer, std::uint64_t order);
  void save_sweeps(const Layer& layer, int sweeps, std::uint64_t order) const;

  const StateIndex& index_;
  const DenseIndex* dense_;  // null: the multiset encoding
  const Engine& engine_;
  SolveOptions options_;
  std::vector<ChanceOutcome> outcomes_;
  ValueArena values_;
  std::unique_ptr<StreamStore> streams_;  // the layer being solved
  std::vector<std::uint32_t> order_;      // multiset encoding: position -> layer offset
  std::vector<std::uint32_t> position_;   // layer offset -> position, while streams are built
  std::vector<LayerReport> reports_;
};

}  // namespace ur::solver
