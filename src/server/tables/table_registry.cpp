#include "server/tables/table_registry.h"

namespace ur::server {

std::shared_ptr<LiveTable> TableRegistry::find(const std::string& id) {
  std::lock_guard lock(mutex_);
  auto it = tables_.find(id);
  return it == tables_.end() ? nullptr : it->second;
}

std::pair<std::shared_ptr<LiveTable>, bool> TableRegistry::insert(std::shared_ptr<LiveTable> t) {
  std::lock_guard lock(mutex_);
  auto [it, added] = tables_.try_emplace(t->model_id, t);
  return {it->second, added};
}

std::size_t TableRegistry::size() {
  std::lock_guard lock(mutex_);
  return tables_.size();
}

std::vector<std::shared_ptr<LiveTable>> TableRegistry::all(bool live_only) {
  std::vector<std::shared_ptr<LiveTable>> out;
  std::lock_guard lock(mutex_);
  out.reserve(tables_.size());
  for (const auto& [id, t] : tables_)
    if (!live_only || t->live) out.push_back(t);
  return out;
}

void TableRegistry::for_each(const std::function<void(const std::string&, LiveTable&)>& f) {
  std::lock_guard lock(mutex_);
  for (auto& [id, t] : tables_) f(id, *t);
}

void TableRegistry::evict_if(
    const std::function<bool(const std::string&, const LiveTable&)>& stale) {
  std::lock_guard lock(mutex_);
  std::erase_if(tables_, [&](const auto& entry) { return stale(entry.first, *entry.second); });
}

std::map<std::string, int> TableRegistry::live_by_rules() {
  std::map<std::string, int> counts;
  std::lock_guard lock(mutex_);
  for (const auto& [id, t] : tables_)
    if (t->live.load(std::memory_order_relaxed)) ++counts[t->rules];
  return counts;
}

}  // namespace ur::server
