// The one table of error codes: wire name and HTTP status. docs/protocol.md and docs/server.md
// list the same names; tests/server/protocol_doc_test.cpp checks the two against each other.
#include "rules/error.h"

#include <array>

namespace ur {
namespace {

struct Row {
  Errc code;
  std::string_view name;
  int status;
};

constexpr std::array kTable{
    Row{Errc::kBadRules, "bad_rules", 400},
    Row{Errc::kBadPosition, "bad_position", 400},
    Row{Errc::kBadMove, "bad_move", 400},
    Row{Errc::kBadRecord, "bad_record", 422},
    Row{Errc::kBadAgent, "bad_agent", 400},
    Row{Errc::kBadTable, "bad_table", 400},
    Row{Errc::kCorruptTable, "corrupt_table", 500},
    Row{Errc::kBadRequest, "bad_request", 400},
    Row{Errc::kBadJson, "bad_json", 400},
    Row{Errc::kBadEnvelope, "bad_envelope", 400},
    Row{Errc::kUnsupportedVersion, "unsupported_version", 400},
    Row{Errc::kUnknownType, "unknown_type", 400},
    Row{Errc::kBinaryUnsupported, "binary_unsupported", 400},
    Row{Errc::kMessageTooLarge, "message_too_large", 413},
    Row{Errc::kRateLimited, "rate_limited", 429},
    Row{Errc::kNoTable, "no_table", 404},
    Row{Errc::kPrivateTable, "private_table", 404},
    Row{Errc::kBadInvite, "bad_invite", 400},
    Row{Errc::kTableFull, "table_full", 409},
    Row{Errc::kAlreadySeated, "already_seated", 409},
    Row{Errc::kLoginRequired, "login_required", 401},
    Row{Errc::kTooManyTables, "too_many_tables", 429},
    Row{Errc::kTableClosed, "table_closed", 409},
    Row{Errc::kNotSeated, "not_seated", 403},
    Row{Errc::kLeftTable, "left_table", 403},
    Row{Errc::kNotOwner, "not_owner", 403},
    Row{Errc::kHintsUnavailable, "hints_unavailable", 409},
    Row{Errc::kNotStarted, "not_started", 409},
    Row{Errc::kGameOver, "game_over", 409},
    Row{Errc::kNotYourTurn, "not_your_turn", 409},
    Row{Errc::kRollExpected, "roll_expected", 409},
    Row{Errc::kMoveExpected, "move_expected", 409},
    Row{Errc::kIllegalMove, "illegal_move", 400},
    Row{Errc::kStaleVersion, "stale_version", 409},
    Row{Errc::kNotLocal, "not_local", 409},
    Row{Errc::kNothingToUndo, "nothing_to_undo", 409},
    Row{Errc::kLocalTable, "local_table", 409},
    Row{Errc::kNoRematch, "no_rematch", 409},
    Row{Errc::kConflict, "conflict", 409},
    Row{Errc::kNotPlaying, "not_playing", 409},
    Row{Errc::kBadToken, "bad_token", 401},
    Row{Errc::kNotBot, "not_bot", 403},
    Row{Errc::kNoBot, "no_bot", 404},
    Row{Errc::kBotRefuses, "bot_refuses", 409},
    Row{Errc::kBotBusy, "bot_busy", 409},
    Row{Errc::kNotFound, "not_found", 404},
    Row{Errc::kMethodNotAllowed, "method_not_allowed", 405},
    Row{Errc::kNotJson, "not_json", 415},
    Row{Errc::kTooLarge, "too_large", 413},
    Row{Errc::kBadUsername, "bad_username", 400},
    Row{Errc::kReservedUsername, "reserved_username", 400},
    Row{Errc::kBadPassword, "bad_password", 400},
    Row{Errc::kUsernameTaken, "username_taken", 409},
    Row{Errc::kBadCredentials, "bad_credentials", 401},
    Row{Errc::kNotLoggedIn, "not_logged_in", 401},
    Row{Errc::kBanned, "banned", 403},
    Row{Errc::kNotAdmin, "not_admin", 403},
    Row{Errc::kBadPath, "bad_path", 400},
    Row{Errc::kBadOrigin, "bad_origin", 403},
    Row{Errc::kUpgradeRequired, "upgrade_required", 426},
    Row{Errc::kNotImplemented, "not_implemented", 501},
    Row{Errc::kInternal, "internal", 500},
};

// The table is in the enum's order, so a code is its own index; checked once, at compile time.
constexpr bool in_enum_order() {
  for (std::size_t i = 0; i < kTable.size(); ++i)
    if (static_cast<std::size_t>(kTable[i].code) != i) return false;
  return kTable.size() == static_cast<std::size_t>(Errc::kInternal) + 1;
}
static_assert(in_enum_order(), "kTable must list every Errc once, in the enum's order");

}  // namespace

std::string_view code_name(Errc code) {
  return kTable[static_cast<std::size_t>(code)].name;
}

int http_status(Errc code) {
  return kTable[static_cast<std::size_t>(code)].status;
}

std::optional<Errc> code_from_name(std::string_view name) {
  for (const Row& r : kTable)
    if (r.name == name) return r.code;
  return std::nullopt;
}

}  // namespace ur
