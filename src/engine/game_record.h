// Game records: a whole game as JSON, written from a Game and replayed into one.
//
// A record stores the rule set and every event in order (throws, decisions, resignations), so
// a replay through the checked Game layer reproduces the game exactly; the "result" block is
// redundant on purpose and is checked against the replay, which catches records edited by hand
// or written by a buggy client. Format (docs/notation.md has a full example):
//
//   {"format": "ur-game", "version": 1, "rules": "<RuleSet::to_string()>",
//    "seed": <optional number>, "start": <optional position string>,
//    "events": [{"player": "light", "throw": 3},                  raw throw k; the coin call
//               {"player": "light", "move": {"from": 0, "to": 3}}, 0 = light starts, 1 = dark
//               {"player": "dark", "award": true},                 boxed rosette award decision
//               {"player": "dark", "resign": "resign"}],           or "timeout" / "left"
//    "result": {"winner": "light"|"dark"|null, "reason": "bore-off", "score": 0,
//               "stats": {"light": {...}, "dark": {...}}, "kitty": 0,
//               "balances": {"light": 0, "dark": 0}, "final": "<position string>"}}
//
// A forfeit response is a move event of the player who makes it (the opponent of the mover).
// "start" is written only for games that began from a given position (Game(engine, start));
// such games pay no stakes, so it is also written when a staked game was started that way.
// Every field of "result" is optional when reading; each one present must match the replay.
// Reading is strict: unknown keys, a wrong player, a throw outside the dice, a throw when a
// decision is due, an illegal move are all errors whose message names the event (1-based) and
// the turn number at fault.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/game.h"
#include "rules/error.h"

namespace ur {

inline constexpr int kRecordVersion = 1;

using RecordResult = Result<Game>;

// The record of a game so far (finished or not).
nlohmann::json to_record(const Game& game, std::optional<std::uint64_t> seed = {});
// One event of a record's "events" array, as to_record writes it (the server stores a table's
// game as these, appended as it goes, with the rule set beside them).
nlohmann::json record_event(const GameEvent& ev);

// A record as readable text: the header fields first, one event per line, then the result.
std::string record_to_string(const nlohmann::json& record);
std::string record_to_string(const Game& game, std::optional<std::uint64_t> seed = {});

// Parses and replays a record. On success `seed` (when given) receives the record's seed.
RecordResult read_record(std::string_view text, std::optional<std::uint64_t>* seed = nullptr);
RecordResult record_from_json(const nlohmann::json& record,
                              std::optional<std::uint64_t>* seed = nullptr);

}  // namespace ur
