#include "solver/table_file.h"
#include "solver/table_errc.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace ur::solver {
namespace {

constexpr char kMagic[8] = {'U', 'R', 'T', 'A', 'B', 'L', 'E', '\0'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kStringField = 256;
constexpr std::size_t kHeaderBytes = 576;
constexpr std::uint64_t kPayloadOffset = 4096;

template <typename T>
void put(std::vector<char>& h, std::size_t at, T v) {
  std::memcpy(h.data() + at, &v, sizeof v);
}
template <typename T>
T get(const char* h, std::size_t at) {
  T v;
  std::memcpy(&v, h + at, sizeof v);
  return v;
}

}  // namespace

std::uint64_t fnv1a_words(const void* data, std::size_t bytes) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  const auto* p = static_cast<const unsigned char*>(data);
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    h = (h ^ w) * 0x100000001b3ULL;
  }
  if (i < bytes) {
    std::uint64_t w = 0;
    std::memcpy(&w, p + i, bytes - i);
    h = (h ^ w) * 0x100000001b3ULL;
  }
  return h;
}

std::string write_table(const std::string& path, std::span<const float> values, ValueType type,
                        const std::string& rules, const std::string& encoding, double residual) {
  TableWriter writer(path, type, values.size());
  writer.append(values);
  return writer.finish(rules, encoding, residual);
}

TableWriter::TableWriter(std::string path, ValueType type, std::uint64_t states)
    : path_(std::move(path)), tmp_(path_ + ".tmp"), type_(type), states_(states) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::path(path_).has_parent_path()) fs::create_directories(fs::path(path_).parent_path(), ec);
  file_ = std::fopen(tmp_.c_str(), "wb");
  if (!file_) {
    error_ = "cannot write " + tmp_;
    return;
  }
  const std::vector<char> header(kPayloadOffset, 0);  // written for real by finish()
  if (std::fwrite(header.data(), 1, header.size(), file_) != header.size())
    error_ = "write to " + tmp_ + " failed";
}

TableWriter::~TableWriter() {
  if (!file_) return;
  std::fclose(file_);
  std::filesystem::remove(tmp_);  // not finished: no table
}

// Writes payload bytes and adds them to the checksum, whose 64-bit words may straddle runs.
void TableWriter::write_bytes(const char* bytes, std::size_t n) {
  if (!error_.empty()) return;
  if (std::fwrite(bytes, 1, n, file_) != n) error_ = "write to " + tmp_ + " failed";
  std::size_t i = 0;
  while (i < n && pending_n_ > 0 && pending_n_ < 8) pending_[pending_n_++] = bytes[i++];
  if (pending_n_ == 8) {
    hash_ = (hash_ ^ get<std::uint64_t>(pending_, 0)) * 0x100000001b3ULL;
    pending_n_ = 0;
  }
  for (; i + 8 <= n; i += 8) hash_ = (hash_ ^ get<std::uint64_t>(bytes, i)) * 0x100000001b3ULL;
  while (i < n) pending_[pending_n_++] = bytes[i++];
}

void TableWriter::append(std::span<const float> values) {
  constexpr std::size_t kRun = 1 << 16;
  std::vector<char> run(kRun * 4);
  for (std::size_t at = 0; at < values.size(); at += kRun) {
    const std::size_t n = std::min(kRun, values.size() - at);
    if (type_ == ValueType::kU16) {
      for (std::size_t i = 0; i < n; ++i) {
        const float v = std::clamp(values[at + i], 0.0f, 1.0f);
        const auto u = static_cast<std::uint16_t>(std::lround(v * 65535.0f));
        std::memcpy(run.data() + 2 * i, &u, 2);
      }
      write_bytes(run.data(), 2 * n);
    } else {
      write_bytes(reinterpret_cast<const char*>(values.data() + at), 4 * n);
    }
  }
  written_ += values.size();
}

std::string TableWriter::finish(const std::string& rules, const std::string& encoding,
                                double residual) {
  if (rules.size() >= kStringField || encoding.size() >= kStringField)
    return "rule-set string or encoding id too long for the header";
  if (error_.empty() && written_ != states_)
    error_ = std::to_string(written_) + " values for a table of " + std::to_string(states_);
  if (!error_.empty()) return error_;
  std::uint64_t hash = hash_;
  if (pending_n_ > 0) {
    std::uint64_t w = 0;
    std::memcpy(&w, pending_, pending_n_);
    hash = (hash ^ w) * 0x100000001b3ULL;
  }
  const std::uint64_t width = type_ == ValueType::kU16 ? 2 : 4;
  std::vector<char> h(kPayloadOffset, 0);
  std::memcpy(h.data(), kMagic, 8);
  put<std::uint32_t>(h, 8, kVersion);
  put<std::uint32_t>(h, 12, static_cast<std::uint32_t>(type_));
  put<std::uint64_t>(h, 16, states_);
  put<std::uint64_t>(h, 24, kPayloadOffset);
  put<std::uint64_t>(h, 32, states_ * width);
  put<std::uint64_t>(h, 40, hash);
  put<double>(h, 48, residual);
  std::memcpy(h.data() + 56, rules.data(), rules.size());
  std::memcpy(h.data() + 312, encoding.data(), encoding.size());
  put<std::uint64_t>(h, 568, fnv1a_words(h.data(), 568));
  const bool ok =
      std::fseek(file_, 0, SEEK_SET) == 0 && std::fwrite(h.data(), 1, h.size(), file_) == h.size();
  const bool closed = std::fclose(file_) == 0;
  file_ = nullptr;
  if (!ok || !closed) {
    std::filesystem::remove(tmp_);
    return "write to " + tmp_ + " failed";
  }
  std::error_code ec;
  std::filesystem::rename(tmp_, path_, ec);
  if (ec) return "cannot rename " + tmp_ + ": " + ec.message();
  return "";
}

