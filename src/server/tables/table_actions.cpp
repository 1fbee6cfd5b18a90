// TableModel (table_model.h): the game played at a table — throws, moves, resigning, leaving,
// the idle clock's timeout, the computer seat's actions, undo at pass-and-play tables, hints
// and rematches. Each action checks who asks and the engine, then changes the table, bumps the
// version and appends the events it produced (docs/protocol.md, the `table` message).
#include <algorithm>

#include "server/server_errc.h"
#include "server/tables/table_model.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace {

Error error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
}

}  // namespace

std::optional<Error> TableModel::check_seated_turn(const Actor& a, bool want_throw) const {
  int seat = seat_of(a.key);
  if (local_ && seat && seat_to_act()) seat = seat_to_act();  // both seats are theirs
  if (!seat) return error(ServerErrc::kNotSeated, "only the players at this table can do that");
  if (seats_[seat - 1].left) return error(ServerErrc::kLeftTable, "you left this table");
  if (status_ == TableStatus::kWaiting)
    return error(ServerErrc::kNotStarted, "the game starts when the second player sits down");
  if (status_ != TableStatus::kPlaying || game_.is_over())
    return error(ServerErrc::kGameOver, "the game is over");
  if (seat != seat_to_act()) return error(ServerErrc::kNotYourTurn, "it is not your turn");
  if (want_throw && !game_.awaiting_throw())
    return error(ServerErrc::kMoveExpected, "the dice are thrown: pick a move");
  if (!want_throw && !game_.awaiting_decision())
    return error(ServerErrc::kRollExpected, "roll the dice first");
  return std::nullopt;
}

void TableModel::throw_dice(const UnitRandom& random, TableEvents& events) {
  int seat = seat_number(game_.to_act());
  ChanceList outcomes = game_.chance_outcomes();
  double u = random(), acc = 0;
  int k = outcomes.items[outcomes.size - 1].outcome;
  for (const ChanceOutcome& o : outcomes) {
    acc += o.probability;
    if (u < acc) {
      k = o.outcome;
      break;
    }
  }
  Status st = game_.apply_throw(k);
  (void)st;  // the outcome came from chance_outcomes(): always legal
  const DiceModel& dice = game_.rules().dice;
  RollEvent ev{seat, k, dice.dice, std::nullopt,
               !game_.events().empty() && game_.events().back().passed};
  if (k >= 0 && k < static_cast<int>(dice.by_k.size())) ev.move = dice.by_k[k].move;
  events.push_back(ev);
  bump();
  after_game_change(events);
}

void TableModel::apply_checked_move(const Move& m, TableEvents& events) {
  int seat = seat_number(game_.to_act());
  Status st = game_.apply_move(m);
  (void)st;  // m came from legal_moves()
  events.push_back(MoveEvent{seat, m, game_.last_effects()});
  bump();
  after_game_change(events);
}

std::optional<Error> TableModel::roll(const Actor& a, const UnitRandom& random,
                                      TableEvents& events) {
  if (auto e = check_seated_turn(a, true)) return e;
  throw_dice(random, events);
  return std::nullopt;
}

std::optional<Error> TableModel::move(const Actor& a, int from, int to, MoveKind kind,
                                      TableEvents& events) {
  if (auto e = check_seated_turn(a, false)) return e;
  for (const Move& m : game_.legal_moves())
    if (m.from == from && m.to == to && m.kind == kind) {
      apply_checked_move(m, events);
      return std::nullopt;
    }
  return error(Errc::kIllegalMove, "that move is not legal now");
}

std::optional<Error> TableModel::check_hint(const Actor& a) const {
  const bool bot_game = seats_[0].kind == SeatKind::kBot || seats_[1].kind == SeatKind::kBot;
  if (seat_of(a.key) && (rated_ || !bot_game))
    return error(ServerErrc::kHintsUnavailable,
                 "hints are given only in unrated games against the computer");
  return check_seated_turn(a, false);
}

void TableModel::count_hint(int seat, TableEvents& events) {
  ++hints_[seat - 1];
  bump();
  events.push_back(HintEvent{seat, hints_[seat - 1]});
}

