// Node leases (sql_leases.h). A node's lease is one `nodes` row, renewed by its node once a
// period whatever the number of its tables; a live table names its holder (`owner_node`) and
// the epoch it holds it at. Invariant: the holder of a live table always has a `nodes` row (a
// claim needs the claimant's live row, a taker writes its own first, and an expired row is
// forgotten only once no live table names it), so the expired rows find every orphaned table.
#include "server/storage/sql_leases.h"

#include <algorithm>
#include <string>

#include "server/storage/sql_rows.h"

namespace ur::server::sql {
namespace {

constexpr const char* kLive = "status IN ('waiting', 'playing')";

std::int64_t integer0(const SqlRow& r) {
  return r.integer(0);
}

std::string text0(const SqlRow& r) {
  return r.text(0);
}

void write_node(SqlSession& s, std::string_view node, std::int64_t until_ms) {
  s.run(
      "INSERT INTO nodes(node, lease_until) VALUES($1, $2) "
      "ON CONFLICT(node) DO UPDATE SET lease_until = excluded.lease_until",
      {node, until_ms});
}

std::int64_t count(SqlSession& s, const std::string& sql, std::initializer_list<SqlValue> p) {
  return first(s, sql, p, integer0).value_or(0);
}

}  // namespace

std::optional<std::int64_t> claim_table(SqlSession& s, std::string_view id, std::string_view node,
                                        std::int64_t now_ms) {
  // Free: nobody's, or a holder whose node lease ran out (then at epoch + 1, fencing it).
  return first(s,
               std::string("UPDATE tables SET owner_node = $2, "
                           "epoch = CASE WHEN owner_node = $2 THEN epoch ELSE epoch + 1 END "
                           "WHERE id = $1 AND ") +
                   kLive +
                   " AND EXISTS (SELECT 1 FROM nodes WHERE node = $2 AND lease_until >= $3) "
                   "AND (owner_node = $2 OR NOT EXISTS (SELECT 1 FROM nodes n "
                   "WHERE n.node = tables.owner_node AND n.lease_until >= $3)) RETURNING epoch",
               {id, node, now_ms}, integer0);
}

std::vector<TableLease> renew_node(SqlSession& s, std::string_view node, std::int64_t until_ms) {
  write_node(s, node, until_ms);
  return all(s, std::string("SELECT id, epoch FROM tables WHERE owner_node = $1 AND ") + kLive,
             {node}, to_lease);
}

// The holders whose lease ran out, and "" when a live table was left unclaimed for a lease
// (its creator died before claiming it, or the claim failed): those whose tables are orphans.
// `lock`: share-lock the rows found (skipping those another node's sweep holds), so that their
// holders cannot renew while their tables are taken.
std::vector<std::string> orphaned(SqlSession& s, const SqlDialect& d, std::string_view node,
                                  std::int64_t now_ms, std::int64_t until_ms, bool lock) {
  std::vector<std::string> gone =
      all(s,
          std::string("SELECT node FROM nodes WHERE lease_until < $1 AND node <> $2 "
                      "ORDER BY lease_until") +
              (lock ? d.share_skip_locked : ""),
          {now_ms, node}, text0);
  // A table is claimed by its creator at once; one unclaimed a lease later has nobody.
  std::int64_t unclaimed_before_s = (now_ms - (until_ms - now_ms)) / 1000;
  if (first(s,
            std::string("SELECT 1 FROM tables WHERE owner_node = '' AND created_at < $1 AND ") +
                kLive + " LIMIT 1",
            {unclaimed_before_s}, integer0))
    gone.insert(gone.begin(), "");
  return gone;
}

std::vector<TableLease> take_orphans(SqlSession& s, const SqlDialect& d, std::string_view node,
                                     std::int64_t now_ms, std::int64_t until_ms, int limit) {
  // The usual period: two small reads, no write, no lock.
  if (orphaned(s, d, node, now_ms, until_ms, false).empty()) return {};
  // Our own row first, then the others' share locks: two nodes that each see the other's lease
  // run out (both slowed down, say) would otherwise each hold a share lock on the other's row and
  // wait for the other's to renew their own: a deadlock, which PostgreSQL breaks by failing one.
  write_node(s, node, until_ms);
  std::vector<std::string> gone = orphaned(s, d, node, now_ms, until_ms, true);
  // Fair shares, so that survivors spread a dead node's tables among them in one period: a
  // taker brings itself up to the average of the live nodes; at least its head's share of what
  // is left (the tables move even if another survivor never sweeps), at most `limit` in all.
  const std::string live_tables = std::string("SELECT COUNT(*) FROM tables WHERE ") + kLive;
  std::int64_t alive = std::max<std::int64_t>(
      1, count(s, "SELECT COUNT(*) FROM nodes WHERE lease_until >= $1", {now_ms}));
  std::int64_t average = (count(s, live_tables, {}) + alive - 1) / alive;
  std::int64_t mine = count(s, live_tables + " AND owner_node = $1", {node});
  std::vector<TableLease> out;
  for (const std::string& from : gone) {
    auto room = static_cast<std::int64_t>(limit) - static_cast<std::int64_t>(out.size());
    if (room <= 0) break;
    std::int64_t n = count(s, live_tables + " AND owner_node = $1", {from});
    if (n == 0 && !from.empty()) {
      // Nothing left to take: forget the node (unless another taker still holds its row).
      s.run(std::string("DELETE FROM nodes WHERE node IN (SELECT node FROM nodes WHERE node = $1 "
                        "AND lease_until < $2") +
                d.update_skip_locked + ") AND NOT EXISTS (SELECT 1 FROM tables WHERE " +
                "owner_node = $1 AND " + kLive + ")",
            {from, now_ms});
      continue;
    }
    std::int64_t share = std::min(room, std::max(average - mine, (n + alive - 1) / alive));
    std::vector<TableLease> taken = all(s, d.take_tables, {node, from, share}, to_lease);
    mine += static_cast<std::int64_t>(taken.size());
    out.insert(out.end(), taken.begin(), taken.end());
  }
  return out;
}

bool start_clock(SqlSession& s, std::string_view id, std::int64_t version,
                 std::int64_t deadline_ms) {
  return s.run(std::string("UPDATE tables SET clock_deadline = $3 WHERE id = $1 AND version = $2 "
                           "AND clock_deadline = 0 AND ") +
                   kLive,
               {id, version, deadline_ms}) == 1;
}

std::optional<std::int64_t> read_clock(SqlSession& s, const SqlDialect& d) {
  return first(s, d.read_clock_ms, {}, integer0);
}

}  // namespace ur::server::sql
