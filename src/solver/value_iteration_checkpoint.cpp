// The solve's checkpoints (SolveOptions::checkpoint_dir): a finished layer's values, and the
// values of the layer being swept, saved every few minutes.
//
// A finished layer is certified and final: a resumed solve reads it instead of solving it. A
// layer's sweeps in progress are only a starting point: Gauss-Seidel converges to the same
// fixed point from any values in [0, 1], and the layer is certified by its residual pass
// whatever it started from, so a damaged or stale sweeps file can cost sweeps but never a
// wrong value. That is why the sweeps file carries no checksum of its values, only what tells
// whether it belongs to this layer in this order (a file that does not is ignored).
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "solver/value_iteration.h"

namespace ur::solver {
namespace {

std::string layer_file(const std::string& dir, const Layer& l, const char* ext) {
  return dir + "/layer-" + std::to_string(l.a) + "-" + std::to_string(l.b) + ext;
}

constexpr char kSweepsMagic[8] = {'U', 'R', 'S', 'W', 'E', 'E', 'P', '1'};

// What a sweeps file holds before its values.
struct SweepsHeader {
  char magic[8];
  std::uint64_t states;
  std::uint64_t order;  // the hash of the order the values are held in (0: the index's)
  std::uint32_t sweeps;
  std::uint32_t reserved;
};

bool in_unit_range(const float* v, std::uint64_t n) {
  return std::all_of(v, v + n, [](float x) { return x >= 0.0f && x <= 1.0f; });
}

}  // namespace

bool ValueIteration::checkpoint_matches() const {
  if (options_.checkpoint_dir.empty()) return false;
  std::ifstream m(options_.checkpoint_dir + "/meta.txt");
  std::string rules, encoding;
  if (!std::getline(m, rules) || !std::getline(m, encoding)) return false;
  return rules == engine_.rules().to_string() && encoding == index_.encoding_id();
}

void ValueIteration::write_meta() const {
  namespace fs = std::filesystem;
  fs::create_directories(options_.checkpoint_dir);
  // The meta file names what the layer files belong to; a stale one is replaced.
  const std::string meta = options_.checkpoint_dir + "/meta.txt";
  {
    std::ofstream m(meta + ".tmp");
    m << engine_.rules().to_string() << "\n" << index_.encoding_id() << "\n";
  }
  fs::rename(meta + ".tmp", meta);
}

// A finished layer's file: its values, then the residual its certifying pass measured (a
// double), which the table's header reports whether the layer was solved now or read back.
std::optional<double> ValueIteration::load_checkpoint(const Layer& layer) {
  if (!checkpoint_matches()) return std::nullopt;
  std::ifstream in(layer_file(options_.checkpoint_dir, layer, ".f32"), std::ios::binary);
  if (!in) return std::nullopt;
  const std::uint64_t n = layer.end - layer.begin;
  // Read in place: a layer that does not check out is solved again, over whatever was read.
  float* values = values_.data() + layer.begin;
  in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(n * sizeof(float)));
  double residual = -1;
  if (static_cast<std::uint64_t>(in.gcount()) != n * sizeof(float) ||
      !in.read(reinterpret_cast<char*>(&residual), sizeof residual) || in.peek() != EOF)
    return std::nullopt;
  if (!(residual >= 0 && residual <= 1) || !in_unit_range(values, n)) return std::nullopt;
  return residual;
}

void ValueIteration::save_checkpoint(const Layer& layer, double residual) const {
  if (options_.checkpoint_dir.empty()) return;
  write_meta();
  const std::string path = layer_file(options_.checkpoint_dir, layer, ".f32");
  {
    std::ofstream out(path + ".tmp", std::ios::binary);
    out.write(reinterpret_cast<const char*>(values_.data() + layer.begin),
              static_cast<std::streamsize>((layer.end - layer.begin) * sizeof(float)));
    out.write(reinterpret_cast<const char*>(&residual), sizeof residual);
  }
  std::filesystem::rename(path + ".tmp", path);
  std::error_code ignored;  // the sweeps that led here are of no use any more
  std::filesystem::remove(layer_file(options_.checkpoint_dir, layer, ".sweeps"), ignored);
}

std::uint64_t ValueIteration::order_hash() const {
  if (order_.empty()) return 0;
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, over the order's words
  for (const std::uint32_t x : order_) h = (h ^ x) * 1099511628211ull;
  return h | 1;  // never 0, the index's order
}

int ValueIteration::load_sweeps(const Layer& layer, std::uint64_t order) {
  if (!checkpoint_matches()) return 0;
  std::ifstream in(layer_file(options_.checkpoint_dir, layer, ".sweeps"), std::ios::binary);
  SweepsHeader h{};
  const std::uint64_t n = layer.end - layer.begin;
  if (!in || !in.read(reinterpret_cast<char*>(&h), sizeof h) ||
      std::memcmp(h.magic, kSweepsMagic, sizeof kSweepsMagic) != 0 || h.states != n ||
      h.order != order)
    return 0;
  // Read in place (no second copy of a layer of hundreds of millions of states); a file that
  // does not check out leaves the layer at its usual start.
  float* values = values_.data() + layer.begin;
  in.read(reinterpret_cast<char*>(values), static_cast<std::streamsize>(n * sizeof(float)));
  if (static_cast<std::uint64_t>(in.gcount()) != n * sizeof(float) || in.peek() != EOF ||
      !in_unit_range(values, n)) {
    std::fill_n(values, n, 0.5f);
    return 0;
  }
  return static_cast<int>(h.sweeps);
}

void ValueIteration::save_sweeps(const Layer& layer, int sweeps, std::uint64_t order) const {
  write_meta();
  SweepsHeader h{};
  std::memcpy(h.magic, kSweepsMagic, sizeof kSweepsMagic);
  h.states = layer.end - layer.begin;
  h.order = order;
  h.sweeps = static_cast<std::uint32_t>(sweeps);
  const std::string path = layer_file(options_.checkpoint_dir, layer, ".sweeps");
  {
    std::ofstream out(path + ".tmp", std::ios::binary);
    out.write(reinterpret_cast<const char*>(&h), sizeof h);
    out.write(reinterpret_cast<const char*>(values_.data() + layer.begin),
              static_cast<std::streamsize>(h.states * sizeof(float)));
    if (!out.flush()) {  // a full disk: the solve goes on, resumable from the last one saved
      out.close();
      std::error_code ignored;
      std::filesystem::remove(path + ".tmp", ignored);
      return;
    }
  }
  std::filesystem::rename(path + ".tmp", path);
}

}  // namespace ur::solver
