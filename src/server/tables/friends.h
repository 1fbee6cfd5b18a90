// Friends (docs/server.md, "Friends"; docs/protocol.md, "Challenges"): which accounts have a
// live WebSocket on this node (presence), and challenges by name between two accounts.
//
// Every socket of an account subscribes to the bus topic user:<id> while it is open, so that a
// message for the account (a challenge, its end) reaches each of its sockets on every node
// (PubSub: in-process, or Redis between nodes). Presence is node-local: an account is online when
// this node holds one of its sockets, or, on a cluster with a Redis bus, when any node does
// (SharedPresence, redis_presence.h; docs/scaling.md, "Friends and presence").
//
// A challenge has one owner: the node where it was made (the challenger's socket is there). It
// lives in memory on that node, subscribed to the bus topic challenge:<id>; an answer or a
// cancel made on another node travels to it through that topic. Only the owner changes its
// state, under its mutex: accepted, declined, cancelled or expired, whichever comes first. On
// acceptance it seats both players at a new private table (TableService::start_pair: a seat of
// another node is seated by that node) and tells both accounts with `challenge_ended`.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/accounts/rate_limiter.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_presence.h"
#include "server/protocol/ws_dispatch.h"
#include "server/server_context.h"
#include "server/tables/table_model.h"

namespace ur::server {

// Challenges one account may have waiting at once, and how many it may make: 5 at once, then
// one every 6 seconds (a token bucket per account on its node).
inline constexpr int kMaxOpenChallenges = 3;
inline constexpr double kChallengeBurst = 5;
inline constexpr double kChallengeRefillPerSec = 1.0 / 6;

// The bus topic of an account's sockets, and the clock of challenges and presence (unix ms).
inline std::string user_topic(std::int64_t id) {
  return "user:" + std::to_string(id);
}
// The bus topic of blocks, which every node of a cluster listens to: a challenge between the
// two accounts may be owned by any node.
inline constexpr const char* kBlocksTopic = "blocks";
inline std::int64_t friends_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

class FriendService {
 public:
  using json = nlohmann::json;
  explicit FriendService(ServerContext& ctx);
  ~FriendService();
  FriendService(const FriendService&) = delete;
  FriendService& operator=(const FriendService&) = delete;

  // challenge_player, challenge_answer, challenge_cancel; the sockets' opening and closing.
  void register_handlers(Dispatcher& dispatcher);
  // With a Redis bus: presence shared by the nodes, this node's entries held under `node`.
  void start(const std::string& node);
  // Whether the account has a live socket on this node.
  bool online(std::int64_t user_id);
  // Whether each account has a live socket on this node or (with a Redis bus) on any node; only
  // this node's answer when Redis does not answer.
  boost::asio::awaitable<std::vector<bool>> online_anywhere(std::vector<std::int64_t> users);
  // A block was made between the two accounts (docs/server.md, "Blocking"): the challenges
  // waiting between them end, those this node owns at once and, with a Redis bus, those of
  // every other node through the bus topic `blocks`; both accounts get challenge_ended, reason
  // "cancelled".
  void blocked(std::int64_t a, std::int64_t b);
  // Cancels the challenges' timers. Call before the pools are joined.
  void shutdown();

 private:
  struct Challenge {
    std::string id;
    Actor from;
    std::int64_t to_id = 0;
    std::string to_name;
    std::string rules;
    bool rated = false;
    std::int64_t expires_ms = 0;  // unix ms
    std::weak_ptr<WsClient> from_client;
    std::uint64_t from_connection = 0;
    std::unique_ptr<boost::asio::steady_timer> timer;
    Subscription sub;
  };
  // Where an answer came from: a socket of this node, or (client null) one of `node`.
  struct Answerer {
    std::shared_ptr<WsClient> client;
    Actor actor;
    std::string node;
    std::uint64_t connection = 0;
  };

  void opened(WsClient& c);
  void closed(WsClient& c);
  boost::asio::awaitable<void> on_challenge(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_answer(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_cancel(WsClient& c, const json& msg);
  boost::asio::awaitable<void> answer(WsClient& c, const json& msg, std::string op);
  // The challenged account as storage knows it: whether it is a bot, blocks the challenger or
  // is blocked by them.
  struct Target {
    std::optional<User> user;
    bool bot = false;
    bool blocks_me = false;
    bool blocked = false;
  };
  // The refusal of a challenge from `from` to `to` (nullopt: it may be made).
  std::optional<Error> refusal(const Actor& from, const Target& to, bool to_online);
  void renew_presence();
  void add(std::shared_ptr<Challenge> ch);
  // An operation from the bus topic challenge:<id> (another node's answer or cancel).
  void on_remote_answer(const std::string& id, const Payload& payload);
  // Ends the challenge if it is still open and `who` may do `op` ("accept", "decline",
  // "cancel", "expire", "withdraw": a block); the error otherwise. Runs on the owner node only.
  std::optional<Error> end(const std::string& id, const std::string& op, const Answerer& who);
  void seat(std::shared_ptr<Challenge> ch, Answerer who);
  // Ends the challenges between the two accounts that this node owns.
  void end_between(std::int64_t a, std::int64_t b);
  // Another node's block ({a, b}) from the bus topic `blocks`.
  void on_remote_block(const Payload& payload);
  void tell(std::int64_t user_id, const json& message);
  static json challenge_json(const Challenge& ch);

  ServerContext& ctx_;
  boost::asio::strand<boost::asio::thread_pool::executor_type> strand_;
  RateLimiter limiter_;
  std::mutex mutex_;
  // Sockets of accounts on this node: connection id -> (user, its user:<id> subscription).
  struct Present {
    std::int64_t user_id = 0;
    Subscription sub;
  };
  std::unordered_map<std::uint64_t, Present> sockets_;
  std::unordered_map<std::int64_t, int> online_;  // user id -> sockets on this node
  std::unordered_map<std::string, std::shared_ptr<Challenge>> challenges_;  // owned here
  bool stopping_ = false;
  std::unique_ptr<SharedPresence> shared_;  // set once by start(), under mutex_
  boost::asio::steady_timer renew_timer_;   // on strand_
  Subscription blocks_sub_;  // with a Redis bus: `blocks`; last, so that it goes first
};

}  // namespace ur::server
