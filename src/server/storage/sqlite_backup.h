// Backups of an SQLite database (`ur backup`, `ur restore`; docs/operations.md). A backup is a
// plain SQLite file copied page by page with SQLite's online backup API, a consistent snapshot
// taken while the server runs and writes (WAL: the server is never blocked, and the copy sees
// one committed state). A restore checks the file first, then replaces the database, and
// refuses while another process (a running server) has that database open.
#pragma once

#include <cstdint>
#include <string>

#include "rules/error.h"

namespace ur::server {

struct SqliteCopy {
  std::int64_t pages = 0;
  std::int64_t bytes = 0;
};

// Copies the database at `db` to `out` (written under a temporary name, then renamed: `out`
// never holds half a backup). `db` must exist and be an ur database.
Result<SqliteCopy> sqlite_backup(const std::string& db, const std::string& out);

// Replaces the database at `db` with the backup `from` after checking that it is an intact ur
// database. Refuses when `db` exists and `replace` is false, or when `db` is open elsewhere.
Result<SqliteCopy> sqlite_restore(const std::string& from, const std::string& db, bool replace);

}  // namespace ur::server
