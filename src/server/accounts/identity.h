// Who is on the other end of a connection (a logged-in user or a guest) and the server's wall
// clock, apart from the server context (server_context.h) so that the table model and the message
// dispatcher can name a player without the pools, storage and services of a running server.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "server/storage/storage.h"

namespace ur::server {

// Who is on the other end of a connection: a logged-in user, or a guest with a random id.
struct Identity {
  std::optional<User> user;
  std::string session_id;  // empty for guests
  std::string guest_id;    // "guest-" + 8 hex digits, for guests
  std::string guest_key;   // guests with the ur_guest cookie: a hash of it (stable identity)
  std::string remote_ip;
  bool admin = false;  // a session of an administrator (never a bot token: docs/server.md)
  // A bot connection: the user was named by a bot token (Authorization: Bearer), not a session.
  bool bot = false;
  bool bad_bot_token = false;  // a token was sent and is wrong or revoked: refuse the upgrade
};

// Seconds since the Unix epoch (timestamps in storage and sessions).
std::int64_t unix_now();

}  // namespace ur::server
