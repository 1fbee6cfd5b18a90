// The network file (docs/network_format.md): little-endian, a checksum over everything before it.
#include <fmt/format.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

#include "ai/network.h"
#include "solver/table_errc.h"

namespace ur::ai {
namespace {

static_assert(std::endian::native == std::endian::little, "the file is written as memory is");

constexpr char kMagic[8] = {'U', 'R', 'N', 'E', 'T', '\r', '\n', '\x1a'};
constexpr std::uint32_t kVersion = 1;
constexpr std::uint32_t kMaxInputs = 4096;
constexpr std::uint32_t kMaxHidden = 4096;
constexpr std::uint32_t kMaxRulesLength = 4096;

std::uint64_t fnv1a(const char* data, std::size_t n) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (std::size_t i = 0; i < n; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001b3ULL;
  }
  return h;
}

template <class T>
void put(std::string& out, const T& v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void put_floats(std::string& out, const float* v, std::size_t n) {
  out.append(reinterpret_cast<const char*>(v), n * sizeof(float));
}

// Reads from a byte buffer; every read checks the length first.
struct Reader {
  const std::string& data;
  std::size_t pos = 0;
  template <class T>
  bool get(T& v) {
    if (data.size() - pos < sizeof v) return false;
    std::memcpy(&v, data.data() + pos, sizeof v);
    pos += sizeof v;
    return true;
  }
  bool get_floats(float* v, std::size_t n) {
    if ((data.size() - pos) / sizeof(float) < n) return false;
    std::memcpy(v, data.data() + pos, n * sizeof(float));
    pos += n * sizeof(float);
    return true;
  }
};

Error corrupt(const std::string& path, const std::string& why) {
  return Error{solver::TableErrc::kCorruptTable, fmt::format("network file {}: {}", path, why)};
}

std::string serialise(const Network& net) {
  std::string out(kMagic, sizeof kMagic);
  put(out, kVersion);
  put(out, net.encoding);
  put(out, static_cast<std::uint32_t>(net.inputs()));
  put(out, static_cast<std::uint32_t>(net.hidden()));
  put(out, static_cast<std::uint32_t>(net.rules.size()));
  out += net.rules;
  put(out, net.info.seed);
  put(out, net.info.games);
  put(out, net.info.lambda);
  put(out, net.info.learning_rate);
  put(out, net.info.decay_games);
  put_floats(out, net.w1.data(), static_cast<std::size_t>(net.w1.size()));
  put_floats(out, net.b1.data(), static_cast<std::size_t>(net.b1.size()));
  put_floats(out, net.w2.data(), static_cast<std::size_t>(net.w2.size()));
  put(out, net.b2);
  put(out, fnv1a(out.data(), out.size()));
  return out;
}

// The header and weights of `data` (its checksum already verified).
Result<Network> parse(const std::string& path, const std::string& data) {
  Reader r{data, sizeof kMagic};
  std::uint32_t version = 0, inputs = 0, hidden = 0, rules_length = 0;
  Network net;
  if (!r.get(version) || !r.get(net.encoding) || !r.get(inputs) || !r.get(hidden) ||
      !r.get(rules_length))
    return corrupt(path, "truncated header");
  if (version != kVersion)
    return Error{solver::TableErrc::kBadTable,
                 fmt::format("network file {}: version {}, this program reads version {}", path,
                             version, kVersion)};
  if (inputs == 0 || inputs > kMaxInputs || hidden == 0 || hidden > kMaxHidden ||
      rules_length > kMaxRulesLength || data.size() - r.pos < rules_length)
    return corrupt(path, fmt::format("impossible sizes ({} inputs, {} hidden, rules of {} bytes)",
                                     inputs, hidden, rules_length));
  net.rules.assign(data, r.pos, rules_length);
  r.pos += rules_length;
  net.w1.resize(hidden, inputs);
  net.b1.resize(hidden);
  net.w2.resize(hidden);
  const bool ok = r.get(net.info.seed) && r.get(net.info.games) && r.get(net.info.lambda) &&
                  r.get(net.info.learning_rate) && r.get(net.info.decay_games) &&
                  r.get_floats(net.w1.data(), static_cast<std::size_t>(net.w1.size())) &&
                  r.get_floats(net.b1.data(), hidden) && r.get_floats(net.w2.data(), hidden) &&
                  r.get(net.b2);
  if (!ok || r.pos + sizeof(std::uint64_t) != data.size())
    return corrupt(path, "its length does not match its sizes");
  if (!net.w1.allFinite() || !net.b1.allFinite() || !net.w2.allFinite() || !std::isfinite(net.b2))
    return corrupt(path, "a weight is not a finite number");
  return net;
}

}  // namespace

std::string write_network(const std::string& path, const Network& net) {
  const std::string bytes = serialise(net);
  // Written beside and renamed: a reader never sees half a file, even after a crash.
  const std::string partial = path + ".partial";
  {
    std::ofstream out(partial, std::ios::binary | std::ios::trunc);
    if (!out) return fmt::format("cannot write {}", partial);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) return fmt::format("cannot write {}", partial);
  }
  std::error_code ec;
  std::filesystem::rename(partial, path, ec);
  if (ec) return fmt::format("cannot rename {} to {}: {}", partial, path, ec.message());
  return "";
}

