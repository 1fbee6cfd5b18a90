// The PostgreSQL backend of Storage (`--db postgresql://user[:password]@host[:port]/database`,
// any libpq connection URI): the choice for several server nodes sharing one database, or for an
// operator who already runs PostgreSQL. Same contract and the same numbered migrations as the
// SQLite backend, written in PostgreSQL's dialect (BIGSERIAL ids, BOOLEAN flags, a unique index on
// lower(username)).
//
// A small pool of connections (`ur serve --db-connections`): each call takes a free one and
// waits while all are busy, so that as many commits of different tables are in flight at once
// (each a network round trip) as there are connections. A connection that breaks is replaced
// once per call and the call retried; that is safe because a transaction cut off before COMMIT is
// rolled back by the server, and a COMMIT whose fate is unknown is reported, never retried.
// Migrations take a transaction-scoped advisory lock, so nodes starting together migrate once.
// Error messages name the server as user@host:port/database and never show the password.
#pragma once

#include <memory>
#include <string>

#include "server/storage/storage.h"

namespace ur::server {

// Connects (one connection now, up to `connections` on demand) and applies pending migrations.
// Throws StorageError with a readable message.
std::unique_ptr<Storage> open_pg_storage(const std::string& url, int connections = 1);

// The URL without password and query parameters, fit for a log line:
// "postgresql://ur:secret@db:5432/ur?sslmode=require" -> "postgresql://ur@db:5432/ur".
std::string redact_pg_url(const std::string& url);

// The connection string with libpq's network timeouts added where the operator set none: a
// connection attempt gives up after 10 s, and a connection whose server or network went away
// without a word (a cut link, a dead proxy) is found dead within about 20 s — by TCP keepalives
// while waiting for an answer, by `tcp_user_timeout` while a request goes unacknowledged —
// instead of hanging the call that uses it for the kernel's ~15 minutes. A slow answer from a
// live server is never cut short. URLs get query parameters, "key=value" strings words.
std::string pg_url_with_timeouts(const std::string& url);

}  // namespace ur::server
