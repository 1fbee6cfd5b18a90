// The HTTP status an answer with an error code carries (400, 404, 409, 422, ...): the one table
// (http_status.cpp) from which the API's error answers and the sessions' refusals take theirs.
#pragma once

#include <boost/beast/http/status.hpp>
#include <optional>

#include "rules/error.h"

namespace ur::server {

// 500 for a code of a domain the table does not know.
boost::beast::http::status http_status(ErrorCode code);
// None for a code of a domain the table does not know: what the tests look for.
std::optional<boost::beast::http::status> http_status_of(ErrorCode code);

}  // namespace ur::server
