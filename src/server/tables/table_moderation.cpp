// An account that was banned or deleted (docs/server.md, "Moderation"; api_admin.cpp and
// api_account.cpp call close_account once its sessions and bot token are gone): it leaves every
// live table it sits at (a waiting table closes; a game in progress ends as when a player leaves,
// "left", its opponent winning as usual) and its WebSockets close.
//
// With several nodes a table may be cached on another node and a socket open there. The node that
// took the decision leaves the account's seats at the live tables it has cached and at those stored
// with the account as their owner (which it loads: nobody may have them cached), then publishes
// {"user": id} on the bus's "accounts" topic. Every node (this one too, through its own
// subscription) then leaves the account's seats at the tables it has cached and closes its sockets.
// A leave is a player's action (the versioned commit, any node may make it), so two nodes leaving
// the same seat at once make one change, the second finding the seat left already.
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <set>

#include "server/log.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

namespace {

// The topic TableService::start subscribes account_closed to.
constexpr const char* kAccountsTopic = "accounts";

// Whether the account holds a seat it has not left.
bool seated(const TableModel& m, std::int64_t user_id) {
  for (const Seat& s : m.seats())
    if (s.kind == SeatKind::kUser && s.user_id == user_id && !s.left) return true;
  return false;
}

}  // namespace

TableService::Outcome TableService::leave_account(std::shared_ptr<LiveTable> t,
                                                  std::int64_t user_id) {
  for (const Seat& s : t->model.seats()) {
    if (s.kind != SeatKind::kUser || s.user_id != user_id || s.left || !t->model.live()) continue;
    TableModel next = t->model;
    TableEvents events;
    if (auto e = next.leave(Actor{s.key, s.user_id, s.name, s.rating}, events)) co_return e;
    co_return co_await runner_.commit(t, std::move(next), std::move(events));
  }
  co_return Error{ServerErrc::kNotSeated, "the account has no seat at this table"};
}

void TableService::account_closed(const Payload& message) {
  json msg = json::parse(*message, nullptr, false);
  if (!msg.is_object() || !msg.contains("user") || !msg["user"].is_number_integer()) return;
  const auto user_id = msg["user"].get<std::int64_t>();
  for (auto& t : tables_.all(true))
    net::post(t->strand, [this, t, user_id] {
      if (seated(t->model, user_id)) runner_.post_gated(t, leave_account(t, user_id));
    });
  ctx_.dispatcher->disconnect_user(user_id);
}

net::awaitable<int> TableService::close_account(std::int64_t user_id) {
  auto stored = [this, user_id] {
    std::set<std::string> ids;
    for (const TableRow& row : ctx_.storage->live_tables())
      if (row.owner_user == user_id) ids.insert(row.id);
    return ids;
  };
  std::set<std::string> ids = co_await offload(ctx_, std::move(stored));
  for (auto& t : tables_.all(true)) ids.insert(t->model_id);
  int left = 0;
  for (const std::string& id : ids) {
    auto t = co_await find(id);
    if (!t) continue;
    if (!co_await runner_.run_gated(t, leave_account(t, user_id))) ++left;
  }
  // Then every node, this one included: the seats at tables cached elsewhere, and the sockets.
  ctx_.pubsub->publish(kAccountsTopic,
                       std::make_shared<const std::string>(json{{"user", user_id}}.dump()));
  if (left)
    log_line("account " + std::to_string(user_id) + ": left " + std::to_string(left) +
             " table(s) on this node");
  co_return left;
}

}  // namespace ur::server
