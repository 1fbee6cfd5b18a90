// Writing a game record (game_record.h): the JSON record of a game and its text form, one
// event per line. Reading and checking a record is game_record.cpp.
#include <string>
#include <vector>

#include "engine/game_record.h"
#include "engine/game_record_fields.h"
#include "engine/notation.h"

namespace ur {
namespace {

using nlohmann::json;
using record_fields::kPlayerKeys;
using record_fields::kStatFields;
using record_fields::StatField;

bool has_ledger(const RuleSet& r) {
  return r.stake != 0 || r.fine != 0;
}

// Whether the game paid its stakes at the start (Game(engine) does, Game(engine, start) does
// not). Every fine and the pot moves money between kitty and balances, so a player who has not
// taken the pot has paid exactly stake + fines.
bool paid_stakes(const Game& g) {
  const Player p = g.winner() ? other(*g.winner()) : Player::kLight;
  return -g.balance(p) - g.stats(p).rosettes * g.rules().fine == g.rules().stake;
}

// An object on one line with the keys in `order` first: {"player":"light","throw":3}.
// nlohmann::json sorts keys, which would put the action before the player. (Built by appends:
// GCC 12 at -O3 reports a false -Wrestrict on `"literal" + std::string` chains here.)
std::string compact(const json& v, const std::vector<std::string>& order) {
  if (!v.is_object()) return v.dump();
  std::string out;
  auto add = [&](const std::string& k, const json& x) {
    out += out.empty() ? '{' : ',';
    out += json(k).dump();
    out += ':';
    out += x.dump();
  };
  for (const std::string& k : order)
    if (v.contains(k)) add(k, v[k]);
  for (const auto& [k, x] : v.items())
    if (std::find(order.begin(), order.end(), k) == order.end()) add(k, x);
  if (out.empty()) return "{}";
  out += '}';
  return out;
}

std::string stats_line(const json& v) {
  std::vector<std::string> order;
  for (const StatField& f : kStatFields) order.emplace_back(f.key);
  return compact(v, order);
}

std::string result_text(const json& res) {
  if (!res.is_object() || res.empty()) return res.dump();
  static const std::array<const char*, 7> kOrder = {"winner", "reason",   "score", "stats",
                                                    "kitty",  "balances", "final"};
  std::string out = "{";
  bool first = true;
  auto field = [&](const std::string& key, const json& value) {
    out += first ? "\n    " : ",\n    ";
    out += json(key).dump();
    out += ": ";
    first = false;
    if (key == "stats" && value.is_object() && !value.empty()) {
      bool first_player = true;
      out += "{";
      auto player = [&](const std::string& p, const json& s) {
        out += first_player ? "\n      " : ",\n      ";
        out += json(p).dump();
        out += ": ";
        out += stats_line(s);
        first_player = false;
      };
      for (const char* p : kPlayerKeys)
        if (value.contains(p)) player(p, value[p]);
      for (const auto& [p, s] : value.items())
        if (p != "light" && p != "dark") player(p, s);
      out += "\n    }";
    } else {
      out += compact(value, {"light", "dark"});
    }
  };
  for (const char* key : kOrder)
    if (res.contains(key)) field(key, res[key]);
  for (const auto& [key, value] : res.items()) {
    bool known = false;
    for (const char* k : kOrder) known |= key == k;
    if (!known) field(key, value);
  }
  return out + "\n  }";
}

}  // namespace

nlohmann::json record_event(const GameEvent& ev) {
  json j = {{"player", player_name(ev.player)}};
  switch (ev.type) {
    case GameEvent::Type::kThrow:
      j["throw"] = ev.outcome;
      break;
    case GameEvent::Type::kMove:
      if (ev.move.kind == MoveKind::kMove)
        j["move"] = {{"from", ev.move.from}, {"to", ev.move.to}};
      else
        j["award"] = ev.move.kind == MoveKind::kAwardYes;
      break;
    case GameEvent::Type::kResign:
      j["resign"] = end_reason_name(static_cast<EndReason>(ev.outcome));
      break;
  }
  return j;
}

nlohmann::json to_record(const Game& game, std::optional<std::uint64_t> seed) {
  const Engine& e = game.engine();
  json r = json::object();
  r["format"] = "ur-game";
  r["version"] = kRecordVersion;
  r["rules"] = game.rules().to_string();
  if (seed) r["seed"] = *seed;
  if (!(game.start_position() == e.initial_position()) ||
      (game.rules().stake != 0 && !paid_stakes(game)))
    r["start"] = to_position_string(e, game.start_position());
  json events = json::array();
  for (const GameEvent& ev : game.events()) events.push_back(record_event(ev));
  r["events"] = std::move(events);
  json res = json::object();
  res["winner"] = game.winner() ? json(player_name(*game.winner())) : json(nullptr);
  res["reason"] = end_reason_name(game.end_reason());
  res["score"] = game.win_score();
  json stats = json::object();
  for (int pl = 0; pl < 2; ++pl) {
    json s = json::object();
    for (const StatField& f : kStatFields)
      s[f.key] = game.stats(static_cast<Player>(pl)).*(f.field);
    stats[kPlayerKeys[pl]] = std::move(s);
  }
  res["stats"] = std::move(stats);
  if (has_ledger(game.rules())) {
    res["kitty"] = game.kitty();
    res["balances"] = {{"light", game.balance(Player::kLight)},
                       {"dark", game.balance(Player::kDark)}};
  }
  res["final"] = to_position_string(e, game.position());
  r["result"] = std::move(res);
  return r;
}

std::string record_to_string(const nlohmann::json& record) {
  if (!record.is_object()) return record.dump(2) + "\n";
  // nlohmann::json sorts keys; a record reads better header first, events, then the result.
  static const std::array<const char*, 7> kOrder = {"format", "version", "rules", "seed",
                                                    "start",  "events",  "result"};
  std::string out = "{";
  bool first = true;
  auto field = [&](const std::string& key, const json& value) {
    out += first ? "\n  " : ",\n  ";
    first = false;
    out += json(key).dump() + ": ";
    if (key == "events" && value.is_array()) {
      if (value.empty()) {
        out += "[]";
        return;
      }
      out += "[";
      for (size_t i = 0; i < value.size(); ++i) {
        const json& ev = value[i];
        out += i == 0 ? "\n    " : ",\n    ";
        out += compact(ev, {"player"});
      }
      out += "\n  ]";
      return;
    }
    out += key == "result" ? result_text(value) : compact(value, {});
  };
  for (const char* key : kOrder)
    if (record.contains(key)) field(key, record[key]);
  for (const auto& [key, value] : record.items()) {
    bool known = false;
    for (const char* k : kOrder) known |= key == k;
    if (!known) field(key, value);
  }
  return out + "\n}\n";
}

std::string record_to_string(const Game& game, std::optional<std::uint64_t> seed) {
  return record_to_string(to_record(game, seed));
}

}  // namespace ur
