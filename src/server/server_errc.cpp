// The wire names of the server's codes (server_errc.h). docs/protocol.md and docs/server.md list
// the same names; tests/server/protocol_doc_test.cpp checks the two against each other.
#include "server/server_errc.h"

#include <array>

#include "ai/agent_errc.h"
#include "solver/table_errc.h"

namespace ur::server {
namespace {

// Names that are this file's alone: the server is built in unity batches, where another file's
// anonymous namespace is this one's.
struct ServerCodeName {
  ServerErrc code;
  std::string_view name;
};

constexpr std::array kServerCodes{
    ServerCodeName{ServerErrc::kBadJson, "bad_json"},
    ServerCodeName{ServerErrc::kBadEnvelope, "bad_envelope"},
    ServerCodeName{ServerErrc::kUnsupportedVersion, "unsupported_version"},
    ServerCodeName{ServerErrc::kUnknownType, "unknown_type"},
    ServerCodeName{ServerErrc::kBinaryUnsupported, "binary_unsupported"},
    ServerCodeName{ServerErrc::kMessageTooLarge, "message_too_large"},
    ServerCodeName{ServerErrc::kRateLimited, "rate_limited"},
    ServerCodeName{ServerErrc::kNoTable, "no_table"},
    ServerCodeName{ServerErrc::kPrivateTable, "private_table"},
    ServerCodeName{ServerErrc::kBadInvite, "bad_invite"},
    ServerCodeName{ServerErrc::kTableFull, "table_full"},
    ServerCodeName{ServerErrc::kAlreadySeated, "already_seated"},
    ServerCodeName{ServerErrc::kLoginRequired, "login_required"},
    ServerCodeName{ServerErrc::kTooManyTables, "too_many_tables"},
    ServerCodeName{ServerErrc::kTableClosed, "table_closed"},
    ServerCodeName{ServerErrc::kNotSeated, "not_seated"},
    ServerCodeName{ServerErrc::kLeftTable, "left_table"},
    ServerCodeName{ServerErrc::kNotOwner, "not_owner"},
    ServerCodeName{ServerErrc::kHintsUnavailable, "hints_unavailable"},
    ServerCodeName{ServerErrc::kNotStarted, "not_started"},
    ServerCodeName{ServerErrc::kGameOver, "game_over"},
    ServerCodeName{ServerErrc::kNotYourTurn, "not_your_turn"},
    ServerCodeName{ServerErrc::kRollExpected, "roll_expected"},
    ServerCodeName{ServerErrc::kMoveExpected, "move_expected"},
    ServerCodeName{ServerErrc::kStaleVersion, "stale_version"},
    ServerCodeName{ServerErrc::kNotLocal, "not_local"},
    ServerCodeName{ServerErrc::kNothingToUndo, "nothing_to_undo"},
    ServerCodeName{ServerErrc::kLocalTable, "local_table"},
    ServerCodeName{ServerErrc::kNoRematch, "no_rematch"},
    ServerCodeName{ServerErrc::kConflict, "conflict"},
    ServerCodeName{ServerErrc::kNotPlaying, "not_playing"},
    ServerCodeName{ServerErrc::kBadToken, "bad_token"},
    ServerCodeName{ServerErrc::kNotBot, "not_bot"},
    ServerCodeName{ServerErrc::kNoBot, "no_bot"},
    ServerCodeName{ServerErrc::kBotRefuses, "bot_refuses"},
    ServerCodeName{ServerErrc::kBotBusy, "bot_busy"},
    ServerCodeName{ServerErrc::kRefused, "refused"},
    ServerCodeName{ServerErrc::kNotFound, "not_found"},
    ServerCodeName{ServerErrc::kMethodNotAllowed, "method_not_allowed"},
    ServerCodeName{ServerErrc::kNotJson, "not_json"},
    ServerCodeName{ServerErrc::kTooLarge, "too_large"},
    ServerCodeName{ServerErrc::kBadUsername, "bad_username"},
    ServerCodeName{ServerErrc::kReservedUsername, "reserved_username"},
    ServerCodeName{ServerErrc::kBadPassword, "bad_password"},
    ServerCodeName{ServerErrc::kUsernameTaken, "username_taken"},
    ServerCodeName{ServerErrc::kBadCredentials, "bad_credentials"},
    ServerCodeName{ServerErrc::kNotLoggedIn, "not_logged_in"},
    ServerCodeName{ServerErrc::kBanned, "banned"},
    ServerCodeName{ServerErrc::kNotAdmin, "not_admin"},
    ServerCodeName{ServerErrc::kBadPath, "bad_path"},
    ServerCodeName{ServerErrc::kBadOrigin, "bad_origin"},
    ServerCodeName{ServerErrc::kUpgradeRequired, "upgrade_required"},
    ServerCodeName{ServerErrc::kNotImplemented, "not_implemented"},
};

// The table is in the enum's order, so a code is its own index; checked once, at compile time.
constexpr bool server_codes_in_enum_order() {
  for (std::size_t i = 0; i < kServerCodes.size(); ++i)
    if (static_cast<std::size_t>(kServerCodes[i].code) != i) return false;
  return kServerCodes.size() == static_cast<std::size_t>(ServerErrc::kNotImplemented) + 1;
}
static_assert(server_codes_in_enum_order(),
              "kServerCodes must list every ServerErrc once, in the enum's order");

constexpr auto kServerCodeNames = [] {
  std::array<std::string_view, kServerCodes.size()> names{};
  for (std::size_t i = 0; i < kServerCodes.size(); ++i) names[i] = kServerCodes[i].name;
  return names;
}();

constexpr ErrorDomain kServerDomain{"server", kServerCodeNames};

}  // namespace

const ErrorDomain& error_domain(ServerErrc) {
  return kServerDomain;
}

std::span<const ErrorDomain* const> error_domains() {
  static const std::array<const ErrorDomain*, 4> kDomains{
      &error_domain(Errc{}), &error_domain(solver::TableErrc{}), &error_domain(ai::AgentErrc{}),
      &kServerDomain};
  return kDomains;
}

std::optional<ErrorCode> code_from_name(std::string_view name) {
  for (const ErrorDomain* domain : error_domains())
    for (std::size_t i = 0; i < domain->codes.size(); ++i)
      if (domain->codes[i] == name) return ErrorCode(*domain, static_cast<int>(i));
  return std::nullopt;
}

}  // namespace ur::server
