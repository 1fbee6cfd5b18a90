#include "solver/solve_memory.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <new>
#include <stdexcept>

namespace ur::solver {
namespace {

std::uint64_t page_size() {
  static const auto size = static_cast<std::uint64_t>(sysconf(_SC_PAGE_SIZE));
  return size;
}

}  // namespace

ValueArena::ValueArena(std::uint64_t size) : size_(size) {
  if (size == 0) return;
  void* p = mmap(nullptr, size * sizeof(float), PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  data_ = static_cast<float*>(p);
}

ValueArena::~ValueArena() {
  if (data_) munmap(data_, size_ * sizeof(float));
}

void ValueArena::release_below(std::uint64_t index) {
  if (index <= released_) return;
  // Whole pages only: the page holding the first values still read stays.
  const std::uint64_t from = released_ * sizeof(float) / page_size() * page_size();
  const std::uint64_t to = index * sizeof(float) / page_size() * page_size();
  if (to > from) madvise(reinterpret_cast<char*>(data_) + from, to - from, MADV_DONTNEED);
  released_ = index;
}

StreamStore::StreamStore(std::uint64_t budget, std::string spill_dir)
    : budget_(budget), dir_(std::move(spill_dir)) {}

StreamStore::~StreamStore() {
  if (fd_ >= 0) ::close(fd_);
}

StreamBlock StreamStore::close(std::vector<std::uint32_t>& words) {
  StreamBlock b;
  b.size = words.size();
  const std::uint64_t bytes = words.capacity() * sizeof(std::uint32_t);
  std::uint64_t held = held_.load();
  while (held + bytes <= budget_) {
    if (held_.compare_exchange_weak(held, held + bytes)) {
      b.words = std::move(words);
      words = {};
      return b;
    }
  }
  if (fd_ < 0) {
    std::lock_guard lock(open_mutex_);
    if (fd_ < 0) {
      namespace fs = std::filesystem;
      const fs::path dir = dir_.empty() ? fs::temp_directory_path() : fs::path(dir_);
      fs::create_directories(dir);
      std::string path = (dir / "stream-XXXXXX").string();
      const int fd = ::mkstemp(path.data());
      if (fd < 0)
        throw std::runtime_error("cannot make a spill file in " + dir.string() + ": " +
                                 std::strerror(errno));
      ::unlink(path.c_str());
      fd_ = fd;
    }
  }
  const std::uint64_t n = words.size() * sizeof(std::uint32_t);
  b.file_offset = file_end_.fetch_add(n);
  b.spilled = true;
  const char* p = reinterpret_cast<const char*>(words.data());
  for (std::uint64_t done = 0; done < n;) {
    const ssize_t w = ::pwrite(fd_, p + done, n - done, static_cast<off_t>(b.file_offset + done));
    if (w <= 0) throw std::runtime_error(std::string("spill file write: ") + std::strerror(errno));
    done += static_cast<std::uint64_t>(w);
  }
  words.clear();
  return b;
}

const std::uint32_t* StreamStore::words(const StreamBlock& block,
                                        std::vector<std::uint32_t>& buffer) const {
  if (!block.spilled) return block.words.data();
  buffer.resize(block.size);
  const std::uint64_t n = block.size * sizeof(std::uint32_t);
  char* p = reinterpret_cast<char*>(buffer.data());
  for (std::uint64_t done = 0; done < n;) {
    const ssize_t r =
        ::pread(fd_, p + done, n - done, static_cast<off_t>(block.file_offset + done));
    if (r <= 0) throw std::runtime_error(std::string("spill file read: ") + std::strerror(errno));
    done += static_cast<std::uint64_t>(r);
  }
  return buffer.data();
}

}  // namespace ur::solver
