// One error vocabulary for the whole program: every layer, from the rule-set
// parser to the HTTP answers, reports a failure as an `Error` — a stable code and words for a
// person — and returns `Result<T>`. The code is what programs rely on (the WebSocket protocol's
// and the HTTP API's `error` field, the engine protocol's messages); the words may change.
// The one table of codes and their wire names is in error.cpp; what HTTP status an answer with a
// code carries is the server's to say (server/api/http_status.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace ur {

enum class Errc : std::uint8_t {
  // Input that does not parse or does not fit the rules (any layer).
  kBadRules,
  kBadPosition,
  kBadMove,
  kBadRecord,
  kBadAgent,
  kBadTable,
  kCorruptTable,
  kBadRequest,
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
  kIllegalMove,
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
  // HTTP.
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
  kInternal,
};

// The stable name sent on the wire ("bad_rules", "not_your_turn", ...).
std::string_view code_name(Errc code);
// The code of a wire name, for clients of our own protocols (ur bot, the load test).
std::optional<Errc> code_from_name(std::string_view name);

struct Error {
  Error() = default;
  Error(Errc c, std::string words, std::string remote = {})
      : code(c), message(std::move(words)), reason(std::move(remote)) {}

  Errc code = Errc::kInternal;
  // Words for the person who gave the input; may quote it (a command line, a local file).
  std::string message;
  // Words for someone else (a server's client): name the constraint only, never quote the input.
  // Empty when `message` quotes nothing and can be sent as it is.
  std::string reason;

  std::string_view name() const { return code_name(code); }
  const std::string& remote_message() const { return reason.empty() ? message : reason; }
};

// A value or the reason there is none. A variant, so callers test it with std::get_if /
// std::holds_alternative as any other.
template <class T>
using Result = std::variant<T, Error>;

}  // namespace ur
