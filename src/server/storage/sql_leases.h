// The statements of the node leases (migration 8; Storage's lease calls, docs/scaling.md "Table
// leases"), written once for both SQL dialects around the fragments of SqlDialect. Each runs
// inside the caller's transaction.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "server/storage/sql_database.h"
#include "server/storage/storage.h"

namespace ur::server::sql {

std::optional<std::int64_t> claim_table(SqlSession& s, std::string_view id, std::string_view node,
                                        std::int64_t now_ms);
std::vector<TableLease> renew_node(SqlSession& s, std::string_view node, std::int64_t until_ms);
std::vector<TableLease> take_orphans(SqlSession& s, const SqlDialect& d, std::string_view node,
                                     std::int64_t now_ms, std::int64_t until_ms, int limit);
bool start_clock(SqlSession& s, std::string_view id, std::int64_t version,
                 std::int64_t deadline_ms);
// The database's clock in unix ms (Storage::clock_ms).
std::optional<std::int64_t> read_clock(SqlSession& s, const SqlDialect& d);

}  // namespace ur::server::sql
