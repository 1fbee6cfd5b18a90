// The small interface a SQL backend of Storage implements (sqlite_storage.cpp, pg_storage.cpp):
// a connection that runs one statement at a time, in a transaction or outside one, and the
// dialect (the few SQL fragments that differ between the databases). Everything else about
// storage, the statements, Elo, the finish-game transaction and the row mapping, is written once
// over it in sql_storage.cpp.
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace ur::server {

// A callable passed down a call without being stored or copied (no allocation, unlike
// std::function): the callee calls it before it returns.
template <class Sig>
class FunctionRef;
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  FunctionRef() = default;
  template <class F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, FunctionRef> &&
           std::is_invocable_r_v<R, F&, Args...>)
      FunctionRef(F&& f)  // NOLINT: implicit, like std::function
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(args)...);
        }) {}
  explicit operator bool() const { return call_ != nullptr; }
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_ = nullptr;
  R (*call_)(void*, Args...) = nullptr;
};

// One value bound to a statement's placeholder. Text is viewed, not copied: it must outlive the
// statement's run.
struct SqlValue {
  enum class Kind { null, boolean, integer, real, text };
  Kind kind = Kind::null;
  std::int64_t integer = 0;  // also a boolean's 0 or 1
  double real = 0;
  std::string_view text;

  SqlValue(std::nullptr_t) {}  // NOLINT: implicit, so that run(sql, {a, b, c}) reads plainly
  SqlValue(bool b) : kind(Kind::boolean), integer(b ? 1 : 0) {}  // NOLINT
  template <std::integral T>
  requires(!std::is_same_v<T, bool>) SqlValue(T i)
      : kind(Kind::integer), integer(static_cast<std::int64_t>(i)) {}  // NOLINT
  SqlValue(double d) : kind(Kind::real), real(d) {}                    // NOLINT
  SqlValue(std::string_view s) : kind(Kind::text), text(s) {}          // NOLINT
  SqlValue(const std::string& s) : kind(Kind::text), text(s) {}        // NOLINT
  SqlValue(const char* s) : kind(Kind::text), text(s) {}               // NOLINT
};

// One row of a statement's answer, valid during the callback that receives it. A NULL reads as
// 0, false or "".
class SqlRow {
 public:
  virtual ~SqlRow() = default;
  virtual int size() const = 0;
  virtual std::int64_t integer(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual bool boolean(int column) const = 0;
  virtual std::string text(int column) const = 0;
};

using SqlRowFn = FunctionRef<void(const SqlRow&)>;

// Statements run inside a read (autocommit) or a write (one transaction). The SQL uses $1, $2 …
// for its parameters (a placeholder may appear more than once); a failure throws StorageError.
class SqlSession {
 public:
  virtual ~SqlSession() = default;
  // Runs one statement, calls `row` with each row it answers and returns the number of rows
  // it changed (for INSERT, UPDATE, DELETE).
  virtual std::int64_t run(std::string_view sql, std::initializer_list<SqlValue> params,
                           SqlRowFn row = {}) = 0;
  // The same for a statement run often, whose plan is worth keeping: PostgreSQL prepares it
  // once per connection (SQLite keeps every statement prepared anyway).
  virtual std::int64_t run_kept(std::string_view sql, std::initializer_list<SqlValue> params,
                                SqlRowFn row = {}) {
    return run(sql, params, row);
  }
  // Runs several statements without parameters (a migration step).
  virtual void script(const char* sql) = 0;
};

// A connection, safe to call from several threads (one call at a time). `what` names the
// operation in error messages.
class SqlDatabase {
 public:
  virtual ~SqlDatabase() = default;
  // The body's statements each commit on their own.
  virtual void read(const char* what, FunctionRef<void(SqlSession&)> body) = 0;
  // The body's statements commit together when it returns, and not at all when it throws.
  virtual void write(const char* what, FunctionRef<void(SqlSession&)> body) = 0;
  // How many calls run at once (Storage::connections).
  virtual int connections() const = 0;
};

// Numbered schema steps. Append only: a released step is never edited, a change is a new step
// (in both dialects, with the same number).
struct SqlMigration {
  int version;
  const char* sql;
};

// What differs between the SQL dialects; sql_storage.cpp writes every statement once around
// these fragments.
struct SqlDialect {
  const char* backend;  // "sqlite" | "postgresql": Storage::backend()
  std::span<const SqlMigration> migrations;
  const char* create_schema_version;  // CREATE TABLE IF NOT EXISTS schema_version (...)
  const char* lock_migrations;        // run first in each migration step ("" = none needed)
  const char* now_seconds;            // an expression: the database's clock in unix seconds
  const char* read_clock_ms;          // a SELECT of the database's clock in unix ms
  const char* username_is;            // a condition on `username` = $1, ignoring case
  const char* bytewise;               // follows a text column to order it bytewise ("" = default)
  const char* lock_rows;              // ends a SELECT that locks its rows for the transaction
  // An expression of a row of `tables t`: the events of its `table_events` rows, in version
  // order, joined by commas (NULL when there are none).
  const char* appended_events;
  // Node leases (sql_leases.cpp). Takes live tables of the holder $2 for the node $1, at most
  // $3, each at epoch + 1; RETURNING id, epoch. Two nodes taking at once never take one twice.
  const char* take_tables;
  // End a SELECT of `nodes` rows: share-lock the rows the taker reads as expired, so that their
  // node's renewal waits for the takeover (skipping a row a renewal holds: that node is alive);
  // lock one to forget it unless another taker holds it too. "" where one writer runs at a time.
  const char* share_skip_locked;
  const char* update_skip_locked;
};

// The dialects (sql_dialects.cpp).
const SqlDialect& sqlite_dialect();
const SqlDialect& postgres_dialect();

class Storage;
// The Storage over a connection: applies the dialect's pending migrations (throws StorageError).
std::unique_ptr<Storage> make_sql_storage(std::unique_ptr<SqlDatabase> db,
                                          const SqlDialect& dialect);

}  // namespace ur::server
