// The table messages of the WebSocket protocol (docs/protocol.md): creating, opening, joining
// and watching tables, the game actions (undo at pass-and-play tables only), visibility,
// rematches, the lobby list and matchmaking.
// Each handler validates the message's fields here, then does the table work on the table's
// strand (table_service.cpp) and answers the client from there, so that its answer is queued in
// order with the table's broadcasts.
#include <boost/asio/post.hpp>

#include <algorithm>
#include <chrono>

#include "rules/rule_set.h"
#include "server/accounts.h"
#include "server/log.h"
#include "server/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

namespace {

// Field readers: nullopt + an error sent when the field is present but malformed (or missing
// and required).
struct Fields {
  WsClient& client;
  const json& msg;
  bool failed = false;

  void fail(const std::string& message) {
    if (!failed) client.send(error_reply(msg, "bad_request", message));
    failed = true;
  }
  std::optional<std::string> string(const char* name, bool required, std::size_t max_len = 64) {
    auto it = msg.find(name);
    if (it == msg.end()) {
      if (required) fail(std::string("missing string field \"") + name + "\"");
      return std::nullopt;
    }
    if (!it->is_string() || it->get_ref<const std::string&>().size() > max_len) {
      fail(std::string("field \"") + name + "\" must be a string of at most " +
           std::to_string(max_len) + " characters");
      return std::nullopt;
    }
    return it->get<std::string>();
  }
  std::optional<std::int64_t> integer(const char* name, bool required) {
    auto it = msg.find(name);
    if (it == msg.end()) {
      if (required) fail(std::string("missing integer field \"") + name + "\"");
      return std::nullopt;
    }
    if (!it->is_number_integer()) {
      fail(std::string("field \"") + name + "\" must be an integer");
      return std::nullopt;
    }
    return it->get<std::int64_t>();
  }
  std::optional<bool> boolean(const char* name) {
    auto it = msg.find(name);
    if (it == msg.end()) return std::nullopt;
    if (!it->is_boolean()) {
      fail(std::string("field \"") + name + "\" must be true or false");
      return std::nullopt;
    }
    return it->get<bool>();
  }
  // A table id: 16 lowercase hex digits.
  std::optional<std::string> table() {
    auto id = string("table", true);
    if (!id) return std::nullopt;
    if (!is_table_id(*id)) {
      fail("field \"table\" is not a table id");
      return std::nullopt;
    }
    return id;
  }
};

void send_table_error(WsClient& c, const json& msg, const TableError& e,
                      const std::string& table_id) {
  json j = error_reply(msg, e.code, e.message);
  j["table"] = table_id;
  c.send(j);
}

}  // namespace

void TableService::register_handlers(Dispatcher& d) {
  d.add("create_table", [this](WsClient& c, const json& m) { return on_create(c, m); });
  d.add("open_table", [this](WsClient& c, const json& m) { return on_open(c, m); });
  d.add("join_table", [this](WsClient& c, const json& m) { return on_join(c, m); });
  d.add("unwatch", [this](WsClient& c, const json& m) { return on_unwatch(c, m); });
  for (const char* action : {"roll", "move", "resign", "leave", "undo"})
    d.add(action, [this](WsClient& c, const json& m) { return on_action(c, m); });
  d.add("hint", [this](WsClient& c, const json& m) { return on_hint(c, m); });
  d.add("set_visibility", [this](WsClient& c, const json& m) { return on_visibility(c, m); });
  d.add("rematch", [this](WsClient& c, const json& m) { return on_rematch(c, m); });
  d.add("list_tables", [this](WsClient& c, const json& m) { return on_list(c, m); });
  d.add("find_match", [this](WsClient& c, const json& m) { return on_find_match(c, m); });
  d.add("cancel_match", [this](WsClient& c, const json& m) { return on_cancel_match(c, m); });
}