std::optional<Error> TableModel::bot_roll(const UnitRandom& random, TableEvents& events) {
  if (!bot_to_act() || !game_.awaiting_throw())
    return error(ServerErrc::kNotYourTurn, "the computer does not throw now");
  throw_dice(random, events);
  return std::nullopt;
}

std::optional<Error> TableModel::bot_move(const Move& m, TableEvents& events) {
  if (!bot_to_act() || !game_.awaiting_decision())
    return error(ServerErrc::kNotYourTurn, "the computer does not move now");
  for (const Move& legal : game_.legal_moves())
    if (legal == m) {
      apply_checked_move(legal, events);
      return std::nullopt;
    }
  return error(Errc::kIllegalMove, "the computer's move is not legal");
}

std::optional<Error> TableModel::resign(const Actor& a, TableEvents& events) {
  int seat = seat_of(a.key);
  if (local_ && seat && seat_to_act()) seat = seat_to_act();  // the side whose turn it is
  if (!seat) return error(ServerErrc::kNotSeated, "only the players at this table can resign");
  if (seats_[seat - 1].left) return error(ServerErrc::kLeftTable, "you left this table");
  if (status_ == TableStatus::kWaiting)
    return error(ServerErrc::kNotStarted, "the game has not started: leave the table instead");
  if (status_ != TableStatus::kPlaying) return error(ServerErrc::kGameOver, "the game is over");
  Status st = game_.resign(seat_player(seat));
  if (!st.ok()) return error(ServerErrc::kGameOver, st.error);
  events.push_back(ResignEvent{seat});
  bump();
  after_game_change(events);
  return std::nullopt;
}

std::optional<Error> TableModel::leave(const Actor& a, TableEvents& events) {
  int seat = seat_of(a.key);
  if (!seat) return error(ServerErrc::kNotSeated, "you have no seat at this table");
  if (seats_[seat - 1].left) return error(ServerErrc::kLeftTable, "you already left this table");
  if (status_ == TableStatus::kClosed)
    return error(ServerErrc::kTableClosed, "this table is closed");
  if (local_) {
    // Both seats are the same people's: the table closes; a game in progress is lost by the side
    // whose turn it was.
    int loser = seat_to_act() ? seat_to_act() : seat;
    seats_[0].left = seats_[1].left = true;
    events.push_back(LeftEvent{loser});
    bump();
    if (status_ == TableStatus::kPlaying) {
      Status st = game_.end_by(seat_player(loser), EndReason::kLeft);
      (void)st;
      after_game_change(events);
    }
    status_ = TableStatus::kClosed;
    events.push_back(ClosedEvent{});
    return std::nullopt;
  }
  seats_[seat - 1].left = true;
  events.push_back(LeftEvent{seat});
  bump();
  if (status_ == TableStatus::kWaiting) {
    status_ = TableStatus::kClosed;  // nobody else ever sat down
    invite_.clear();
    events.push_back(ClosedEvent{});
    return std::nullopt;
  }
  if (status_ == TableStatus::kPlaying) {
    Status st = game_.end_by(seat_player(seat), EndReason::kLeft);
    (void)st;
    after_game_change(events);
  }
  const Seat& other = seats_[2 - seat];
  if (status_ == TableStatus::kFinished && (other.left || other.kind == SeatKind::kBot)) {
    status_ = TableStatus::kClosed;
    events.push_back(ClosedEvent{});
  }
  return std::nullopt;
}

std::optional<Error> TableModel::abandon(bool clock_runs, TableEvents& events) {
  if (!live()) return error(ServerErrc::kNotPlaying, "the table is not live");
  bool computer = seats_[0].kind == SeatKind::kBot || seats_[1].kind == SeatKind::kBot;
  if (status_ == TableStatus::kPlaying && !local_ && !computer && clock_runs)
    return error(ServerErrc::kNotPlaying, "the idle clock decides this game");
  status_ = TableStatus::kClosed;
  invite_.clear();
  events.push_back(ClosedEvent{true});
  bump();
  return std::nullopt;
}

