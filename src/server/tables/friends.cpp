// Challenges by name (friends.h; docs/protocol.md, "Challenges"); presence is in
// friends_presence.cpp.
#include "server/tables/friends.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <future>

#include "rules/rule_set.h"
#include "server/accounts/accounts.h"
#include "server/log.h"
#include "server/server_errc.h"
#include "server/tables/table_fields.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

namespace {
std::string challenge_topic(const std::string& id) {
  return "challenge:" + id;
}
Error no_challenge() {
  return Error{ServerErrc::kNotFound,
               "no such challenge: it was answered, cancelled or it expired"};
}
}  // namespace

FriendService::FriendService(ServerContext& ctx)
    : ctx_(ctx),
      strand_(ctx.table_pool.get_executor()),
      limiter_(kChallengeBurst, kChallengeRefillPerSec),
      renew_timer_(strand_) {}

FriendService::~FriendService() = default;

void FriendService::register_handlers(Dispatcher& d) {
  d.add("challenge_player", [this](WsClient& c, const json& m) { return on_challenge(c, m); });
  d.add("challenge_answer", [this](WsClient& c, const json& m) { return on_answer(c, m); });
  d.add("challenge_cancel", [this](WsClient& c, const json& m) { return on_cancel(c, m); });
  d.on_opened([this](WsClient& c) { opened(c); });
  d.on_closed([this](WsClient& c) { closed(c); });
}

void FriendService::shutdown() {
  std::promise<void> done;
  net::post(strand_, [this, &done] {
    std::unordered_map<std::string, std::shared_ptr<Challenge>> all;
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      all.swap(challenges_);
    }
    for (auto& [id, ch] : all) ch->timer->cancel();
    renew_timer_.cancel();
    blocks_sub_.reset();
    done.set_value();
  });
  done.get_future().wait();
}

json FriendService::challenge_json(const Challenge& ch) {
  return json{{"id", ch.id},
              {"from", ch.from.name},
              {"from_rating", std::lround(ch.from.rating)},
              {"to", ch.to_name},
              {"rules", ch.rules},
              {"rated", ch.rated},
              {"expires_at", ch.expires_ms},
              // What is left, for a page whose clock differs from the server's.
              {"expires_in", std::max<std::int64_t>(0, ch.expires_ms - friends_now_ms())}};
}

void FriendService::tell(std::int64_t user_id, const json& message) {
  ctx_.pubsub->publish(user_topic(user_id), std::make_shared<const std::string>(message.dump(
                                                -1, ' ', false, json::error_handler_t::replace)));
}

std::optional<Error> FriendService::refusal(const Actor& from, const Target& to, bool to_online) {
  if (!to.user) return Error{ServerErrc::kNotFound, "no player has that name"};
  if (to.user->id == from.user_id) return Error{Errc::kBadRequest, "you cannot challenge yourself"};
  if (to.bot) return Error{Errc::kBadRequest, "bot accounts are challenged with challenge_bot"};
  // Before the online check, so that a refusal says nothing of whether the player is online.
  if (to.blocks_me)
    return Error{ServerErrc::kRefused, "that player does not accept your challenges"};
  if (to.blocked)
    return Error{ServerErrc::kRefused, "you block that player: unblock them to challenge"};
  if (!to_online) return Error{ServerErrc::kNotFound, "that player is not online"};
  std::lock_guard lock(mutex_);
  int open = 0;
  for (const auto& [id, ch] : challenges_) {
    if (ch->from.user_id != from.user_id) continue;
    if (ch->to_id == to.user->id)
      return Error{ServerErrc::kConflict, "you have challenged that player already"};
    ++open;
  }
  if (open >= kMaxOpenChallenges)
    return Error{ServerErrc::kRateLimited,
                 "you have " + std::to_string(kMaxOpenChallenges) + " challenges waiting already"};
  return std::nullopt;
}

