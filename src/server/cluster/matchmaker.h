// Matchmaker: the "Find Match" queues, one per rule set and rated/casual, as plain logic.
//
// A ticket waits with its player's rating. pair() matches each waiting player, oldest first,
// with the waiting player of the same queue nearest in rating, provided the gap is within the
// window of the one who has waited longer: window(t) = base + per_second * t, so a player alone
// at the top of the ladder is matched with someone further away the longer they wait
// (defaults: 100 points at once, +25 a second, anyone after about a minute). A candidate either
// ticket avoids (may_meet) is skipped for the next nearest. One ticket per player key: queueing
// again replaces the old ticket. Not thread-safe (the service locks it).
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace ur::server {

struct MatchTicket {
  std::string key;  // the player (Actor::key)
  std::int64_t user_id = 0;
  std::string name;
  std::uint64_t connection = 0;
  std::string rules;  // canonical rule-set string
  bool rated = false;
  double rating = 0;
  std::chrono::steady_clock::time_point since;
  // Accounts this player is never paired with: one of the two blocks the other (docs/server.md,
  // "Blocking"), found when a pair of them was formed and not seated.
  std::vector<std::int64_t> avoid{};
};

// Whether a and b may be paired: neither ticket avoids the other's account.
bool may_meet(const MatchTicket& a, const MatchTicket& b);

class Matchmaker {
 public:
  using Clock = std::chrono::steady_clock;
  Matchmaker(double base_window = 100, double window_per_second = 25)
      : base_(base_window), per_second_(window_per_second) {}

  // Queues `t` in order of its `since` (a ticket put back keeps its place).
  void add(MatchTicket t);
  // Removes the ticket of `key`; false when it had none.
  bool remove_key(const std::string& key);
  // Removes every ticket queued from `connection` (it closed).
  void remove_connection(std::uint64_t connection);
  // Takes the pairs that can be matched now out of the queues.
  std::vector<std::pair<MatchTicket, MatchTicket>> pair(Clock::time_point now);

  double window(Clock::duration waited) const;
  std::size_t size() const { return tickets_.size(); }

 private:
  double base_, per_second_;
  std::vector<MatchTicket> tickets_;  // in order of since: arrival
};

}  // namespace ur::server
