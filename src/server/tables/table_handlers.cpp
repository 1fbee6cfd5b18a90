// The table messages of the WebSocket protocol (docs/protocol.md): creating, opening, joining
// and watching tables, the game actions (undo at pass-and-play tables only) and visibility.
// Rematches, the lobby list and matchmaking are in table_lobby.cpp, hints in table_hints.cpp.
// Each handler validates the message's fields here, then does the table work on the table's
// strand, through its gate (table_service.h), and answers the client from there, so that its
// answer is queued in order with the table's broadcasts.
#include <boost/asio/post.hpp>

#include "server/accounts/accounts.h"
#include "server/server_errc.h"
#include "server/tables/table_fields.h"
#include "server/tables/table_service.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

void TableService::register_handlers(Dispatcher& d) {
  d.add("create_table", [this](WsClient& c, const json& m) { return on_create(c, m); });
  d.add("open_table", [this](WsClient& c, const json& m) { return on_open(c, m); });
  d.add("join_table", [this](WsClient& c, const json& m) { return on_join(c, m); });
  d.add("unwatch", [this](WsClient& c, const json& m) { return on_unwatch(c, m); });
  for (TableAction action : kTableActions)
    d.add(action_name(action),
          [this, action](WsClient& c, const json& m) { return on_action(c, m, action); });
  d.add("hint", [this](WsClient& c, const json& m) { return on_hint(c, m); });
  d.add("quick_message", [this](WsClient& c, const json& m) { return on_quick_message(c, m); });
  d.add("set_visibility", [this](WsClient& c, const json& m) { return on_visibility(c, m); });
  d.add("rematch", [this](WsClient& c, const json& m) { return on_rematch(c, m); });
  d.add("list_tables", [this](WsClient& c, const json& m) { return on_list(c, m); });
  d.add("find_match", [this](WsClient& c, const json& m) { return on_find_match(c, m); });
  d.add("cancel_match", [this](WsClient& c, const json& m) { return on_cancel_match(c, m); });
  d.on_closed([this](WsClient& c) { on_close(c); });
}

awaitable<std::shared_ptr<LiveTable>> TableService::find_or_answer(WsClient& c, const json& msg,
                                                                   const std::string& id) {
  auto t = co_await find(id);
  if (!t) send_table_error(c, msg, {ServerErrc::kNoTable, "there is no such table"}, id);
  co_return t;
}

