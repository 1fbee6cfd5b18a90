// AccountStore over a SqlDatabase (account_store.h): its statements once for both SQL dialects,
// beside SqlStorage, which hands it out as Storage::accounts().
#pragma once

#include <memory>

#include "server/storage/account_store.h"
#include "server/storage/sql_database.h"

namespace ur::server {

// `db` and `dialect` must outlive the answer.
std::unique_ptr<AccountStore> make_sql_accounts(SqlDatabase& db, const SqlDialect& dialect);

}  // namespace ur::server
