#include "server/cluster/pubsub.h"

#include <utility>
#include <vector>

namespace ur::server {

Subscription& Subscription::operator=(Subscription&& o) noexcept {
  if (this != &o) {
    reset();
    bus_ = std::exchange(o.bus_, nullptr);
    topic_ = std::move(o.topic_);
    id_ = o.id_;
  }
  return *this;
}

void Subscription::reset() {
  if (bus_) bus_->unsubscribe(topic_, id_);
  bus_ = nullptr;
}

Subscription InProcessPubSub::subscribe(const std::string& topic, Handler handler) {
  std::lock_guard lock(mutex_);
  std::uint64_t id = next_id_++;
  topics_[topic].emplace(id, std::make_shared<Handler>(std::move(handler)));
  return Subscription(this, topic, id);
}

void InProcessPubSub::publish(const std::string& topic, Payload payload) {
  published_.fetch_add(1, std::memory_order_relaxed);
  std::vector<std::shared_ptr<Handler>> handlers;
  {
    std::lock_guard lock(mutex_);
    auto it = topics_.find(topic);
    if (it == topics_.end()) return;
    handlers.reserve(it->second.size());
    for (auto& [id, h] : it->second) handlers.push_back(h);
  }
  for (auto& h : handlers) (*h)(payload);
}

int InProcessPubSub::subscribers(const std::string& topic) {
  std::lock_guard lock(mutex_);
  auto it = topics_.find(topic);
  return it == topics_.end() ? 0 : static_cast<int>(it->second.size());
}

void InProcessPubSub::unsubscribe(const std::string& topic, std::uint64_t id) {
  std::lock_guard lock(mutex_);
  auto it = topics_.find(topic);
  if (it == topics_.end()) return;
  it->second.erase(id);
  if (it->second.empty()) topics_.erase(it);
}

}  // namespace ur::server
