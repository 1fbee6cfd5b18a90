// AgentRunner: one agent searching on its own worker thread, so that callers that must not
// block (the server's I/O threads, a terminal UI) never search.
//
// submit() queues a request (the engine is shared, the position is copied) and returns at
// once; the worker asks the agent and then calls the callback with the chosen move, on the
// worker thread: a server posts it back to the connection's strand from there. Requests run
// one at a time in submission order. stop() asks the search under way to finish now (it
// returns its best move so far within a few milliseconds, and the callback still runs) and
// drops requests not yet started (their callbacks never run). The destructor stops and joins.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <stop_token>
#include <thread>

#include "ai/agent.h"

namespace ur::ai {

class AgentRunner {
 public:
  using Callback = std::function<void(Move)>;

  explicit AgentRunner(std::unique_ptr<Agent> agent);
  ~AgentRunner();
  AgentRunner(const AgentRunner&) = delete;
  AgentRunner& operator=(const AgentRunner&) = delete;

  // pos.is_decision() must hold. The engine is kept alive until the request is done.
  void submit(std::shared_ptr<const Engine> engine, const Position& pos, Callback done);
  // Cuts the current search short and drops the queued requests.
  void stop();
  // True while a request is queued or being searched.
  bool busy() const;
  // True while a request is being searched (taken from the queue: a stop() now cuts it short
  // and its callback runs, where a stop() before drops it).
  bool searching() const;

 private:
  struct Request {
    std::shared_ptr<const Engine> engine;
    Position pos;
    Callback done;
  };
  void work(std::stop_token thread_stop);

  std::unique_ptr<Agent> agent_;
  mutable std::mutex mutex_;
  std::condition_variable_any wake_;
  std::deque<Request> queue_;
  std::stop_source search_stop_;  // replaced after each stop() so later requests run
  bool running_ = false;
  std::jthread worker_;  // last: it starts after, and stops before, everything above
};

}  // namespace ur::ai
