// Who watches a table (table_watchers.h).
#include "server/tables/table_watchers.h"

#include <vector>

#include "server/tables/table_model.h"

namespace ur::server {
using json = nlohmann::json;

void TableWatchers::publish_spectators(LiveTable& t) {
  json msg = envelope("spectators");
  msg["table"] = t.model_id;
  msg["count"] = t.spectators.load();
  bus_.publish(table_topic(t.model_id), std::make_shared<const std::string>(msg.dump()));
}

void TableWatchers::seat_present(LiveTable& t, int seat, int delta) {
  if (seat < 1 || seat > 2) return;
  int after = (t.present[seat - 1] += delta);
  if (!(delta > 0 && after == 1) && !(delta < 0 && after == 0)) return;
  json msg = envelope("presence");
  msg["table"] = t.model_id;
  msg["seat"] = seat;
  msg["online"] = after > 0;
  bus_.publish(table_topic(t.model_id), std::make_shared<const std::string>(msg.dump()));
}

void TableWatchers::evict_spectators(LiveTable& t) {
  std::vector<std::shared_ptr<WsClient>> told;
  {
    std::lock_guard lock(mutex_);
    for (auto& [id, conn] : conns_) {
      auto it = conn.watching.find(t.model_id);
      if (it == conn.watching.end() || !it->second.spectator) continue;
      conn.watching.erase(it);  // unsubscribes: nothing more reaches this connection
      t.spectators--;
      if (auto client = conn.client.lock()) told.push_back(std::move(client));
    }
  }
  if (told.empty()) return;
  json msg = envelope("table_private");
  msg["table"] = t.model_id;
  msg["message"] = "this table became private: you are no longer watching it";
  auto payload =
      std::make_shared<const std::string>(msg.dump(-1, ' ', false, json::error_handler_t::replace));
  for (auto& client : told) client->send(payload);
}

void TableWatchers::watch(WsClient& c, const std::shared_ptr<LiveTable>& t, bool spectator) {
  const std::string& id = t->model_id;
  std::weak_ptr<WsClient> weak = c.weak_client();
  std::lock_guard lock(mutex_);
  Conn& conn = conns_[c.connection_id()];
  conn.client = weak;
  auto it = conn.watching.find(id);
  if (it != conn.watching.end()) {
    if (it->second.spectator == spectator) return;
    if (it->second.spectator) {
      t->spectators--;
      publish_spectators(*t);
    }
    seat_present(*t, it->second.seat, -1);
    conn.watching.erase(it);
  }
  Watch w;
  w.table = t;
  w.spectator = spectator;
  // Callers seat a player on the table's strand: its model may be read here.
  if (!spectator) {
    const int seat = t->model.seat_of(actor_of(c.identity(), c.connection_id()).key);
    if (t->model.person_at(seat)) w.seat = seat;
  }
  const std::int64_t me = c.identity().user ? c.identity().user->id : 0;
  w.sub = bus_.subscribe(table_topic(id), [weak, me](const Payload& p) {
    auto client = weak.lock();
    if (!client) return;
    if (p->empty() || p->front() != kHiddenMark) return client->send(p);
    if (auto shown = shown_to(*p, me))
      client->send(std::make_shared<const std::string>(std::move(*shown)));
  });
  int seat = w.seat;
  conn.watching.emplace(id, std::move(w));
  seat_present(*t, seat, +1);
  if (spectator) {
    t->spectators++;
    publish_spectators(*t);
  }
}

void TableWatchers::unwatch(std::uint64_t connection, const std::string& table_id) {
  std::lock_guard lock(mutex_);
  auto c = conns_.find(connection);
  if (c == conns_.end()) return;
  auto it = c->second.watching.find(table_id);
  if (it == c->second.watching.end()) return;
  std::shared_ptr<LiveTable> t = it->second.table.lock();
  bool spectator = it->second.spectator;
  int seat = it->second.seat;
  c->second.watching.erase(it);
  if (t && spectator) {
    t->spectators--;
    publish_spectators(*t);
  }
  if (t) seat_present(*t, seat, -1);
}

void TableWatchers::unsubscribe_all(Conn& conn) {
  std::vector<std::shared_ptr<LiveTable>> watched;
  std::vector<std::pair<std::shared_ptr<LiveTable>, int>> seated;
  for (auto& [id, w] : conn.watching)
    if (auto t = w.table.lock()) {
      if (w.spectator) watched.push_back(t);
      if (w.seat) seated.emplace_back(std::move(t), w.seat);
    }
  conn.watching.clear();  // unsubscribes
  for (auto& t : watched) {
    t->spectators--;
    publish_spectators(*t);
  }
  for (auto& [t, seat] : seated) seat_present(*t, seat, -1);
}

void TableWatchers::close(std::uint64_t connection) {
  Conn gone;
  {
    std::lock_guard lock(mutex_);
    auto it = conns_.find(connection);
    if (it != conns_.end()) {
      gone = std::move(it->second);
      conns_.erase(it);
    }
  }
  unsubscribe_all(gone);
}

void TableWatchers::keep(WsClient& c) {
  std::lock_guard lock(mutex_);
  conns_[c.connection_id()].client = c.weak_client();
}

std::shared_ptr<WsClient> TableWatchers::local_client(std::uint64_t connection) {
  std::lock_guard lock(mutex_);
  auto it = conns_.find(connection);
  return it == conns_.end() ? nullptr : it->second.client.lock();
}

void TableWatchers::sweep_closed() {
  std::lock_guard lock(mutex_);
  for (auto it = conns_.begin(); it != conns_.end();) {
    if (!it->second.client.expired()) {
      ++it;
      continue;
    }
    unsubscribe_all(it->second);
    it = conns_.erase(it);
  }
}

std::unordered_set<std::string> TableWatchers::tables_with_players() {
  std::unordered_set<std::string> present;
  std::lock_guard lock(mutex_);
  for (const auto& [id, conn] : conns_) {
    if (conn.client.expired()) continue;
    for (const auto& [table, w] : conn.watching)
      if (!w.spectator) present.insert(table);
  }
  return present;
}

}  // namespace ur::server