awaitable<void> FriendService::on_challenge(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto to = f.string("to", true);
  std::string rules_text = "finkel";
  if (auto v = f.string("rules", false, 200)) rules_text = *v;
  bool rated = f.boolean("rated").value_or(false);
  if (f.failed) co_return;
  auto parsed = parse_rule_set(rules_text);
  if (auto* e = std::get_if<Error>(&parsed)) {
    c.send(error_reply(msg, Errc::kBadRules, "rules: " + e->reason));
    co_return;
  }
  Actor from = actor_of(c.identity(), c.connection_id());
  if (!from.is_user() || c.identity().bot) {
    c.send(error_reply(msg, ServerErrc::kLoginRequired, "log in to challenge a player"));
    co_return;
  }
  auto load = [this, name = *to, me = from.user_id] {
    Target t;
    t.user = check_username(name) ? std::nullopt : ctx_.storage->find_user_by_name(name);
    if (t.user) {
      t.bot = ctx_.storage->bot_status(t.user->id).is_bot;
      t.blocks_me = ctx_.storage->accounts().blocks(t.user->id, me);
      t.blocked = ctx_.storage->accounts().blocks(me, t.user->id);
    }
    return std::pair{t, ctx_.storage->find_user_by_id(me)};
  };
  auto [target, fresh] = co_await offload(ctx_, std::move(load));
  if (fresh) from.rating = fresh->rating;
  bool reachable = false;
  if (target.user && !target.blocks_me && !target.blocked) {
    std::vector<std::int64_t> ids{target.user->id};
    std::vector<bool> on = co_await online_anywhere(std::move(ids));
    reachable = on[0];
  }
  if (auto e = refusal(from, target, reachable)) {
    c.send(error_reply(msg, *e));
    co_return;
  }
  // Counted once the challenge would be made: a refused one pushes nothing to anybody.
  if (!limiter_.allow(from.key)) {
    c.send(error_reply(msg, ServerErrc::kRateLimited, "too many challenges; wait a little"));
    co_return;
  }
  auto ch = std::make_shared<Challenge>();
  ch->id = random_token_hex(8);
  ch->from = from;
  ch->to_id = target.user->id;
  ch->to_name = target.user->username;
  ch->rules = std::get<RuleSet>(parsed).to_string();
  ch->rated = rated;
  ch->expires_ms = friends_now_ms() + ctx_.config.challenge_lifetime.count();
  ch->from_client = c.weak_client();
  ch->from_connection = c.connection_id();
  add(ch);
  json sent = reply_to("challenge_sent", msg);
  sent["challenge"] = challenge_json(*ch);
  c.send(sent);
  json pushed = envelope("challenged");
  pushed["challenge"] = challenge_json(*ch);
  tell(ch->to_id, pushed);
}

void FriendService::add(std::shared_ptr<Challenge> ch) {
  ch->timer = std::make_unique<net::steady_timer>(strand_);
  // Armed on the strand before the challenge can be found (and its timer cancelled): the posts
  // of one strand run in order.
  net::post(strand_, [this, ch] {
    ch->timer->expires_after(ctx_.config.challenge_lifetime);
    ch->timer->async_wait([this, id = ch->id](boost::system::error_code ec) {
      if (!ec) end(id, "expire", Answerer{});
    });
  });
  ch->sub = ctx_.pubsub->subscribe(
      challenge_topic(ch->id), [this, id = ch->id](const Payload& p) { on_remote_answer(id, p); });
  std::lock_guard lock(mutex_);
  challenges_[ch->id] = std::move(ch);
}

void FriendService::blocked(std::int64_t a, std::int64_t b) {
  end_between(a, b);
  if (ctx_.pubsub->redis())
    ctx_.pubsub->publish(kBlocksTopic,
                         std::make_shared<const std::string>(json{{"a", a}, {"b", b}}.dump()));
}

void FriendService::on_remote_block(const Payload& payload) {
  json note = json::parse(*payload, nullptr, false);
  if (!note.is_object() || !note["a"].is_number_integer() || !note["b"].is_number_integer()) {
    log_line("blocks: ignoring a malformed message");
    return;
  }
  end_between(note["a"].get<std::int64_t>(), note["b"].get<std::int64_t>());
}

void FriendService::end_between(std::int64_t a, std::int64_t b) {
  std::vector<std::string> between;
  {
    std::lock_guard lock(mutex_);
    for (const auto& [id, ch] : challenges_)
      if ((ch->from.user_id == a && ch->to_id == b) || (ch->from.user_id == b && ch->to_id == a))
        between.push_back(id);
  }
  for (const std::string& id : between) end(id, "withdraw", Answerer{});
}

std::optional<Error> FriendService::end(const std::string& id, const std::string& op,
                                        const Answerer& who) {
  std::shared_ptr<Challenge> ch;
  {
    std::lock_guard lock(mutex_);
    auto it = challenges_.find(id);
    if (it == challenges_.end()) return no_challenge();
    const Challenge& c = *it->second;
    bool allowed = op == "expire" || op == "withdraw" ||
                   (op == "cancel" && who.actor.user_id == c.from.user_id) ||
                   ((op == "accept" || op == "decline") && who.actor.user_id == c.to_id);
    if (!allowed) return no_challenge();  // another's challenge is not shown to exist
    ch = std::move(it->second);
    challenges_.erase(it);
  }
  // The timer and the subscription go on the strand: this may run inside the timer's handler
  // or the subscription's.
  net::post(strand_, [ch] {
    ch->timer->cancel();
    ch->sub.reset();
  });
  if (op == "accept") {
    post_storage(ctx_, [this, ch, who] { seat(ch, who); });
    return std::nullopt;
  }
  json ended = envelope("challenge_ended");
  ended["challenge"] = ch->id;
  ended["reason"] = op == "expire"    ? "expired"
                    : op == "decline" ? "declined"
                                      : "cancelled";  // by its challenger, or withdrawn by a block
  tell(ch->from.user_id, ended);
  tell(ch->to_id, ended);
  return std::nullopt;
}

