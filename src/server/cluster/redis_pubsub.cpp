#include "server/cluster/redis_pubsub.h"

#include <hiredis/hiredis.h>

#include <boost/asio/post.hpp>

#include <algorithm>
#include <charconv>
#include <vector>

#include "server/accounts/accounts.h"
#include "server/cluster/redis_link.h"
#include "server/log.h"

namespace ur::server {
namespace net = boost::asio;

namespace {

constexpr std::size_t kNodeIdLength = 16;
constexpr auto kMaxBackoff = std::chrono::milliseconds(2'000);
// Topics whose latest undelivered message is kept for the reconnect: beyond this, older ones go
// (their watchers on other nodes resync from the database when their own link comes back).
constexpr std::size_t kMaxPending = 10'000;
constexpr std::size_t kPendingPerTopic = 8;

std::string reply_string(const redisReply* r) {
  return r && r->str ? std::string(r->str, r->len) : std::string();
}

RedisReply convert(const redisReply* r) {
  RedisReply out;
  if (!r) return RedisReply::failure("redis connection closed");
  switch (r->type) {
    case REDIS_REPLY_INTEGER:
      out.kind = RedisReply::Kind::kInteger;
      out.integer = r->integer;
      break;
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      out.kind = RedisReply::Kind::kString;
      out.str = reply_string(r);
      break;
    case REDIS_REPLY_ERROR:
      return RedisReply::failure(reply_string(r));
    case REDIS_REPLY_ARRAY:
      out.kind = RedisReply::Kind::kArray;
      for (std::size_t i = 0; i < r->elements; ++i) out.elements.push_back(convert(r->element[i]));
      break;
    default:
      break;  // nil
  }
  return out;
}

}  // namespace

Result<RedisAddress> parse_redis_url(const std::string& url) {
  const std::string scheme = "redis://";
  std::string bad = "bad --bus '" + url + "': expected redis://HOST:PORT";
  if (url.rfind(scheme, 0) != 0) return Error{Errc::kBadRequest, bad};
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.pop_back();
  RedisAddress a;
  std::size_t colon = rest.rfind(':');
  a.host = rest.substr(0, colon);
  if (colon != std::string::npos) {
    std::string port = rest.substr(colon + 1);
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), a.port);
    if (ec != std::errc() || end != port.data() + port.size() || a.port < 1 || a.port > 65535)
      return Error{Errc::kBadRequest, bad + " (the port must be 1 to 65535)"};
  }
  if (a.host.empty() || a.host.find_first_of("@/?#[] ") != std::string::npos)
    return Error{Errc::kBadRequest, bad + " (no user, password, database or IPv6 literal)"};
  return a;
}

Result<std::unique_ptr<PubSub>> open_bus(const std::string& url) {
  if (url.empty() || url == "in-process") return std::unique_ptr<PubSub>(new InProcessPubSub);
  auto parsed = parse_redis_url(url);
  if (auto* err = std::get_if<Error>(&parsed)) return *err;
  return std::unique_ptr<PubSub>(new RedisPubSub(std::get<RedisAddress>(parsed)));
}

RedisPubSub::RedisPubSub(RedisAddress address)
    : address_(std::move(address)),
      node_id_(random_token_hex(kNodeIdLength / 2)),
      work_(ioc_.get_executor()),
      retry_timer_(ioc_) {
  auto connected = [this](RedisLink& l) { on_connected(l); };
  auto lost = [this](RedisLink& l) { on_lost(l); };
  pub_ = std::make_unique<RedisLink>(ioc_, address_.host, address_.port, connected, lost);
  sub_ = std::make_unique<RedisLink>(ioc_, address_.host, address_.port, connected, lost);
  net::post(ioc_, [this] { connect(); });
  thread_ = std::thread([this] { ioc_.run(); });
}

RedisPubSub::~RedisPubSub() {
  net::post(ioc_, [this] {
    stopping_ = true;
    retry_timer_.cancel();
    pub_.reset();  // hiredis closes the sockets
    sub_.reset();
    work_.reset();
    ioc_.stop();
  });
  thread_.join();
}

