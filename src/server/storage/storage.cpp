#include <string>

#include "server/storage/pg_storage.h"
#include "server/storage/sqlite_storage.h"
#include "server/storage/storage.h"

namespace ur::server {

OpenStorageResult open_storage(const std::string& url) {
  OpenStorageResult result;
  try {
    if (url.rfind("postgresql://", 0) == 0 || url.rfind("postgres://", 0) == 0) {
      result.storage = open_pg_storage(url);
      return result;
    }
    std::string path = url.rfind("sqlite:", 0) == 0 ? url.substr(7) : url;
    if (path.empty()) {
      result.error = "empty database path";
      return result;
    }
    result.storage = open_sqlite_storage(path);
  } catch (const StorageError& e) {
    result.error = e.what();
  }
  return result;
}

}  // namespace ur::server
