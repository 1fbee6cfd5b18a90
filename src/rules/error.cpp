// The one table of error codes and their wire names (their HTTP statuses are the server's:
// server/api/http_status.cpp). docs/protocol.md and docs/server.md list the same names; tests/server/protocol_doc_test.cpp checks the two against each other.
#include "rules/error.h"

#include <array>

namespace ur {
namespace {

struct Row {
  Errc code;
  std::string_view name;
};

constexpr std::array kTable{
    Row{Errc::kBadRules, "bad_rules"},
    Row{Errc::kBadPosition, "bad_position"},
    Row{Errc::kBadMove, "bad_move"},
    Row{Errc::kBadRecord, "bad_record"},
    Row{Errc::kBadAgent, "bad_agent"},
    Row{Errc::kBadTable, "bad_table"},
    Row{Errc::kCorruptTable, "corrupt_table"},
    Row{Errc::kBadRequest, "bad_request"},
    Row{Errc::kBadJson, "bad_json"},
    Row{Errc::kBadEnvelope, "bad_envelope"},
    Row{Errc::kUnsupportedVersion, "unsupported_version"},
    Row{Errc::kUnknownType, "unknown_type"},
    Row{Errc::kBinaryUnsupported, "binary_unsupported"},
    Row{Errc::kMessageTooLarge, "message_too_large"},
    Row{Errc::kRateLimited, "rate_limited"},
    Row{Errc::kNoTable, "no_table"},
    Row{Errc::kPrivateTable, "private_table"},
    Row{Errc::kBadInvite, "bad_invite"},
    Row{Errc::kTableFull, "table_full"},
    Row{Errc::kAlreadySeated, "already_seated"},
    Row{Errc::kLoginRequired, "login_required"},
    Row{Errc::kTooManyTables, "too_many_tables"},
    Row{Errc::kTableClosed, "table_closed"},
    Row{Errc::kNotSeated, "not_seated"},
    Row{Errc::kLeftTable, "left_table"},
    Row{Errc::kNotOwner, "not_owner"},
    Row{Errc::kHintsUnavailable, "hints_unavailable"},
    Row{Errc::kNotStarted, "not_started"},
    Row{Errc::kGameOver, "game_over"},
    Row{Errc::kNotYourTurn, "not_your_turn"},
    Row{Errc::kRollExpected, "roll_expected"},
    Row{Errc::kMoveExpected, "move_expected"},
    Row{Errc::kIllegalMove, "illegal_move"},
    Row{Errc::kStaleVersion, "stale_version"},
    Row{Errc::kNotLocal, "not_local"},
    Row{Errc::kNothingToUndo, "nothing_to_undo"},
    Row{Errc::kLocalTable, "local_table"},
    Row{Errc::kNoRematch, "no_rematch"},
    Row{Errc::kConflict, "conflict"},
    Row{Errc::kNotPlaying, "not_playing"},
    Row{Errc::kBadToken, "bad_token"},
    Row{Errc::kNotBot, "not_bot"},
    Row{Errc::kNoBot, "no_bot"},
    Row{Errc::kBotRefuses, "bot_refuses"},
    Row{Errc::kBotBusy, "bot_busy"},
    Row{Errc::kRefused, "refused"},
    Row{Errc::kNotFound, "not_found"},
    Row{Errc::kMethodNotAllowed, "method_not_allowed"},
    Row{Errc::kNotJson, "not_json"},
    Row{Errc::kTooLarge, "too_large"},
    Row{Errc::kBadUsername, "bad_username"},
    Row{Errc::kReservedUsername, "reserved_username"},
    Row{Errc::kBadPassword, "bad_password"},
    Row{Errc::kUsernameTaken, "username_taken"},
    Row{Errc::kBadCredentials, "bad_credentials"},
    Row{Errc::kNotLoggedIn, "not_logged_in"},
    Row{Errc::kBanned, "banned"},
    Row{Errc::kNotAdmin, "not_admin"},
    Row{Errc::kBadPath, "bad_path"},
    Row{Errc::kBadOrigin, "bad_origin"},
    Row{Errc::kUpgradeRequired, "upgrade_required"},
    Row{Errc::kNotImplemented, "not_implemented"},
    Row{Errc::kInternal, "internal"},
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

std::optional<Errc> code_from_name(std::string_view name) {
  for (const Row& r : kTable)
    if (r.name == name) return r.code;
  return std::nullopt;
}

}  // namespace ur
