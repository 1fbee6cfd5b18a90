// The solver's two large buffers, held within the memory a solve may use.
//
// ValueArena: one float32 per state, addressed by the global state index, but only the layers
// a solve still reads are resident. Layers are solved in index order and a layer's successors
// lie in itself or in layers solved just before it, so what is no longer read is always a
// prefix [0, x): release_below(x) hands its pages back to the system (anonymous mmap, pages
// committed on first write).
//
// StreamStore: a chunk's successor stream as a list of blocks of whole states. A block stays in
// memory while the layer's blocks fit the stream budget; beyond it, it is written to a spill
// file (unlinked as soon as it is made, so nothing is left behind) and read back, block by
// block, in every sweep. The words are the same either way, so the values are too.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace ur::solver {

class ValueArena {
 public:
  ValueArena() = default;
  explicit ValueArena(std::uint64_t size);
  ~ValueArena();
  ValueArena(const ValueArena&) = delete;
  ValueArena& operator=(const ValueArena&) = delete;

  float* data() { return data_; }
  const float* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  // Returns the pages of [0, index) to the system; they read as 0 afterwards.
  void release_below(std::uint64_t index);
  std::uint64_t released() const { return released_; }

 private:
  float* data_ = nullptr;
  std::uint64_t size_ = 0, released_ = 0;
};

// Words a block holds before it is closed (4 MiB); a state's words never straddle two blocks.
inline constexpr std::size_t kBlockWords = std::size_t{1} << 20;

struct StreamBlock {
  std::vector<std::uint32_t> words;  // empty when spilled
  std::uint64_t file_offset = 0;     // in the spill file, when spilled
  std::uint64_t size = 0;            // words
  bool spilled = false;
};

class StreamStore {
 public:
  static constexpr std::uint64_t kNoLimit = ~std::uint64_t{0};
  // budget: bytes of blocks kept in memory (kNoLimit, or 0: every block spilled); spill_dir:
  // where the spill file is made when the budget is reached ("": the system's temporary one).
  StreamStore(std::uint64_t budget, std::string spill_dir);
  ~StreamStore();
  StreamStore(const StreamStore&) = delete;
  StreamStore& operator=(const StreamStore&) = delete;

  // Closes a block: kept in memory if the budget allows, else written to the spill file.
  StreamBlock close(std::vector<std::uint32_t>& words);
  // A block's words: its own, or read from the spill file into `buffer`.
  const std::uint32_t* words(const StreamBlock& block, std::vector<std::uint32_t>& buffer) const;
  std::uint64_t spilled_bytes() const { return file_end_.load(); }
  std::uint64_t held_bytes() const { return held_.load(); }

 private:
  std::uint64_t budget_;
  std::string dir_;
  std::atomic<std::uint64_t> held_{0}, file_end_{0};
  std::mutex open_mutex_;
  std::atomic<int> fd_{-1};
};

}  // namespace ur::solver
