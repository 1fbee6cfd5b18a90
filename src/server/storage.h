// Storage: the server's persistent state behind a small interface, so that the SQLite backend
// (the default: one file, WAL) can be joined by PostgreSQL later without touching the handlers.
//
// Contract for every backend: each write is one transaction (all or nothing); the schema is brought
// up to date by numbered migration steps recorded in `schema_version` when the storage is opened,
// and opening twice is a no-op; usernames are unique case-insensitively (they are ASCII by the
// validation rules of accounts.h). Expected outcomes (name taken, no such session) are return
// values; a failure of the database itself throws StorageError, which handlers turn into a 500.
// Implementations are safe to call from several threads.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ur::server {

struct User {
  std::int64_t id = 0;
  std::string username;  // as registered (case kept)
  std::string password_hash;
  std::int64_t created_at = 0;  // unix seconds
  double rating = 1200;
  int games = 0;
  int wins = 0;
};

struct SessionRecord {
  std::string id;  // 128-bit random token, 32 lowercase hex digits
  std::int64_t user_id = 0;
  std::int64_t created_at = 0;
  std::int64_t expires_at = 0;
};

class StorageError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Storage {
 public:
  virtual ~Storage() = default;

  virtual std::string backend() const = 0;        // "sqlite"
  virtual int schema_version() = 0;               // the newest migration applied
  virtual int latest_schema_version() const = 0;  // the newest this build knows
  virtual bool healthy() = 0;                     // a trivial query succeeds

  // nullopt when the name is taken (case-insensitively).
  virtual std::optional<User> create_user(std::string_view username, std::string_view password_hash,
                                          std::int64_t now) = 0;
  virtual std::optional<User> find_user_by_name(std::string_view username) = 0;
  virtual std::optional<User> find_user_by_id(std::int64_t id) = 0;

  virtual void create_session(const SessionRecord& session) = 0;
  // The user of an unexpired session, if any.
  virtual std::optional<User> user_for_session(std::string_view session_id, std::int64_t now) = 0;
  virtual bool delete_session(std::string_view session_id) = 0;
  virtual int delete_expired_sessions(std::int64_t now) = 0;
};

struct OpenStorageResult {
  std::unique_ptr<Storage> storage;  // null on error
  std::string error;
};

// `url` is "sqlite:PATH" or a plain path (SQLite). The parent directory must exist.
OpenStorageResult open_storage(const std::string& url);

}  // namespace ur::server
