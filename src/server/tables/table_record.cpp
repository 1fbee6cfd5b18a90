// The stored form of a table: a TableRow (storage.h) whose `state` column is a JSON object with
// the seats, the owner, the invite, the recent action ids, the ratings, hints and rematch, and
// whose game is the game record's event list (engine/game_record.h: the one notation of a played
// game; the rule set is the row's own column), kept as a snapshot in the row plus the events
// appended after it, so that an action writes only what it adds. A load replays the events
// through the checked Game layer, so a row edited by hand or written by a buggy node is refused
// with a reason rather than played on. A finished game also becomes a MatchRow whose record is
// the whole game record.
#include <algorithm>

#include "engine/game_record.h"
#include "server/tables/table_model.h"
#include "server/tables/table_views.h"
#include "solver/table_errc.h"

namespace ur::server {
namespace {

// Rows written before the game record was the stored form hold the game as a string of tokens
// under "log" instead of "events": "t<k>" a throw of k; "m<from>.<to>" a move, "y<from>.<to>" /
// "n<from>.<to>" the boxed rosette award taken / declined; "x<reason><L|D>" the game ended by a
// resignation, timeout or leaving (EndReason as a number) of that player. Nothing writes that
// form any more; it is read so that the tables of existing databases still load (and are saved
// in the new form at their next change). Returns an error naming the bad token, or "".
std::string replay_legacy_log(Game& game, std::string_view log) {
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

// The game of a stored row: its events replayed (either form); an error says why not. `events`
// receives the game record's events. Rows written before migration 7 hold them in the state
// ("events", or "log" before that), and the state is then the truth whatever else the row holds.
Result<Game> replay_game(const TableRow& row, const RuleSet& rule_set, const json& state,
                         json& events) {
  auto in_state = state.find("events");
  auto log = state.find("log");
  if (log != state.end()) {
    if (!log->is_string() || in_state != state.end())
      return Error{solver::TableErrc::kCorruptTable, "the game log is not a string alone"};
    Game game(std::make_shared<const Engine>(rule_set));
    if (std::string e = replay_legacy_log(game, log->get_ref<const std::string&>()); !e.empty())
      return Error{solver::TableErrc::kCorruptTable, "the game log does not replay at " + e};
    return game;
  }
  if (in_state != state.end()) {
    events = *in_state;
  } else {
    events = json::parse("[" + row.events + "]", nullptr, false);
    json appended = json::parse("[" + row.new_events + "]", nullptr, false);
    if (events.is_discarded() || appended.is_discarded())
      return Error{solver::TableErrc::kCorruptTable, "the stored events are not JSON"};
    events.insert(events.end(), appended.begin(), appended.end());
  }
  json record{
      {"format", "ur-game"}, {"version", kRecordVersion}, {"rules", row.rules}, {"events", events}};
  RecordResult game = record_from_json(record);
  if (auto* e = std::get_if<Error>(&game))
    return Error{solver::TableErrc::kCorruptTable,
                 "the game record does not replay: " + e->message};
  return std::move(std::get<Game>(game));
}

// The number of events in a snapshot's text (the replay has accepted them all).
std::size_t count_events(const std::string& events) {
  return events.empty() ? 0 : json::parse("[" + events + "]").size();
}

}  // namespace

bool TableModel::snapshot_due() const {
  if (snapshot_events_ == kNoSnapshot) return true;
  // A game that ended is stored whole, once.
  if (!live() || game_.is_over()) return snapshot_events_ != recorded_;
  return recorded_ - snapshot_events_ >= kSnapshotEvents;
}

void TableModel::saved() {
  if (snapshot_due()) snapshot_events_ = recorded_;
  stored_bytes_ = record_.size();
}

void TableModel::record_new_events() {
  const auto& events = game_.events();
  for (; recorded_ < events.size(); ++recorded_) {
    if (!record_.empty()) record_ += ',';
    record_ += record_event(events[recorded_]).dump();
  }
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
  m.summary = table_summary(*this).dump();
  m.record = to_record(game_).dump();
  m.started_at = started_at_;
  m.finished_at = finished_at_ ? finished_at_ : now;
  return m;
}

TableRow TableModel::to_row(std::int64_t now) const {
  json seats = json::array();
  for (const Seat& s : seats_)
    seats.push_back(json{{"kind", seat_kind_name(s.kind)},
                         {"key", s.key},
                         {"user_id", s.user_id},
                         {"name", s.name},
                         {"rating", s.rating},
                         {"level", s.level},
                         {"left", s.left}});
  json recent = json::array();
  for (const RecentAction& r : recent_)
    recent.push_back(json{{"key", r.key}, {"id", r.id}, {"answer", r.answer}});
  json state{{"owner", owner_},           {"invite", invite_},
             {"seats", std::move(seats)}, {"recent", std::move(recent)},
             {"started_at", started_at_}, {"finished_at", finished_at_}};
  if (has_ratings_) state["ratings"] = {rating_before_, rating_after_};
  if (hints_[0] || hints_[1]) state["hints"] = hints_;
  if (local_) state["local"] = true;
  if (rematch_.any())
    state["rematch"] = json{
        {"offers", rematch_.offers}, {"declined", rematch_.declined}, {"table", rematch_.table}};
  TableRow row;
  row.id = id_;
  row.rules = rules_;
  row.status = status_name(status_);
  row.is_public = is_public_;
  row.rated = rated_;
  row.version = version_;
  row.state = state.dump();
  // The events go in as the text kept by record_new_events: all of it, or what follows the
  // stored part (after its separating comma).
  row.snapshot = snapshot_due();
  if (row.snapshot)
    row.events = record_;
  else if (record_.size() > stored_bytes_)
    row.new_events = record_.substr(stored_bytes_ == 0 ? 0 : stored_bytes_ + 1);
  row.created_at = created_at_;
  row.updated_at = now;
  row.owner_key = owner_;
  for (const Seat& s : seats_)
    if (!s.empty() && s.key == owner_) row.owner_user = s.user_id;
  return row;
}

Result<TableModel> TableModel::from_row(const TableRow& row) {
  auto corrupt = [&](const std::string& why) {
    return Error{solver::TableErrc::kCorruptTable,
                 "stored table " + row.id + " is corrupt: " + why};
  };
  auto parsed = parse_rule_set(row.rules);
  if (auto* e = std::get_if<Error>(&parsed)) return corrupt("rule set: " + e->message);
  auto status = parse_status(row.status);
  if (!status) return corrupt("unknown status");
  json state = json::parse(row.state, nullptr, false);
  if (!state.is_object()) return corrupt("state is not a JSON object");
  json events;
  auto game = replay_game(row, std::get<RuleSet>(parsed), state, events);
  if (auto* e = std::get_if<Error>(&game)) return corrupt(e->message);
  try {
    TableModel t(row.id, std::move(std::get<Game>(game)));
    if (events.is_array()) {
      // The replay accepted every event, so the array dumps to the text record_new_events
      // would write (sorted keys, whole numbers), without building each event again.
      t.record_ = events.dump();
      t.record_ = t.record_.substr(1, t.record_.size() - 2);
      t.recorded_ = t.game_.events().size();
    }
    t.record_new_events();  // a "log" row: its events are written anew
    // What the row holds is known only for the current form; an older one is rewritten whole.
    bool older_form = state.contains("events") || state.contains("log");
    t.snapshot_events_ = older_form ? kNoSnapshot : count_events(row.events);
    t.stored_bytes_ = t.record_.size();
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
      auto kind = parse_seat_kind(s.at("kind").get<std::string>());
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
      Rematch& r = t.rematch_;
      r.offers = it->at("offers").get<std::array<bool, 2>>();
      r.declined = it->at("declined").get<int>();
      r.table = it->at("table").get<std::string>();
      if (r.declined < 0 || r.declined > 2 || (!r.table.empty() && !is_table_id(r.table)))
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
