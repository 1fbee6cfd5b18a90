#include "server/cluster/matchmaker.h"

#include <algorithm>
#include <cmath>

namespace ur::server {

bool may_meet(const MatchTicket& a, const MatchTicket& b) {
  auto has = [](const std::vector<std::int64_t>& ids, std::int64_t id) {
    return id != 0 && std::find(ids.begin(), ids.end(), id) != ids.end();
  };
  return !has(a.avoid, b.user_id) && !has(b.avoid, a.user_id);
}

double Matchmaker::window(Clock::duration waited) const {
  double seconds = std::chrono::duration<double>(waited).count();
  return base_ + per_second_ * std::max(0.0, seconds);
}

void Matchmaker::add(MatchTicket t) {
  remove_key(t.key);
  // In order of arrival: a ticket put back (its pair was not seated) keeps its place.
  auto at = std::upper_bound(
      tickets_.begin(), tickets_.end(), t.since,
      [](Clock::time_point since, const MatchTicket& other) { return since < other.since; });
  tickets_.insert(at, std::move(t));
}

bool Matchmaker::remove_key(const std::string& key) {
  auto it = std::find_if(tickets_.begin(), tickets_.end(),
                         [&](const MatchTicket& t) { return t.key == key; });
  if (it == tickets_.end()) return false;
  tickets_.erase(it);
  return true;
}

void Matchmaker::remove_connection(std::uint64_t connection) {
  std::erase_if(tickets_, [&](const MatchTicket& t) { return t.connection == connection; });
}

std::vector<std::pair<MatchTicket, MatchTicket>> Matchmaker::pair(Clock::time_point now) {
  std::vector<std::pair<MatchTicket, MatchTicket>> out;
  std::vector<bool> taken(tickets_.size(), false);
  // tickets_ is in arrival order, so the first unmatched ticket has waited longest.
  for (std::size_t i = 0; i < tickets_.size(); ++i) {
    if (taken[i]) continue;
    const MatchTicket& a = tickets_[i];
    double limit = window(now - a.since);
    std::size_t best = tickets_.size();
    double best_gap = 0;
    for (std::size_t j = i + 1; j < tickets_.size(); ++j) {
      const MatchTicket& b = tickets_[j];
      if (taken[j] || b.rules != a.rules || b.rated != a.rated || !may_meet(a, b)) continue;
      double gap = std::fabs(a.rating - b.rating);
      if (gap <= limit && (best == tickets_.size() || gap < best_gap)) {
        best = j;
        best_gap = gap;
      }
    }
    if (best == tickets_.size()) continue;
    taken[i] = taken[best] = true;
    out.emplace_back(a, tickets_[best]);
  }
  std::vector<MatchTicket> rest;
  for (std::size_t i = 0; i < tickets_.size(); ++i)
    if (!taken[i]) rest.push_back(std::move(tickets_[i]));
  tickets_ = std::move(rest);
  return out;
}

}  // namespace ur::server
