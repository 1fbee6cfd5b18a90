#include "engine/game_record.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <memory>
#include <vector>

#include "engine/game_record_fields.h"
#include "engine/notation.h"

namespace ur {
namespace {

using record_fields::kPlayerKeys;
using record_fields::kStatFields;
using record_fields::StatField;

using nlohmann::json;

// The record's messages write the award in words; notation.h's move_text is the protocol token.
std::string record_move_text(const Move& m) {
  if (m.kind == MoveKind::kAwardYes) return "award yes";
  if (m.kind == MoveKind::kAwardNo) return "award no";
  return std::to_string(m.from) + "->" + std::to_string(m.to);
}

std::string legal_text(const MoveList& moves) {
  std::string s;
  for (const Move& m : moves) s += (s.empty() ? "" : ", ") + record_move_text(m);
  return s.empty() ? "none" : s;
}

// A JSON value as a whole number, or nothing (floats, bools and huge values are refused).
std::optional<long long> whole(const json& v) {
  if (v.is_number_unsigned()) {
    const auto u = v.get<std::uint64_t>();
    if (u > static_cast<std::uint64_t>(1) << 53) return std::nullopt;
    return static_cast<long long>(u);
  }
  if (v.is_number_integer()) return v.get<long long>();
  return std::nullopt;
}

std::optional<Player> player_of(const json& v) {
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  if (s == "light") return Player::kLight;
  if (s == "dark") return Player::kDark;
  return std::nullopt;
}

// Unknown keys are errors: a misspelt key would otherwise be silently ignored.
std::string unknown_key(const json& obj, std::initializer_list<const char*> allowed) {
  for (const auto& [key, value] : obj.items()) {
    bool ok = false;
    for (const char* a : allowed) ok |= key == a;
    if (ok) continue;
    std::string list;
    for (const char* a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return "unknown key \"" + key + "\" (expected " + list + ")";
  }
  return "";
}

// What the game waits for, for messages about an event that does not fit.
std::string due_text(const Game& g) {
  const Position& p = g.position();
  const std::string who = player_name(p.turn);
  switch (p.phase) {
    case Phase::kStart:
      return g.rules().start == StartPolicy::kCoinCall ? "the coin call is due"
                                                       : "light's roll-off throw is due";
    case Phase::kRollOff:
      return "dark's roll-off throw is due";
    case Phase::kAwaitingRoll:
      return who + "'s throw is due";
    case Phase::kAwaitingMove:
      return who + "'s move for throw " + std::to_string(p.roll) + " is due";
    case Phase::kAwaitingAward:
      return who + "'s rosette award decision is due";
    case Phase::kAwaitingForfeit:
      return who + "'s forfeit response (a move) is due";
    case Phase::kGameOver:
      break;
  }
  return "nothing is due";
}

// Applies a "move" event of `who`; returns "" or the message.
std::string apply_move_event(Game& g, const json& m, Player who, const std::string& at,
                             const std::string& at_turn) {
  const std::string name = player_name(who);
  if (!m.is_object()) return at + "\"move\" must be an object {\"from\":F,\"to\":T}";
  if (std::string u = unknown_key(m, {"from", "to"}); !u.empty()) return at + "\"move\": " + u;
  std::optional<long long> from, to;
  if (m.contains("from")) from = whole(m["from"]);
  if (m.contains("to")) to = whole(m["to"]);
  if (!from || !to) return at + "\"move\" needs whole numbers \"from\" and \"to\"";
  if (g.is_over()) return at_turn + "the game is already over";
  if (!g.awaiting_decision() || g.position().phase == Phase::kAwaitingAward || who != g.to_act())
    return at_turn + name + " moves, but " + due_text(g);
  const MoveList legal = g.legal_moves();
  for (const Move& l : legal)
    if (l.kind == MoveKind::kMove && l.from == *from && l.to == *to) {
      Status s = g.apply_move(l);
      return s.ok() ? "" : at_turn + s.error;
    }
  const bool forfeit = g.position().phase == Phase::kAwaitingForfeit;
  return at_turn + "illegal " + (forfeit ? "forfeit response " : "move ") + std::to_string(*from) +
         "->" + std::to_string(*to) + " for " + name + "; legal: " + legal_text(legal);
}

// Applies one event; returns "" or the message (without the event prefix).
std::string apply_event(Game& g, const json& ev, const std::string& at,
                        const std::string& at_turn) {
  if (!ev.is_object()) return at + "must be an object such as {\"player\":\"light\",\"throw\":3}";
  if (std::string u = unknown_key(ev, {"player", "throw", "move", "award", "resign"}); !u.empty())
    return at + u;
  if (!ev.contains("player")) return at + "missing \"player\" (\"light\" or \"dark\")";
  const std::optional<Player> who = player_of(ev["player"]);
  if (!who) return at + "\"player\" must be \"light\" or \"dark\"";
  int actions = 0;
  for (const char* k : {"throw", "move", "award", "resign"}) actions += ev.contains(k);
  if (actions != 1) return at + "needs exactly one of \"throw\", \"move\", \"award\", \"resign\"";
  const std::string name = player_name(*who);

  if (ev.contains("throw")) {
    const std::optional<long long> k = whole(ev["throw"]);
    if (!k) return at + "\"throw\" must be a whole number";
    if (g.is_over()) return at_turn + "the game is already over";
    if (!g.awaiting_throw()) return at_turn + name + " throws, but " + due_text(g);
    if (*who != g.to_act()) return at_turn + name + " throws, but " + due_text(g);
    bool listed = false;
    for (const ChanceOutcome& c : g.chance_outcomes()) listed |= c.outcome == *k;
    if (!listed) {
      if (g.position().phase == Phase::kStart && g.rules().start == StartPolicy::kCoinCall)
        return at_turn + "the coin call is 0 (light starts) or 1 (dark starts), not " +
               std::to_string(*k);
      return at_turn + "throw " + std::to_string(*k) + " is outside the dice (0.." +
             std::to_string(g.rules().dice.dice) + ")";
    }
    Status s = g.apply_throw(static_cast<int>(*k));
    return s.ok() ? "" : at_turn + s.error;
  }

  if (ev.contains("move")) return apply_move_event(g, ev["move"], *who, at, at_turn);

  if (ev.contains("award")) {
    if (!ev["award"].is_boolean()) return at + "\"award\" must be true or false";
    if (g.is_over()) return at_turn + "the game is already over";
    if (g.position().phase != Phase::kAwaitingAward || *who != g.to_act())
      return at_turn + name + " decides an award, but " + due_text(g);
    const MoveKind want = ev["award"].get<bool>() ? MoveKind::kAwardYes : MoveKind::kAwardNo;
    for (const Move& l : g.legal_moves())
      if (l.kind == want) {
        Status s = g.apply_move(l);
        return s.ok() ? "" : at_turn + s.error;
      }
    return at_turn + "no such award decision";
  }

  const json& r = ev["resign"];
  const std::string why = r.is_string() ? r.get<std::string>() : "";
  EndReason reason = EndReason::kNone;
  if (why == "resign") reason = EndReason::kResign;
  if (why == "timeout") reason = EndReason::kTimeout;
  if (why == "left") reason = EndReason::kLeft;
  if (reason == EndReason::kNone)
    return at + "\"resign\" must be \"resign\", \"timeout\" or \"left\"";
  if (g.is_over()) return at_turn + "the game is already over";
  Status s = g.end_by(*who, reason);
  return s.ok() ? "" : at_turn + s.error;
}

// Compares the record's "result" with the replayed game; "" when everything present agrees.
std::string check_result(const Game& g, const json& res) {
  const std::string at = "result: ";
  if (!res.is_object()) return at + "must be an object";
  if (std::string u =
          unknown_key(res, {"winner", "reason", "score", "stats", "kitty", "balances", "final"});
      !u.empty())
    return at + u;
  const std::string got_winner = g.winner() ? player_name(*g.winner()) : "null";
  if (res.contains("winner")) {
    const json& w = res["winner"];
    std::string want;
    if (w.is_null())
      want = "null";
    else if (player_of(w))
      want = w.get<std::string>();
    else
      return at + "\"winner\" must be \"light\", \"dark\" or null";
    if (want != got_winner)
      return at + "the record says the winner is " + want + ", the replay gives " + got_winner;
  }
  if (res.contains("reason")) {
    if (!res["reason"].is_string()) return at + "\"reason\" must be a string";
    const std::string want = res["reason"].get<std::string>(),
                      got = end_reason_name(g.end_reason());
    if (want != got)
      return at + "the record says the game ended by " + want + ", the replay gives " + got;
  }
  auto number = [&](const json& v, const std::string& what, long long got) -> std::string {
    const std::optional<long long> want = whole(v);
    if (!want) return at + what + " must be a whole number";
    if (*want != got)
      return at + what + " is " + std::to_string(*want) + " in the record, " + std::to_string(got) +
             " in the replay";
    return "";
  };
  if (res.contains("score"))
    if (std::string e = number(res["score"], "\"score\"", g.win_score()); !e.empty()) return e;
  if (res.contains("kitty"))
    if (std::string e = number(res["kitty"], "\"kitty\"", g.kitty()); !e.empty()) return e;
  for (const char* block : {"stats", "balances"}) {
    if (!res.contains(block)) continue;
    const json& b = res[block];
    const std::string bname = std::string("\"") + block + "\"";
    if (!b.is_object()) return at + bname + " must be an object with \"light\" and \"dark\"";
    if (std::string u = unknown_key(b, {"light", "dark"}); !u.empty()) return at + bname + ": " + u;
    for (int pl = 0; pl < 2; ++pl) {
      if (!b.contains(kPlayerKeys[pl])) continue;
      const Player p = static_cast<Player>(pl);
      const json& v = b[kPlayerKeys[pl]];
      const std::string what = std::string(block) + " of " + kPlayerKeys[pl];
      if (std::string(block) == "balances") {
        if (std::string e = number(v, what, g.balance(p)); !e.empty()) return e;
        continue;
      }
      if (!v.is_object()) return at + what + " must be an object";
      for (const auto& [key, value] : v.items()) {
        const StatField* f = nullptr;
        for (const StatField& s : kStatFields)
          if (key == s.key) f = &s;
        if (!f) return at + what + ": unknown statistic \"" + key + "\"";
        if (std::string e = number(value, what + " \"" + key + "\"", g.stats(p).*(f->field));
            !e.empty())
          return e;
      }
    }
  }
  if (res.contains("final")) {
    if (!res["final"].is_string()) return at + "\"final\" must be a position string";
    const std::string want = res["final"].get<std::string>();
    PositionResult pr = parse_position_string(g.engine(), want);
    if (auto* e = std::get_if<Error>(&pr)) return at + "\"final\": " + e->message;
    // Compared as canonical strings: the string is the documented notation, and pieces may
    // be listed in any order in the record.
    const std::string got = to_position_string(g.engine(), g.position());
    if (to_position_string(g.engine(), std::get<Position>(pr)) != got)
      return at + "the record's final position is " + want + ", the replay ends at " + got;
  }
  return "";
}

}  // namespace

RecordResult read_record(std::string_view text, std::optional<std::uint64_t>* seed) {
  json record;
  try {
    record = json::parse(text.begin(), text.end());
  } catch (const json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line L, column C: ...".
    std::string what = e.what();
    if (const size_t at = what.find("] "); what.rfind("[json.", 0) == 0 && at != std::string::npos)
      what = what.substr(at + 2);
    return Error{Errc::kBadRecord, "malformed JSON: " + what};
  }
  return record_from_json(record, seed);
}

RecordResult record_from_json(const nlohmann::json& r, std::optional<std::uint64_t>* seed) {
  auto fail = [](std::string why) { return RecordResult{Error{Errc::kBadRecord, std::move(why)}}; };
  if (!r.is_object()) return fail("a game record must be a JSON object");
  if (std::string u =
          unknown_key(r, {"format", "version", "rules", "seed", "start", "events", "result"});
      !u.empty())
    return fail(u);
  if (!r.contains("format") || r["format"] != "ur-game")
    return fail("\"format\" must be \"ur-game\"");
  if (!r.contains("version")) return fail("missing \"version\"");
  const std::optional<long long> version = whole(r["version"]);
  if (!version) return fail("\"version\" must be a whole number");
  if (*version != kRecordVersion)
    return fail("record version " + std::to_string(*version) +
                " is not supported (this build reads version " + std::to_string(kRecordVersion) +
                ")");
  if (!r.contains("rules") || !r["rules"].is_string())
    return fail("missing \"rules\" (a rule-set string such as \"finkel\")");
  RuleSetResult rules = parse_rule_set(r["rules"].get<std::string>());
  if (auto* e = std::get_if<Error>(&rules)) return fail("\"rules\": " + e->message);
  std::optional<std::uint64_t> record_seed;
  if (r.contains("seed")) {
    if (!r["seed"].is_number_unsigned())
      return fail("\"seed\" must be a non-negative whole number");
    record_seed = r["seed"].get<std::uint64_t>();
  }
  auto engine = std::make_shared<const Engine>(std::get<RuleSet>(rules));
  std::optional<Game> game;
  if (r.contains("start")) {
    if (!r["start"].is_string()) return fail("\"start\" must be a position string");
    PositionResult pr = parse_position_string(*engine, r["start"].get<std::string>());
    if (auto* e = std::get_if<Error>(&pr)) return fail("\"start\": " + e->message);
    game.emplace(engine, std::get<Position>(pr));
  } else {
    game.emplace(engine);
  }
  if (!r.contains("events") || !r["events"].is_array())
    return fail("missing \"events\" (an array, possibly empty)");
  const json& events = r["events"];
  for (size_t i = 0; i < events.size(); ++i) {
    const std::string n = std::to_string(i + 1);
    const std::string at = "event " + n + ": ";
    const std::string at_turn =
        "event " + n + " (turn " + std::to_string(game->turn_number()) + "): ";
    if (std::string err = apply_event(*game, events[i], at, at_turn); !err.empty())
      return fail(err);
  }
  if (r.contains("result"))
    if (std::string err = check_result(*game, r["result"]); !err.empty()) return fail(err);
  if (seed) *seed = record_seed;
  return std::move(*game);
}

}  // namespace ur
