// What a change of a table was, as typed events: the table model (table_model.h) produces them
// and knows nothing of the wire; table_events.cpp turns them into the JSON of docs/protocol.md
// ("Table events") at the edge, where a `table` broadcast or an `action_ok` answer is written.
#pragma once

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/engine.h"
#include "engine/game.h"

namespace ur::server {

// The dice thrown: `value` marked tips up, `move` the squares it moves (none when the throw's
// index is outside the dice's table), `passed` when no move was possible and the turn passed.
struct RollEvent {
  int seat = 0;
  int value = 0;
  int dice = 0;
  std::optional<int> move;
  bool passed = false;
};
// A move made, and what it did.
struct MoveEvent {
  int seat = 0;
  Move move;
  MoveEffects effects;
};
struct JoinedEvent {  // a player took the open seat
  int seat = 0;
  std::string name;
};
struct LeftEvent {
  int seat = 0;
};
struct ResignEvent {
  int seat = 0;
};
struct TimeoutEvent {  // the player to act ran out of time
  int seat = 0;
};
struct VisibilityEvent {
  bool is_public = false;
};
struct HintEvent {  // a hint given: the seat's count in this game, this one included
  int seat = 0;
  int hints = 0;
};
struct GameOverEvent {
  int winner = 0;
  EndReason reason = EndReason::kNone;
};
struct AbortedEvent {  // the first player to act never opened the table
  int seat = 0;
};
struct ClosedEvent {
  bool abandoned = false;  // the server closed a table whose players had all gone
};
struct UndoEvent {
  int seat = 0;
  std::size_t undone = 0;  // events taken back
};
struct RematchOfferEvent {
  int seat = 0;
};
struct RematchDeclineEvent {
  int seat = 0;
};
struct RematchEvent {  // both agreed: the new table
  std::string table;
};

using TableEvent =
    std::variant<RollEvent, MoveEvent, JoinedEvent, LeftEvent, ResignEvent, TimeoutEvent,
                 VisibilityEvent, HintEvent, GameOverEvent, AbortedEvent, ClosedEvent, UndoEvent,
                 RematchOfferEvent, RematchDeclineEvent, RematchEvent>;
using TableEvents = std::vector<TableEvent>;

// The event's `kind` on the wire ("roll", "move", "rematch_offer", ...).
std::string_view event_kind(const TableEvent& e);
// One event, and a list of them, as docs/protocol.md's "Table events" writes them.
nlohmann::json event_json(const TableEvent& e);
nlohmann::json events_json(const TableEvents& events);

}  // namespace ur::server