Subscription RedisPubSub::subscribe(const std::string& topic, Handler handler) {
  std::uint64_t id;
  bool first;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    auto& topic_handlers = handlers_[topic];
    first = topic_handlers.empty();
    topic_handlers.emplace(id, std::make_shared<Handler>(std::move(handler)));
  }
  if (first) net::post(ioc_, [this, topic] { reconcile(topic); });
  return Subscription(this, topic, id);
}

void RedisPubSub::unsubscribe(const std::string& topic, std::uint64_t id) {
  bool last = false;
  {
    std::lock_guard lock(mutex_);
    auto it = handlers_.find(topic);
    if (it == handlers_.end()) return;
    it->second.erase(id);
    if (it->second.empty()) {
      handlers_.erase(it);
      last = true;
    }
  }
  if (last) net::post(ioc_, [this, topic] { reconcile(topic); });
}

int RedisPubSub::subscribers(const std::string& topic) {
  std::lock_guard lock(mutex_);
  auto it = handlers_.find(topic);
  return it == handlers_.end() ? 0 : static_cast<int>(it->second.size());
}

void RedisPubSub::set_resync(Resync resync) {
  std::lock_guard lock(mutex_);
  resync_ = std::move(resync);
}

BusStatus RedisPubSub::status() {
  return {"redis",           connected_.load(), dropped_.load(),
          published_.load(), received_.load(),  reconnects_.load()};
}

void RedisPubSub::deliver(const std::string& topic, const Payload& payload) {
  std::vector<std::shared_ptr<Handler>> handlers;
  {
    std::lock_guard lock(mutex_);
    auto it = handlers_.find(topic);
    if (it == handlers_.end()) return;
    for (auto& [id, h] : it->second) handlers.push_back(h);
  }
  for (auto& h : handlers) (*h)(payload);
}

void RedisPubSub::publish(const std::string& topic, Payload payload) {
  deliver(topic, payload);
  net::post(ioc_, [this, topic, payload = std::move(payload)] {
    if (pub_ && pub_->ready()) {
      std::string frame = node_id_ + '\n' + *payload;
      if (pub_->command(nullptr, nullptr, {"PUBLISH", topic, frame})) {
        ++published_;
        return;
      }
    }
    ++dropped_;
    if (pending_.size() >= kMaxPending && !pending_.count(topic)) return;
    // Not only the latest: a topic carries more than one kind of message (a table's snapshot,
    // then its spectator count), and the last alone could hide the snapshot.
    auto& queue = pending_[topic];
    if (queue.size() == kPendingPerTopic) queue.pop_front();
    queue.push_back(payload);
  });
}

void RedisPubSub::call(std::vector<std::string> args, Done done) {
  net::post(ioc_, [this, args = std::move(args), done = std::move(done)]() mutable {
    if (pub_ && pub_->ready()) {
      std::vector<std::string_view> views(args.begin(), args.end());
      auto* pending = new Done(std::move(done));
      if (pub_->command(on_call_reply, pending, views)) return;
      done = std::move(*pending);
      delete pending;
    }
    done(RedisReply::failure("redis unavailable"));
  });
}

void RedisPubSub::on_call_reply(redisAsyncContext*, void* reply, void* privdata) {
  // Also with a null reply when the connection is freed: every caller hears back once.
  std::unique_ptr<Done> done(static_cast<Done*>(privdata));
  (*done)(convert(static_cast<redisReply*>(reply)));
}

void RedisPubSub::connect() {
  if (stopping_) return;
  bool failed = false;
  for (RedisLink* link : {pub_.get(), sub_.get()})
    if (!link->active() && !link->start()) {
      failed = true;
      log_line("bus: cannot reach redis at " + address_.host + ":" + std::to_string(address_.port) +
               ": " + link->error());
    }
  if (failed) schedule_retry();
}

void RedisPubSub::schedule_retry() {
  if (stopping_ || retry_pending_) return;
  retry_pending_ = true;
  retry_timer_.expires_after(backoff_);
  backoff_ = std::min(backoff_ * 2, kMaxBackoff);
  retry_timer_.async_wait([this](boost::system::error_code ec) {
    retry_pending_ = false;
    if (!ec) connect();
  });
}

