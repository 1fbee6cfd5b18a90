#include "server/tables/table_views.h"

#include <algorithm>
#include <cmath>

#include "engine/notation.h"

namespace ur::server {
using json = nlohmann::json;
namespace {

const char* phase_name(const Position& p) {
  switch (p.phase) {
    case Phase::kStart:
      return "start";
    case Phase::kRollOff:
      return "roll_off";
    case Phase::kAwaitingRoll:
      return "awaiting_roll";
    case Phase::kAwaitingMove:
      return "awaiting_move";
    case Phase::kAwaitingAward:
      return "awaiting_award";
    case Phase::kAwaitingForfeit:
      return "awaiting_forfeit";
    case Phase::kGameOver:
      return "game_over";
  }
  return "unknown";
}

// A computer seat's level and, where its name carries one, the note saying how the level plays
// (computer_note): a client names the seat from these in its own words.
void add_level(json& j, const Seat& s) {
  if (s.kind != SeatKind::kBot) return;
  j["level"] = s.level;
  if (std::string_view note = computer_note(s.name); !note.empty()) j["level_note"] = note;
}

}  // namespace

json move_json(const Move& m) {
  return json{{"from", m.from},
              {"to", m.to},
              {"kind", move_kind_name(m.kind)},
              {"capture", (m.flags & move_flag::kCapture) != 0},
              {"rosette", (m.flags & move_flag::kRosette) != 0},
              {"bear_off", (m.flags & move_flag::kScores) != 0},
              {"enter", (m.flags & move_flag::kEnter) != 0}};
}

json stats_json(const PlayerStats& s) {
  return json{{"throws", s.throws},     {"moves", s.moves},       {"passes", s.passes},
              {"captures", s.captures}, {"rosettes", s.rosettes}, {"borne_off", s.borne_off},
              {"bounces", s.bounces},   {"forfeits", s.forfeits}};
}

json rematch_view(const TableModel& t) {
  const Rematch& r = t.rematch_state();
  if (!r.any()) return nullptr;
  json offers = json::array();
  for (int i = 0; i < 2; ++i)
    if (r.offers[i]) offers.push_back(i + 1);
  return json{{"offers", std::move(offers)},
              {"declined", r.declined ? json(r.declined) : json(nullptr)},
              {"table", r.table.empty() ? json(nullptr) : json(r.table)}};
}

json table_summary(const TableModel& t) {
  const Game& game = t.game();
  if (!game.is_over()) return nullptr;
  json s{{"winner", seat_number(*game.winner())},
         {"reason", end_reason_name(game.end_reason())},
         {"turns", game.turn_number()}};
  json seats = json::array();
  for (int i = 0; i < 2; ++i) {
    Player p = seat_player(i + 1);
    json seat = stats_json(game.stats(p));
    seat["seat"] = i + 1;
    seat["name"] = t.seats()[i].name;
    add_level(seat, t.seats()[i]);
    if (t.has_ratings()) {
      seat["rating_before"] = std::lround(t.ratings_before()[i]);
      seat["rating_after"] = std::lround(t.ratings_after()[i]);
      seat["rating_change"] =
          std::lround(t.ratings_after()[i]) - std::lround(t.ratings_before()[i]);
    }
    if (game.rules().stake > 0) seat["balance"] = game.balance(p);
    seat["hints"] = t.hints()[i];
    seats.push_back(std::move(seat));
  }
  s["seats"] = std::move(seats);
  if (game.rules().scored_win) s["score"] = game.win_score();
  if (game.rules().stake > 0) s["kitty"] = game.kitty();
  return s;
}

namespace {

json seats_view(const TableModel& t) {
  json seats = json::array();
  for (int i = 0; i < 2; ++i) {
    const Seat& s = t.seats()[i];
    json j{{"seat", i + 1}, {"side", i == 0 ? "light" : "dark"}, {"kind", seat_kind_name(s.kind)}};
    if (!s.empty()) {
      j["name"] = s.name;
      j["left"] = s.left;
      if (s.kind == SeatKind::kUser) {
        // After a rated game: the rating it produced, and the change (the summary has both).
        if (t.has_ratings()) {
          j["rating"] = std::lround(t.ratings_after()[i]);
          j["rating_change"] =
              std::lround(t.ratings_after()[i]) - std::lround(t.ratings_before()[i]);
        } else {
          j["rating"] = std::lround(s.rating);
        }
      }
      add_level(j, s);
      j["hints"] = t.hints()[i];
    }
    seats.push_back(std::move(j));
  }
  return seats;
}

json game_view(const TableModel& t) {
  const Game& game = t.game();
  const Engine& e = game.engine();
  const Position& pos = game.position();
  json pieces = json::array();
  for (Player p : {Player::kLight, Player::kDark}) {
    json counts = json::array();
    for (int i = 0; i <= e.off_index(); ++i) counts.push_back(pos.count[index_of(p)][i]);
    pieces.push_back(json{{"seat", seat_number(p)},
                          {"pool", pos.pool[index_of(p)]},
                          {"counts", std::move(counts)},
                          {"stats", stats_json(game.stats(p))}});
  }
  json moves = json::array();
  if (t.status() == TableStatus::kPlaying && game.awaiting_decision())
    for (const Move& m : game.legal_moves()) moves.push_back(move_json(m));
  const int to_act = t.seat_to_act();
  json g{{"position", to_position_string(e, pos)},
         {"phase", phase_name(pos)},
         {"to_act", to_act ? json(to_act) : json(nullptr)},
         {"roll", pos.phase == Phase::kAwaitingMove ? json(pos.roll) : json(nullptr)},
         {"legal_moves", std::move(moves)},
         {"pieces", std::move(pieces)},
         {"turn", game.turn_number()},
         {"events", game.events().size()}};
  if (game.rules().stake > 0) g["kitty"] = game.kitty();
  if (t.local()) {
    const auto& log = game.events();
    g["can_undo"] = t.status() == TableStatus::kPlaying && !game.is_over() &&
                    std::any_of(log.begin(), log.end(), [](const GameEvent& ev) {
                      return ev.type == GameEvent::Type::kMove;
                    });
  }
  return g;
}

}  // namespace

json table_snapshot(const TableModel& t) {
  return json{{"id", t.id()},
              {"rules", t.rules()},
              {"rules_name", t.game().rules().name},
              {"public", t.is_public()},
              {"rated", t.rated()},
              {"local", t.local()},
              {"status", status_name(t.status())},
              {"version", t.version()},
              {"seats", seats_view(t)},
              {"game", game_view(t)},
              {"summary", table_summary(t)},
              {"rematch", rematch_view(t)}};
}

}  // namespace ur::server
