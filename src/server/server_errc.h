// The server's codes (rules/error.h, "A code belongs to the floor that raises it"): the WebSocket
// envelope, tables and games, bots, friends and blocks, accounts, bans and the HTTP API. Any room
// of the server may raise them, so they sit at its base with the configuration and the log. The
// wire names are in server_errc.cpp; the HTTP status of each is api/http_status.cpp's.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "rules/error.h"

namespace ur::server {

enum class ServerErrc : std::uint8_t {
  // Input that is not JSON.
  kBadJson,
  // WebSocket envelope and transport.
  kBadEnvelope,
  kUnsupportedVersion,
  kUnknownType,
  kBinaryUnsupported,
  kMessageTooLarge,
  kRateLimited,
  // Tables and games.
  kNoTable,
  kPrivateTable,
  kBadInvite,
  kTableFull,
  kAlreadySeated,
  kLoginRequired,
  kTooManyTables,
  kTableClosed,
  kNotSeated,
  kLeftTable,
  kNotOwner,
  kHintsUnavailable,
  kNotStarted,
  kGameOver,
  kNotYourTurn,
  kRollExpected,
  kMoveExpected,
  kStaleVersion,
  kNotLocal,
  kNothingToUndo,
  kLocalTable,
  kNoRematch,
  kConflict,
  kNotPlaying,
  // Bots.
  kBadToken,
  kNotBot,
  kNoBot,
  kBotRefuses,
  kBotBusy,
  // Friends: the other account does not accept this from you (docs/server.md, "Blocking").
  kRefused,
  // HTTP and accounts.
  kNotFound,
  kMethodNotAllowed,
  kNotJson,
  kTooLarge,
  kBadUsername,
  kReservedUsername,
  kBadPassword,
  kUsernameTaken,
  kBadCredentials,
  kNotLoggedIn,
  kBanned,
  kNotAdmin,
  kBadPath,
  kBadOrigin,
  kUpgradeRequired,
  kNotImplemented,
};
const ErrorDomain& error_domain(ServerErrc);

// Every domain whose codes can reach a client of the server (the rules', the stored tables', the
// computer players' and the server's): the list that tests and clients of our own protocols
// (the load test) read the whole vocabulary from. A new domain is added here and to
// api/http_status.cpp.
std::span<const ErrorDomain* const> error_domains();

// The code of a wire name, in any of error_domains(); none for a name no domain has.
std::optional<ErrorCode> code_from_name(std::string_view name);

}  // namespace ur::server