void RedisPubSub::on_connected(RedisLink& link) {
  if (stopping_ || !link.ready()) return;
  if (pub_->ready() && sub_->ready()) {
    if (!connected_)
      log_line("bus: connected to redis at " + address_.host + ":" + std::to_string(address_.port));
    if (!connected_ && was_connected_) ++reconnects_;
    connected_ = was_connected_ = true;
    backoff_ = std::chrono::milliseconds(100);
  }
  if (&link == pub_.get()) {
    // The latest message of each topic that others missed: a snapshot with its version, so a
    // watcher elsewhere that already has it (or a newer one) ignores it.
    auto pending = std::move(pending_);
    pending_.clear();
    for (auto& [topic, queue] : pending)
      for (const Payload& payload : queue)
        if (pub_->command(nullptr, nullptr, {"PUBLISH", topic, node_id_ + '\n' + *payload}))
          ++published_;
    return;
  }
  std::vector<std::string> topics;
  {
    std::lock_guard lock(mutex_);
    for (auto& [topic, h] : handlers_) topics.push_back(topic);
  }
  // Messages of other nodes were lost while this link was down: each topic is resynced once Redis
  // confirms its subscription again (on_channel_reply), not before, or a message published
  // between the snapshot and the subscription would be lost too.
  if (resync_due_) resync_after_subscribe_.insert(topics.begin(), topics.end());
  resync_due_ = false;
  for (const std::string& t : topics) reconcile(t);
}

void RedisPubSub::on_lost(RedisLink& link) {
  if (stopping_) return;
  if (connected_) log_line("bus: lost redis (" + link.error() + "); reconnecting");
  connected_ = false;
  if (&link == sub_.get()) {
    subscribed_.clear();
    leaving_.clear();
    resync_after_subscribe_.clear();  // all of them are due again (resync_due_)
    resync_due_ = true;
  }
  schedule_retry();
}

void RedisPubSub::reconcile(const std::string& topic) {
  if (stopping_ || !sub_->ready() || leaving_.count(topic)) return;
  bool wanted;
  {
    std::lock_guard lock(mutex_);
    wanted = handlers_.count(topic) > 0;
  }
  bool have = subscribed_.count(topic) > 0;
  if (wanted && !have) {
    if (sub_->command(on_sub_reply, this, {"SUBSCRIBE", topic})) subscribed_.insert(topic);
  } else if (!wanted && have) {
    // The answer arrives through the channel's SUBSCRIBE callback (on_sub_reply).
    if (sub_->command(nullptr, nullptr, {"UNSUBSCRIBE", topic})) {
      subscribed_.erase(topic);
      leaving_.insert(topic);
    }
  }
}

void RedisPubSub::on_sub_reply(redisAsyncContext*, void* reply, void* privdata) {
  auto* r = static_cast<redisReply*>(reply);
  // Null: the connection is being freed; on_lost forgets every channel.
  if (!r || r->type != REDIS_REPLY_ARRAY || r->elements < 3) return;
  static_cast<RedisPubSub*>(privdata)->on_channel_reply(
      reply_string(r->element[0]), reply_string(r->element[1]), reply_string(r->element[2]));
}

void RedisPubSub::on_channel_reply(const std::string& kind, const std::string& channel,
                                   std::string body) {
  if (kind == "unsubscribe") {
    leaving_.erase(channel);
    reconcile(channel);  // a handler may have come back meanwhile
    return;
  }
  if (kind == "subscribe") {
    // Every confirmation, not only after a reconnect: a first subscription misses what other
    // nodes published between its caller's read of the state and this moment.
    bool lost = resync_after_subscribe_.erase(channel) > 0;
    Resync resync;
    {
      std::lock_guard lock(mutex_);
      resync = resync_;
    }
    if (resync) resync(channel, lost);
    return;
  }
  if (kind != "message") return;
  if (body.size() <= kNodeIdLength || body[kNodeIdLength] != '\n') {
    log_line("bus: ignoring a malformed message on " + channel);
    return;
  }
  if (body.compare(0, kNodeIdLength, node_id_) == 0) return;  // delivered locally already
  ++received_;
  deliver(channel, std::make_shared<const std::string>(body.substr(kNodeIdLength + 1)));
}

}  // namespace ur::server
