// Quick messages at a table (docs/protocol.md, "Quick messages"): a seated player sends one of a
// fixed set of codes ("good_game", "good_luck", ...) and everyone at the table (players and
// spectators) gets it, the client showing the words for the code, so there is no free text to
// moderate and the words can be translated. One message per seat every kQuickMessageGap; nothing
// is stored. Muting is the client's: a player who mutes the opponent's messages in a game simply
// does not show them. A message is not shown to an account that blocks its sender
// (docs/server.md, "Blocking"): the table's topic carries it marked with those accounts
// (live_table.h, hidden_from), and each watcher's subscription drops it for them.
#include <algorithm>
#include <array>
#include <chrono>

#include "server/server_errc.h"
#include "server/tables/table_fields.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

namespace {

constexpr std::array<std::string_view, 5> kQuickMessages = {"good_game", "good_luck", "well_played",
                                                            "thanks", "oops"};
constexpr std::chrono::milliseconds kQuickMessageGap{2000};
// The most blockers of one sender a message is marked with (a bound on its size on the bus).
constexpr int kMaxHiddenFrom = 1000;

std::int64_t steady_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::string hidden_from(const std::vector<std::int64_t>& users, std::string_view message) {
  std::string out(1, kHiddenMark);
  for (std::int64_t u : users) out += std::to_string(u) + ',';
  out += '\n';
  out += message;
  return out;
}

std::optional<std::string> shown_to(std::string_view payload, std::int64_t user) {
  std::size_t end = payload.find('\n');
  if (payload.empty() || payload.front() != kHiddenMark || end == std::string_view::npos)
    return std::nullopt;
  std::string_view ids = payload.substr(1, end - 1);
  const std::string mine = std::to_string(user) + ',';
  for (std::size_t at = 0; user && at < ids.size();) {
    std::size_t comma = ids.find(',', at);
    if (comma == std::string_view::npos) break;
    if (ids.substr(at, comma + 1 - at) == mine) return std::nullopt;
    at = comma + 1;
  }
  return std::string(payload.substr(end + 1));
}

net::awaitable<void> TableService::on_quick_message(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  auto code = f.string("code", true, 32);
  if (!f.failed &&
      std::find(kQuickMessages.begin(), kQuickMessages.end(), *code) == kQuickMessages.end())
    f.fail("field \"code\" must be one of good_game, good_luck, well_played, thanks, oops");
  if (f.failed) co_return;
  // Read before the table's turn: a storage call does not hold the table's strand.
  std::vector<std::int64_t> hide;
  if (std::int64_t me = actor_of(c.identity(), c.connection_id()).user_id) {
    auto load = [this, me] { return ctx_.storage->accounts().blockers_of(me, kMaxHiddenFrom); };
    hide = co_await offload(ctx_, std::move(load));
  }
  TableWork say = [this, &c, &msg, code = *code, hide = std::move(hide)](
                      std::shared_ptr<LiveTable> t, Actor actor) {
    return quick_message(std::move(t), c, msg, std::move(actor), code, hide);
  };
  co_await on_table_message(c, msg, *id, std::move(say));
}

TableService::Outcome TableService::quick_message(std::shared_ptr<LiveTable> t, WsClient& c,
                                                  const json& msg, Actor actor, std::string code,
                                                  std::vector<std::int64_t> hide) {
  const TableModel& m = t->model;
  int seat = m.seat_of(actor.key);
  if (!seat)
    co_return Error{ServerErrc::kNotSeated, "only the players at this table send messages"};
  if (m.seats()[seat - 1].left) co_return Error{ServerErrc::kLeftTable, "you left this table"};
  if (m.local())
    co_return Error{ServerErrc::kLocalTable, "both seats of a pass-and-play table are yours"};
  if (m.status() == TableStatus::kClosed)
    co_return Error{ServerErrc::kTableClosed, "this table is closed"};
  std::int64_t now = steady_now_ms();
  std::int64_t& last = t->last_quick_ms[seat - 1];
  if (last && now - last < kQuickMessageGap.count())
    co_return Error{ServerErrc::kRateLimited, "one quick message every two seconds"};
  last = now;
  json out = envelope("quick_message");
  out["table"] = m.id();
  out["seat"] = seat;
  out["name"] = m.seats()[seat - 1].name;
  out["code"] = code;
  std::string text = out.dump(-1, ' ', false, json::error_handler_t::replace);
  if (!hide.empty()) text = hidden_from(hide, text);
  ctx_.pubsub->publish(table_topic(m.id()), std::make_shared<const std::string>(std::move(text)));
  json ok = reply_to("ok", msg);
  ok["table"] = m.id();
  ok["code"] = code;
  c.send(ok);
  co_return std::nullopt;
}

}  // namespace ur::server
