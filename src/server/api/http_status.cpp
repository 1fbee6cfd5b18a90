// The HTTP status of each error code: the one table from which the API's error answers and the
// session layer's refusals take their status. It lives here, not with the codes (rules/error.h),
// because only the HTTP side of the server knows HTTP. A switch without a default, so a new code
// without a status does not compile (-Wswitch, -Werror).
#include "server/api/http_status.h"

namespace ur::server {

using S = boost::beast::http::status;

namespace {

// The codes of the last rows of http_status: a protocol asked for, the server's own failures.
S other_status(Errc code) {
  if (code == Errc::kUpgradeRequired) return S::upgrade_required;
  if (code == Errc::kNotImplemented) return S::not_implemented;
  return S::internal_server_error;
}

}  // namespace

S http_status(Errc code) {
  switch (code) {
    case Errc::kBadRules:
    case Errc::kBadPosition:
    case Errc::kBadMove:
    case Errc::kBadAgent:
    case Errc::kBadTable:
    case Errc::kBadRequest:
    case Errc::kBadJson:
    case Errc::kBadEnvelope:
    case Errc::kUnsupportedVersion:
    case Errc::kUnknownType:
    case Errc::kBinaryUnsupported:
    case Errc::kBadInvite:
    case Errc::kIllegalMove:
    case Errc::kBadUsername:
    case Errc::kReservedUsername:
    case Errc::kBadPassword:
    case Errc::kBadPath:
      return S::bad_request;
    case Errc::kLoginRequired:
    case Errc::kBadToken:
    case Errc::kBadCredentials:
    case Errc::kNotLoggedIn:
      return S::unauthorized;
    case Errc::kNotSeated:
    case Errc::kLeftTable:
    case Errc::kNotOwner:
    case Errc::kNotBot:
    case Errc::kBadOrigin:
    case Errc::kBanned:
    case Errc::kNotAdmin:
    case Errc::kRefused:
      return S::forbidden;
    case Errc::kNoTable:
    case Errc::kPrivateTable:
    case Errc::kNoBot:
    case Errc::kNotFound:
      return S::not_found;
    case Errc::kMethodNotAllowed:
      return S::method_not_allowed;
    case Errc::kTableFull:
    case Errc::kAlreadySeated:
    case Errc::kTableClosed:
    case Errc::kHintsUnavailable:
    case Errc::kNotStarted:
    case Errc::kGameOver:
    case Errc::kNotYourTurn:
    case Errc::kRollExpected:
    case Errc::kMoveExpected:
    case Errc::kStaleVersion:
    case Errc::kNotLocal:
    case Errc::kNothingToUndo:
    case Errc::kLocalTable:
    case Errc::kNoRematch:
    case Errc::kConflict:
    case Errc::kNotPlaying:
    case Errc::kBotRefuses:
    case Errc::kBotBusy:
    case Errc::kUsernameTaken:
      return S::conflict;
    case Errc::kMessageTooLarge:
    case Errc::kTooLarge:
      return S::payload_too_large;
    case Errc::kNotJson:
      return S::unsupported_media_type;
    case Errc::kBadRecord:
      return S::unprocessable_entity;
    case Errc::kRateLimited:
    case Errc::kTooManyTables:
      return S::too_many_requests;
    case Errc::kUpgradeRequired:
    case Errc::kCorruptTable:
    case Errc::kInternal:
    case Errc::kNotImplemented:
      return other_status(code);
  }
  return S::internal_server_error;  // not a code: a value cast from outside the enum
}

}  // namespace ur::server
