// A token bucket per key (the client's IP address): `burst` requests at once, refilled at
// `refill_per_sec`. Used on the account endpoints, where each request costs an argon2id hash and
// guessing passwords must stay slow. Thread-safe; the table of buckets is pruned of full (idle)
// buckets when it grows, so memory stays bounded by the number of recently active clients.
#pragma once

#include <chrono>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ur::server {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  RateLimiter(double burst, double refill_per_sec) : burst_(burst), refill_(refill_per_sec) {}

  // Takes one token for `key`; false (and nothing taken) when the bucket is empty.
  bool allow(const std::string& key, Clock::time_point now = Clock::now());
  // Seconds until `key` has a token again (0 if it has one now); for Retry-After.
  int retry_after_seconds(const std::string& key, Clock::time_point now = Clock::now());

 private:
  struct Bucket {
    double tokens;
    Clock::time_point last;
  };
  void refill(Bucket& b, Clock::time_point now) const;
  void prune(Clock::time_point now);

  double burst_;
  double refill_;
  std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace ur::server
