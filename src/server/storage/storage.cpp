#include <string>

#include "server/storage/pg_storage.h"
#include "server/storage/sqlite_storage.h"
#include "server/storage/storage.h"

namespace ur::server {

OpenStorageResult open_storage(const std::string& url, int connections) {
  OpenStorageResult result;
  try {
    if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
      result.storage = open_pg_storage(url, connections);
      return result;
    }
    std::string path = url.rfind("sqlite:", 0) == 0 ? url.substr(7) : url;
    if (path.empty()) {
      result.error = "empty database path";
      return result;
    }
    // SQLite has one writer by design: more connections would only wait on its file lock.
    result.storage = open_sqlite_storage(path);
  } catch (const StorageError& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace ur::server
