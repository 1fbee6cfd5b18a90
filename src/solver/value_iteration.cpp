#include "solver/value_iteration.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <thread>

namespace ur::solver {
namespace {

constexpr std::uint32_t kFlip = 1u << 31;     // successor seen from the other side
constexpr std::uint32_t kHasConst = 1u << 8;  // header: a constant word follows
constexpr std::uint32_t kCountMask = 0xff;

float load(const float& x) {
  return std::atomic_ref<const float>(x).load(std::memory_order_relaxed);
}
void store(float& x, float v) {
  std::atomic_ref<float>(x).store(v, std::memory_order_relaxed);
}

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

}  // namespace

ValueIteration::ValueIteration(const StateIndex& index, SolveOptions options)
    : index_(index),
      dense_(index.dense()),
      engine_(index.engine()),
      options_(std::move(options)),
      values_(index.size()) {
  Position any = engine_.initial_position();
  any.phase = Phase::kAwaitingRoll;
  for (const ChanceOutcome& c : engine_.chance_outcomes(any)) outcomes_.push_back(c);
  // Pages are committed as layers are solved: a layer's values start at 0.5 in solve_layer.
}

float ValueIteration::value(const Position& p) const {
  return values_.data()[index_.rank(p)];
}

void ValueIteration::close_block(Chunk& chunk, std::vector<std::uint32_t>& words, bool last) const {
  if (words.empty() || (!last && words.size() < kBlockWords)) return;
  if (last) words.shrink_to_fit();  // a chunk's short tail holds no more than its words
  chunk.blocks.push_back(streams_->close(words));
  if (!last && words.capacity() == 0) words.reserve(kBlockWords + 4096);
}

double ValueIteration::max_residual() const {
  double r = 0;
  for (const LayerReport& l : reports_) r = std::max(r, l.residual);
  return r;
}

void ValueIteration::build_chunk(const Layer& layer, Chunk& chunk) const {
  chunk.blocks.clear();
  if (!dense_) return build_tree_chunk(layer, chunk);
  std::vector<std::uint32_t> out;
  out.reserve(kBlockWords + 4096);
  MoveList moves;
  std::uint32_t succ[MoveList::kCapacity];
  const float* values = values_.data();
  const std::uint64_t released = values_.released();
  dense_->for_each(chunk.a, chunk.b, chunk.hi_from, chunk.hi_to, [&](std::uint64_t, Position& p) {
    for (const ChanceOutcome& c : outcomes_) {
      Position q = p;
      const bool decide = engine_.apply_throw(q, c.outcome, moves);
      int n = 0;
      float best = -1.0f;
      auto add = [&](const Position& r) {
        if (r.is_over()) {  // the mover has just borne off his last piece
          best = 1.0f;
          return;
        }
        const std::uint64_t idx = dense_->rank(r);
        const bool flip = r.turn != Player::kLight;
        if (idx >= layer.begin && idx < layer.end) {
          succ[n++] = static_cast<std::uint32_t>(idx - layer.begin) | (flip ? kFlip : 0u);
        } else {
          if (idx < released || idx >= layer.end)
            throw std::logic_error("a move leads to a layer not held: " + engine_.check(r));
          const float v = values[idx];
          best = std::max(best, flip ? 1.0f - v : v);
        }
      };
      if (!decide) {
        add(q);
      } else {
        for (const Move& m : moves) {
          Position r = q;
          engine_.apply_move(r, m);
          add(r);
        }
      }
      out.push_back(static_cast<std::uint32_t>(n) | (best >= 0 ? kHasConst : 0u));
      if (best >= 0) out.push_back(std::bit_cast<std::uint32_t>(best));
      out.insert(out.end(), succ, succ + n);
    }
    close_block(chunk, out, false);
  });
  close_block(chunk, out, true);
}

double ValueIteration::sweep_chunk(const Layer& layer, const Chunk& chunk, bool write) {
  if (!dense_) return sweep_tree_chunk(layer, chunk, write);
  float* values = values_.data();
  const float* base = values + layer.begin;
  double largest = 0;
  const int outcomes = static_cast<int>(outcomes_.size());
  double prob[kMaxDice + 1];
  for (int o = 0; o < outcomes; ++o) prob[o] = outcomes_[o].probability;
  thread_local std::vector<std::uint32_t> buffer;
  std::uint64_t s = chunk.begin;
  for (const StreamBlock& block : chunk.blocks) {
    const std::uint32_t* w = streams_->words(block, buffer);
    const std::uint32_t* const end = w + block.size;
    for (; w < end; ++s) {
      // Summed in double and rounded once, so that a converged value does not flicker
      // between neighbouring floats from one sweep to the next.
      double total = 0;
      for (int o = 0; o < outcomes; ++o) {
        const std::uint32_t header = *w++;
        float best = -1.0f;
        if (header & kHasConst) best = std::bit_cast<float>(*w++);
        for (std::uint32_t n = header & kCountMask; n > 0; --n) {
          const std::uint32_t e = *w++;
          const float v = load(base[e & ~kFlip]);
          best = std::max(best, (e & kFlip) ? 1.0f - v : v);
        }
        total += prob[o] * best;
      }
      float& slot = values[s];
      const float v = static_cast<float>(total);
      const double change = std::fabs(static_cast<double>(v) - load(slot));
      largest = std::max(largest, change);
      if (write) store(slot, v);
    }
  }
  return largest;
}

std::uint64_t ValueIteration::stream_budget(const Layer& layer, int threads) const {
  if (options_.memory_limit == 0) return StreamStore::kNoLimit;
  const std::uint64_t values = (layer.end - values_.released()) * sizeof(float);
  const std::uint64_t order = (order_.size() + position_.size()) * sizeof(std::uint32_t);
  const std::uint64_t used = values + order + kSolveOverhead + threads * kThreadBuffers;
  return options_.memory_limit > used ? options_.memory_limit - used : 0;
}

void ValueIteration::solve(const std::function<void(const Progress&)>& progress) {
  reports_.clear();
  // Work per layer ~ its number of states; used for the ETA.
  double total_work = 0;
  for (const Layer& l : index_.layers()) total_work += static_cast<double>(l.end - l.begin);
  double done = 0;
  const double start = now();
  for (std::size_t li = 0; li < index_.layers().size(); ++li) {
    const Layer& l = index_.layers()[li];
    solve_layer(li, progress, done, total_work, now() - start);
    done += static_cast<double>(l.end - l.begin);
  }
}

namespace {

// Splits the high shared codes of sublayer (a, b) into at most `pieces` runs of about equal
// numbers of states, so that threads get even work.
template <class Chunk>
void add_chunks(const DenseIndex& index, int a, int b, int pieces, std::vector<Chunk>& chunks) {
  const int codes = index.hi_codes();
  const std::uint64_t lo = index.hi_offset(a, b, 0), hi = index.hi_offset(a, b, codes);
  int from = 0;
  for (int k = 1; k <= pieces && from < codes; ++k) {
    const std::uint64_t target = lo + (hi - lo) * k / pieces;
    int to = from;
    while (to < codes && index.hi_offset(a, b, to + 1) <= target) ++to;
    if (k == pieces) to = codes;
    if (to == from) continue;
    Chunk c;
    c.a = a;
    c.b = b;
    c.hi_from = from;
    c.hi_to = to;
    c.begin = index.hi_offset(a, b, from);
    c.end = index.hi_offset(a, b, to);
    if (c.end > c.begin) chunks.push_back(std::move(c));
    from = to;
  }
}

// Runs work(chunk) for every chunk on `threads` threads, each taking the next chunk not taken.
template <class Chunk, class Work>
void parallel_for(std::vector<Chunk>& chunks, int threads, Work& work) {
  std::atomic<std::size_t> next{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&] {
      for (std::size_t i = next++; i < chunks.size(); i = next++) work(chunks[i]);
    });
  for (auto& th : pool) th.join();
}

}  // namespace

