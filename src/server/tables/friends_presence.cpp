// Presence (friends.h): which accounts have a live WebSocket on this node, or with a Redis bus
// on any node, and each account's sockets subscribed to its bus topic user:<id>.
#include "server/tables/friends.h"

#include <boost/asio/post.hpp>

#include "server/tables/table_model.h"

namespace ur::server {
namespace net = boost::asio;
using net::awaitable;

void FriendService::opened(WsClient& c) {
  const Identity& id = c.identity();
  if (!id.user) return;
  auto deliver = [client = c.weak_client()](const Payload& p) {
    if (auto live = client.lock()) live->send(p);
  };
  Subscription sub = ctx_.pubsub->subscribe(user_topic(id.user->id), std::move(deliver));
  std::lock_guard lock(mutex_);
  sockets_[c.connection_id()] = Present{id.user->id, std::move(sub)};
  if (++online_[id.user->id] == 1 && shared_) shared_->hold({id.user->id}, friends_now_ms());
}

void FriendService::closed(WsClient& c) {
  Subscription gone;  // dropped outside the lock
  std::vector<std::string> made_here;
  {
    std::lock_guard lock(mutex_);
    auto it = sockets_.find(c.connection_id());
    if (it == sockets_.end()) return;
    if (--online_[it->second.user_id] <= 0) {
      online_.erase(it->second.user_id);
      if (shared_) shared_->drop(it->second.user_id);
    }
    gone = std::move(it->second.sub);
    sockets_.erase(it);
    for (const auto& [id, ch] : challenges_)
      if (ch->from_connection == c.connection_id()) made_here.push_back(id);
  }
  // The page that made a challenge is where its game would start: without it, it is cancelled.
  Answerer who{nullptr, actor_of(c.identity(), c.connection_id()), "", c.connection_id()};
  for (const std::string& id : made_here) end(id, "cancel", who);
}

bool FriendService::online(std::int64_t user_id) {
  std::lock_guard lock(mutex_);
  return online_.contains(user_id);
}

void FriendService::start(const std::string& node) {
  RedisCommands* redis = ctx_.pubsub->redis();
  if (!redis) return;
  {
    std::lock_guard lock(mutex_);
    shared_ = std::make_unique<SharedPresence>(*redis, node);
  }
  blocks_sub_ =
      ctx_.pubsub->subscribe(kBlocksTopic, [this](const Payload& p) { on_remote_block(p); });
  net::post(strand_, [this] { renew_presence(); });
}

// On the strand: this node's entries renewed, every kPresenceRenew.
void FriendService::renew_presence() {
  {
    std::lock_guard lock(mutex_);
    if (stopping_) return;
    std::vector<std::int64_t> users;
    for (const auto& [user, n] : online_) users.push_back(user);
    shared_->hold(users, friends_now_ms());
  }
  renew_timer_.expires_after(kPresenceRenew);
  renew_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) renew_presence();
  });
}

awaitable<std::vector<bool>> FriendService::online_anywhere(std::vector<std::int64_t> users) {
  std::vector<bool> out(users.size());
  std::vector<std::int64_t> elsewhere;
  SharedPresence* shared;
  {
    std::lock_guard lock(mutex_);
    for (std::size_t i = 0; i < users.size(); ++i) out[i] = online_.contains(users[i]);
    shared = shared_.get();
  }
  for (std::size_t i = 0; i < users.size(); ++i)
    if (!out[i]) elsewhere.push_back(users[i]);
  if (!shared || elsewhere.empty()) co_return out;
  auto there = co_await shared->online(elsewhere, friends_now_ms());
  if (!there) co_return out;  // Redis away: this node's answer
  for (std::size_t i = 0, j = 0; i < users.size(); ++i)
    if (!out[i]) out[i] = (*there)[j++];
  co_return out;
}

}  // namespace ur::server
