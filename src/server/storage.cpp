#include <string>

#include "server/sqlite_storage.h"
#include "server/storage.h"

namespace ur::server {

OpenStorageResult open_storage(const std::string& url) {
  OpenStorageResult result;
  std::string path = url;
  if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
    result.error = "PostgreSQL storage is not available in this build yet; use an SQLite path";
    return result;
  }
  if (url.rfind("sqlite:", 0) == 0) path = url.substr(7);
  if (path.empty()) {
    result.error = "empty database path";
    return result;
  }
  try {
    result.storage = open_sqlite_storage(path);
  } catch (const StorageError& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace ur::server
