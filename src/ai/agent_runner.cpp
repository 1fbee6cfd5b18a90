#include "ai/agent_runner.h"

#include <cassert>

namespace ur::ai {

AgentRunner::AgentRunner(std::unique_ptr<Agent> agent)
    : agent_(std::move(agent)), worker_([this](std::stop_token st) { work(st); }) {}

AgentRunner::~AgentRunner() {
  stop();
  worker_.request_stop();
  wake_.notify_all();
  // jthread joins in its destructor.
}

void AgentRunner::submit(std::shared_ptr<const Engine> engine, const Position& pos, Callback done) {
  assert(pos.is_decision());
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(Request{std::move(engine), pos, std::move(done)});
  }
  wake_.notify_one();
}

void AgentRunner::stop() {
  std::lock_guard lock(mutex_);
  queue_.clear();
  search_stop_.request_stop();
  search_stop_ = std::stop_source{};
}

bool AgentRunner::busy() const {
  std::lock_guard lock(mutex_);
  return running_ || !queue_.empty();
}

bool AgentRunner::searching() const {
  std::lock_guard lock(mutex_);
  return running_;
}

void AgentRunner::work(std::stop_token thread_stop) {
  for (;;) {
    Request request;
    std::stop_token search;
    {
      std::unique_lock lock(mutex_);
      if (!wake_.wait(lock, thread_stop, [this] { return !queue_.empty(); })) return;
      request = std::move(queue_.front());
      queue_.pop_front();
      search = search_stop_.get_token();
      running_ = true;
    }
    const Move m = agent_->choose(*request.engine, request.pos, search);
    if (request.done) request.done(m);
    std::lock_guard lock(mutex_);
    running_ = false;
  }
}

}  // namespace ur::ai
