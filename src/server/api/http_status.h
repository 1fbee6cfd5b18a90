// The HTTP status an answer with an error code carries (400, 404, 409, 422, ...): the one table
// (http_status.cpp) from which the API's error answers and the sessions' refusals take theirs.
#pragma once

#include <boost/beast/http/status.hpp>

#include "rules/error.h"

namespace ur::server {

boost::beast::http::status http_status(Errc code);

}  // namespace ur::server
