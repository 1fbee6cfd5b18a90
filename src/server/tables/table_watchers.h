// Who watches the live tables from this node: the subscriptions of connections to a table's topic
// (pubsub.h), the spectator count and its broadcast, each seat's `presence`, and what happens to
// them when a table becomes private or a connection closes. Its own mutex guards the connections'
// map, not a table's strand: a watcher may come and go while the table's write is in flight. The
// map also answers which socket of this node a connection id is (matchmaking, challenges).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "server/cluster/pubsub.h"
#include "server/protocol/ws_dispatch.h"
#include "server/tables/live_table.h"

namespace ur::server {

class TableWatchers {
 public:
  explicit TableWatchers(PubSub& bus) : bus_(bus) {}

  // The connection watches the table, as a spectator or as the player of its seat (counted in
  // LiveTable::present). Called on the table's strand when it seats a player: the model is read.
  void watch(WsClient& c, const std::shared_ptr<LiveTable>& t, bool spectator);
  void unwatch(std::uint64_t connection, const std::string& table_id);
  // The table became private: its spectators are unsubscribed and told so, once.
  void evict_spectators(LiveTable& t);
  // Makes the connection findable by local_client before it watches anything (a queued player,
  // a challenge accepted: another node's pair seats it).
  void keep(WsClient& c);
  // The socket of a connection of this node; null once it closed.
  std::shared_ptr<WsClient> local_client(std::uint64_t connection);
  // A connection closed: its subscriptions are dropped.
  void close(std::uint64_t connection);
  // Drops what closed connections left behind (a connection that closed while matchmaking
  // seated it). From the cache sweep.
  void sweep_closed();
  // The tables some player's page on this node watches (table expiry, table_expiry.cpp).
  std::unordered_set<std::string> tables_with_players();

 private:
  struct Watch {
    Subscription sub;
    std::weak_ptr<LiveTable> table;
    bool spectator = false;
    int seat = 0;  // a person's seat (1 or 2), counted in LiveTable::present (person_at)
  };
  struct Conn {
    std::weak_ptr<WsClient> client;
    std::unordered_map<std::string, Watch> watching;
  };

  void unsubscribe_all(Conn& conn);  // drops every subscription of a connection
  void publish_spectators(LiveTable& t);
  // A player's page on this node opened (+1) or left (-1) the table: `presence` when the seat's
  // count crosses zero.
  void seat_present(LiveTable& t, int seat, int delta);

  PubSub& bus_;
  std::mutex mutex_;
  std::unordered_map<std::uint64_t, Conn> conns_;
};

}  // namespace ur::server
