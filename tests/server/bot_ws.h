// The WebSocket client of a bot account in the server tests: harness.h's TestWs, connecting with
// `Authorization: Bearer <token>` (docs/server.md, "Bot accounts") instead of a cookie.
#pragma once

#include <string>

#include "harness.h"

namespace ur::server::test {

class BotWs : public TestWs {
 public:
  using TestWs::TestWs;
  // The HTTP status of a refused upgrade (0 on success).
  unsigned connect(const std::string& token) { return connect_bearer(token); }
};

}  // namespace ur::server::test
