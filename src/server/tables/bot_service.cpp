#include "server/tables/bot_service.h"

#include <cmath>

#include "rules/rule_set.h"
#include "rules/text.h"
#include "server/protocol/ws_dispatch.h"
#include "server/server_errc.h"
#include "server/tables/table_service.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;
using net::awaitable;

namespace {

// A rule-set string in its canonical form, or the reason it does not parse.
Result<std::string> canonical_rules(const json& value) {
  if (!value.is_string() || value.get_ref<const std::string&>().size() > 200)
    return Error{Errc::kBadRules, "a rule set must be a string of at most 200 characters"};
  auto parsed = parse_rule_set(value.get<std::string>());
  if (auto* e = std::get_if<Error>(&parsed)) return Error{Errc::kBadRules, "rules: " + e->reason};
  return std::get<RuleSet>(parsed).to_string();
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// What a challenge asks for, validated.
struct Challenge {
  std::string bot;
  json rules;    // null: the bot's first rule set
  int seat = 0;  // the challenger's seat; 0: drawn at random
  bool rated = false;
};

std::optional<Challenge> read_challenge(WsClient& c, const json& msg) {
  Challenge ch;
  auto bad = [&](const char* message) {
    c.send(error_reply(msg, Errc::kBadRequest, message));
    return std::nullopt;
  };
  auto bot = msg.find("bot");
  if (bot == msg.end() || !bot->is_string() || bot->get_ref<const std::string&>().size() > 64)
    return bad("field \"bot\" must be the bot's name (a string)");
  ch.bot = bot->get<std::string>();
  if (auto it = msg.find("rules"); it != msg.end()) ch.rules = *it;
  if (auto it = msg.find("seat"); it != msg.end()) {
    if (!it->is_number_integer() || (*it != 1 && *it != 2))
      return bad("field \"seat\" must be 1 or 2");
    ch.seat = it->get<int>();
  }
  if (auto it = msg.find("rated"); it != msg.end()) {
    if (!it->is_boolean()) return bad("field \"rated\" must be true or false");
    ch.rated = it->get<bool>();
  }
  return ch;
}

}  // namespace

void BotService::register_handlers(Dispatcher& d) {
  d.add("bot_ready", [this](WsClient& c, const json& m) { return on_ready(c, m); });
  d.add("list_bots", [this](WsClient& c, const json& m) { return on_list(c, m); });
  d.add("challenge_bot", [this](WsClient& c, const json& m) { return on_challenge(c, m); });
  d.on_closed([this](WsClient& c) { on_close(c); });
}

bool BotService::busy(const OnlineBot& b) {
  if (b.starting) return true;
  auto game = b.game.lock();
  return game && game->live.load();
}

void BotService::on_close(WsClient& client) {
  std::lock_guard lock(mutex_);
  std::erase_if(bots_,
                [&](const auto& kv) { return kv.second.connection == client.connection_id(); });
}

json BotService::online() {
  std::lock_guard lock(mutex_);
  json list = json::array();
  for (const auto& [key, b] : bots_)
    list.push_back({{"name", b.name},
                    {"rules", b.rules},
                    {"rating", std::lround(b.rating)},
                    {"games", b.games},
                    {"busy", busy(b)}});
  return list;
}

awaitable<void> BotService::on_list(WsClient& c, const json& msg) {
  json j = reply_to("bots", msg);
  j["bots"] = online();
  c.send(j);
  co_return;
}

awaitable<void> BotService::on_ready(WsClient& c, const json& msg) {
  const Identity& id = c.identity();
  if (!id.bot || !id.user) {
    c.send(error_reply(msg, ServerErrc::kNotBot,
                       "only a connection with a bot token can offer games"));
    co_return;
  }
  auto it = msg.find("rules");
  if (it == msg.end() || !it->is_array() || it->empty() || it->size() > kMaxBotRuleSets) {
    c.send(error_reply(msg, Errc::kBadRequest,
                       "field \"rules\" must be a list of 1 to " + std::to_string(kMaxBotRuleSets) +
                           " rule sets"));
    co_return;
  }
  std::vector<std::string> rules;
  for (const json& r : *it) {
    auto canon = canonical_rules(r);
    if (auto* e = std::get_if<Error>(&canon)) {
      c.send(error_reply(msg, *e));
      co_return;
    }
    if (std::find(rules.begin(), rules.end(), std::get<std::string>(canon)) == rules.end())
      rules.push_back(std::get<std::string>(canon));
  }
  auto load = [this, uid = id.user->id] { return ctx_.storage->bot_status(uid); };
  BotStatus pool = co_await offload(ctx_, std::move(load));
  {
    std::lock_guard lock(mutex_);
    OnlineBot& b = bots_[ascii_lower(id.user->username)];
    b.client = c.weak_client();
    b.connection = c.connection_id();
    b.user_id = id.user->id;
    b.name = id.user->username;
    b.rules = rules;
    b.rating = pool.rating;
    b.games = pool.games;  // b.game stays: a bot that reconnects mid-game is still busy
  }
  json j = reply_to("bot_ready", msg);
  j["rules"] = rules;
  j["rating"] = std::lround(pool.rating);
  c.send(j);
}

awaitable<void> BotService::on_challenge(WsClient& c, const json& msg) {
  auto ch = read_challenge(c, msg);
  if (!ch) co_return;
  Actor challenger = actor_of(c.identity(), c.connection_id());
  if (ch->rated && !challenger.is_user()) {
    c.send(error_reply(msg, ServerErrc::kLoginRequired, "rated games need an account"));
    co_return;
  }
  OnlineBot bot;
  {
    std::lock_guard lock(mutex_);
    auto it = bots_.find(ascii_lower(ch->bot));
    if (it != bots_.end()) bot = it->second;
  }
  auto bot_client = bot.client.lock();
  if (!bot_client) {
    c.send(error_reply(msg, ServerErrc::kNoBot, "no bot of that name is online"));
    co_return;
  }
  if (bot.user_id == challenger.user_id) {
    c.send(error_reply(msg, Errc::kBadRequest, "a bot cannot challenge itself"));
    co_return;
  }
  auto canon = canonical_rules(ch->rules.is_null() ? json(bot.rules.front()) : ch->rules);
  if (auto* e = std::get_if<Error>(&canon)) {
    c.send(error_reply(msg, *e));
    co_return;
  }
  std::string rules = std::get<std::string>(canon);
  if (std::find(bot.rules.begin(), bot.rules.end(), rules) == bot.rules.end()) {
    c.send(error_reply(msg, ServerErrc::kBotRefuses, "this bot plays only: " + joined(bot.rules)));
    co_return;
  }
  {
    std::lock_guard lock(mutex_);
    auto it = bots_.find(ascii_lower(ch->bot));
    if (it == bots_.end() || busy(it->second)) {
      c.send(error_reply(msg, it == bots_.end() ? ServerErrc::kNoBot : ServerErrc::kBotBusy,
                         it == bots_.end() ? "no bot of that name is online"
                                           : "this bot is playing a game; try again later"));
      co_return;
    }
    it->second.starting = true;
  }
  // Both sides sit down with their bot-pool ratings: the pool the game counts in.
  Actor robot{"u:" + std::to_string(bot.user_id), bot.user_id, bot.name, bot.rating};
  auto seat = [this, challenger, robot, ch = *ch, rules, me = c.weak_client(), bot_client,
               re = msg.value("id", json())]() mutable {
    if (challenger.is_user())
      challenger.rating = ctx_.storage->bot_status(challenger.user_id).rating;
    robot.rating = ctx_.storage->bot_status(robot.user_id).rating;
    int my_seat = ch.seat ? ch.seat : (secure_unit() < 0.5 ? 1 : 2);
    TableService::PairSeat mine{me.lock(), challenger, re, {}, 0},
        theirs{bot_client, robot, nullptr, {}, 0};
    // The challenger is gone: no table, and nobody to tell.
    if (!mine.client) return Result<std::shared_ptr<LiveTable>>(nullptr);
    return my_seat == 1 ? ctx_.tables->start_pair(rules, ch.rated, mine, theirs)
                        : ctx_.tables->start_pair(rules, ch.rated, theirs, mine);
  };
  Result<std::shared_ptr<LiveTable>> made = nullptr;
  try {
    made = co_await offload(ctx_, std::move(seat));
  } catch (...) {
    seated(bot.user_id, nullptr);  // a failed database: the bot is free again
    throw;
  }
  auto* table = std::get_if<std::shared_ptr<LiveTable>>(&made);
  seated(bot.user_id, table ? *table : nullptr);
  if (auto* e = std::get_if<Error>(&made)) c.send(error_reply(msg, *e));
}

void BotService::seated(std::int64_t user_id, std::shared_ptr<LiveTable> game) {
  std::lock_guard lock(mutex_);
  for (auto& [key, b] : bots_)
    if (b.user_id == user_id) {
      b.starting = false;
      if (game) b.game = game;
    }
}

}  // namespace ur::server
