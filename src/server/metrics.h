// What a server counts for Prometheus (`GET /metrics`, docs/operations.md, "Watch"): HTTP
// requests by status, WebSocket messages by type with their handling time, sockets opened,
// table writes and their time in the database. Counters and histograms are atomics, updated
// from any thread without a lock; the gauges (open sockets, live tables, the bus) are read from
// the services when the page is rendered (api_metrics.cpp). Message types are counted under
// their own name only when a handler is registered for them, so a client cannot make up labels.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

namespace ur::server {

// A Prometheus histogram of durations in seconds, with fixed buckets from 0.5 ms to 10 s.
class Histogram {
 public:
  static constexpr std::array<double, 13> kBuckets{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                                   0.1,    0.25,  0.5,    1,     2.5,  10};
  void observe(std::chrono::steady_clock::duration d);
  // The lines of `name` with `labels` ("" or `a="b"`), cumulative as the format wants.
  void render(std::string& out, std::string_view name, std::string_view labels) const;

 private:
  std::array<std::atomic<std::uint64_t>, kBuckets.size() + 1> counts_{};  // the last: +Inf
  std::atomic<std::uint64_t> sum_ns_{0};
};

class Metrics {
 public:
  Metrics();
  void http_request(unsigned status, std::chrono::steady_clock::duration d);
  void ws_opened() { ws_opened_.fetch_add(1, std::memory_order_relaxed); }
  void ws_refused() { ws_refused_.fetch_add(1, std::memory_order_relaxed); }
  // A message of a registered type was handled in `d`; `type` is a handler's name.
  void ws_message(std::string_view type, std::chrono::steady_clock::duration d);
  // One call of the storage from a table (a commit, a clock start) took `d`.
  void db_call(std::chrono::steady_clock::duration d) { db_calls_.observe(d); }
  void db_error() { db_errors_.fetch_add(1, std::memory_order_relaxed); }
  // One lease period of a node of a cluster (table_lease.h): the tables it holds now, and how
  // many it took over from expired nodes and lost to others in the period.
  void leases(std::size_t held, std::size_t taken, std::size_t lost) {
    leases_held_.store(held, std::memory_order_relaxed);
    leases_taken_.fetch_add(taken, std::memory_order_relaxed);
    leases_lost_.fetch_add(lost, std::memory_order_relaxed);
  }

  // A puzzle attempt answered (api_puzzles.cpp): found or missed, rated (an account's first
  // attempt at the puzzle) or not (a guest, or a replay).
  void puzzle_attempt(bool solved, bool rated) {
    puzzle_attempts_[solved ? 1 : 0][rated ? 1 : 0].fetch_add(1, std::memory_order_relaxed);
  }

  // Appends the counters and histograms in the text exposition format.
  void render(std::string& out) const;

 private:
  struct Series {
    std::atomic<std::uint64_t> count{0};
    Histogram seconds;
  };
  Series& series_for(std::string_view type);

  std::chrono::steady_clock::time_point started_;
  mutable std::mutex mutex_;  // guards the maps' shape; the values are atomics
  std::map<unsigned, std::unique_ptr<std::atomic<std::uint64_t>>> http_by_status_;
  std::map<std::string, std::unique_ptr<Series>, std::less<>> ws_by_type_;
  Histogram http_seconds_;
  Histogram db_calls_;
  std::atomic<std::uint64_t> ws_opened_{0}, ws_refused_{0}, db_errors_{0};
  std::atomic<std::uint64_t> leases_held_{0}, leases_taken_{0}, leases_lost_{0};
  std::atomic<std::uint64_t> puzzle_attempts_[2][2] = {};  // [solved][rated]
};

// Formats `name{labels} value` lines.
void metric_line(std::string& out, std::string_view name, std::string_view labels, double value);
// The HELP and TYPE lines of a metric.
void metric_header(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help);
// `value` as a label value: backslash, quote and newline escaped.
std::string label_value(std::string_view value);

}  // namespace ur::server