Table::~Table() {
  if (map_) munmap(map_, map_size_);
}

TableResult Table::open(const std::string& path, const std::string& expected_rules,
                        const std::string& expected_encoding) {
  const std::string who = "table " + path + ": ";
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0)
    return Error{TableErrc::kBadTable, who + "cannot open (" + std::strerror(errno) + ")"};
  struct stat st {};
  if (fstat(fd, &st) != 0) {
    ::close(fd);
    return Error{TableErrc::kBadTable, who + "cannot stat"};
  }
  const auto file_size = static_cast<std::uint64_t>(st.st_size);
  if (file_size < kHeaderBytes) {
    ::close(fd);
    return Error{TableErrc::kBadTable,
                 who + "too short to be a table (" + std::to_string(file_size) + " bytes)"};
  }
  void* map = mmap(nullptr, file_size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (map == MAP_FAILED) return Error{TableErrc::kBadTable, who + "mmap failed"};
  std::shared_ptr<Table> t(new Table());
  t->map_ = map;
  t->map_size_ = file_size;
  const char* h = static_cast<const char*>(map);
  if (std::memcmp(h, kMagic, 8) != 0)
    return Error{TableErrc::kBadTable, who + "not a ur table (bad magic)"};
  if (get<std::uint64_t>(h, 568) != fnv1a_words(h, 568))
    return Error{TableErrc::kBadTable, who + "header checksum mismatch: the file is corrupt"};
  t->info_.version = get<std::uint32_t>(h, 8);
  if (t->info_.version != kVersion)
    return Error{TableErrc::kBadTable, who + "format version " + std::to_string(t->info_.version) +
                                           ", this build reads " + std::to_string(kVersion)};
  const std::uint32_t type = get<std::uint32_t>(h, 12);
  if (type != 1 && type != 2)
    return Error{TableErrc::kBadTable, who + "unknown value type " + std::to_string(type)};
  t->info_.type = static_cast<ValueType>(type);
  t->info_.states = get<std::uint64_t>(h, 16);
  const std::uint64_t offset = get<std::uint64_t>(h, 24);
  t->info_.payload_bytes = get<std::uint64_t>(h, 32);
  t->info_.residual = get<double>(h, 48);
  t->info_.rules.assign(h + 56, strnlen(h + 56, kStringField));
  t->info_.encoding.assign(h + 312, strnlen(h + 312, kStringField));
  const std::uint64_t width = type == 1 ? 2 : 4;
  if (t->info_.payload_bytes != t->info_.states * width)
    return Error{TableErrc::kBadTable, who + "payload size does not match the number of states"};
  if (offset != kPayloadOffset || file_size != offset + t->info_.payload_bytes)
    return Error{TableErrc::kBadTable,
                 who + "file size " + std::to_string(file_size) + " does not match the header (" +
                     std::to_string(offset + t->info_.payload_bytes) + "): truncated or padded"};
  t->payload_ = h + offset;
  madvise(const_cast<char*>(h) + offset, t->info_.payload_bytes, MADV_SEQUENTIAL);
  if (get<std::uint64_t>(h, 40) != fnv1a_words(t->payload_, t->info_.payload_bytes))
    return Error{TableErrc::kBadTable, who + "payload checksum mismatch: the file is corrupt"};
  madvise(const_cast<char*>(h) + offset, t->info_.payload_bytes, MADV_RANDOM);
  if (!expected_rules.empty() && t->info_.rules != expected_rules)
    return Error{TableErrc::kBadTable, who + "solved for rule set '" + t->info_.rules + "', not '" +
                                           expected_rules + "'"};
  if (!expected_encoding.empty() && t->info_.encoding != expected_encoding)
    return Error{TableErrc::kBadTable, who + "state encoding '" + t->info_.encoding +
                                           "' does not match this build's '" + expected_encoding +
                                           "'"};
  return std::shared_ptr<const Table>(std::move(t));
}

}  // namespace ur::solver
