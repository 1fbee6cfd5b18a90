// Migration 12 in both dialects (sql_dialects.cpp lists it): what accounts people manage and
// moderators act on need (account_store.h). Kept apart from the older steps so that the list of
// sql_dialects.cpp stays short.
//
// users: is_admin (`ur admin grant`), banned_at (unix seconds, 0 = not banned) and ban_reason,
// deleted_at (0 = not deleted; a deleted account keeps its row, anonymised, so that its games
// and its opponents' ratings stay as they were). user_addresses: the addresses an account logged
// in or used a session from, one row per address with its first and last use. admin_actions:
// every moderation action with who did it.
#pragma once

namespace ur::server::sql {

inline constexpr const char* kSqliteMigration12 = R"sql(
  ALTER TABLE users ADD COLUMN is_admin INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN banned_at BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN ban_reason TEXT NOT NULL DEFAULT '';
  ALTER TABLE users ADD COLUMN deleted_at BIGINT NOT NULL DEFAULT 0;
  CREATE TABLE user_addresses (
    user_id    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    address    TEXT    NOT NULL,
    first_seen BIGINT  NOT NULL,
    last_seen  BIGINT  NOT NULL,
    PRIMARY KEY (user_id, address)
  );
  CREATE INDEX user_addresses_address ON user_addresses(address);
  CREATE TABLE admin_actions (
    id          INTEGER PRIMARY KEY,
    at          BIGINT  NOT NULL,
    admin_id    BIGINT  NOT NULL,
    admin_name  TEXT    NOT NULL,
    action      TEXT    NOT NULL,
    target_id   BIGINT  NOT NULL,
    target_name TEXT    NOT NULL,
    detail      TEXT    NOT NULL
  );
)sql";

inline constexpr const char* kPostgresMigration12 = R"sql(
  ALTER TABLE users ADD COLUMN is_admin BOOLEAN NOT NULL DEFAULT FALSE;
  ALTER TABLE users ADD COLUMN banned_at BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE users ADD COLUMN ban_reason TEXT NOT NULL DEFAULT '';
  ALTER TABLE users ADD COLUMN deleted_at BIGINT NOT NULL DEFAULT 0;
  CREATE TABLE user_addresses (
    user_id    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    address    TEXT   NOT NULL,
    first_seen BIGINT NOT NULL,
    last_seen  BIGINT NOT NULL,
    PRIMARY KEY (user_id, address)
  );
  CREATE INDEX user_addresses_address ON user_addresses(address);
  CREATE TABLE admin_actions (
    id          BIGSERIAL PRIMARY KEY,
    at          BIGINT NOT NULL,
    admin_id    BIGINT NOT NULL,
    admin_name  TEXT   NOT NULL,
    action      TEXT   NOT NULL,
    target_id   BIGINT NOT NULL,
    target_name TEXT   NOT NULL,
    detail      TEXT   NOT NULL
  );
)sql";

}  // namespace ur::server::sql