awaitable<std::shared_ptr<LiveTable>> TableService::find_or_answer(WsClient& c, const json& msg,
                                                                   const std::string& id) {
  auto t = co_await find(id);
  if (!t) send_table_error(c, msg, {"no_table", "there is no such table"}, id);
  co_return t;
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
  j["table"] = m.snapshot();
  j["you"] = seat ? json(seat) : json(nullptr);
  j["role"] = player ? "player" : "spectator";
  j["owner"] = m.owner() == a.key;
  if (m.owner() == a.key && m.status() == TableStatus::kWaiting && !m.invite().empty())
    j["invite"] = m.invite();
  j["spectators"] = t.spectators.load();
  j["clock"] = clock_json(t);
  return j;
}

awaitable<void> TableService::on_create(WsClient& c, const json& msg) {
  Fields f{c, msg};
  TableOptions o;
  if (auto v = f.string("rules", false, 200)) o.rules = *v;
  if (auto v = f.boolean("public")) o.is_public = *v;
  if (auto v = f.boolean("rated")) o.rated = *v;
  if (auto v = f.integer("seat", false)) o.seat = static_cast<int>(*v);
  if (auto v = f.string("level", false)) o.bot_level = *v;
  o.tables = ctx_.table_store.get();
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
  auto made = TableModel::create(random_token_hex(8), o, actor, unix_now());
  if (auto* e = std::get_if<TableError>(&made)) {
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
    c.send(error_reply(msg, "too_many_tables",
                       actor.is_user() ? "you have " + std::to_string(cap) +
                                             " tables waiting for a player already: start or "
                                             "close one first"
                                       : "guests at your address have " + std::to_string(cap) +
                                             " tables waiting already: start or close one first"));
    co_return;
  }
  if (!*saved) {
    c.send(error_reply(msg, "internal", "could not create the table; try again"));
    co_return;
  }
  auto t = add_table(std::move(std::get<TableModel>(made)));
  auto open = [this, t, &c, &msg, actor] {
    watch(c, t, false);
    arm_clock(t);
    json j = joined_message(*t, actor);
    if (auto it = msg.find("id"); it != msg.end()) j["re"] = *it;
    c.send(j);
    schedule_bot(t);
  };
  co_await run_on(t->strand, std::move(open));
}

awaitable<void> TableService::on_open(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  if (!id) co_return;
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  auto open = [this, t, &c, &msg, actor]() -> std::optional<TableError> {
    if (clustered_) refresh(t);  // a (re)connect to this node shows the table as stored
    const TableModel& m = t->model;
    int seat = m.seat_of(actor.key);
    bool player = seat && !m.seats()[seat - 1].left;
    if (!player && !m.is_public())
      return TableError{"private_table", "this table is private: you need an invite to join"};
    if (player) mark_loaded(t, seat);
    watch(c, t, !player);
    json j = joined_message(*t, actor);
    if (auto it = msg.find("id"); it != msg.end()) j["re"] = *it;
    c.send(j);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(open))) send_table_error(c, msg, *e, *id);
}

awaitable<void> TableService::on_join(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  auto invite = f.string("invite", true);
  if (f.failed) co_return;
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = co_await fresh_actor(c);
  auto join = [this, t, &c, &msg, actor, invite = *invite]() -> std::optional<TableError> {
    if (clustered_) refresh(t);
    TableModel next = t->model;
    if (auto e = next.join(actor, invite)) return e;
    int seat = next.seat_of(actor.key);
    if (seat) t->loaded[seat - 1] = true;  // joined from the table's page
    json events = json::array({json{{"kind", "joined"}, {"seat", seat}, {"name", actor.name}}});
    if (auto e = commit(t, std::move(next), events)) return e;
    watch(c, t, false);
    json j = joined_message(*t, actor);
    if (auto it = msg.find("id"); it != msg.end()) j["re"] = *it;
    c.send(j);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(join))) send_table_error(c, msg, *e, *id);
}

awaitable<void> TableService::on_unwatch(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  if (!id) co_return;
  unwatch(c.connection_id(), *id);
  json j = reply_to("ok", msg);
  j["table"] = *id;
  c.send(j);
  co_return;
}

