// The live tables this node keeps in memory, by id: a cache of the database (table_service.h),
// loaded on demand, restored at start and swept of finished tables. Safe to call from any thread:
// one mutex guards the map alone, held for a lookup or a walk and never across a table's strand,
// a storage call or a publish.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "server/tables/live_table.h"

namespace ur::server {

class TableRegistry {
 public:
  // The table of `id` when it is kept here; null otherwise.
  std::shared_ptr<LiveTable> find(const std::string& id);
  // Keeps `t` unless a table of its id is kept already (someone loaded it first: theirs is
  // current). Returns the table kept and whether it is `t`.
  std::pair<std::shared_ptr<LiveTable>, bool> insert(std::shared_ptr<LiveTable> t);
  std::size_t size();
  // Every table kept now; with `live_only`, those that wait for a player or play.
  std::vector<std::shared_ptr<LiveTable>> all(bool live_only = false);
  // Calls `f` on every table, under the lock: `f` must not block nor call back in here.
  void for_each(const std::function<void(const std::string&, LiveTable&)>& f);
  // Drops the tables `stale` picks (under the lock: the same rule as for_each). An evicted
  // table is simply loaded again on demand.
  void evict_if(const std::function<bool(const std::string&, const LiveTable&)>& stale);
  // The live tables by rule set (GET /metrics): reads only what a LiveTable offers off its
  // strand, its rule set and `live`.
  std::map<std::string, int> live_by_rules();

 private:
  std::mutex mutex_;
  std::unordered_map<std::string, std::shared_ptr<LiveTable>> tables_;
};

}  // namespace ur::server
