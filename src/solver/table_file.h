// Table files: the solved values of a rule set, written once and read by mmap.
//
// Layout (docs/table_format.md), little-endian:
//   offset  size  field
//   0       8     magic "URTABLE\0"
//   8       4     format version (1)
//   12      4     value type: 1 = u16 (probability * 65535, rounded), 2 = f32
//   16      8     number of states S
//   24      8     payload offset (4096: the payload is page-aligned)
//   32      8     payload size in bytes (S * 2 or S * 4)
//   40      8     payload checksum: FNV-1a 64 over the payload's 64-bit words (tail zero-padded)
//   48      8     max certified residual of the solve (double)
//   56      256   canonical rule-set string, NUL-padded
//   312     256   state encoding id (StateIndex::encoding_id), NUL-padded
//   568     8     header checksum: FNV-1a 64 over bytes 0..567
// Opening checks everything (magic, version, sizes against the file size, both checksums, and
// that the rule set and encoding match what the caller expects) and refuses a file that does
// not fit with a message that says what is wrong.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "solver/state_index.h"

namespace ur::solver {

enum class ValueType : std::uint32_t { kU16 = 1, kF32 = 2 };

struct TableHeaderInfo {
  std::uint32_t version = 1;
  ValueType type = ValueType::kU16;
  std::uint64_t states = 0;
  std::uint64_t payload_bytes = 0;
  double residual = 0;
  std::string rules;
  std::string encoding;
};

// Writes values (one per state, in index order) as a table file; "" on success, else why not.
std::string write_table(const std::string& path, std::span<const float> values, ValueType type,
                        const std::string& rules, const std::string& encoding, double residual);

// Writes a table file as its values come, a run at a time in index order (what write_table
// does in one run): the solver hands it each layer as it finishes, so no copy of the whole
// table is ever held. The file appears under `path` only when finish() succeeds.
class TableWriter {
 public:
  TableWriter(std::string path, ValueType type, std::uint64_t states);
  ~TableWriter();
  TableWriter(const TableWriter&) = delete;
  TableWriter& operator=(const TableWriter&) = delete;

  void append(std::span<const float> values);
  // "" on success, else why not (a write failed, or not exactly `states` values came).
  std::string finish(const std::string& rules, const std::string& encoding, double residual);

 private:
  void write_bytes(const char* bytes, std::size_t n);
  std::string path_, tmp_, error_;
  ValueType type_;
  std::uint64_t states_, written_ = 0;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
  char pending_[8] = {};  // the bytes of a 64-bit word not complete yet
  std::size_t pending_n_ = 0;
  std::FILE* file_ = nullptr;
};

class Table;
using TableResult = Result<std::shared_ptr<const Table>>;

class Table {
 public:
  // Opens and verifies a table. When expected_rules / expected_encoding are not empty the
  // file must have been solved for exactly them.
  static TableResult open(const std::string& path, const std::string& expected_rules = "",
                          const std::string& expected_encoding = "");
  ~Table();
  Table(const Table&) = delete;
  Table& operator=(const Table&) = delete;

  const TableHeaderInfo& info() const { return info_; }
  std::uint64_t size() const { return info_.states; }
  // Starts fetching a value into the cache: batch lookups prefetch, then read.
  void prefetch(std::uint64_t index) const {
    __builtin_prefetch(static_cast<const char*>(payload_) +
                       index * (info_.type == ValueType::kU16 ? 2 : 4));
  }
  float value(std::uint64_t index) const {
    return info_.type == ValueType::kU16
               ? static_cast<const std::uint16_t*>(payload_)[index] * (1.0f / 65535.0f)
               : static_cast<const float*>(payload_)[index];
  }

 private:
  Table() = default;
  TableHeaderInfo info_;
  void* map_ = nullptr;
  std::size_t map_size_ = 0;
  const void* payload_ = nullptr;
};

std::uint64_t fnv1a_words(const void* data, std::size_t bytes);

}  // namespace ur::solver
