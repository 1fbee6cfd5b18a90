// The codes of stored tables (rules/error.h, "A code belongs to the floor that raises it"): a
// solved table (table_file.h), a network file (ai/network_file.h) and, on the server, a stored
// game table all fail to load with one of these.
#pragma once

#include <cstdint>

#include "rules/error.h"

namespace ur::solver {

enum class TableErrc : std::uint8_t {
  kBadTable,      // not a table this program can use: missing, of another kind or rule set
  kCorruptTable,  // a table whose contents do not read back
};
const ErrorDomain& error_domain(TableErrc);

}  // namespace ur::solver
