#include "server/table_model.h"

#include <sodium.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "ai/agent.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "rules/rule_set.h"
#include "rules/text.h"
#include "server/accounts.h"

namespace ur::server {
namespace {

TableError error(std::string code, std::string message) {
  return TableError{std::move(code), std::move(message)};
}

int seat_number(Player p) {
  return index_of(p) + 1;
}
Player seat_player(int seat) {
  return seat == 1 ? Player::kLight : Player::kDark;
}

const char* kind_name(SeatKind k) {
  switch (k) {
    case SeatKind::kUser:
      return "user";
    case SeatKind::kGuest:
      return "guest";
    case SeatKind::kBot:
      return "bot";
    case SeatKind::kEmpty:
      break;
  }
  return "empty";
}

std::optional<SeatKind> parse_kind(std::string_view s) {
  for (SeatKind k : {SeatKind::kEmpty, SeatKind::kUser, SeatKind::kGuest, SeatKind::kBot})
    if (s == kind_name(k)) return k;
  return std::nullopt;
}

std::optional<TableStatus> parse_status(std::string_view s) {
  for (TableStatus t :
       {TableStatus::kWaiting, TableStatus::kPlaying, TableStatus::kFinished, TableStatus::kClosed})
    if (s == status_name(t)) return t;
  return std::nullopt;
}

Seat seat_for(const Actor& a) {
  Seat s;
  s.kind = a.is_user() ? SeatKind::kUser : SeatKind::kGuest;
  s.key = a.key;
  s.user_id = a.user_id;
  s.name = a.name;
  s.rating = a.rating;
  return s;
}

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

// The event log: tokens separated by spaces. "t<k>" a throw of k; "m<from>.<to>" a move,
// "y<from>.<to>" / "n<from>.<to>" the boxed rosette award taken / declined; "x<reason><L|D>" the
// game ended by a resignation, timeout or leaving (EndReason as a number) of that player.
std::string event_token(const GameEvent& ev) {
  switch (ev.type) {
    case GameEvent::Type::kThrow:
      return "t" + std::to_string(ev.outcome);
    case GameEvent::Type::kMove: {
      char k = ev.move.kind == MoveKind::kAwardYes  ? 'y'
               : ev.move.kind == MoveKind::kAwardNo ? 'n'
                                                    : 'm';
      return k + std::to_string(ev.move.from) + "." + std::to_string(ev.move.to);
    }
    case GameEvent::Type::kResign:
      return "x" + std::to_string(ev.outcome) + (ev.player == Player::kLight ? "L" : "D");
  }
  return "?";
}

// Replays a log into `game`; an error message naming the bad token, or "".
std::string replay_log(Game& game, std::string_view log) {
  std::size_t n = 0;
  while (!log.empty()) {
    auto space = log.find(' ');
    std::string_view tok = log.substr(0, space);
    log = space == std::string_view::npos ? std::string_view() : log.substr(space + 1);
    ++n;
    auto bad = [&] { return "event " + std::to_string(n) + " (" + std::string(tok) + ")"; };
    if (tok.size() < 2) return bad();
    std::string body(tok.substr(1));
    try {
      if (tok[0] == 't') {
        if (!game.apply_throw(std::stoi(body)).ok()) return bad();
      } else if (tok[0] == 'm' || tok[0] == 'y' || tok[0] == 'n') {
        auto dot = body.find('.');
        if (dot == std::string::npos) return bad();
        int from = std::stoi(body.substr(0, dot)), to = std::stoi(body.substr(dot + 1));
        MoveKind kind = tok[0] == 'y'   ? MoveKind::kAwardYes
                        : tok[0] == 'n' ? MoveKind::kAwardNo
                                        : MoveKind::kMove;
        bool applied = false;
        for (const Move& m : game.legal_moves())
          if (m.from == from && m.to == to && m.kind == kind) {
            applied = game.apply_move(m).ok();
            break;
          }
        if (!applied) return bad();
      } else if (tok[0] == 'x') {
        Player p = body.back() == 'L' ? Player::kLight : Player::kDark;
        auto why = static_cast<EndReason>(std::stoi(body.substr(0, body.size() - 1)));
        Status st = why == EndReason::kResign ? game.resign(p) : game.end_by(p, why);
        if (!st.ok()) return bad();
      } else {
        return bad();
      }
    } catch (const std::exception&) {
      return bad();
    }
  }
  return "";
}

}  // namespace

void TableModel::log_events() {
  const auto& events = game_.events();
  for (; logged_ < events.size(); ++logged_) {
    if (!log_.empty()) log_ += ' ';
    log_ += event_token(events[logged_]);
  }
}

const char* status_name(TableStatus s) {
  switch (s) {
    case TableStatus::kWaiting:
      return "waiting";
    case TableStatus::kPlaying:
      return "playing";
    case TableStatus::kFinished:
      return "finished";
    case TableStatus::kClosed:
      return "closed";
  }
  return "closed";
}

bool is_table_id(std::string_view s) {
  return s.size() == 16 && s.find_first_not_of("0123456789abcdef") == std::string_view::npos;
}

std::optional<MoveKind> parse_move_kind(std::string_view s) {
  if (s == "move") return MoveKind::kMove;
  if (s == "award_yes") return MoveKind::kAwardYes;
  if (s == "award_no") return MoveKind::kAwardNo;
  return std::nullopt;
}

const char* move_kind_name(MoveKind k) {
  switch (k) {
    case MoveKind::kMove:
      return "move";
    case MoveKind::kAwardYes:
      return "award_yes";
    case MoveKind::kAwardNo:
      return "award_no";
  }
  return "move";
}

Actor actor_of(const Identity& id, std::uint64_t connection_id) {
  Actor a;
  if (id.user) {
    a.key = "u:" + std::to_string(id.user->id);
    a.user_id = id.user->id;
    a.name = id.user->username;
    a.rating = id.user->rating;
  } else {
    a.key = id.guest_key.empty() ? "c:" + std::to_string(connection_id) : "g:" + id.guest_key;
    a.name = id.guest_id;
  }
  return a;
}

TableModel::TableModel(std::string id, const RuleSet& rules)
    : id_(std::move(id)), rules_(rules.to_string()), game_(std::make_shared<const Engine>(rules)) {}

std::variant<TableModel, TableError> TableModel::create(std::string id, const TableOptions& o,
                                                        const Actor& creator, std::int64_t now) {
  auto parsed = parse_rule_set(o.rules);
  if (auto* e = std::get_if<RuleSetError>(&parsed))
    return error("bad_rules", "rules: " + e->reason);
  const RuleSet& rules = std::get<RuleSet>(parsed);
  if (o.seat != 1 && o.seat != 2) return error("bad_request", "seat must be 1 or 2");
  if (o.rated && !creator.is_user())
    return error("login_required", "rated tables need an account: log in or register");
  if (o.rated && !o.bot_level.empty())
    return error("bad_request", "games against the computer are not rated");
  TableModel t(std::move(id), rules);
  t.is_public_ = o.is_public;
  t.rated_ = o.rated;
  t.owner_ = creator.key;
  t.created_at_ = now;
  if (o.local) {
    if (o.rated) return error("bad_request", "pass-and-play games are not rated");
    if (o.is_public) return error("bad_request", "pass-and-play tables are never public");
    if (!o.bot_level.empty())
      return error("bad_request", "a pass-and-play table has no computer seat");
    static const char* const kSides[2] = {"Light", "Dark"};
    for (int i = 0; i < 2; ++i) {
      std::string name(trim_blanks(o.names[i]));
      if (name.empty()) name = kSides[i];
      bool printable = std::none_of(name.begin(), name.end(), [](char ch) {
        return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
      });
      auto chars = std::count_if(name.begin(), name.end(), [](char ch) {
        return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;  // UTF-8 lead bytes
      });
      if (chars > 24 || !printable)
        return error("bad_request",
                     "names: each name is 1 to 24 characters, no control characters");
      t.seats_[i] = seat_for(creator);
      t.seats_[i].name = std::move(name);
    }
    t.local_ = true;
    t.status_ = TableStatus::kPlaying;
    t.started_at_ = now;
    return t;
  }
  t.seats_[o.seat - 1] = seat_for(creator);
  if (!o.bot_level.empty()) {
    if (!ai::is_level(o.bot_level))
      return error("bad_request", "level must be beginner, easy, medium, hard or perfect");
    Seat& bot = t.seats_[2 - o.seat];
    bot.kind = SeatKind::kBot;
    bot.key = "bot";
    bot.level = o.bot_level;
    // The perfect level without a solved table plays as hard (ai::level_note): the name says so.
    bot.name = ai::level_note(o.bot_level, rules, o.tables).empty()
                   ? "Computer (" + o.bot_level + ")"
                   : "Computer (hard: no perfect table)";
    t.status_ = TableStatus::kPlaying;
    t.started_at_ = now;
  } else {
    t.invite_ = random_token_hex(16);
  }
  return t;
}

std::variant<TableModel, TableError> TableModel::create_match(std::string id, std::string rules,
                                                              bool rated, const Actor& light,
                                                              const Actor& dark, std::int64_t now,
                                                              bool is_public) {
  auto parsed = parse_rule_set(rules);
  if (auto* e = std::get_if<RuleSetError>(&parsed))
    return error("bad_rules", "rules: " + e->reason);
  TableModel t(std::move(id), std::get<RuleSet>(parsed));
  t.rated_ = rated && light.is_user() && dark.is_user();
  t.is_public_ = is_public;
  t.owner_ = light.key;
  t.created_at_ = t.started_at_ = now;
  t.seats_ = {seat_for(light), seat_for(dark)};
  t.status_ = TableStatus::kPlaying;
  return t;
}

int TableModel::seat_of(std::string_view key) const {
  for (int s = 0; s < 2; ++s)
    if (!seats_[s].empty() && seats_[s].key == key) return s + 1;
  return 0;
}

int TableModel::seat_to_act() const {
  if (status_ != TableStatus::kPlaying || game_.is_over()) return 0;
  return seat_number(game_.to_act());
}

bool TableModel::bot_to_act() const {
  int s = seat_to_act();
  return s != 0 && seats_[s - 1].kind == SeatKind::kBot;
}

std::optional<TableError> TableModel::join(const Actor& a, std::string_view invite) {
  int mine = seat_of(a.key);
  if (mine && seats_[mine - 1].left)
    return error("left_table", "you left this table and cannot come back");
  if (mine) return error("already_seated", "you already have a seat at this table");
  if (status_ != TableStatus::kWaiting) return error("table_full", "this table's seats are taken");
  if (invite_.empty() || invite.size() != invite_.size() ||
      sodium_memcmp(invite.data(), invite_.data(), invite_.size()) != 0)
    return error("bad_invite", "this invite link is not valid (it may have been used already)");
  if (rated_ && !a.is_user())
    return error("login_required", "this table is rated: log in or register to take the seat");
  int open = seats_[0].empty() ? 0 : 1;
  seats_[open] = seat_for(a);
  invite_.clear();
  status_ = TableStatus::kPlaying;
  started_at_ = unix_now();
  bump();
  return std::nullopt;
}

std::optional<TableError> TableModel::set_public(const Actor& a, bool is_public) {
  if (a.key != owner_) return error("not_owner", "only the table's owner can change that");
  if (status_ == TableStatus::kClosed) return error("table_closed", "this table is closed");
  if (local_ && is_public)
    return error("local_table", "a pass-and-play table is never public: nobody else can watch it");
  if (is_public_ == is_public) return std::nullopt;
  is_public_ = is_public;
  bump();
  return std::nullopt;
}

std::optional<TableError> TableModel::check_seated_turn(const Actor& a, bool want_throw) const {
  int seat = seat_of(a.key);
  if (local_ && seat && seat_to_act()) seat = seat_to_act();  // both seats are theirs
  if (!seat) return error("not_seated", "only the players at this table can do that");
  if (seats_[seat - 1].left) return error("left_table", "you left this table");
  if (status_ == TableStatus::kWaiting)
    return error("not_started", "the game starts when the second player sits down");
  if (status_ != TableStatus::kPlaying || game_.is_over())
    return error("game_over", "the game is over");
  if (seat != seat_to_act()) return error("not_your_turn", "it is not your turn");
  if (want_throw && !game_.awaiting_throw())
    return error("move_expected", "the dice are thrown: pick a move");
  if (!want_throw && !game_.awaiting_decision())
    return error("roll_expected", "roll the dice first");
  return std::nullopt;
}

void TableModel::throw_dice(const UnitRandom& random, json& events) {
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
  json ev{{"kind", "roll"}, {"seat", seat}, {"value", k}, {"dice", dice.dice}};
  if (k >= 0 && k < static_cast<int>(dice.by_k.size())) ev["move"] = dice.by_k[k].move;
  ev["passed"] = !game_.events().empty() && game_.events().back().passed;
  events.push_back(std::move(ev));
  bump();
  after_game_change(events);
}

void TableModel::apply_checked_move(const Move& m, json& events) {
  int seat = seat_number(game_.to_act());
  Status st = game_.apply_move(m);
  (void)st;  // m came from legal_moves()
  const MoveEffects& fx = game_.last_effects();
  json ev = move_json(m);
  ev["kind"] = "move";
  ev["move_kind"] = move_kind_name(m.kind);
  ev["seat"] = seat;
  ev["captures"] = fx.captures;
  ev["rosettes"] = fx.rosettes;
  ev["borne_off"] = fx.borne_off;
  ev["extra_turn"] = fx.extra;
  ev["award_pending"] = fx.award;
  ev["forfeit_pending"] = fx.forfeit;
  ev["doubled"] = fx.doubled;
  ev["bounced"] = fx.bounces > 0;
  events.push_back(std::move(ev));
  bump();
  after_game_change(events);
}

std::optional<TableError> TableModel::roll(const Actor& a, const UnitRandom& random, json& events) {
  if (auto e = check_seated_turn(a, true)) return e;
  throw_dice(random, events);
  return std::nullopt;
}

std::optional<TableError> TableModel::move(const Actor& a, int from, int to, MoveKind kind,
                                           json& events) {
  if (auto e = check_seated_turn(a, false)) return e;
  for (const Move& m : game_.legal_moves())
    if (m.from == from && m.to == to && m.kind == kind) {
      apply_checked_move(m, events);
      return std::nullopt;
    }
  return error("illegal_move", "that move is not legal now");
}

std::optional<TableError> TableModel::check_hint(const Actor& a) const {
  const bool bot_game = seats_[0].kind == SeatKind::kBot || seats_[1].kind == SeatKind::kBot;
  if (seat_of(a.key) && (rated_ || !bot_game))
    return error("hints_unavailable", "hints are given only in unrated games against the computer");
  return check_seated_turn(a, false);
}

void TableModel::count_hint(int seat, json& events) {
  ++hints_[seat - 1];
  bump();
  events.push_back(json{{"kind", "hint"}, {"seat", seat}, {"hints", hints_[seat - 1]}});
}

std::optional<TableError> TableModel::bot_roll(const UnitRandom& random, json& events) {
  if (!bot_to_act() || !game_.awaiting_throw())
    return error("not_your_turn", "the computer does not throw now");
  throw_dice(random, events);
  return std::nullopt;
}

std::optional<TableError> TableModel::bot_move(const Move& m, json& events) {
  if (!bot_to_act() || !game_.awaiting_decision())
    return error("not_your_turn", "the computer does not move now");
  for (const Move& legal : game_.legal_moves())
    if (legal == m) {
      apply_checked_move(legal, events);
      return std::nullopt;
    }
  return error("illegal_move", "the computer's move is not legal");
}

std::optional<TableError> TableModel::resign(const Actor& a, json& events) {
  int seat = seat_of(a.key);
  if (local_ && seat && seat_to_act()) seat = seat_to_act();  // the side whose turn it is
  if (!seat) return error("not_seated", "only the players at this table can resign");
  if (seats_[seat - 1].left) return error("left_table", "you left this table");
  if (status_ == TableStatus::kWaiting)
    return error("not_started", "the game has not started: leave the table instead");
  if (status_ != TableStatus::kPlaying) return error("game_over", "the game is over");
  Status st = game_.resign(seat_player(seat));
  if (!st.ok()) return error("game_over", st.error);
  events.push_back(json{{"kind", "resign"}, {"seat", seat}});
  bump();
  after_game_change(events);
  return std::nullopt;
}

std::optional<TableError> TableModel::leave(const Actor& a, json& events) {
  int seat = seat_of(a.key);
  if (!seat) return error("not_seated", "you have no seat at this table");
  if (seats_[seat - 1].left) return error("left_table", "you already left this table");
  if (status_ == TableStatus::kClosed) return error("table_closed", "this table is closed");
  if (local_) {
    // Both seats are the same people's: the table closes; a game in progress is lost by the side
    // whose turn it was.
    int loser = seat_to_act() ? seat_to_act() : seat;
    seats_[0].left = seats_[1].left = true;
    events.push_back(json{{"kind", "left"}, {"seat", loser}});
    bump();
    if (status_ == TableStatus::kPlaying) {
      Status st = game_.end_by(seat_player(loser), EndReason::kLeft);
      (void)st;
      after_game_change(events);
    }
    status_ = TableStatus::kClosed;
    events.push_back(json{{"kind", "closed"}});
    return std::nullopt;
  }
  seats_[seat - 1].left = true;
  events.push_back(json{{"kind", "left"}, {"seat", seat}});
  bump();
  if (status_ == TableStatus::kWaiting) {
    status_ = TableStatus::kClosed;  // nobody else ever sat down
    invite_.clear();
    events.push_back(json{{"kind", "closed"}});
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
    events.push_back(json{{"kind", "closed"}});
  }
  return std::nullopt;
}

std::optional<TableError> TableModel::time_out(json& events) {
  int seat = seat_to_act();
  if (!seat || local_ || seats_[seat - 1].kind == SeatKind::kBot)
    return error("not_playing", "nobody is on the clock");
  Status st = game_.end_by(seat_player(seat), EndReason::kTimeout);
  if (!st.ok()) return error("game_over", st.error);
  events.push_back(json{{"kind", "timeout"}, {"seat", seat}});
  bump();
  after_game_change(events);
  return std::nullopt;
}

std::optional<TableError> TableModel::undo(const Actor& a, json& events) {
  if (!seat_of(a.key)) return error("not_seated", "only the players at this table can do that");
  if (!local_)
    return error("not_local", "only a pass-and-play table (two players on one device) has undo");
  if (status_ != TableStatus::kPlaying || game_.is_over())
    return error("game_over", "the game is over");
  const std::vector<GameEvent>& log = game_.events();
  auto last = std::find_if(log.rbegin(), log.rend(),
                           [](const GameEvent& e) { return e.type == GameEvent::Type::kMove; });
  if (last == log.rend()) return error("nothing_to_undo", "no move has been made yet");
  const int mover = seat_number(last->player);
  const std::size_t keep = log.size() - static_cast<std::size_t>(last - log.rbegin()) - 1;
  const std::size_t undone = log.size() - keep;
  while (game_.events().size() > keep)
    if (!game_.undo()) break;
  log_.clear();  // the event log is rebuilt from what is left
  logged_ = 0;
  log_events();
  events.push_back(json{{"kind", "undo"}, {"seat", mover}, {"undone", undone}});
  bump();
  return std::nullopt;
}

std::optional<TableError> TableModel::rematch(const Actor& a, bool accept, json& events) {
  int seat = seat_of(a.key);
  if (!seat) return error("not_seated", "only the players at this table can do that");
  if (seats_[seat - 1].left) return error("left_table", "you left this table");
  if (local_)
    return error("no_rematch", "a pass-and-play game starts again from a new table at once");
  if (seats_[0].kind == SeatKind::kBot || seats_[1].kind == SeatKind::kBot)
    return error("no_rematch", "against the computer a new game starts at once: create a table");
  if (status_ != TableStatus::kFinished) return error("no_rematch", "the game is not over yet");
  if (seats_[2 - seat].left) return error("no_rematch", "your opponent has left the table");
  if (!rematch_table_.empty()) return error("no_rematch", "the rematch has started already");
  if (accept) {
    if (rematch_offers_[seat - 1]) return std::nullopt;  // offered already: nothing changes
    rematch_offers_[seat - 1] = true;
    rematch_declined_ = 0;
    events.push_back(json{{"kind", "rematch_offer"}, {"seat", seat}});
  } else {
    if (!rematch_offers_[0] && !rematch_offers_[1]) return std::nullopt;  // nothing to decline
    rematch_offers_ = {false, false};
    rematch_declined_ = seat;
    events.push_back(json{{"kind", "rematch_decline"}, {"seat", seat}});
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

void TableModel::start_rematch(const std::string& table_id, json& events) {
  rematch_table_ = table_id;
  events.push_back(json{{"kind", "rematch"}, {"table", table_id}});
  bump();
}

json TableModel::rematch_json() const {
  if (!rematch_offers_[0] && !rematch_offers_[1] && !rematch_declined_ && rematch_table_.empty())
    return nullptr;
  json offers = json::array();
  for (int i = 0; i < 2; ++i)
    if (rematch_offers_[i]) offers.push_back(i + 1);
  return json{{"offers", std::move(offers)},
              {"declined", rematch_declined_ ? json(rematch_declined_) : json(nullptr)},
              {"table", rematch_table_.empty() ? json(nullptr) : json(rematch_table_)}};
}

void TableModel::after_game_change(json& events) {
  log_events();
  if (status_ == TableStatus::kPlaying && game_.is_over()) finish(events);
}

void TableModel::finish(json& events) {
  status_ = TableStatus::kFinished;
  finished_at_ = unix_now();
  events.push_back(json{{"kind", "game_over"},
                        {"winner", seat_number(*game_.winner())},
                        {"reason", end_reason_name(game_.end_reason())}});
}

TableModel::ActionCheck TableModel::check_action(const Actor& a, std::string_view action_id,
                                                 std::int64_t based_on) const {
  ActionCheck out;
  for (const RecentAction& r : recent_)
    if (r.key == a.key && r.id == action_id) {
      out.duplicate = r.answer;
      return out;
    }
  if (based_on != version_)
    out.error = error("stale_version", "the table has changed since; here is its current state");
  return out;
}

void TableModel::remember_action(const Actor& a, std::string action_id, json answer) {
  recent_.push_back(RecentAction{a.key, std::move(action_id), std::move(answer)});
  while (recent_.size() > kRecentActions) recent_.pop_front();
}

void TableModel::set_ratings(const std::array<double, 2>& before,
                             const std::array<double, 2>& after) {
  rating_before_ = before;
  rating_after_ = after;
  has_ratings_ = true;
}

json TableModel::summary() const {
  if (!game_.is_over()) return nullptr;
  json s{{"winner", seat_number(*game_.winner())},
         {"reason", end_reason_name(game_.end_reason())},
         {"turns", game_.turn_number()}};
  json seats = json::array();
  for (int i = 0; i < 2; ++i) {
    Player p = i == 0 ? Player::kLight : Player::kDark;
    json seat = stats_json(game_.stats(p));
    seat["seat"] = i + 1;
    seat["name"] = seats_[i].name;
    if (has_ratings_) {
      seat["rating_before"] = std::lround(rating_before_[i]);
      seat["rating_after"] = std::lround(rating_after_[i]);
      seat["rating_change"] = std::lround(rating_after_[i]) - std::lround(rating_before_[i]);
    }
    if (game_.rules().stake > 0) seat["balance"] = game_.balance(p);
    seat["hints"] = hints_[i];
    seats.push_back(std::move(seat));
  }
  s["seats"] = std::move(seats);
  if (game_.rules().scored_win) s["score"] = game_.win_score();
  if (game_.rules().stake > 0) s["kitty"] = game_.kitty();
  return s;
}

json TableModel::snapshot() const {
  const Engine& e = game_.engine();
  const Position& pos = game_.position();
  json seats = json::array();
  for (int i = 0; i < 2; ++i) {
    const Seat& s = seats_[i];
    json j{{"seat", i + 1}, {"side", i == 0 ? "light" : "dark"}, {"kind", kind_name(s.kind)}};
    if (!s.empty()) {
      j["name"] = s.name;
      j["left"] = s.left;
      if (s.kind == SeatKind::kUser) {
        // After a rated game: the rating it produced, and the change (the summary has both).
        if (has_ratings_) {
          j["rating"] = std::lround(rating_after_[i]);
          j["rating_change"] = std::lround(rating_after_[i]) - std::lround(rating_before_[i]);
        } else {
          j["rating"] = std::lround(s.rating);
        }
      }
      if (s.kind == SeatKind::kBot) j["level"] = s.level;
      j["hints"] = hints_[i];
    }
    seats.push_back(std::move(j));
  }
  json pieces = json::array();
  for (Player p : {Player::kLight, Player::kDark}) {
    json counts = json::array();
    for (int i = 0; i <= e.off_index(); ++i) counts.push_back(pos.count[index_of(p)][i]);
    pieces.push_back(json{{"seat", seat_number(p)},
                          {"pool", pos.pool[index_of(p)]},
                          {"counts", std::move(counts)},
                          {"stats", stats_json(game_.stats(p))}});
  }
  json moves = json::array();
  if (status_ == TableStatus::kPlaying && game_.awaiting_decision())
    for (const Move& m : game_.legal_moves()) moves.push_back(move_json(m));
  json g{{"position", to_position_string(e, pos)},
         {"phase", phase_name(pos)},
         {"to_act", seat_to_act() ? json(seat_to_act()) : json(nullptr)},
         {"roll", pos.phase == Phase::kAwaitingMove ? json(pos.roll) : json(nullptr)},
         {"legal_moves", std::move(moves)},
         {"pieces", std::move(pieces)},
         {"turn", game_.turn_number()},
         {"events", game_.events().size()}};
  if (game_.rules().stake > 0) g["kitty"] = game_.kitty();
  if (local_) {
    const auto& log = game_.events();
    g["can_undo"] = status_ == TableStatus::kPlaying && !game_.is_over() &&
                    std::any_of(log.begin(), log.end(), [](const GameEvent& ev) {
                      return ev.type == GameEvent::Type::kMove;
                    });
  }
  return json{{"id", id_},
              {"rules", rules_},
              {"rules_name", game_.rules().name},
              {"public", is_public_},
              {"rated", rated_},
              {"local", local_},
              {"status", status_name(status_)},
              {"version", version_},
              {"seats", std::move(seats)},
              {"game", std::move(g)},
              {"summary", summary()},
              {"rematch", rematch_json()}};
}

MatchRow TableModel::match_row(std::int64_t now) const {
  MatchRow m;
  m.id = id_;
  m.rules = rules_;
  m.rated = rated_;
  for (int i = 0; i < 2; ++i) {
    // A pass-and-play game is nobody's result: its replay and review open by id only.
    m.user_ids[i] = seats_[i].kind == SeatKind::kUser && !local_ ? seats_[i].user_id : 0;
    m.names[i] = seats_[i].name;
  }
  m.winner = game_.winner() ? seat_number(*game_.winner()) : 0;
  m.reason = end_reason_name(game_.end_reason());
  m.summary = summary().dump();
  m.record = to_record(game_).dump();
  m.started_at = started_at_;
  m.finished_at = finished_at_ ? finished_at_ : now;
  return m;
}

TableRow TableModel::to_row(std::int64_t now) const {
  json seats = json::array();
  for (const Seat& s : seats_)
    seats.push_back(json{{"kind", kind_name(s.kind)},
                         {"key", s.key},
                         {"user_id", s.user_id},
                         {"name", s.name},
                         {"rating", s.rating},
                         {"level", s.level},
                         {"left", s.left}});
  json recent = json::array();
  for (const RecentAction& r : recent_)
    recent.push_back(json{{"key", r.key}, {"id", r.id}, {"answer", r.answer}});
  json state{{"owner", owner_},
             {"invite", invite_},
             {"seats", std::move(seats)},
             {"log", log_},
             {"recent", std::move(recent)},
             {"started_at", started_at_},
             {"finished_at", finished_at_}};
  if (has_ratings_) state["ratings"] = {rating_before_, rating_after_};
  if (hints_[0] || hints_[1]) state["hints"] = hints_;
  if (local_) state["local"] = true;
  if (json r = rematch_json(); !r.is_null())
    state["rematch"] = json{
        {"offers", rematch_offers_}, {"declined", rematch_declined_}, {"table", rematch_table_}};
  TableRow row;
  row.id = id_;
  row.rules = rules_;
  row.status = status_name(status_);
  row.is_public = is_public_;
  row.rated = rated_;
  row.version = version_;
  row.state = state.dump();
  row.created_at = created_at_;
  row.updated_at = now;
  row.owner_key = owner_;
  for (const Seat& s : seats_)
    if (!s.empty() && s.key == owner_) row.owner_user = s.user_id;
  return row;
}

std::variant<TableModel, TableError> TableModel::from_row(const TableRow& row) {
  auto corrupt = [&](const std::string& why) {
    return error("corrupt_table", "stored table " + row.id + " is corrupt: " + why);
  };
  auto parsed = parse_rule_set(row.rules);
  if (auto* e = std::get_if<RuleSetError>(&parsed)) return corrupt("rule set: " + e->message);
  auto status = parse_status(row.status);
  if (!status) return corrupt("unknown status");
  json state = json::parse(row.state, nullptr, false);
  if (!state.is_object()) return corrupt("state is not a JSON object");
  try {
    TableModel t(row.id, std::get<RuleSet>(parsed));
    if (!state.contains("log") || !state["log"].is_string()) return corrupt("no event log");
    if (std::string e = replay_log(t.game_, state["log"].get_ref<const std::string&>()); !e.empty())
      return corrupt("the game log does not replay at " + e);
    t.log_events();
    t.status_ = *status;
    t.is_public_ = row.is_public;
    t.rated_ = row.rated;
    t.version_ = row.version;
    t.created_at_ = row.created_at;
    t.owner_ = state.at("owner").get<std::string>();
    t.invite_ = state.at("invite").get<std::string>();
    t.started_at_ = state.at("started_at").get<std::int64_t>();
    t.finished_at_ = state.at("finished_at").get<std::int64_t>();
    const json& seats = state.at("seats");
    if (!seats.is_array() || seats.size() != 2) return corrupt("seats");
    for (int i = 0; i < 2; ++i) {
      const json& s = seats[i];
      auto kind = parse_kind(s.at("kind").get<std::string>());
      if (!kind) return corrupt("seat kind");
      Seat& seat = t.seats_[i];
      seat.kind = *kind;
      seat.key = s.at("key").get<std::string>();
      seat.user_id = s.at("user_id").get<std::int64_t>();
      seat.name = s.at("name").get<std::string>();
      seat.rating = s.at("rating").get<double>();
      seat.level = s.at("level").get<std::string>();
      seat.left = s.at("left").get<bool>();
    }
    for (const json& r : state.at("recent"))
      t.recent_.push_back(RecentAction{r.at("key").get<std::string>(),
                                       r.at("id").get<std::string>(), r.at("answer")});
    if (auto it = state.find("ratings"); it != state.end())
      t.set_ratings(it->at(0).get<std::array<double, 2>>(), it->at(1).get<std::array<double, 2>>());
    // Rows saved before hints existed have none.
    if (auto it = state.find("hints"); it != state.end()) t.hints_ = it->get<std::array<int, 2>>();
    t.local_ = state.value("local", false);
    if (auto it = state.find("rematch"); it != state.end()) {
      t.rematch_offers_ = it->at("offers").get<std::array<bool, 2>>();
      t.rematch_declined_ = it->at("declined").get<int>();
      t.rematch_table_ = it->at("table").get<std::string>();
      if (t.rematch_declined_ < 0 || t.rematch_declined_ > 2 ||
          (!t.rematch_table_.empty() && !is_table_id(t.rematch_table_)))
        return corrupt("rematch");
    }
    bool over = t.game_.is_over();
    if ((t.status_ == TableStatus::kPlaying && over) ||
        (t.status_ == TableStatus::kWaiting && !t.game_.events().empty()))
      return corrupt("status does not match the game");
    return t;
  } catch (const json::exception& e) {
    return corrupt(std::string("state field: ") + e.what());
  }
}

}  // namespace ur::server