awaitable<void> TableService::on_table_message(WsClient& c, const json& msg, const std::string& id,
                                               TableWork work, bool fresh) {
  auto t = co_await find_or_answer(c, msg, id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  if (fresh) actor = co_await fresh_actor(c);
  auto op = work(t, std::move(actor));
  if (auto e = co_await runner_.run_gated(t, std::move(op))) send_table_error(c, msg, *e, id);
}

awaitable<Actor> TableService::fresh_actor(WsClient& c) {
  Actor a = actor_of(c.identity(), c.connection_id());
  if (a.is_user()) {
    // The identity was read when the socket opened; ratings change with every rated game.
    auto load = [this, id = a.user_id] { return ctx_.storage->find_user_by_id(id); };
    if (auto u = co_await offload(ctx_, std::move(load))) {
      a.rating = u->rating;
      a.name = u->username;
    }
  }
  co_return a;
}

json TableService::joined_message(const LiveTable& t, const Actor& a) const {
  const TableModel& m = t.model;
  int seat = m.seat_of(a.key);
  bool player = seat && !m.seats()[seat - 1].left;
  json j = envelope("joined");
  j["table"] = table_snapshot(m);
  // A player who left watches as a spectator: no seat of theirs any more (docs/protocol.md).
  j["you"] = player ? json(seat) : json(nullptr);
  j["role"] = player ? "player" : "spectator";
  j["owner"] = m.owner() == a.key;
  if (m.owner() == a.key && m.status() == TableStatus::kWaiting && !m.invite().empty())
    j["invite"] = m.invite();
  j["spectators"] = t.spectators.load();
  j["clock"] = runner_.clock_json(t);
  auto online = [&](int s) {
    return m.person_at(s) ? json(t.present[s - 1].load() > 0) : json(nullptr);
  };
  j["online"] = {online(1), online(2)};
  return j;
}

void TableService::send_joined(WsClient& c, const LiveTable& t, const Actor& a,
                               const json& msg) const {
  json j = joined_message(t, a);
  if (auto it = msg.find("id"); it != msg.end()) j["re"] = *it;
  c.send(j);
}

awaitable<void> TableService::on_create(WsClient& c, const json& msg) {
  Fields f{c, msg};
  TableOptions o;
  if (auto v = f.string("rules", false, 200)) o.rules = *v;
  if (auto v = f.boolean("public")) o.is_public = *v;
  if (auto v = f.boolean("rated")) o.rated = *v;
  if (auto v = f.integer("seat", false)) o.seat = static_cast<int>(*v);
  if (auto v = f.string("level", false)) o.bot_level = *v;
  if (auto v = f.boolean("local")) o.local = *v;
  if (auto it = msg.find("names"); it != msg.end() && !f.failed) {
    bool ok = it->is_array() && it->size() == 2;
    for (std::size_t i = 0; ok && i < 2; ++i) {
      ok = (*it)[i].is_string() && (*it)[i].get_ref<const std::string&>().size() <= 100;
      if (ok) o.names[i] = (*it)[i].get<std::string>();
    }
    if (!ok) f.fail("field \"names\" must be a list of two names");
  }
  if (f.failed) co_return;
  Actor actor = co_await fresh_actor(c);
  auto name = [tables = ctx_.table_store.get()](const std::string& level, const RuleSet& rules) {
    return computer_name(level, rules, tables);
  };
  auto made = TableModel::create(random_token_hex(8), o, actor, unix_now(), name);
  if (auto* e = std::get_if<Error>(&made)) {
    c.send(error_reply(msg, e->code, e->message));
    co_return;
  }
  TableRow row = std::get<TableModel>(made).to_row(unix_now());
  if (!actor.is_user()) row.owner_addr = c.identity().remote_ip;
  // A table that waits for a player counts against its owner's cap (lobby flooding); the count
  // and the insert go together so that two requests at once cannot both pass it.
  int cap = actor.is_user() ? ctx_.config.max_open_tables : ctx_.config.max_open_tables_per_address;
  auto save = [this, row, cap]() -> std::optional<bool> {
    std::lock_guard lock(create_mutex_);
    if (row.status == "waiting" && ctx_.storage->open_tables_of(row) >= cap) return std::nullopt;
    return ctx_.storage->save_table(row, -1);
  };
  std::optional<bool> saved = co_await offload(ctx_, std::move(save));
  if (!saved) {
    c.send(error_reply(msg, ServerErrc::kTooManyTables,
                       actor.is_user() ? "you have " + std::to_string(cap) +
                                             " tables waiting for a player already: start or "
                                             "close one first"
                                       : "guests at your address have " + std::to_string(cap) +
                                             " tables waiting already: start or close one first"));
    co_return;
  }
  if (!*saved) {
    c.send(error_reply(msg, Errc::kInternal, "could not create the table; try again"));
    co_return;
  }
  auto t = add_table(std::move(std::get<TableModel>(made)));
  auto open = [this, t, &c, &msg, actor] {
    watchers_.watch(c, t, false);
    runner_.arm_clock(t);
    send_joined(c, *t, actor, msg);
    runner_.schedule_bot(t);
  };
  co_await run_on(t->strand, std::move(open));
}

awaitable<void> TableService::on_open(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  if (!id) co_return;
  TableWork open = [this, &c, &msg](std::shared_ptr<LiveTable> t, Actor actor) {
    return open_table(std::move(t), c, msg, std::move(actor));
  };
  co_await on_table_message(c, msg, *id, std::move(open));
}

TableService::Outcome TableService::open_table(std::shared_ptr<LiveTable> t, WsClient& c,
                                               const json& msg, Actor actor) {
  if (clustered_)
    co_await runner_.reload(t);  // a (re)connect to this node shows the table as stored
  const TableModel& m = t->model;
  int seat = m.seat_of(actor.key);
  bool player = seat && !m.seats()[seat - 1].left;
  // A game played to its end is anyone's to see by its id (GET /api/games/<id>): said so, so a
  // client can show its replay, rather than that the table is private.
  if (!player && !m.is_public() && m.finished_at() != 0)
    co_return Error{ServerErrc::kGameOver, "this game is over: its replay is open to anyone"};
  if (!player && !m.is_public())
    co_return Error{ServerErrc::kPrivateTable, "this table is private: you need an invite to join"};
  if (player) co_await runner_.mark_loaded(t, seat);
  watchers_.watch(c, t, !player);
  send_joined(c, *t, actor, msg);
  co_return std::nullopt;
}

awaitable<void> TableService::on_join(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  auto invite = f.string("invite", true);
  if (f.failed) co_return;
  TableWork join = [this, &c, &msg, invite = *invite](std::shared_ptr<LiveTable> t, Actor actor) {
    return join_table(std::move(t), c, msg, std::move(actor), invite);
  };
  co_await on_table_message(c, msg, *id, std::move(join), true);
}

TableService::Outcome TableService::join_table(std::shared_ptr<LiveTable> t, WsClient& c,
                                               const json& msg, Actor actor, std::string invite) {
  if (clustered_) co_await runner_.reload(t);
  TableModel next = t->model;
  if (auto e = next.join(actor, invite)) co_return e;
  int seat = next.seat_of(actor.key);
  if (seat) t->loaded[seat - 1] = true;  // joined from the table's page
  TableEvents events{JoinedEvent{seat, actor.name}};
  if (auto e = co_await runner_.commit(t, std::move(next), std::move(events))) co_return e;
  watchers_.watch(c, t, false);
  send_joined(c, *t, actor, msg);
  co_return std::nullopt;
}

awaitable<void> TableService::on_unwatch(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  if (!id) co_return;
  watchers_.unwatch(c.connection_id(), *id);
  json j = reply_to("ok", msg);
  j["table"] = *id;
  c.send(j);
  co_return;
}

awaitable<void> TableService::on_action(WsClient& c, const json& msg, TableAction action) {
  Fields f{c, msg};
  auto id = f.table();
  auto version = f.integer("version", true);
  // A string only: accepting integers too made 7 and "7" the same id (docs/protocol.md).
  std::optional<std::string> action_id = f.string("action_id", true);
  if (action_id && action_id->empty()) f.fail("field \"action_id\" must not be empty");
  std::optional<std::int64_t> from, to;
  MoveKind kind = MoveKind::kMove;
  if (action == TableAction::kMove) {
    from = f.integer("from", true);
    to = f.integer("to", true);
    if (auto k = f.string("kind", false)) {
      if (auto parsed = parse_move_kind(*k))
        kind = *parsed;
      else
        f.fail("field \"kind\" must be \"move\", \"award_yes\" or \"award_no\"");
    }
    if (!f.failed && (*from < -1 || *from > 64 || *to < -1 || *to > 64))
      f.fail("fields \"from\" and \"to\" are path indices");
  }
  if (f.failed) co_return;
  const ActionArgs args{{}, action, *action_id, *version, from.value_or(0), to.value_or(0), kind};
  TableWork acting = [this, &c, &msg, args](std::shared_ptr<LiveTable> t, Actor actor) {
    ActionArgs a = args;
    a.actor = std::move(actor);
    return act(std::move(t), c, msg, std::move(a));
  };
  co_await on_table_message(c, msg, *id, std::move(acting));
}

std::optional<Error> TableService::apply_action(TableModel& next, const ActionArgs& a,
                                                TableEvents& events) {
  switch (a.action) {
    case TableAction::kRoll:
      return next.roll(a.actor, secure_unit, events);
    case TableAction::kMove:
      return next.move(a.actor, static_cast<int>(a.from), static_cast<int>(a.to), a.kind, events);
    case TableAction::kResign:
      return next.resign(a.actor, events);
    case TableAction::kLeave:
      return next.leave(a.actor, events);
    case TableAction::kUndo:
      return next.undo(a.actor, events);
  }
  return Error{Errc::kInternal, "no such action"};
}

TableService::Outcome TableService::act(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg,
                                        ActionArgs a) {
  // The client has seen a newer version than this node's cache: another node moved it on.
  if (a.version > t->model.version()) co_await runner_.reload(t);
  auto check = t->model.check_action(a.actor, a.action_id, a.version);
  if (check.duplicate) {
    // Answered with what the first one produced (its version; the events are in the
    // broadcasts and the snapshot), not applied again.
    json j = reply_to("action_ok", msg);
    j["table"] = t->model.id();
    j["action"] = (*check.duplicate)["action"];
    j["action_id"] = a.action_id;
    j["version"] = (*check.duplicate)["version"];
    j["duplicate"] = true;
    c.send(j);
    co_return std::nullopt;
  }
  if (check.error) {
    json j = error_reply(msg, check.error->code, check.error->message);
    j["table"] = t->model.id();
    j["snapshot"] = table_snapshot(t->model);
    j["clock"] = runner_.clock_json(*t);
    c.send(j);
    co_return std::nullopt;
  }
  TableModel next = t->model;
  TableEvents events;
  if (auto e = apply_action(next, a, events)) co_return e;
  const char* name = action_name(a.action);
  json answer = reply_to("action_ok", msg);
  answer["table"] = t->model.id();
  answer["action"] = name;
  answer["action_id"] = a.action_id;
  answer["version"] = next.version();
  answer["events"] = events_json(events);
  next.remember_action(a.actor, a.action_id, json{{"action", name}, {"version", next.version()}});
  if (auto err = co_await runner_.commit(t, std::move(next), std::move(events))) co_return err;
  c.send(answer);
  co_return std::nullopt;
}

awaitable<void> TableService::on_visibility(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  auto is_public = f.boolean("public");
  if (!f.failed && !is_public) f.fail("missing boolean field \"public\"");
  if (f.failed) co_return;
  TableWork set = [this, &c, &msg, p = *is_public](std::shared_ptr<LiveTable> t, Actor actor) {
    return set_visibility(std::move(t), c, msg, std::move(actor), p);
  };
  co_await on_table_message(c, msg, *id, std::move(set));
}

TableService::Outcome TableService::set_visibility(std::shared_ptr<LiveTable> t, WsClient& c,
                                                   const json& msg, Actor actor, bool value) {
  if (t->model.is_public() != value) {
    TableModel next = t->model;
    if (auto e = next.set_public(actor, value)) co_return e;
    TableEvents events{VisibilityEvent{value}};
    std::function<void()> evict = [this, t, value] {
      if (!value) watchers_.evict_spectators(*t);
    };
    auto done = runner_.commit(t, std::move(next), std::move(events), std::move(evict));
    if (auto e = co_await std::move(done)) co_return e;
  } else if (t->model.owner() != actor.key) {
    co_return Error{ServerErrc::kNotOwner, "only the table's owner can change that"};
  }
  json j = reply_to("ok", msg);
  j["table"] = t->model.id();
  j["public"] = value;
  c.send(j);
  co_return std::nullopt;
}

}  // namespace ur::server
