#include "server/log.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

namespace ur::server {

void log_line(std::string_view message) {
  static std::mutex mutex;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  std::lock_guard lock(mutex);
  std::fprintf(stderr, "%s %.*s\n", stamp, static_cast<int>(message.size()), message.data());
}

}  // namespace ur::server
