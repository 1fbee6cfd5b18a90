#include "server/accounts/rate_limiter.h"

#include <algorithm>
#include <cmath>

namespace ur::server {

namespace {
constexpr std::size_t kPruneThreshold = 10'000;
}

void RateLimiter::refill(Bucket& b, Clock::time_point now) const {
  double elapsed = std::chrono::duration<double>(now - b.last).count();
  if (elapsed > 0) {
    b.tokens = std::min(burst_, b.tokens + elapsed * refill_);
    b.last = now;
  }
}

void RateLimiter::prune(Clock::time_point now) {
  for (auto it = buckets_.begin(); it != buckets_.end();) {
    refill(it->second, now);
    it = it->second.tokens >= burst_ ? buckets_.erase(it) : std::next(it);
  }
}

bool RateLimiter::allow(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  if (buckets_.size() >= kPruneThreshold) prune(now);
  auto [it, fresh] = buckets_.try_emplace(key, Bucket{burst_, now});
  Bucket& b = it->second;
  if (!fresh) refill(b, now);
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

int RateLimiter::retry_after_seconds(const std::string& key, Clock::time_point now) {
  std::lock_guard lock(mutex_);
  auto it = buckets_.find(key);
  if (it == buckets_.end()) return 0;
  refill(it->second, now);
  if (it->second.tokens >= 1 || refill_ <= 0) return it->second.tokens >= 1 ? 0 : 3600;
  return static_cast<int>(std::ceil((1 - it->second.tokens) / refill_));
}

}  // namespace ur::server
