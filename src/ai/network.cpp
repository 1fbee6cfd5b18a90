#include "ai/network.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "ai/transposition.h"
#include "engine/random.h"

namespace ur::ai {
namespace {

float sigmoid(float x) {
  return 1.0f / (1.0f + std::exp(-x));
}

}  // namespace

Encoding::Encoding(const Engine& engine)
    : n_(engine.path_length()),
      side_(3 + 2 * engine.path_length()),
      per_piece_(1.0f / static_cast<float>(std::max(1, engine.pieces()))) {}

void Encoding::encode(const Position& p, SparseInput& out) const {
  out.size = 0;
  const int me = index_of(p.turn);
  for (int s = 0; s < 2; ++s) {
    const int pl = s == 0 ? me : 1 - me;
    const auto& count = p.count[static_cast<std::size_t>(pl)];
    const int base = s * side_;
    if (count[0] > 0) out.push(base, static_cast<float>(count[0]) * per_piece_);
    if (p.pool[static_cast<std::size_t>(pl)] > 0)
      out.push(base + 1, static_cast<float>(p.pool[static_cast<std::size_t>(pl)]) * per_piece_);
    for (int i = 1; i <= n_; ++i) {
      const int c = count[static_cast<std::size_t>(i)];
      if (c == 0) continue;
      out.push(base + 2 * i, 1.0f);
      if (c > 1) out.push(base + 2 * i + 1, static_cast<float>(c - 1) * per_piece_);
    }
    if (count[static_cast<std::size_t>(n_ + 1)] > 0)
      out.push(base + 2 + 2 * n_,
               static_cast<float>(count[static_cast<std::size_t>(n_ + 1)]) * per_piece_);
  }
  const int flags = 2 * side_;
  switch (p.phase) {
    case Phase::kAwaitingAward:
      out.push(flags + 1, 1.0f);
      break;
    case Phase::kAwaitingForfeit:
      out.push(flags + 2, 1.0f);
      break;
    default:
      out.push(flags, 1.0f);
      break;
  }
  if (p.phase != Phase::kAwaitingRoll && p.next == p.turn) out.push(flags + 3, 1.0f);
}

Network make_network(const Engine& engine, int hidden, std::uint64_t seed) {
  Network net;
  net.rules = engine.rules().to_string();
  const int inputs = Encoding(engine).inputs();
  Rng rng(seed ^ 0x6e65742d696e6974ULL);
  auto small = [&](float scale) { return static_cast<float>((rng.uniform() * 2.0 - 1.0) * scale); };
  net.w1.resize(hidden, inputs);
  net.b1.resize(hidden);
  net.w2.resize(hidden);
  const float in_scale = 1.0f / std::sqrt(8.0f);  // about eight inputs are active at once
  const float out_scale = 1.0f / std::sqrt(static_cast<float>(hidden));
  for (int j = 0; j < inputs; ++j)
    for (int h = 0; h < hidden; ++h) net.w1(h, j) = small(in_scale);
  for (int h = 0; h < hidden; ++h) {
    net.b1(h) = small(in_scale);
    net.w2(h) = small(out_scale);
  }
  net.b2 = 0;
  net.info.seed = seed;
  return net;
}

NetEvaluator::NetEvaluator(const Engine& engine, std::shared_ptr<const Network> net)
    : engine_(&engine),
      net_(std::move(net)),
      encoding_(engine),
      h_(net_->hidden()),
      cache_(std::size_t{1} << kCacheBits) {
  assert(net_->inputs() == encoding_.inputs());
}

float forward(const Network& net, const SparseInput& in, Eigen::VectorXf& h) {
  // The input is sparse (a few dozen of its values are not 0): the hidden layer sums the
  // weight columns of those inputs rather than multiplying the whole matrix.
  h = net.b1;
  for (int k = 0; k < in.size; ++k)
    h.noalias() +=
        in.value[static_cast<std::size_t>(k)] * net.w1.col(in.index[static_cast<std::size_t>(k)]);
  h = h.unaryExpr([](float x) { return sigmoid(x); });
  return sigmoid(net.w2.dot(h) + net.b2);
}

float NetEvaluator::forward(const SparseInput& in) {
  return ai::forward(*net_, in, h_);
}

double NetEvaluator::value(const Position& p) {
  const std::uint64_t key = position_hash(p) | 1;
  Cached& c = cache_[key >> (64 - kCacheBits)];
  if (c.key == key) return c.value;
  encoding_.encode(p, in_);
  c.key = key;
  c.value = forward(in_);
  return c.value;
}

double NetEvaluator::win_probability(const Position& p, Player me) {
  if (p.is_over()) return p.turn == me ? 1.0 : 0.0;
  if (p.phase == Phase::kStart || p.phase == Phase::kRollOff) return 0.5;
  double v = 0;
  if (p.phase == Phase::kAwaitingMove) {
    MoveList moves;
    engine_->legal_moves(p, moves);
    v = -1;
    for (const Move& m : moves) {
      Position q = p;
      engine_->apply_move(q, m);
      v = std::max(v, win_probability(q, p.turn));
    }
  } else {
    v = value(p);
  }
  return p.turn == me ? v : 1.0 - v;
}

void train_step(Network& net, const SparseInput& in, const Eigen::VectorXf& hidden, float output,
                float target, float learning_rate) {
  const float delta = output - target;
  // The hidden layer's error, through the output weights before they change.
  const Eigen::ArrayXf dh = (delta * net.w2.array()) * hidden.array() * (1.0f - hidden.array());
  net.w2 -= (learning_rate * delta) * hidden;
  net.b2 -= learning_rate * delta;
  net.b1 -= learning_rate * dh.matrix();
  for (int k = 0; k < in.size; ++k)
    net.w1.col(in.index[static_cast<std::size_t>(k)]) -=
        (learning_rate * in.value[static_cast<std::size_t>(k)]) * dh.matrix();
}

}  // namespace ur::ai
