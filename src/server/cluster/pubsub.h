// PubSub: how table events reach the connections that watch a table, behind one small interface.
//
// The game logic publishes one serialised message per change to the topic of its table
// ("table:<id>"); every connection that sits at or watches the table has subscribed to that topic.
// InProcessPubSub delivers inside one process (the default); when several `ur serve` nodes share
// a PostgreSQL database behind a load balancer, RedisPubSub (redis_pubsub.h, `--bus redis://`)
// carries the same payloads between nodes and nothing above it changes (docs/scaling.md).
// Payloads are shared and immutable, so a broadcast serialises once.
//
// Threads: publish and subscribe may be called from any thread. A handler runs on the
// publisher's thread (or the Redis bus's thread for another node's message) and must not block
// (WsClient::send only queues). Dropping the Subscription unsubscribes; after the destructor
// returns the handler is never called again.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ur::server {

using Payload = std::shared_ptr<const std::string>;

class PubSub;
class RedisCommands;

// Move-only handle of one subscription; unsubscribes when destroyed or reset.
class Subscription {
 public:
  Subscription() = default;
  Subscription(PubSub* bus, std::string topic, std::uint64_t id)
      : bus_(bus), topic_(std::move(topic)), id_(id) {}
  Subscription(Subscription&& o) noexcept { *this = std::move(o); }
  Subscription& operator=(Subscription&& o) noexcept;
  ~Subscription() { reset(); }
  void reset();
  const std::string& topic() const { return topic_; }
  explicit operator bool() const { return bus_ != nullptr; }

 private:
  PubSub* bus_ = nullptr;
  std::string topic_;
  std::uint64_t id_ = 0;
};

// What /api/health and GET /metrics say about the bus.
struct BusStatus {
  std::string kind;              // "in-process" or "redis"
  bool connected = true;         // false while a Redis bus reconnects
  std::uint64_t dropped = 0;     // publishes other nodes did not get (Redis was away)
  std::uint64_t published = 0;   // messages this node published
  std::uint64_t received = 0;    // messages of other nodes delivered here (Redis)
  std::uint64_t reconnects = 0;  // times a lost Redis connection came back
};

class PubSub {
 public:
  using Handler = std::function<void(const Payload&)>;
  // Called with a topic this node has handlers for when messages of other nodes may have been
  // missed, once the bus hears the topic again: `lost` after a bus that reconnected (the caller
  // re-sends the current state to its local watchers), else after a first subscription (the
  // caller read the state before the bus heard the topic: a change committed in between was
  // published to nobody here, so the caller reads the state again and sends it if it is newer).
  using Resync = std::function<void(const std::string& topic, bool lost)>;
  virtual ~PubSub() = default;
  virtual Subscription subscribe(const std::string& topic, Handler handler) = 0;
  virtual void publish(const std::string& topic, Payload payload) = 0;
  // How many subscribers a topic has on this node (not in the whole cluster).
  virtual int subscribers(const std::string& topic) = 0;
  // An in-process bus never loses a message: it never calls `resync`.
  virtual void set_resync(Resync) {}
  virtual BusStatus status() { return {"in-process", true, 0}; }
  // The Redis server behind a Redis bus, for the state the nodes share besides events (the
  // matchmaking queue, shared rate limits); null for a bus of one process.
  virtual RedisCommands* redis() { return nullptr; }

 protected:
  friend class Subscription;
  virtual void unsubscribe(const std::string& topic, std::uint64_t id) = 0;
};

class InProcessPubSub final : public PubSub {
 public:
  Subscription subscribe(const std::string& topic, Handler handler) override;
  void publish(const std::string& topic, Payload payload) override;
  int subscribers(const std::string& topic) override;
  BusStatus status() override { return {"in-process", true, 0, published_.load(), 0, 0}; }

 private:
  void unsubscribe(const std::string& topic, std::uint64_t id) override;

  std::atomic<std::uint64_t> published_{0};

  std::mutex mutex_;
  std::uint64_t next_id_ = 1;
  // Handlers are shared so that publish can call them without holding the lock.
  std::unordered_map<std::string, std::unordered_map<std::uint64_t, std::shared_ptr<Handler>>>
      topics_;
};

}  // namespace ur::server
