// The JSON views of a table (docs/protocol.md): the snapshot that everyone at the table sees,
// the summary after the game and the rematch block, and the JSON forms of a move and of a
// player's statistics that the events of table_actions.cpp share with them. Views only read a
// TableModel; they never change it, and none depends on who is looking (one shared payload).
#pragma once

#include <nlohmann/json.hpp>

#include "server/tables/table_model.h"

namespace ur::server {

// What everyone at the table sees: seats, the game (position, phase, legal moves, pieces,
// statistics), the summary and the rematch.
nlohmann::json table_snapshot(const TableModel& t);
// After the game: winner, reason, per-seat statistics, score/kitty; ratings once known. Null
// while the game goes on.
nlohmann::json table_summary(const TableModel& t);
// {offers, declined, table}; null when nothing was offered.
nlohmann::json rematch_view(const TableModel& t);

nlohmann::json move_json(const Move& m);
nlohmann::json stats_json(const PlayerStats& s);

}  // namespace ur::server
