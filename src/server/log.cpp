#include "server/log.h"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>

#include <nlohmann/json.hpp>

namespace ur::server {
namespace {
std::atomic<bool> json_lines{false};
}  // namespace

void set_log_json(bool on) {
  json_lines = on;
}

void log_line(std::string_view message) {
  static std::mutex mutex;
  auto now = std::chrono::system_clock::now();
  std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (json_lines) {
    std::string line = nlohmann::json{{"time", stamp}, {"msg", message}}.dump(
        -1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::lock_guard lock(mutex);
    std::fprintf(stderr, "%s\n", line.c_str());
    return;
  }
  std::lock_guard lock(mutex);
  std::fprintf(stderr, "%s %.*s\n", stamp, static_cast<int>(message.size()), message.data());
}

}  // namespace ur::server
