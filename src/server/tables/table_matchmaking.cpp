// The matchmaking queue (table_matchmaking.h): one node's, or the cluster's shared one.
#include "server/tables/table_matchmaking.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <utility>
#include <vector>

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

std::string match_topic(const std::string& node) {
  return "match:" + node;
}

namespace {

// Each one's account goes into the other's avoid list.
void keep_apart(MatchTicket& a, MatchTicket& b) {
  if (a.user_id) b.avoid.push_back(a.user_id);
  if (b.user_id) a.avoid.push_back(b.user_id);
}

}  // namespace

TableMatchmaking::TableMatchmaking(LiveTable::Strand service_strand, PubSub& bus,
                                   TableWatchers& watchers, Window window, const std::string& node,
                                   SeatPair seat)
    : strand_(std::move(service_strand)),
      bus_(bus),
      watchers_(watchers),
      window_(window),
      node_(node),
      seat_(std::move(seat)),
      matchmaker_(window.base, window.per_second),
      timer_(strand_) {}

TableMatchmaking::~TableMatchmaking() {
  std::lock_guard lock(alive_->mutex);
  alive_->on = false;
}

void TableMatchmaking::start(Deliver deliver) {
  if (RedisCommands* redis = bus_.redis()) {
    shared_ =
        std::make_unique<SharedMatchQueue>(*redis, "ur:match:", window_.base, window_.per_second);
    sub_ = bus_.subscribe(match_topic(node_), guarded(std::move(deliver)));
  }
  net::post(strand_, [this] { tick(); });
}

void TableMatchmaking::stop() {
  stopping_ = true;
  sub_.reset();
  net::post(strand_, [this] { timer_.cancel(); });
}

void TableMatchmaking::tick() {
  if (stopping_) return;
  pair_waiting();
  timer_.expires_after(window_.tick);
  timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) tick();
  });
}

void TableMatchmaking::add(WsClient& c, const MatchTicket& ticket, const json& queued,
                           const json& msg) {
  watchers_.keep(c);
  if (shared_) {
    {
      std::lock_guard lock(mutex_);
      queued_[c.connection_id()] = ticket.key;
    }
    // Answered once Redis has the ticket, so `queued` always comes before `match_found`.
    auto done = [this, client = c.weak_client(), queued, msg](bool ok) {
      auto live = client.lock();
      if (live)
        live->send(ok ? queued
                      : error_reply(msg, Errc::kInternal,
                                    "matchmaking is unavailable right now; try again"));
      if (ok) net::post(strand_, [this] { pair_waiting(); });
    };
    shared_->add(SharedTicket{ticket, node_, 0}, 0, guarded(std::move(done)));
    return;
  }
  {
    std::lock_guard lock(mutex_);
    matchmaker_.add(ticket);
  }
  c.send(queued);
  net::post(strand_, [this] { pair_waiting(); });
}

void TableMatchmaking::cancel(WsClient& c, const std::string& key, json ok) {
  if (shared_) {
    {
      std::lock_guard lock(mutex_);
      queued_.erase(c.connection_id());
    }
    auto done = [client = c.weak_client(), ok](bool removed) mutable {
      ok["cancelled"] = removed;
      if (auto live = client.lock()) live->send(ok);
    };
    shared_->remove(key, "", 0, guarded(std::move(done)));
    return;
  }
  bool removed;
  {
    std::lock_guard lock(mutex_);
    removed = matchmaker_.remove_key(key);
  }
  ok["cancelled"] = removed;
  c.send(ok);
}

void TableMatchmaking::drop(std::uint64_t connection) {
  if (!shared_) {
    std::lock_guard lock(mutex_);
    matchmaker_.remove_connection(connection);
    return;
  }
  std::string key;
  {
    std::lock_guard lock(mutex_);
    auto it = queued_.find(connection);
    if (it == queued_.end()) return;
    key = std::move(it->second);
    queued_.erase(it);
  }
  // Only the ticket this socket queued: the player may have queued again from another one.
  shared_->remove(key, node_, connection, {});
}

void TableMatchmaking::pair_waiting() {
  if (shared_) {
    // A node that stops ticking (dead) has its tickets dropped after three ticks.
    shared_->heartbeat(node_, std::max<long long>(3 * window_.tick.count(), 3'000));
    shared_->pair(guarded([this](SharedMatchQueue::Pairs pairs) {
      if (!pairs.empty())
        net::post(strand_, [this, p = std::move(pairs)] { start_shared_pairs(p); });
    }));
    return;
  }
  std::vector<std::pair<MatchTicket, MatchTicket>> pairs;
  {
    std::lock_guard lock(mutex_);
    pairs = matchmaker_.pair(std::chrono::steady_clock::now());
  }
  for (auto& [a, b] : pairs) {
    auto ca = watchers_.local_client(a.connection), cb = watchers_.local_client(b.connection);
    if (!ca || !cb) {  // one of them left meanwhile: the other waits on
      requeue(a, b, false);
      continue;
    }
    // Back in the queue at their old places if the table could not be stored (the database
    // away): paired again at the next tick, instead of waiting for a match that never comes.
    seat_(a, {ca, {}}, b, {cb, {}}, [this, a, b](bool apart) { requeue(a, b, apart); });
  }
}

// Each ticket of the pair whose socket is still here goes back to the queue, at its old place.
void TableMatchmaking::requeue(MatchTicket a, MatchTicket b, bool apart) {
  if (apart) keep_apart(a, b);
  bool a_here = watchers_.local_client(a.connection) != nullptr;
  bool b_here = watchers_.local_client(b.connection) != nullptr;
  std::lock_guard lock(mutex_);
  if (a_here) matchmaker_.add(a);
  if (b_here) matchmaker_.add(b);
}

// The same in the shared queue: a player of another node is requeued (their node's heartbeat
// decides), one of this node only while their socket is here.
void TableMatchmaking::requeue(SharedTicket a, SharedTicket b, bool apart) {
  if (apart) keep_apart(a.ticket, b.ticket);
  for (const SharedTicket* t : {&a, &b})
    if (t->node != node_ || watchers_.local_client(t->ticket.connection))
      shared_->add(*t, t->since_ms, {});
}

// On the service strand: pairs the shared queue gave this node. A player of this node whose
// socket closed meanwhile is gone; the other goes back to the queue at their old place. A
// player of another node is told by that node (Deliver).
void TableMatchmaking::start_shared_pairs(const SharedMatchQueue::Pairs& pairs) {
  const std::string& me = node_;
  for (const auto& [a, b] : pairs) {
    std::shared_ptr<WsClient> ca, cb;
    if (a.node == me) ca = watchers_.local_client(a.ticket.connection);
    if (b.node == me) cb = watchers_.local_client(b.ticket.connection);
    if ((a.node == me && !ca) || (b.node == me && !cb)) {
      requeue(a, b, false);
      continue;
    }
    seat_(a.ticket, {ca, a.node == me ? "" : a.node}, b.ticket, {cb, b.node == me ? "" : b.node},
          [this, a, b](bool apart) { requeue(a, b, apart); });
  }
}

}  // namespace ur::server