// Chunks: each sublayer split so that threads get even work (the dense index by its high
// shared codes, the multiset index in equal runs of its sweep order).
std::vector<ValueIteration::Chunk> ValueIteration::make_chunks(const Layer& layer) const {
  std::vector<Chunk> chunks;
  const int pieces = 8 * std::max(1, options_.threads);
  if (!dense_) {
    // The multiset encoding: equal runs of the layer's sweep order (order_by_progress), or
    // of its index order.
    const std::uint64_t n = layer.end - layer.begin;
    for (int k = 0; k < 2 * pieces; ++k) {
      Chunk c;
      c.begin = n * k / (2 * pieces);
      c.end = n * (k + 1) / (2 * pieces);
      if (c.end > c.begin) chunks.push_back(std::move(c));
    }
    return chunks;
  }
  for (int side = 0; side < (layer.a == layer.b ? 1 : 2); ++side) {
    const int a = side == 0 ? layer.a : layer.b, b = side == 0 ? layer.b : layer.a;
    add_chunks(*dense_, a, b, pieces, chunks);
  }
  return chunks;
}

double ValueIteration::sweep_layer(const Layer& layer, std::vector<Chunk>& chunks, int threads) {
  std::atomic<std::uint64_t> largest_bits{0};
  auto work = [&](Chunk& c) {
    const double d = sweep_chunk(layer, c, true);
    std::uint64_t cur = largest_bits.load();
    while (std::bit_cast<double>(cur) < d &&
           !largest_bits.compare_exchange_weak(cur, std::bit_cast<std::uint64_t>(d))) {
    }
  };
  parallel_for(chunks, threads, work);
  return std::bit_cast<double>(largest_bits.load());
}

