// Migration 14, the same statement in both dialects (sql_dialects.cpp lists it): the language an
// account chose for the web client (docs/server.md, "Your account"), a primary language subtag
// such as "de", or "" while the account has chosen none (the browser's languages decide then).
#pragma once

namespace ur::server::sql {

inline constexpr const char* kMigration14 = R"sql(
  ALTER TABLE users ADD COLUMN language TEXT NOT NULL DEFAULT '';
)sql";

}  // namespace ur::server::sql
