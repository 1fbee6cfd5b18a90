#include "server/tables/table_service.h"

#include <algorithm>

#include <sodium.h>

#include <boost/asio/async_result.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/use_awaitable.hpp>

#include "server/log.h"
#include "server/tables/game_review.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

TableService::TableService(ServerContext& ctx)
    : ctx_(ctx),
      watchers_(*ctx.pubsub),
      service_strand_(net::make_strand(ctx.table_pool.get_executor())),
      sweep_timer_(service_strand_),
      leases_(storage_calls(ctx), ctx.config.leases, service_strand_, clustered_),
      runner_({storage_calls(ctx),
               *ctx.pubsub,
               ctx.bot_pool,
               ctx.table_store.get(),
               {ctx.config.idle_timeout, ctx.config.first_move_abort, ctx.config.bot_delay},
               clustered_,
               leases_.node(),
               [&ctx](MatchRow m) { review_in_background(ctx, std::move(m)); }}),
      matchmaking_(
          service_strand_, *ctx.pubsub, watchers_,
          {ctx.config.match_window, ctx.config.match_window_per_sec, ctx.config.match_tick},
          leases_.node(),
          [this](const MatchTicket& a, const Where& wa, const MatchTicket& b, const Where& wb,
                 TableMatchmaking::Requeue requeue) {
            seat_pair(a, wa, b, wb, std::move(requeue));
          }) {}

TableService::~TableService() = default;

std::shared_ptr<LiveTable> TableService::add_table(TableModel model) {
  auto made = std::make_shared<LiveTable>(net::make_strand(ctx_.table_pool.get_executor()),
                                          std::move(model));
  made->last_active = steady_seconds();
  made->live = made->model.live();
  auto [t, added] = tables_.insert(std::move(made));
  // With several nodes, the first node to have a table (its creator, usually) runs its timers.
  if (added && clustered_) runner_.post_gated(t, claim_lease(t));
  return t;
}

std::size_t TableService::cached_tables() {
  return tables_.size();
}

std::map<std::string, int> TableService::live_tables_by_rules() {
  return tables_.live_by_rules();
}

std::size_t TableService::restore() {
  // With several nodes the tables are shared: each node takes the expired leases (LeaseManager).
  if (clustered_) return 0;
  std::vector<TableRow> rows = ctx_.storage->live_tables();
  std::size_t restored = 0;
  for (const TableRow& row : rows) {
    auto model = TableModel::from_row(row);
    if (auto* e = std::get_if<Error>(&model)) {
      log_line("not restoring table: " + e->message);
      continue;
    }
    auto t = add_table(std::move(std::get<TableModel>(model)));
    net::post(t->strand, [this, t] {
      runner_.arm_clock(t);
      runner_.schedule_bot(t);
    });
    ++restored;
  }
  return restored;
}

net::awaitable<std::shared_ptr<LiveTable>> TableService::find(std::string id) {
  if (auto t = tables_.find(id)) co_return t;
  auto load = [this, id] { return ctx_.storage->find_table(id); };
  std::optional<TableRow> row = co_await offload(ctx_, std::move(load));
  if (!row) co_return nullptr;
  auto model = TableModel::from_row(*row);
  if (auto* e = std::get_if<Error>(&model)) {
    log_line(e->message);
    co_return nullptr;
  }
  auto t = add_table(std::move(std::get<TableModel>(model)));
  auto arm = [this, t, stored = *row] {
    // The stored idle deadline is kept across nodes; one node alone restarts it in full.
    if (clustered_ && t->model.version() == stored.version) t->deadline_ms = stored.clock_deadline;
    runner_.arm_clock(t);
    runner_.schedule_bot(t);
  };
  co_await run_on(t->strand, std::move(arm));
  co_return t;
}

void TableService::on_close(WsClient& client) {
  watchers_.close(client.connection_id());
  matchmaking_.drop(client.connection_id());
}

void TableService::start(const std::string& node_name) {
  ctx_.pubsub->set_resync([this](const std::string& topic, bool lost) { resync(topic, lost); });
  // Accounts banned or deleted on any node (table_moderation.cpp publishes there).
  accounts_sub_ =
      ctx_.pubsub->subscribe("accounts", [this](const Payload& p) { account_closed(p); });
  leases_.start(node_name, *this);
  start_matchmaking();
  net::post(service_strand_, [this] { sweep_cache(); });
}

void TableService::shutdown() {
  stopping_ = true;
  runner_.stop();
  ctx_.pubsub->set_resync({});
  matchmaking_.stop();
  accounts_sub_.reset();
  net::post(service_strand_, [this] { sweep_timer_.cancel(); });
  // Here, not on the service strand: the pools stop right after this (LeaseManager::stop).
  leases_.stop();
  for (auto& t : tables_.all()) {
    t->bot_stop.request_stop();
    net::post(t->strand, [t] {
      t->idle_timer.cancel();
      t->bot_timer.cancel();
    });
  }
}

void TableService::sweep_cache() {
  if (stopping_) return;
  std::int64_t now = steady_seconds();
  auto ttl = std::chrono::duration_cast<std::chrono::seconds>(ctx_.config.table_cache_ttl).count();
  tables_.evict_if([&](const std::string& id, const LiveTable& t) {
    return !t.live && t.last_active + ttl <= now && t.spectators == 0 &&
           ctx_.pubsub->subscribers(table_topic(id)) == 0;
  });
  watchers_.sweep_closed();
  expire_tables();
  sweep_timer_.expires_after(sweep_period());
  sweep_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) sweep_cache();
  });
}

}  // namespace ur::server