void ValueIteration::sweep_until_converged(const Layer& layer, std::vector<Chunk>& chunks,
                                           int threads, LayerReport& report,
                                           const std::function<void(double)>& after_sweep) {
  // A stopped solve's sweeps of this layer, if saved, are where this one starts.
  const bool save_sweeps_too =
      !options_.checkpoint_dir.empty() && options_.sweeps_checkpoint_seconds >= 0;
  const std::uint64_t order = save_sweeps_too ? order_hash() : 0;
  if (save_sweeps_too) report.sweeps = report.resumed_at = load_sweeps(layer, order);
  double saved_at = now();
  // Until the largest change is below the tolerance, or has stayed at float32's resolution
  // for kSweepsAtResolution sweeps in a row: near 1 a value moves in steps of 2^-24, and with
  // threads updating neighbouring values in no fixed order a converged layer can go on
  // changing by two steps (1.19e-7, above the default 1e-7) from sweep to sweep, forever
  // (Murray's largest endgame layer does, 140 M states). A change still shrinking geometrically
  // goes below the tolerance within a sweep or two of that; the layer's residual pass
  // certifies what the values are either way.
  double change = 1;
  int at_resolution = 0;
  auto converged = [&] {
    return change < options_.tolerance || at_resolution >= kSweepsAtResolution;
  };
  while (!converged() && report.sweeps < options_.max_sweeps) {
    change = sweep_layer(layer, chunks, threads);
    ++report.sweeps;
    at_resolution = change <= kFloatResolution ? at_resolution + 1 : 0;
    if (save_sweeps_too && !converged() && now() - saved_at >= options_.sweeps_checkpoint_seconds) {
      save_sweeps(layer, report.sweeps, order);
      saved_at = now();
    }
    after_sweep(change);
  }
  report.last_change = change;
}

void ValueIteration::solve_layer(std::size_t li,
                                 const std::function<void(const Progress&)>& progress,
                                 double done_before, double total_work, double elapsed_before) {
  const Layer& layer = index_.layers()[li];
  LayerReport report;
  report.a = layer.a;
  report.b = layer.b;
  report.states = layer.end - layer.begin;
  const double t0 = now();
  Progress pr;
  pr.layer = static_cast<int>(li) + 1;
  pr.layers = static_cast<int>(index_.layers().size());
  pr.a = layer.a;
  pr.b = layer.b;
  auto eta = [&](double fraction_of_layer) {
    const double done = done_before + fraction_of_layer * static_cast<double>(report.states);
    pr.fraction_done = done / total_work;
    const double elapsed = elapsed_before + (now() - t0);
    pr.eta_seconds = done > 0 ? elapsed * (total_work - done) / done : 0;
  };
  if (!options_.keep_values) values_.release_below(first_read(index_, li));
  const std::span<const float> finished(values_.data() + layer.begin, report.states);
  if (const std::optional<double> residual = load_checkpoint(layer)) {
    report.from_checkpoint = true;
    report.residual = *residual;
    report.seconds = now() - t0;
    reports_.push_back(report);
    if (options_.on_layer) options_.on_layer(layer, finished);
    pr.layer_done = true;
    eta(1.0);
    if (progress) progress(pr);
    return;
  }
  std::fill_n(values_.data() + layer.begin, report.states, 0.5f);
  if (!dense_ && index_.multiset()->revisits()) order_by_progress(layer);
  std::vector<Chunk> chunks = make_chunks(layer);
  const int threads = std::max(1, options_.threads);
  auto parallel = [&](auto&& work) { parallel_for(chunks, threads, work); };
  streams_ = std::make_unique<StreamStore>(
      stream_budget(layer, threads),
      options_.spill_dir.empty() ? options_.checkpoint_dir : options_.spill_dir);
  parallel([&](Chunk& c) { build_chunk(layer, c); });
  position_ = {};  // the streams hold positions now
  report.spilled_bytes = streams_->spilled_bytes();
  report.stream_bytes = streams_->held_bytes() + report.spilled_bytes;
  sweep_until_converged(layer, chunks, threads, report, [&](double change) {
    pr.sweep = report.sweeps;
    pr.change = change;
    // Convergence is geometric: estimate this layer's progress from the change so far.
    const double frac =
        std::clamp(std::log(std::max(change, 1e-30)) / std::log(options_.tolerance), 0.0, 0.99);
    eta(frac);
    if (progress) progress(pr);
  });
  // Certify: one read-only pass, sequential and deterministic.
  double residual = 0;
  for (const Chunk& c : chunks) residual = std::max(residual, sweep_chunk(layer, c, false));
  chunks.clear();
  streams_.reset();
  if (!order_.empty()) unpermute_layer(layer);
  report.residual = residual;
  report.seconds = now() - t0;
  reports_.push_back(report);
  save_checkpoint(layer, residual);
  if (options_.on_layer) options_.on_layer(layer, finished);
  pr.layer_done = true;
  pr.change = residual;
  eta(1.0);
  if (progress) progress(pr);
}

}  // namespace ur::solver
