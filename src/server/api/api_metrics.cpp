// GET /metrics: the Prometheus text format (version 0.0.4). Off unless the server has a metrics
// token (--metrics-token): then it answers only a request that carries it as
// `Authorization: Bearer TOKEN` (401 otherwise), since it shows how busy the server is and which
// rule sets are played. The counters and histograms are the server's Metrics (metrics.h); the
// gauges are read here from the services at the moment of the scrape.
#include <nlohmann/json.hpp>

#include "rules/presets.h"
#include "server/api/api.h"
#include "server/cluster/pubsub.h"
#include "server/metrics.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"
#include "server/tables/table_solver.h"

namespace ur::server {
namespace {

namespace http = boost::beast::http;

// Compares in a time that does not depend on where the strings differ.
bool same_secret(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (std::size_t i = 0; i < a.size(); ++i)
    diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
  return diff == 0;
}

void render_gauges(ServerContext& ctx, std::string& out) {
  metric_header(out, "ur_build_info", "gauge", "The server's version.");
  metric_line(out, "ur_build_info", "version=" + label_value(UR_VERSION), 1);
  metric_header(out, "ur_ws_connections", "gauge", "WebSockets open on this node.");
  metric_line(out, "ur_ws_connections", "", ctx.ws_open());
  metric_header(out, "ur_db_connections", "gauge", "Database connections of this node.");
  metric_line(out, "ur_db_connections", "", ctx.storage->connections());
  if (ctx.tables) {
    metric_header(out, "ur_live_tables", "gauge",
                  "Tables waiting for a player or playing in this node's memory, by rule set.");
    for (const auto& [rules, n] : ctx.tables->live_tables_by_rules())
      metric_line(out, "ur_live_tables", "rules=" + label_value(rules), n);
  }
  BusStatus bus = ctx.pubsub->status();
  metric_header(out, "ur_bus_connected", "gauge", "1 while the event bus is connected.");
  metric_line(out, "ur_bus_connected", "kind=" + label_value(bus.kind), bus.connected ? 1 : 0);
  metric_header(out, "ur_bus_dropped_total", "counter",
                "Publishes the other nodes did not get (the bus was away).");
  metric_line(out, "ur_bus_dropped_total", "", static_cast<double>(bus.dropped));
  metric_header(out, "ur_bus_messages_published_total", "counter",
                "Messages this node published on the bus.");
  metric_line(out, "ur_bus_messages_published_total", "", static_cast<double>(bus.published));
  metric_header(out, "ur_bus_messages_received_total", "counter",
                "Messages of other nodes the bus delivered here (0 in process).");
  metric_line(out, "ur_bus_messages_received_total", "", static_cast<double>(bus.received));
  metric_header(out, "ur_bus_reconnects_total", "counter",
                "Times the bus's lost Redis connection came back.");
  metric_line(out, "ur_bus_reconnects_total", "", static_cast<double>(bus.reconnects));
  metric_header(out, "ur_solve_progress", "gauge",
                "Background solves of missing tables: progress 0..1, by rule set and state.");
  if (!ctx.solver) return;
  for (const PresetInfo& info : preset_list()) {
    nlohmann::json s = ctx.solver->status(info.id);
    if (s.is_null()) continue;
    metric_line(out, "ur_solve_progress",
                "rules=" + label_value(info.id) +
                    ",state=" + label_value(s.value("state", std::string("unknown"))),
                s.value("progress", 0.0));
  }
}

}  // namespace

Response serve_metrics(ServerContext& ctx, const Request& req) {
  const std::string& token = ctx.config.metrics_token;
  if (token.empty())
    return error_json(req, ServerErrc::kNotFound, "metrics are off (--metrics-token)");
  std::string_view auth = req[http::field::authorization];
  if (!auth.starts_with("Bearer ") || !same_secret(auth.substr(7), token)) {
    Response res =
        error_json(req, ServerErrc::kBadToken, "send Authorization: Bearer <metrics token>");
    res.result(http::status::unauthorized);
    res.set(http::field::www_authenticate, "Bearer");
    return res;
  }
  std::string out;
  ctx.metrics.render(out);
  render_gauges(ctx, out);
  Response res{http::status::ok, req.version()};
  set_common_headers(res);
  res.set(http::field::content_type, "text/plain; version=0.0.4; charset=utf-8");
  res.set(http::field::cache_control, "no-store");
  res.keep_alive(req.keep_alive());
  res.body() = std::move(out);
  res.prepare_payload();
  return res;
}

}  // namespace ur::server