awaitable<void> TableService::on_action(WsClient& c, const json& msg) {
  Fields f{c, msg};
  std::string type = msg.at("type").get<std::string>();
  auto id = f.table();
  auto version = f.integer("version", true);
  // A string only: accepting integers too made 7 and "7" the same id (docs/protocol.md).
  std::optional<std::string> action_id = f.string("action_id", true);
  if (action_id && action_id->empty()) f.fail("field \"action_id\" must not be empty");
  std::optional<std::int64_t> from, to;
  MoveKind kind = MoveKind::kMove;
  if (type == "move") {
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
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  auto act = [this, t, &c, &msg, actor, type, version = *version, action_id = *action_id,
              from = from.value_or(0), to = to.value_or(0), kind]() -> std::optional<TableError> {
    // The client has seen a newer version than this node's cache: another node moved it on.
    if (version > t->model.version()) refresh(t);
    auto check = t->model.check_action(actor, action_id, version);
    if (check.duplicate) {
      // Answered with what the first one produced (its version; the events are in the
      // broadcasts and the snapshot), not applied again.
      json j = reply_to("action_ok", msg);
      j["table"] = t->model.id();
      j["action"] = (*check.duplicate)["action"];
      j["action_id"] = action_id;
      j["version"] = (*check.duplicate)["version"];
      j["duplicate"] = true;
      c.send(j);
      return std::nullopt;
    }
    if (check.error) {
      json j = error_reply(msg, check.error->code, check.error->message);
      j["table"] = t->model.id();
      j["snapshot"] = t->model.snapshot();
      j["clock"] = clock_json(*t);
      c.send(j);
      return std::nullopt;
    }
    TableModel next = t->model;
    json events = json::array();
    std::optional<TableError> e;
    if (type == "roll") e = next.roll(actor, secure_unit, events);
    if (type == "move")
      e = next.move(actor, static_cast<int>(from), static_cast<int>(to), kind, events);
    if (type == "resign") e = next.resign(actor, events);
    if (type == "leave") e = next.leave(actor, events);
    if (type == "undo") e = next.undo(actor, events);
    if (e) return e;
    json answer = reply_to("action_ok", msg);
    answer["table"] = t->model.id();
    answer["action"] = type;
    answer["action_id"] = action_id;
    answer["version"] = next.version();
    answer["events"] = events;
    next.remember_action(actor, action_id, json{{"action", type}, {"version", next.version()}});
    if (auto err = commit(t, std::move(next), events)) return err;
    c.send(answer);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(act))) send_table_error(c, msg, *e, *id);
}

awaitable<void> TableService::on_visibility(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  auto is_public = f.boolean("public");
  if (!f.failed && !is_public) f.fail("missing boolean field \"public\"");
  if (f.failed) co_return;
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  auto set = [this, t, &c, &msg, actor, value = *is_public]() -> std::optional<TableError> {
    if (t->model.is_public() != value) {
      TableModel next = t->model;
      if (auto e = next.set_public(actor, value)) return e;
      json events = json::array({json{{"kind", "visibility"}, {"public", value}}});
      auto evict = [this, t, value] {
        if (!value) evict_spectators(*t);
      };
      if (auto e = commit(t, std::move(next), events, evict)) return e;
    } else if (t->model.owner() != actor.key) {
      return TableError{"not_owner", "only the table's owner can change that"};
    }
    json j = reply_to("ok", msg);
    j["table"] = t->model.id();
    j["public"] = value;
    c.send(j);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(set))) send_table_error(c, msg, *e, *id);
}

