// A storage whose database server has a clock of its own, which the nodes sharing it count their
// leases and idle deadlines by (unix_now_ms, cluster/table_lease.h; docs/scaling.md, "Clocks").
// SqlStorage is one (PostgreSQL's clock; SQLite's is this machine's); a storage that is not
// leaves each node to its own wall clock.
#pragma once

#include <cstdint>
#include <optional>

namespace ur::server {

class DatabaseClock {
 public:
  // The database's clock in unix ms. Throws StorageError.
  virtual std::optional<std::int64_t> clock_ms() = 0;

 protected:
  ~DatabaseClock() = default;
};

}  // namespace ur::server
