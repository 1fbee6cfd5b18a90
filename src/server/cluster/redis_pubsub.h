// RedisPubSub: the PubSub of a cluster (docs/scaling.md). Several `ur serve` nodes share one
// Redis server; a table's events published on one node reach the connections of every node.
//
// - publish() delivers to this node's handlers at once (as InProcessPubSub does) and sends
//   `PUBLISH <topic> <node id>\n<payload>` to Redis; a node skips its own messages when Redis
//   hands them back, so a local watcher hears every event once, also while Redis is down.
// - A node subscribes to a topic on Redis when its first handler for it appears and unsubscribes
//   after the last one leaves; the handlers themselves stay in a map, keyed by topic. Once Redis
//   confirms a subscription, the resync callback is called for the topic (`lost` false): what
//   was published before that moment never reached this node, and the caller had read the
//   state before it (a page opening a table: its snapshot, then the SUBSCRIBE on its way).
// - hiredis's asynchronous API runs on the bus's own io_context and thread (two connections:
//   a subscribed Redis connection cannot publish). No call here blocks a caller: publish and
//   subscribe queue work for that thread. The thread is the bus's own, not an I/O thread of the
//   server, so that Redis work never waits behind HTTP traffic and a graceful shutdown of the
//   server does not wait for Redis.
// - When Redis goes away the bus reconnects with a backoff (0.1 s doubling to 2 s), subscribes
//   again to every topic with handlers and, once Redis confirms each subscription, calls the
//   resync callback for it: messages published meanwhile are lost (Redis keeps nothing), so the
//   owner of the topics re-sends the current state to its local watchers. A node's own messages
//   that could not be sent while Redis was away (the last few per topic) are sent on the
//   reconnect. Events carry the table version; nothing relies on Redis
//   keeping a message.
#pragma once

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <unordered_map>
#include <unordered_set>
#include <variant>
#include <vector>

#include "rules/error.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/redis_commands.h"

struct redisAsyncContext;

namespace ur::server {

class RedisLink;

// "redis://host:port" (port 6379 when omitted); nothing else (no user, password or database).
struct RedisAddress {
  std::string host;
  int port = 6379;
};
// The address, or an error message for the user.
Result<RedisAddress> parse_redis_url(const std::string& url);

// The bus a server's configuration asks for: "" = in-process, "redis://..." = Redis. An error
// message for anything else.
Result<std::unique_ptr<PubSub>> open_bus(const std::string& url);

class RedisPubSub final : public PubSub, public RedisCommands {
 public:
  explicit RedisPubSub(RedisAddress address);
  ~RedisPubSub() override;
  RedisPubSub(const RedisPubSub&) = delete;
  RedisPubSub& operator=(const RedisPubSub&) = delete;

  Subscription subscribe(const std::string& topic, Handler handler) override;
  void publish(const std::string& topic, Payload payload) override;
  int subscribers(const std::string& topic) override;
  void set_resync(Resync resync) override;
  BusStatus status() override;
  RedisCommands* redis() override { return this; }
  // A command on the publishing connection (RedisCommands); an error reply while Redis is away.
  void call(std::vector<std::string> args, Done done) override;

 private:
  void unsubscribe(const std::string& topic, std::uint64_t id) override;
  void deliver(const std::string& topic, const Payload& payload);

  // Everything below runs on the bus thread only.
  void connect();
  void schedule_retry();
  void on_connected(RedisLink& link);
  void on_lost(RedisLink& link);
  void reconcile(const std::string& topic);
  static void on_call_reply(redisAsyncContext* ac, void* reply, void* privdata);
  static void on_sub_reply(redisAsyncContext* ac, void* reply, void* privdata);
  void on_channel_reply(const std::string& kind, const std::string& channel, std::string body);

  const RedisAddress address_;
  const std::string node_id_;  // 16 random hex digits: which messages are this node's own

  std::mutex mutex_;  // handlers_, next_id_, resync_
  std::uint64_t next_id_ = 1;
  std::unordered_map<std::string, std::unordered_map<std::uint64_t, std::shared_ptr<Handler>>>
      handlers_;
  Resync resync_;

  boost::asio::io_context ioc_;
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work_;
  boost::asio::steady_timer retry_timer_;
  std::chrono::milliseconds backoff_{100};
  std::unique_ptr<RedisLink> pub_, sub_;
  bool stopping_ = false;
  bool retry_pending_ = false;
  bool resync_due_ = false;  // the subscribed link dropped: other nodes' messages may be lost
  // The latest payloads of each topic that could not be published, sent on the reconnect.
  std::unordered_map<std::string, std::deque<Payload>> pending_;
  // Topics to resync when Redis confirms their subscription after the subscribed link dropped.
  std::unordered_set<std::string> resync_after_subscribe_;
  // Channels subscribed on Redis, and those whose UNSUBSCRIBE is still unanswered (a SUBSCRIBE
  // must wait for that answer: hiredis drops the channel's callback when it arrives).
  std::unordered_set<std::string> subscribed_, leaving_;
  std::atomic<bool> connected_{false};
  std::atomic<std::uint64_t> dropped_{0};  // publishes not sent because Redis was away
  // GET /metrics: messages sent and received, and connections that came back after a loss.
  std::atomic<std::uint64_t> published_{0}, received_{0}, reconnects_{0};
  bool was_connected_ = false;  // on the bus's thread: connected once already
  std::thread thread_;
};

}  // namespace ur::server