awaitable<void> TableService::on_rematch(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto id = f.table();
  bool accept = f.boolean("accept").value_or(true);
  if (f.failed) co_return;
  auto t = co_await find_or_answer(c, msg, *id);
  if (!t) co_return;
  Actor actor = actor_of(c.identity(), c.connection_id());
  auto answer = [this, t, &c, &msg, actor, accept]() -> std::optional<TableError> {
    TableModel next = t->model;
    json events = json::array();
    if (auto e = next.rematch(actor, accept, events)) return e;
    std::shared_ptr<LiveTable> fresh;
    if (next.rematch_agreed()) {
      // Both said yes: a new table with the colours swapped, stored before anyone hears of it.
      auto [light, dark] = next.rematch_players();
      auto made = TableModel::create_match(random_token_hex(8), next.rules(), next.rated(), light,
                                           dark, unix_now(), next.is_public());
      if (auto* e = std::get_if<TableError>(&made)) return *e;
      TableModel& m = std::get<TableModel>(made);
      try {
        if (!ctx_.storage->save_table(m.to_row(unix_now()), -1))
          return TableError{"internal", "could not create the rematch's table; try again"};
      } catch (const StorageError& e) {
        log_line(std::string("rematch: ") + e.what());
        return TableError{"internal", "could not create the rematch's table; try again"};
      }
      next.start_rematch(m.id(), events);
      fresh = add_table(std::move(m));
    }
    if (!events.empty())
      if (auto e = commit(t, std::move(next), events)) return e;
    if (fresh) net::post(fresh->strand, [this, fresh] { arm_clock(fresh); });
    json j = reply_to("ok", msg);
    j["table"] = t->model.id();
    j["rematch"] = t->model.snapshot()["rematch"];
    c.send(j);
    return std::nullopt;
  };
  if (auto e = co_await run_on(t->strand, std::move(answer))) send_table_error(c, msg, *e, *id);
}

json TableService::public_tables(int limit, int offset) {
  limit = std::clamp(limit, 1, kLobbyPageMax);
  offset = std::max(0, offset);
  // One more than asked for tells whether there is a next page.
  std::vector<TableRow> rows = ctx_.storage->public_tables({limit + 1, offset, unix_now()});
  bool more = rows.size() > static_cast<std::size_t>(limit);
  if (more) rows.pop_back();
  json list = json::array();
  for (const TableRow& row : rows) {
    json state = json::parse(row.state, nullptr, false);
    json seats = json::array();
    if (state.is_object() && state.contains("seats") && state["seats"].is_array())
      for (const json& s : state["seats"])
        seats.push_back(s.value("kind", "") == "empty" ? json(nullptr) : s.value("name", json()));
    list.push_back(json{{"id", row.id},
                        {"rules", row.rules},
                        {"status", row.status},
                        {"rated", row.rated},
                        {"version", row.version},
                        {"players", std::move(seats)},
                        {"updated_at", row.updated_at}});
  }
  return json{{"tables", std::move(list)},
              {"offset", offset},
              {"limit", limit},
              {"next_offset", more ? json(offset + limit) : json(nullptr)}};
}

awaitable<void> TableService::on_list(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto limit = f.integer("limit", false);
  auto offset = f.integer("offset", false);
  if (!f.failed && ((limit && (*limit < 1 || *limit > kLobbyPageMax)) || (offset && *offset < 0)))
    f.fail("field \"limit\" must be 1 to 100 and \"offset\" at least 0");
  if (f.failed) co_return;
  auto load = [this, l = static_cast<int>(limit.value_or(kLobbyPageDefault)),
               o = offset.value_or(0)] {
    return public_tables(l, static_cast<int>(std::min<std::int64_t>(o, 1'000'000)));
  };
  json j = reply_to("tables", msg);
  j.update(co_await offload(ctx_, std::move(load)));
  c.send(j);
}