// Off the I/O threads (start_pair stores the table: a blocking call).
void FriendService::seat(std::shared_ptr<Challenge> ch, Answerer who) {
  json ended = envelope("challenge_ended");
  ended["challenge"] = ch->id;
  auto challenger = ch->from_client.lock();
  if (!challenger) {
    ended["reason"] = "cancelled";  // the challenger's page closed meanwhile
  } else {
    TableService::PairSeat a{challenger, ch->from, nullptr, "", ch->from_connection};
    TableService::PairSeat b{who.client, who.actor, nullptr, who.node, who.connection};
    if (secure_unit() < 0.5) std::swap(a, b);
    auto made = ctx_.tables->start_pair(ch->rules, ch->rated, a, b);
    if (auto* e = std::get_if<Error>(&made)) {
      log_line("challenge: " + e->message);
      ended["reason"] = "failed";
      ended["message"] = e->remote_message();
    } else {
      ended["reason"] = "accepted";
      ended["table"] = std::get<std::shared_ptr<LiveTable>>(made)->model_id;
    }
  }
  tell(ch->from.user_id, ended);
  tell(ch->to_id, ended);
}

// Another node's answer or cancel, for a challenge owned here: {op, user, name, rating, node,
// connection}. Whoever sent it was answered already; a refusal here is only logged.
void FriendService::on_remote_answer(const std::string& id, const Payload& payload) {
  json note = json::parse(*payload, nullptr, false);
  if (!note.is_object() || !note["op"].is_string() || !note["user"].is_number_integer() ||
      !note["name"].is_string() || !note["rating"].is_number() || !note["node"].is_string() ||
      !note["connection"].is_number_unsigned()) {
    log_line("challenge: ignoring a malformed message");
    return;
  }
  const std::string op = note["op"];
  if (op != "accept" && op != "decline" && op != "cancel") {
    log_line("challenge: ignoring an unknown operation");
    return;
  }
  std::int64_t user = note["user"];
  Answerer who{nullptr, Actor{"u:" + std::to_string(user), user, note["name"], note["rating"]},
               note["node"], note["connection"]};
  if (auto e = end(id, op, who)) log_line("challenge " + id + ": " + e->message);
}

// An answer or a cancel: handled here when this node owns the challenge; with a bus between
// nodes, sent to the owner (and answered `ok` with `forwarded`: the outcome comes as
// `challenge_ended`); otherwise there is no such challenge.
awaitable<void> FriendService::answer(WsClient& c, const json& msg, std::string op) {
  Fields f{c, msg};
  auto id = f.string("challenge", true, 32);
  if (f.failed) co_return;
  Actor me = actor_of(c.identity(), c.connection_id());
  if (!me.is_user()) {
    c.send(error_reply(msg, no_challenge()));
    co_return;
  }
  if (op == "accept") {
    auto load = [this, uid = me.user_id] { return ctx_.storage->find_user_by_id(uid); };
    if (auto u = co_await offload(ctx_, std::move(load))) me.rating = u->rating;
  }
  bool here;
  {
    std::lock_guard lock(mutex_);
    here = challenges_.contains(*id);
  }
  json ok = reply_to("ok", msg);
  if (here) {
    auto live = c.weak_client().lock();
    if (auto e = end(*id, op, Answerer{live, me, "", c.connection_id()})) {
      c.send(error_reply(msg, *e));
      co_return;
    }
  } else if (ctx_.pubsub->redis()) {
    // Accepted, the owner seats this page through the bus (match:<this node>).
    if (op == "accept") ctx_.tables->keep_connection(c);
    json note{{"op", op},
              {"user", me.user_id},
              {"name", me.name},
              {"rating", me.rating},
              {"node", ctx_.tables->node()},
              {"connection", c.connection_id()}};
    ctx_.pubsub->publish(challenge_topic(*id), std::make_shared<const std::string>(note.dump()));
    ok["forwarded"] = true;
  } else {
    c.send(error_reply(msg, no_challenge()));
    co_return;
  }
  c.send(ok);
}

awaitable<void> FriendService::on_answer(WsClient& c, const json& msg) {
  Fields f{c, msg};
  auto accept = f.boolean("accept");
  if (!f.failed && !accept) f.fail("missing boolean field \"accept\"");
  if (f.failed) co_return;
  co_await answer(c, msg, *accept ? "accept" : "decline");
}

awaitable<void> FriendService::on_cancel(WsClient& c, const json& msg) {
  co_await answer(c, msg, "cancel");
}

}  // namespace ur::server
