// What GET /metrics reads of the live tables (api_metrics.cpp): how many this node holds in
// memory waiting for a player or playing, by rule set. Read off the strands, so only what a
// LiveTable offers for that: its rule set (fixed at creation) and `live`.
#include "server/tables/table_service.h"

namespace ur::server {

std::map<std::string, int> TableService::live_tables_by_rules() {
  std::map<std::string, int> counts;
  std::lock_guard lock(tables_mutex_);
  for (const auto& [id, t] : tables_)
    if (t->live.load(std::memory_order_relaxed)) ++counts[t->rules];
  return counts;
}

}  // namespace ur::server
