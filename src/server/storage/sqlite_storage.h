// The SQLite backend of Storage: one connection guarded by a mutex whatever `--db-connections`
// says (SQLite has one writer by design: more connections would only wait on its file lock),
// WAL journal so readers of other processes are never blocked, foreign keys on, prepared
// statements cached for the life of the connection. synchronous=NORMAL under WAL: a committed
// transaction survives a crash of the process (kill -9); only a power loss can drop the last few.
#pragma once

#include <memory>
#include <string>

#include "server/storage/storage.h"

namespace ur::server {

// Opens (creating if needed) the database at `path` and applies pending migrations.
// Throws StorageError with a readable message if the file cannot be opened or migrated.
std::unique_ptr<Storage> open_sqlite_storage(const std::string& path);

}  // namespace ur::server
