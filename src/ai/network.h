// A learned evaluation: a value network giving the side to act its winning chance.
//
// One hidden layer of sigmoid units over a sparse encoding of the position, a sigmoid output:
// the shape of TD-Gammon's network. It is trained by self-play (net_train.h, `ur train`), never
// from a solved table, and played by the `net` agent (expectimax with the network at its
// leaves, agent.h). The linear algebra is Eigen's; a network's weights are single floats.
//
// The encoding (id 1, "counts") reads a Position from the point of view of the player to act
// (`turn`), for the engine's rule set; its size depends on the path length N:
//   for each side, "me" (the player to act) first, then the enemy:
//     index 0 (not entered, or S when staging)      count / pieces
//     pool (staging presets: not yet entered)       pool / pieces
//     each path index 1..N                          [count >= 1], (count - 1) / pieces if > 0
//     borne off (N+1)                               count / pieces
//   the phase: awaiting a throw, a rosette award, a forfeit response (one-hot)
//   whether the player to act also throws next (award and forfeit phases: `next == turn`)
// A position awaiting a move is worth its best move to the network (one ply); the roll-off
// before the game has no side to act and is worth 0.5 (a search never has it as a leaf).
//
// Evaluation allocates nothing: the encoding is a fixed list of (input, value) pairs and the
// hidden layer a vector the Evaluator owns, so only one thread may use an Evaluator; the
// network itself is shared read-only.
#pragma once

#include <Eigen/Core>
#include <array>
#include <cstdint>
#include <memory>
#include <string>

#include "engine/engine.h"
#include "rules/error.h"

namespace ur::ai {

inline constexpr std::uint32_t kCountsEncoding = 1;

// The sparse input of one position: at most kMaxActive (input, value) pairs.
struct SparseInput {
  static constexpr int kMaxActive = 4 * kMaxIndex + 8;
  std::array<std::uint16_t, kMaxActive> index{};
  std::array<float, kMaxActive> value{};
  int size = 0;
  void push(int i, float v) {
    index[static_cast<std::size_t>(size)] = static_cast<std::uint16_t>(i);
    value[static_cast<std::size_t>(size++)] = v;
  }
};

// Encoding 1 for an engine's rule set.
class Encoding {
 public:
  explicit Encoding(const Engine& engine);
  int inputs() const { return 2 * side_ + 4; }
  // The inputs of `p` (not over) from the point of view of p.turn.
  void encode(const Position& p, SparseInput& out) const;

 private:
  int n_ = 14;
  int side_ = 0;  // inputs per side: 3 + 2N
  float per_piece_ = 1.0f;
};

// Where a network came from: kept in its file, so that `--resume` goes on with the same run.
struct TrainInfo {
  std::uint64_t seed = 1;
  std::uint64_t games = 0;  // self-play games trained on so far
  float lambda = 0.7f;
  float learning_rate = 0.3f;
  float decay_games = 4000;
};

struct Network {
  std::string rules;  // the canonical rule-set string it was made for
  std::uint32_t encoding = kCountsEncoding;
  Eigen::MatrixXf w1;  // hidden x inputs, column-major: an input's weights are contiguous
  Eigen::VectorXf b1;  // hidden
  Eigen::VectorXf w2;  // hidden
  float b2 = 0;
  TrainInfo info;

  int inputs() const { return static_cast<int>(w1.cols()); }
  int hidden() const { return static_cast<int>(w1.rows()); }
};

// A network of `hidden` units for `engine`'s rule set, with small random weights from `seed`.
Network make_network(const Engine& engine, int hidden, std::uint64_t seed);

// Evaluates positions with one network for one engine (one thread at a time). value() remembers
// what it computed (see cache_), so the same position costs the network once.
class NetEvaluator {
 public:
  NetEvaluator(const Engine& engine, std::shared_ptr<const Network> net);

  // P(`me` wins) in [0, 1]; exact for finished games.
  double win_probability(const Position& p, Player me);
  // P(p.turn wins) for a position that awaits a throw, an award or a forfeit response.
  double value(const Position& p);
  // The same, through `in` (already encoded): the output and the hidden layer stay in `hidden()`.
  float forward(const SparseInput& in);
  const Eigen::VectorXf& hidden() const { return h_; }
  const Network& network() const { return *net_; }

 private:
  const Engine* engine_;
  std::shared_ptr<const Network> net_;
  Encoding encoding_;
  SparseInput in_;
  Eigen::VectorXf h_;
  // The last values of value(), by position hash: a search meets the same leaf again and
  // again (moves in another order, a review's moves and their replies): 70-83% of its leaves
  // in a boxed review (docs/ai.md). The network never changes under an evaluator (it holds a
  // shared const one), so an entry stays right; a slot keeps the latest position hashed to it.
  struct Cached {
    std::uint64_t key = 0;  // position_hash | 1: 0 is an empty slot
    float value = 0;
  };
  static constexpr int kCacheBits = 16;  // 1 MiB, half the search's transposition table
  std::vector<Cached> cache_;
};

// The network's output for `in`, leaving the hidden layer in `hidden` (sized to net.hidden()).
float forward(const Network& net, const SparseInput& in, Eigen::VectorXf& hidden);

// One step of gradient descent on the cross-entropy between the output for `in` and `target`
// (the sigmoid output's gradient is then output - target), with the hidden layer of the forward
// pass that gave `output`.
void train_step(Network& net, const SparseInput& in, const Eigen::VectorXf& hidden, float output,
                float target, float learning_rate);

// The network file (docs/network_format.md): write, and read with every check.
std::string write_network(const std::string& path, const Network& net);
Result<Network> read_network(const std::string& path);
// Reads `path` and checks that it was made for `engine`'s rule set and encoding.
Result<Network> load_network_for(const std::string& path, const Engine& engine);
// The same, shared: a file is read once per process and again only when it changes (its size or
// modification time: a network trained into place), since a server asks for the same few
// networks for every level menu, computer seat and review. A damaged file's error is kept too.
Result<std::shared_ptr<const Network>> shared_network_for(const std::string& path,
                                                          const Engine& engine);

}  // namespace ur::ai
