// Migration 13 in both dialects (sql_dialects.cpp lists it): the block list (docs/server.md,
// "Blocking"; account_store.h). One row per blocker and blocked account; the index on `blocked`
// answers "who blocks this player" (a quick message is hidden from each of them) without a scan.
// A deleted account's rows go with its users row (ON DELETE CASCADE), as its follows do.
#pragma once

namespace ur::server::sql {

inline constexpr const char* kSqliteMigration13 = R"sql(
  CREATE TABLE blocks (
    blocker    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked    INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (blocker, blocked)
  );
  CREATE INDEX blocks_blocked ON blocks(blocked);
  CREATE INDEX follows_followee ON follows(followee);
)sql";

inline constexpr const char* kPostgresMigration13 = R"sql(
  CREATE TABLE blocks (
    blocker    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    blocked    BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (blocker, blocked)
  );
  CREATE INDEX blocks_blocked ON blocks(blocked);
  CREATE INDEX follows_followee ON follows(followee);
)sql";

}  // namespace ur::server::sql
