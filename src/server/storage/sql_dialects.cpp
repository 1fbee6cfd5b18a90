// The two SQL dialects of Storage side by side (sql_database.h): each one's numbered schema
// migrations and the statements that differ between SQLite and PostgreSQL. Everything else —
// the statements, transactions, Elo and row mapping — is written once in sql_storage.cpp; the
// backends (sqlite_storage.cpp, pg_storage.cpp) keep only their connections.
#include "server/storage/sql_database.h"
#include "server/storage/sql_migration_12.h"
#include "server/storage/sql_migration_13.h"
#include "server/storage/sql_migration_14.h"
#include "server/storage/sql_migration_15.h"
#include "server/storage/sql_puzzle_schema.h"

namespace ur::server {
namespace {
namespace sqlite_sql {

// Numbered schema steps (sql_database.h), in SQLite's dialect.
constexpr SqlMigration kMigrations[] = {
    {1, R"sql(
      CREATE TABLE users (
        id            INTEGER PRIMARY KEY,
        username      TEXT    NOT NULL COLLATE NOCASE UNIQUE,
        password_hash TEXT    NOT NULL,
        created_at    INTEGER NOT NULL,
        rating        REAL    NOT NULL DEFAULT 1200,
        games         INTEGER NOT NULL DEFAULT 0,
        wins          INTEGER NOT NULL DEFAULT 0
      );
      CREATE TABLE sessions (
        id         TEXT    PRIMARY KEY,
        user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
    )sql"},
    {2, R"sql(
      CREATE TABLE tables (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        is_public  INTEGER NOT NULL,
        rated      INTEGER NOT NULL,
        version    BIGINT  NOT NULL,
        state      TEXT    NOT NULL,
        created_at BIGINT  NOT NULL,
        updated_at BIGINT  NOT NULL
      );
      CREATE INDEX tables_live ON tables(status, is_public, updated_at);
      CREATE TABLE matches (
        id                  TEXT    PRIMARY KEY,
        rules               TEXT    NOT NULL,
        rated               INTEGER NOT NULL,
        light_user          BIGINT  REFERENCES users(id),
        dark_user           BIGINT  REFERENCES users(id),
        light_name          TEXT    NOT NULL,
        dark_name           TEXT    NOT NULL,
        winner              INTEGER NOT NULL,
        reason              TEXT    NOT NULL,
        light_rating_before DOUBLE PRECISION NOT NULL,
        light_rating_after  DOUBLE PRECISION NOT NULL,
        dark_rating_before  DOUBLE PRECISION NOT NULL,
        dark_rating_after   DOUBLE PRECISION NOT NULL,
        summary             TEXT    NOT NULL,
        record              TEXT    NOT NULL,
        started_at          BIGINT  NOT NULL,
        finished_at         BIGINT  NOT NULL
      );
      CREATE INDEX matches_light ON matches(light_user, finished_at);
      CREATE INDEX matches_dark ON matches(dark_user, finished_at);
      CREATE INDEX users_rating ON users(games, rating);
    )sql"},
    {3, R"sql(
      ALTER TABLE tables ADD COLUMN owner_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN owner_user BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN owner_addr TEXT NOT NULL DEFAULT '';
      CREATE INDEX tables_owner ON tables(status, owner_key);
      CREATE INDEX tables_owner_addr ON tables(status, owner_addr);
    )sql"},
    {4, R"sql(
      CREATE TABLE reviews (
        match_id       TEXT    PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
        estimate       INTEGER NOT NULL,
        light_accuracy DOUBLE PRECISION NOT NULL,
        dark_accuracy  DOUBLE PRECISION NOT NULL,
        review         TEXT    NOT NULL,
        created_at     BIGINT  NOT NULL
      );
    )sql"},
    // Bot accounts and their own rating pool (Storage::bot_status).
    {5, R"sql(
      ALTER TABLE users ADD COLUMN is_bot INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_token_hash TEXT;
      ALTER TABLE users ADD COLUMN bot_rating REAL NOT NULL DEFAULT 1200;
      ALTER TABLE users ADD COLUMN bot_games INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_wins INTEGER NOT NULL DEFAULT 0;
      CREATE UNIQUE INDEX users_bot_token ON users(bot_token_hash);
    )sql"},
    // Table leases of a cluster (Storage::claim_table) and the stored idle clock.
    {6, R"sql(
      ALTER TABLE tables ADD COLUMN owner_node TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN clock_deadline BIGINT NOT NULL DEFAULT 0;
      CREATE INDEX tables_lease ON tables(status, lease_until);
      CREATE INDEX tables_owner_node ON tables(owner_node, status);
    )sql"},
    // The game record's events apart from the state (TableRow::events): a snapshot in the row,
    // written every few events and at the end, and one appended row per version after it. No
    // foreign key: an event row is only ever written in the transaction that updated its table
    // row, and the key check would lock that row once more on every action.
    {7, R"sql(
      ALTER TABLE tables ADD COLUMN events TEXT NOT NULL DEFAULT '';
      CREATE TABLE table_events (
        table_id TEXT   NOT NULL,
        version  BIGINT NOT NULL,
        events   TEXT   NOT NULL,
        PRIMARY KEY (table_id, version)
      ) WITHOUT ROWID;
    )sql"},
    // One lease per node (Storage::renew_leases): a `nodes` row renewed once a period replaces
    // the per-table lease_until; every node holding a live table gets its row.
    {8, R"sql(
      CREATE TABLE nodes (
        node        TEXT   PRIMARY KEY,
        lease_until BIGINT NOT NULL
      );
      INSERT INTO nodes(node, lease_until)
        SELECT owner_node, MAX(lease_until) FROM tables
        WHERE owner_node <> '' AND status IN ('waiting', 'playing') GROUP BY owner_node;
      DROP INDEX tables_lease;
      ALTER TABLE tables DROP COLUMN lease_until;
    )sql"},
    {9, R"sql(
      CREATE TABLE rule_ratings (
        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        rules   TEXT    NOT NULL,
        rating  REAL    NOT NULL DEFAULT 1200,
        games   INTEGER NOT NULL DEFAULT 0,
        wins    INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, rules)
      );
    )sql"},
    // Who follows whom (docs/server.md, "Friends"): one row per pair, the newest first on a list.
    {10, R"sql(
      CREATE TABLE follows (
        follower   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        followee   INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (follower, followee)
      );
    )sql"},
    // Puzzles, their solvers' ratings and every first attempt (sql_puzzle_schema.h).
    {11, kSqlitePuzzleSchema},
    {12, sql::kSqliteMigration12},
    {13, sql::kSqliteMigration13},
    {14, sql::kMigration14},
    {15, sql::kMigration15},
};

// SQLite has one writer at a time, so PostgreSQL's SKIP LOCKED has nothing to skip here, and a
// transaction holds every row it reads (BEGIN IMMEDIATE): FOR UPDATE is not needed (nor known).
constexpr SqlDialect kSqlite{
    .backend = "sqlite",
    .migrations = kMigrations,
    .create_schema_version =
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)",
    .lock_migrations = "",
    .now_seconds = "CAST(strftime('%s','now') AS INTEGER)",
    .read_clock_ms = "SELECT CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
    .username_is = "username = $1",  // the column is COLLATE NOCASE
    .bytewise = "",                  // BINARY, SQLite's default collation, is bytewise
    .lock_rows = "",
    .appended_events =
        "(SELECT group_concat(e.events, ',') OVER (ORDER BY e.version ROWS BETWEEN UNBOUNDED "
        "PRECEDING AND UNBOUNDED FOLLOWING) FROM table_events e WHERE e.table_id = t.id LIMIT 1)",
    .take_tables =
        "UPDATE tables SET owner_node = $1, epoch = epoch + 1 WHERE id IN "
        "(SELECT id FROM tables WHERE owner_node = $2 AND status IN ('waiting', 'playing') "
        "ORDER BY id LIMIT $3) RETURNING id, epoch",
    .share_skip_locked = "",
    .update_skip_locked = "",
};

}  // namespace sqlite_sql
namespace postgres_sql {

// Numbered schema steps (sql_database.h), the same numbers as the SQLite dialect's.
constexpr SqlMigration kMigrations[] = {
    {1, R"sql(
      CREATE TABLE users (
        id            BIGSERIAL PRIMARY KEY,
        username      TEXT             NOT NULL,
        password_hash TEXT             NOT NULL,
        created_at    BIGINT           NOT NULL,
        rating        DOUBLE PRECISION NOT NULL DEFAULT 1200,
        games         INTEGER          NOT NULL DEFAULT 0,
        wins          INTEGER          NOT NULL DEFAULT 0
      );
      CREATE UNIQUE INDEX users_username ON users (lower(username));
      CREATE TABLE sessions (
        id         TEXT   PRIMARY KEY,
        user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        expires_at BIGINT NOT NULL
      );
      CREATE INDEX sessions_user ON sessions(user_id);
      CREATE INDEX sessions_expiry ON sessions(expires_at);
    )sql"},
    {2, R"sql(
      CREATE TABLE tables (
        id         TEXT    PRIMARY KEY,
        rules      TEXT    NOT NULL,
        status     TEXT    NOT NULL,
        is_public  BOOLEAN NOT NULL,
        rated      BOOLEAN NOT NULL,
        version    BIGINT  NOT NULL,
        state      TEXT    NOT NULL,
        created_at BIGINT  NOT NULL,
        updated_at BIGINT  NOT NULL
      );
      CREATE INDEX tables_live ON tables(status, is_public, updated_at);
      CREATE TABLE matches (
        id                  TEXT    PRIMARY KEY,
        rules               TEXT    NOT NULL,
        rated               BOOLEAN NOT NULL,
        light_user          BIGINT  REFERENCES users(id),
        dark_user           BIGINT  REFERENCES users(id),
        light_name          TEXT    NOT NULL,
        dark_name           TEXT    NOT NULL,
        winner              INTEGER NOT NULL,
        reason              TEXT    NOT NULL,
        light_rating_before DOUBLE PRECISION NOT NULL,
        light_rating_after  DOUBLE PRECISION NOT NULL,
        dark_rating_before  DOUBLE PRECISION NOT NULL,
        dark_rating_after   DOUBLE PRECISION NOT NULL,
        summary             TEXT    NOT NULL,
        record              TEXT    NOT NULL,
        started_at          BIGINT  NOT NULL,
        finished_at         BIGINT  NOT NULL
      );
      CREATE INDEX matches_light ON matches(light_user, finished_at);
      CREATE INDEX matches_dark ON matches(dark_user, finished_at);
      CREATE INDEX users_rating ON users(games, rating);
    )sql"},
    {3, R"sql(
      ALTER TABLE tables ADD COLUMN owner_key TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN owner_user BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN owner_addr TEXT NOT NULL DEFAULT '';
      CREATE INDEX tables_owner ON tables(status, owner_key);
      CREATE INDEX tables_owner_addr ON tables(status, owner_addr);
    )sql"},
    {4, R"sql(
      CREATE TABLE reviews (
        match_id       TEXT             PRIMARY KEY REFERENCES matches(id) ON DELETE CASCADE,
        estimate       BOOLEAN          NOT NULL,
        light_accuracy DOUBLE PRECISION NOT NULL,
        dark_accuracy  DOUBLE PRECISION NOT NULL,
        review         TEXT             NOT NULL,
        created_at     BIGINT           NOT NULL
      );
    )sql"},
    // Bot accounts and their own rating pool (Storage::bot_status).
    {5, R"sql(
      ALTER TABLE users ADD COLUMN is_bot BOOLEAN NOT NULL DEFAULT FALSE;
      ALTER TABLE users ADD COLUMN bot_token_hash TEXT UNIQUE;
      ALTER TABLE users ADD COLUMN bot_rating DOUBLE PRECISION NOT NULL DEFAULT 1200;
      ALTER TABLE users ADD COLUMN bot_games INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE users ADD COLUMN bot_wins INTEGER NOT NULL DEFAULT 0;
    )sql"},
    // Table leases of a cluster (Storage::claim_table) and the stored idle clock.
    {6, R"sql(
      ALTER TABLE tables ADD COLUMN owner_node TEXT NOT NULL DEFAULT '';
      ALTER TABLE tables ADD COLUMN lease_until BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
      ALTER TABLE tables ADD COLUMN clock_deadline BIGINT NOT NULL DEFAULT 0;
      CREATE INDEX tables_lease ON tables(status, lease_until);
      CREATE INDEX tables_owner_node ON tables(owner_node, status);
    )sql"},
    // The game record's events apart from the state (TableRow::events): a snapshot in the row,
    // written every few events and at the end, and one appended row per version after it. No
    // foreign key: an event row is only ever written in the transaction that updated its table
    // row, and the key check would lock that row once more on every action.
    {7, R"sql(
      ALTER TABLE tables ADD COLUMN events TEXT NOT NULL DEFAULT '';
      CREATE TABLE table_events (
        table_id TEXT   NOT NULL,
        version  BIGINT NOT NULL,
        events   TEXT   NOT NULL,
        PRIMARY KEY (table_id, version)
      );
    )sql"},
    // One lease per node (Storage::renew_leases): a `nodes` row renewed once a period replaces
    // the per-table lease_until; every node holding a live table gets its row.
    {8, R"sql(
      CREATE TABLE nodes (
        node        TEXT   PRIMARY KEY,
        lease_until BIGINT NOT NULL
      );
      INSERT INTO nodes(node, lease_until)
        SELECT owner_node, MAX(lease_until) FROM tables
        WHERE owner_node <> '' AND status IN ('waiting', 'playing') GROUP BY owner_node;
      DROP INDEX tables_lease;
      ALTER TABLE tables DROP COLUMN lease_until;
    )sql"},
    {9, R"sql(
      CREATE TABLE rule_ratings (
        user_id BIGINT           NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        rules   TEXT             NOT NULL,
        rating  DOUBLE PRECISION NOT NULL DEFAULT 1200,
        games   BIGINT           NOT NULL DEFAULT 0,
        wins    BIGINT           NOT NULL DEFAULT 0,
        PRIMARY KEY (user_id, rules)
      );
    )sql"},
    {10, R"sql(
      CREATE TABLE follows (
        follower   BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        followee   BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        created_at BIGINT NOT NULL,
        PRIMARY KEY (follower, followee)
      );
    )sql"},
    {11, kPostgresPuzzleSchema},
    {12, sql::kPostgresMigration12},
    {13, sql::kPostgresMigration13},
    {14, sql::kMigration14},
    {15, sql::kMigration15},
};

constexpr SqlDialect kPostgres{
    .backend = "postgresql",
    .migrations = kMigrations,
    .create_schema_version =
        "CREATE TABLE IF NOT EXISTS schema_version ("
        "version INTEGER PRIMARY KEY, applied_at BIGINT NOT NULL)",
    // Serialises nodes migrating at once ("ur" in ASCII: any constant every node shares).
    .lock_migrations = "SELECT pg_advisory_xact_lock(29810)",
    .now_seconds = "EXTRACT(EPOCH FROM now())::BIGINT",
    .read_clock_ms = "SELECT (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)::BIGINT",
    .username_is = "lower(username) = lower($1)",  // the unique index is on lower(username)
    .bytewise = " COLLATE \"C\"",                  // whatever the database's locale
    .lock_rows = " FOR UPDATE",
    // Rows another node's sweep has locked are skipped, not waited for.
    .appended_events =
        "(SELECT string_agg(e.events, ',' ORDER BY e.version) FROM table_events e "
        "WHERE e.table_id = t.id)",
    .take_tables =
        "UPDATE tables t SET owner_node = $1, epoch = t.epoch + 1 "
        "FROM (SELECT id FROM tables WHERE owner_node = $2 AND status IN ('waiting', 'playing') "
        "ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED) taken "
        "WHERE t.id = taken.id RETURNING t.id, t.epoch",
    .share_skip_locked = " FOR SHARE SKIP LOCKED",
    .update_skip_locked = " FOR UPDATE SKIP LOCKED",
};

}  // namespace postgres_sql
}  // namespace

const SqlDialect& sqlite_dialect() {
  return sqlite_sql::kSqlite;
}
const SqlDialect& postgres_dialect() {
  return postgres_sql::kPostgres;
}

}  // namespace ur::server