std::optional<Error> TableModel::time_out(TableEvents& events) {
  int seat = seat_to_act();
  if (!seat || local_ || seats_[seat - 1].kind == SeatKind::kBot)
    return error(ServerErrc::kNotPlaying, "nobody is on the clock");
  Status st = game_.end_by(seat_player(seat), EndReason::kTimeout);
  if (!st.ok()) return error(ServerErrc::kGameOver, st.error);
  events.push_back(TimeoutEvent{seat});
  bump();
  after_game_change(events);
  return std::nullopt;
}

std::optional<Error> TableModel::undo(const Actor& a, TableEvents& events) {
  if (!seat_of(a.key))
    return error(ServerErrc::kNotSeated, "only the players at this table can do that");
  if (!local_)
    return error(ServerErrc::kNotLocal,
                 "only a pass-and-play table (two players on one device) has undo");
  if (status_ != TableStatus::kPlaying || game_.is_over())
    return error(ServerErrc::kGameOver, "the game is over");
  const std::vector<GameEvent>& log = game_.events();
  auto last = std::find_if(log.rbegin(), log.rend(),
                           [](const GameEvent& e) { return e.type == GameEvent::Type::kMove; });
  if (last == log.rend()) return error(ServerErrc::kNothingToUndo, "no move has been made yet");
  const int mover = seat_number(last->player);
  const std::size_t keep = log.size() - static_cast<std::size_t>(last - log.rbegin()) - 1;
  const std::size_t undone = log.size() - keep;
  while (game_.events().size() > keep)
    if (!game_.undo()) break;
  record_.clear();  // the stored events are rebuilt from what is left
  recorded_ = 0;
  record_new_events();
  snapshot_events_ = kNoSnapshot;  // appended rows cannot take events back: the next save rewrites
  events.push_back(UndoEvent{mover, undone});
  bump();
  return std::nullopt;
}

std::optional<Error> TableModel::rematch(const Actor& a, bool accept, TableEvents& events) {
  int seat = seat_of(a.key);
  if (!seat) return error(ServerErrc::kNotSeated, "only the players at this table can do that");
  if (seats_[seat - 1].left) return error(ServerErrc::kLeftTable, "you left this table");
  if (local_)
    return error(ServerErrc::kNoRematch,
                 "a pass-and-play game starts again from a new table at once");
  if (seats_[0].kind == SeatKind::kBot || seats_[1].kind == SeatKind::kBot)
    return error(ServerErrc::kNoRematch,
                 "against the computer a new game starts at once: create a table");
  if (status_ != TableStatus::kFinished)
    return error(ServerErrc::kNoRematch, "the game is not over yet");
  if (seats_[2 - seat].left)
    return error(ServerErrc::kNoRematch, "your opponent has left the table");
  if (!rematch_.table.empty())
    return error(ServerErrc::kNoRematch, "the rematch has started already");
  if (accept) {
    if (rematch_.offers[seat - 1]) return std::nullopt;  // offered already: nothing changes
    rematch_.offers[seat - 1] = true;
    rematch_.declined = 0;
    events.push_back(RematchOfferEvent{seat});
  } else {
    if (!rematch_.offers[0] && !rematch_.offers[1]) return std::nullopt;  // nothing to decline
    rematch_.offers = {false, false};
    rematch_.declined = seat;
    events.push_back(RematchDeclineEvent{seat});
  }
  bump();
  return std::nullopt;
}

std::array<Actor, 2> TableModel::rematch_players() const {
  auto actor = [&](int i) {
    const Seat& s = seats_[i];
    return Actor{s.key, s.user_id, s.name, has_ratings_ ? rating_after_[i] : s.rating};
  };
  return {actor(1), actor(0)};  // colours swapped
}

void TableModel::start_rematch(const std::string& table_id, TableEvents& events) {
  rematch_.table = table_id;
  events.push_back(RematchEvent{table_id});
  bump();
}

void TableModel::after_game_change(TableEvents& events) {
  record_new_events();
  if (status_ == TableStatus::kPlaying && game_.is_over()) finish(events);
}

void TableModel::finish(TableEvents& events) {
  status_ = TableStatus::kFinished;
  finished_at_ = unix_now();
  events.push_back(GameOverEvent{seat_number(*game_.winner()), game_.end_reason()});
}

}  // namespace ur::server
