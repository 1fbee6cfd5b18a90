// The HTTP status of each error code: the one table from which the API's error answers and the
// session layer's refusals take their status. It lives here, not with the codes, because only the
// HTTP side of the server knows HTTP. One switch per domain (rules/error.h), each without a
// default, so a new code without a status does not compile (-Wswitch, -Werror); a new domain is
// added to http_status_of below and to error_domains() (server_errc.cpp), which the test
// HttpStatus.EveryCodeHasAnErrorStatus walks.
#include "server/api/http_status.h"

#include "ai/agent_errc.h"
#include "server/server_errc.h"
#include "solver/table_errc.h"

namespace ur::server {

using S = boost::beast::http::status;

namespace {

S rules_status(Errc code) {
  switch (code) {
    case Errc::kBadRules:
    case Errc::kBadPosition:
    case Errc::kBadMove:
    case Errc::kIllegalMove:
    case Errc::kBadRequest:
      return S::bad_request;
    case Errc::kBadRecord:
      return S::unprocessable_entity;
    case Errc::kInternal:
      return S::internal_server_error;
  }
  return S::internal_server_error;  // not a code: a value cast from outside the enum
}

S table_status(solver::TableErrc code) {
  switch (code) {
    case solver::TableErrc::kBadTable:
      return S::bad_request;
    case solver::TableErrc::kCorruptTable:
      return S::internal_server_error;
  }
  return S::internal_server_error;
}

S agent_status(ai::AgentErrc code) {
  switch (code) {
    case ai::AgentErrc::kBadAgent:
      return S::bad_request;
  }
  return S::internal_server_error;
}

// The codes of the last rows of server_status: a protocol asked for, not implemented.
S other_status(ServerErrc code) {
  if (code == ServerErrc::kUpgradeRequired) return S::upgrade_required;
  return S::not_implemented;
}

S server_status(ServerErrc code) {
  using E = ServerErrc;
  switch (code) {
    case E::kBadJson:
    case E::kBadEnvelope:
    case E::kUnsupportedVersion:
    case E::kUnknownType:
    case E::kBinaryUnsupported:
    case E::kBadInvite:
    case E::kBadUsername:
    case E::kReservedUsername:
    case E::kBadPassword:
    case E::kBadPath:
      return S::bad_request;
    case E::kLoginRequired:
    case E::kBadToken:
    case E::kBadCredentials:
    case E::kNotLoggedIn:
      return S::unauthorized;
    case E::kNotSeated:
    case E::kLeftTable:
    case E::kNotOwner:
    case E::kNotBot:
    case E::kBadOrigin:
    case E::kBanned:
    case E::kNotAdmin:
    case E::kRefused:
      return S::forbidden;
    case E::kNoTable:
    case E::kPrivateTable:
    case E::kNoBot:
    case E::kNotFound:
      return S::not_found;
    case E::kMethodNotAllowed:
      return S::method_not_allowed;
    case E::kTableFull:
    case E::kAlreadySeated:
    case E::kTableClosed:
    case E::kHintsUnavailable:
    case E::kNotStarted:
    case E::kGameOver:
    case E::kNotYourTurn:
    case E::kRollExpected:
    case E::kMoveExpected:
    case E::kStaleVersion:
    case E::kNotLocal:
    case E::kNothingToUndo:
    case E::kLocalTable:
    case E::kNoRematch:
    case E::kConflict:
    case E::kNotPlaying:
    case E::kBotRefuses:
    case E::kBotBusy:
    case E::kUsernameTaken:
      return S::conflict;
    case E::kMessageTooLarge:
    case E::kTooLarge:
      return S::payload_too_large;
    case E::kNotJson:
      return S::unsupported_media_type;
    case E::kRateLimited:
    case E::kTooManyTables:
      return S::too_many_requests;
    case E::kUpgradeRequired:
    case E::kNotImplemented:
      return other_status(code);
  }
  return S::internal_server_error;
}

}  // namespace

std::optional<S> http_status_of(ErrorCode code) {
  if (auto c = code.as<Errc>()) return rules_status(*c);
  if (auto c = code.as<solver::TableErrc>()) return table_status(*c);
  if (auto c = code.as<ai::AgentErrc>()) return agent_status(*c);
  if (auto c = code.as<ServerErrc>()) return server_status(*c);
  return std::nullopt;
}

S http_status(ErrorCode code) {
  return http_status_of(code).value_or(S::internal_server_error);
}

}  // namespace ur::server
