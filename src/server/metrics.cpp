#include "server/metrics.h"

#include <cstdio>

namespace ur::server {

void Histogram::observe(std::chrono::steady_clock::duration d) {
  const double s = std::chrono::duration<double>(d).count();
  std::size_t i = 0;
  while (i < kBuckets.size() && s > kBuckets[i]) ++i;
  counts_[i].fetch_add(1, std::memory_order_relaxed);
  auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(d).count();
  sum_ns_.fetch_add(static_cast<std::uint64_t>(ns < 0 ? 0 : ns), std::memory_order_relaxed);
}

void Histogram::render(std::string& out, std::string_view name, std::string_view labels) const {
  std::string sep = labels.empty() ? "" : std::string(labels) + ",";
  std::uint64_t total = 0;
  char le[32];
  for (std::size_t i = 0; i <= kBuckets.size(); ++i) {
    total += counts_[i].load(std::memory_order_relaxed);
    if (i < kBuckets.size())
      std::snprintf(le, sizeof le, "%g", kBuckets[i]);
    else
      std::snprintf(le, sizeof le, "+Inf");
    metric_line(out, std::string(name) + "_bucket", sep + "le=\"" + le + "\"",
                static_cast<double>(total));
  }
  metric_line(out, std::string(name) + "_sum", labels,
              static_cast<double>(sum_ns_.load(std::memory_order_relaxed)) / 1e9);
  metric_line(out, std::string(name) + "_count", labels, static_cast<double>(total));
}

Metrics::Metrics() : started_(std::chrono::steady_clock::now()) {}

void Metrics::http_request(unsigned status, std::chrono::steady_clock::duration d) {
  http_seconds_.observe(d);
  std::atomic<std::uint64_t>* counter;
  {
    std::lock_guard lock(mutex_);
    auto& slot = http_by_status_[status];
    if (!slot) slot = std::make_unique<std::atomic<std::uint64_t>>(0);
    counter = slot.get();
  }
  counter->fetch_add(1, std::memory_order_relaxed);
}

Metrics::Series& Metrics::series_for(std::string_view type) {
  std::lock_guard lock(mutex_);
  auto it = ws_by_type_.find(type);
  if (it == ws_by_type_.end())
    it = ws_by_type_.emplace(std::string(type), std::make_unique<Series>()).first;
  return *it->second;
}

void Metrics::ws_message(std::string_view type, std::chrono::steady_clock::duration d) {
  Series& s = series_for(type);
  s.count.fetch_add(1, std::memory_order_relaxed);
  s.seconds.observe(d);
}

void Metrics::render(std::string& out) const {
  auto load = [](const std::atomic<std::uint64_t>& a) {
    return static_cast<double>(a.load(std::memory_order_relaxed));
  };
  metric_header(out, "ur_uptime_seconds", "gauge", "Seconds since the server started.");
  metric_line(out, "ur_uptime_seconds", "",
              std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());
  std::lock_guard lock(mutex_);
  metric_header(out, "ur_http_requests_total", "counter", "HTTP requests answered, by status.");
  for (const auto& [status, n] : http_by_status_)
    metric_line(out, "ur_http_requests_total", "code=\"" + std::to_string(status) + "\"", load(*n));
  metric_header(out, "ur_http_request_duration_seconds", "histogram",
                "Time from a request read to its answer written.");
  http_seconds_.render(out, "ur_http_request_duration_seconds", "");
  metric_header(out, "ur_ws_connections_opened_total", "counter", "WebSocket upgrades accepted.");
  metric_line(out, "ur_ws_connections_opened_total", "", load(ws_opened_));
  metric_header(out, "ur_ws_connections_refused_total", "counter",
                "WebSocket upgrades refused (origin, per-address limit).");
  metric_line(out, "ur_ws_connections_refused_total", "", load(ws_refused_));
  metric_header(out, "ur_ws_messages_total", "counter", "WebSocket messages handled, by type.");
  for (const auto& [type, s] : ws_by_type_)
    metric_line(out, "ur_ws_messages_total", "type=" + label_value(type), load(s->count));
  metric_header(out, "ur_ws_message_duration_seconds", "histogram",
                "Time to handle a WebSocket message (an action: validated, stored, published).");
  for (const auto& [type, s] : ws_by_type_)
    s->seconds.render(out, "ur_ws_message_duration_seconds", "type=" + label_value(type));
  metric_header(out, "ur_db_call_duration_seconds", "histogram",
                "Time of the tables' storage calls (commits, clock starts).");
  db_calls_.render(out, "ur_db_call_duration_seconds", "");
  metric_header(out, "ur_db_errors_total", "counter", "Table commits the database failed.");
  metric_line(out, "ur_db_errors_total", "", load(db_errors_));
  metric_header(out, "ur_leases_held", "gauge",
                "Live tables whose lease this node holds (a cluster; 0 with one node).");
  metric_line(out, "ur_leases_held", "", load(leases_held_));
  metric_header(out, "ur_leases_taken_over_total", "counter",
                "Tables this node took over from nodes whose lease expired.");
  metric_line(out, "ur_leases_taken_over_total", "", load(leases_taken_));
  metric_header(out, "ur_leases_lost_total", "counter",
                "Tables whose lease this node lost (taken over by another node).");
  metric_line(out, "ur_leases_lost_total", "", load(leases_lost_));
  metric_header(out, "ur_puzzle_attempts_total", "counter",
                "Puzzle attempts answered, labels result (solved, missed) and rated.");
  for (int solved : {1, 0})
    for (int rated : {1, 0})
      metric_line(out, "ur_puzzle_attempts_total",
                  std::string("result=\"") + (solved ? "solved" : "missed") + "\",rated=\"" +
                      (rated ? "true" : "false") + "\"",
                  load(puzzle_attempts_[solved][rated]));
}

void metric_line(std::string& out, std::string_view name, std::string_view labels, double value) {
  char number[40];
  std::snprintf(number, sizeof number, "%.17g", value);
  out.append(name);
  if (!labels.empty()) out.append("{").append(labels).append("}");
  out.append(" ").append(number).append("\n");
}

void metric_header(std::string& out, std::string_view name, std::string_view type,
                   std::string_view help) {
  out.append("# HELP ").append(name).append(" ").append(help).append("\n");
  out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
}

std::string label_value(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace ur::server