awaitable<void> TableService::on_find_match(WsClient& c, const json& msg) {
  Fields f{c, msg};
  std::string rules_text = "finkel";
  bool rated = false;
  if (auto v = f.string("rules", false, 200)) rules_text = *v;
  if (auto v = f.boolean("rated")) rated = *v;
  if (f.failed) co_return;
  auto parsed = parse_rule_set(rules_text);
  if (auto* e = std::get_if<RuleSetError>(&parsed)) {
    c.send(error_reply(msg, "bad_rules", "rules: " + e->reason));
    co_return;
  }
  Actor actor = co_await fresh_actor(c);
  if (rated && !actor.is_user()) {
    c.send(error_reply(msg, "login_required", "rated games need an account"));
    co_return;
  }
  MatchTicket ticket{actor.key,
                     actor.user_id,
                     actor.name,
                     c.connection_id(),
                     std::get<RuleSet>(parsed).to_string(),
                     rated,
                     actor.rating,
                     std::chrono::steady_clock::now()};
  {
    std::lock_guard lock(conns_mutex_);
    conns_[c.connection_id()].client = c.weak_client();
  }
  {
    std::lock_guard lock(match_mutex_);
    matchmaker_.add(ticket);
  }
  json j = reply_to("queued", msg);
  j["rules"] = ticket.rules;
  j["rated"] = rated;
  j["rating"] = std::lround(actor.rating);
  c.send(j);
  net::post(service_strand_, [this] { pair_waiting(); });
}

awaitable<void> TableService::on_cancel_match(WsClient& c, const json& msg) {
  bool removed;
  {
    std::lock_guard lock(match_mutex_);
    removed = matchmaker_.remove_key(actor_of(c.identity(), c.connection_id()).key);
  }
  json j = reply_to("ok", msg);
  j["cancelled"] = removed;
  c.send(j);
  co_return;
}

// On the service strand.
void TableService::pair_waiting() {
  std::vector<std::pair<MatchTicket, MatchTicket>> pairs;
  {
    std::lock_guard lock(match_mutex_);
    pairs = matchmaker_.pair(std::chrono::steady_clock::now());
  }
  for (auto& [a, b] : pairs) {
    std::shared_ptr<WsClient> ca, cb;
    {
      std::lock_guard lock(conns_mutex_);
      if (auto it = conns_.find(a.connection); it != conns_.end()) ca = it->second.client.lock();
      if (auto it = conns_.find(b.connection); it != conns_.end()) cb = it->second.client.lock();
    }
    if (!ca || !cb) {  // one of them left meanwhile: the other waits on
      std::lock_guard lock(match_mutex_);
      if (ca) matchmaker_.add(a);
      if (cb) matchmaker_.add(b);
      continue;
    }
    bool a_light = secure_unit() < 0.5;
    auto actor = [](const MatchTicket& t) { return Actor{t.key, t.user_id, t.name, t.rating}; };
    PairSeat light{a_light ? ca : cb, actor(a_light ? a : b), nullptr};
    PairSeat dark{a_light ? cb : ca, actor(a_light ? b : a), nullptr};
    auto made = start_pair(a.rules, a.rated, std::move(light), std::move(dark));
    if (auto* e = std::get_if<TableError>(&made)) log_line("matchmaking: " + e->message);
  }
}

std::variant<std::shared_ptr<LiveTable>, TableError> TableService::start_pair(
    const std::string& rules, bool rated, PairSeat light, PairSeat dark) {
  auto made = TableModel::create_match(random_token_hex(8), rules, rated, light.actor, dark.actor,
                                       unix_now());
  if (auto* e = std::get_if<TableError>(&made)) return *e;
  try {
    if (!ctx_.storage->save_table(std::get<TableModel>(made).to_row(unix_now()), -1))
      return TableError{"conflict", "the new table could not be stored; try again"};
  } catch (const StorageError& e) {
    log_line(std::string("start table: ") + e.what());
    return TableError{"internal", "the new table could not be stored"};
  }
  auto t = add_table(std::move(std::get<TableModel>(made)));
  net::post(t->strand, [this, t, light, dark] {
    watch(*light.client, t, false);
    watch(*dark.client, t, false);
    arm_clock(t);
    for (const PairSeat* p : {&light, &dark}) {
      json j = joined_message(*t, p->actor);
      j["type"] = "match_found";
      if (!p->re.is_null()) j["re"] = p->re;
      p->client->send(j);
    }
  });
  return t;
}

void TableService::match_tick() {
  if (stopping_) return;
  pair_waiting();
  match_timer_.expires_after(ctx_.config.match_tick);
  match_timer_.async_wait([this](boost::system::error_code ec) {
    if (!ec) match_tick();
  });
}

}  // namespace ur::server