Result<Network> read_network(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Error{solver::TableErrc::kBadTable, fmt::format("cannot open network file {}", path)};
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.size() < sizeof kMagic || std::memcmp(data.data(), kMagic, sizeof kMagic) != 0)
    return Error{solver::TableErrc::kBadTable,
                 fmt::format("{} is not a network file (no URNET magic)", path)};
  if (data.size() < sizeof kMagic + sizeof(std::uint64_t)) return corrupt(path, "truncated");
  std::uint64_t sum = 0;
  std::memcpy(&sum, data.data() + data.size() - sizeof sum, sizeof sum);
  if (sum != fnv1a(data.data(), data.size() - sizeof sum))
    return corrupt(path, "checksum mismatch (damaged or truncated)");
  return parse(path, data);
}

namespace {

// Why `net` (read from `path`) does not fit `engine`, or nullopt when it does.
std::optional<Error> misfit(const Network& net, const std::string& path, const Engine& engine) {
  const std::string rules = engine.rules().to_string();
  if (net.rules != rules)
    return Error{
        solver::TableErrc::kBadTable,
        fmt::format("network file {} was trained for rule set {}, not {}", path, net.rules, rules)};
  if (net.encoding != kCountsEncoding || net.inputs() != Encoding(engine).inputs())
    return Error{solver::TableErrc::kBadTable,
                 fmt::format("network file {}: input encoding {} with {} inputs; {} needs "
                             "encoding {} with {}",
                             path, net.encoding, net.inputs(), rules, kCountsEncoding,
                             Encoding(engine).inputs())};
  return std::nullopt;
}

}  // namespace

Result<Network> load_network_for(const std::string& path, const Engine& engine) {
  Result<Network> r = read_network(path);
  if (auto* net = std::get_if<Network>(&r))
    if (auto why = misfit(*net, path, engine)) return *why;
  return r;
}

Result<std::shared_ptr<const Network>> shared_network_for(const std::string& path,
                                                          const Engine& engine) {
  using Shared = Result<std::shared_ptr<const Network>>;
  struct Read {
    std::filesystem::file_time_type time;
    std::uintmax_t size = 0;
    Shared network;
  };
  static std::mutex mutex;
  static std::map<std::string, Read, std::less<>> cache;
  std::error_code ec;
  const auto time = std::filesystem::last_write_time(path, ec);
  const auto size = ec ? 0 : std::filesystem::file_size(path, ec);
  if (ec)
    return Error{solver::TableErrc::kBadTable, fmt::format("cannot open network file {}", path)};
  std::optional<Shared> found;
  {
    std::lock_guard lock(mutex);
    auto it = cache.find(path);
    if (it != cache.end() && it->second.time == time && it->second.size == size)
      found = it->second.network;
  }
  if (!found) {
    Result<Network> r = read_network(path);  // outside the lock: a read takes milliseconds
    if (auto* e = std::get_if<Error>(&r))
      found = *e;
    else
      found = std::make_shared<const Network>(std::move(std::get<Network>(r)));
    std::lock_guard lock(mutex);
    cache.insert_or_assign(path, Read{time, size, *found});
  }
  if (auto* net = std::get_if<std::shared_ptr<const Network>>(&*found))
    if (auto why = misfit(**net, path, engine)) return *why;
  return *found;
}

}  // namespace ur::ai
