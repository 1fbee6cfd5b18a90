// TableModel (table_model.h): creating a table, seating its players, visibility and the
// bookkeeping of client actions. The game itself is played in table_actions.cpp.
#include "server/tables/table_model.h"

#include <sodium.h>

#include <algorithm>

#include "rules/text.h"
#include "server/accounts/accounts.h"
#include "server/server_errc.h"

namespace ur::server {
namespace {

Error error(ErrorCode code, std::string message) {
  return Error{code, std::move(message)};
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

// A pass-and-play side's name: trimmed, "Light" or "Dark" when blank; nullopt when it is too
// long or holds control characters.
std::optional<std::string> side_name(std::string_view given, int side) {
  static const char* const kSides[2] = {"Light", "Dark"};
  std::string name(trim_blanks(given));
  if (name.empty()) name = kSides[side];
  bool printable = std::none_of(name.begin(), name.end(), [](char ch) {
    return static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f;
  });
  auto chars = std::count_if(name.begin(), name.end(), [](char ch) {
    return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;  // UTF-8 lead bytes
  });
  if (chars > 24 || !printable) return std::nullopt;
  return name;
}

}  // namespace

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

namespace {

// The notes of computer_seat_name: a code and the English words the seat's name says it with.
struct ComputerNote {
  std::string_view code;
  std::string_view name;
};
constexpr ComputerNote kComputerNotes[] = {
    {"endgame", "Computer (perfect: exact in the endgame)"},
    {"learned", "Computer (strongest: learned, no exact table)"},
    {"as_hard", "Computer (hard: no perfect table)"},
};

}  // namespace

std::string computer_seat_name(const std::string& level, std::string_view note) {
  for (const ComputerNote& n : kComputerNotes)
    if (n.code == note) return std::string(n.name);
  return "Computer (" + level + ")";
}

std::string_view computer_note(std::string_view name) {
  for (const ComputerNote& n : kComputerNotes)
    if (n.name == name) return n.code;
  return "";
}

const char* seat_kind_name(SeatKind k) {
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

std::optional<SeatKind> parse_seat_kind(std::string_view s) {
  for (SeatKind k : {SeatKind::kEmpty, SeatKind::kUser, SeatKind::kGuest, SeatKind::kBot})
    if (s == seat_kind_name(k)) return k;
  return std::nullopt;
}

std::optional<TableStatus> parse_status(std::string_view s) {
  for (TableStatus t :
       {TableStatus::kWaiting, TableStatus::kPlaying, TableStatus::kFinished, TableStatus::kClosed})
    if (s == status_name(t)) return t;
  return std::nullopt;
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

const char* action_name(TableAction a) {
  switch (a) {
    case TableAction::kRoll:
      return "roll";
    case TableAction::kMove:
      return "move";
    case TableAction::kResign:
      return "resign";
    case TableAction::kLeave:
      return "leave";
    case TableAction::kUndo:
      return "undo";
  }
  return "roll";
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

TableModel::TableModel(std::string id, Game game)
    : id_(std::move(id)), rules_(game.rules().to_string()), game_(std::move(game)) {}

Result<TableModel> TableModel::create(std::string id, const TableOptions& o, const Actor& creator,
                                      std::int64_t now, const ComputerName& computers) {
  auto parsed = parse_rule_set(o.rules);
  if (auto* e = std::get_if<Error>(&parsed)) return error(Errc::kBadRules, "rules: " + e->reason);
  const RuleSet& rules = std::get<RuleSet>(parsed);
  if (o.seat != 1 && o.seat != 2) return error(Errc::kBadRequest, "seat must be 1 or 2");
  if (o.rated && !creator.is_user())
    return error(ServerErrc::kLoginRequired, "rated tables need an account: log in or register");
  if (o.rated && !o.bot_level.empty())
    return error(Errc::kBadRequest, "games against the computer are not rated");
  TableModel t(std::move(id), rules);
  t.is_public_ = o.is_public;
  t.rated_ = o.rated;
  t.owner_ = creator.key;
  t.created_at_ = now;
  if (o.local) {
    if (o.rated) return error(Errc::kBadRequest, "pass-and-play games are not rated");
    if (o.is_public) return error(Errc::kBadRequest, "pass-and-play tables are never public");
    if (!o.bot_level.empty())
      return error(Errc::kBadRequest, "a pass-and-play table has no computer seat");
    for (int i = 0; i < 2; ++i) {
      std::optional<std::string> name = side_name(o.names[i], i);
      if (!name)
        return error(Errc::kBadRequest,
                     "names: each name is 1 to 24 characters, no control characters");
      t.seats_[i] = seat_for(creator);
      t.seats_[i].name = std::move(*name);
    }
    t.local_ = true;
    t.status_ = TableStatus::kPlaying;
    t.started_at_ = now;
    return t;
  }
  t.seats_[o.seat - 1] = seat_for(creator);
  if (!o.bot_level.empty()) {
    std::optional<std::string> name = computers(o.bot_level, rules);
    if (!name)
      return error(Errc::kBadRequest, "level must be beginner, easy, medium, hard or perfect");
    Seat& bot = t.seats_[2 - o.seat];
    bot.kind = SeatKind::kBot;
    bot.key = "bot";
    bot.level = o.bot_level;
    bot.name = std::move(*name);
    t.status_ = TableStatus::kPlaying;
    t.started_at_ = now;
  } else {
    t.invite_ = random_token_hex(16);
  }
  return t;
}

Result<TableModel> TableModel::create_match(std::string id, std::string rules, bool rated,
                                            const Actor& light, const Actor& dark, std::int64_t now,
                                            bool is_public) {
  auto parsed = parse_rule_set(rules);
  if (auto* e = std::get_if<Error>(&parsed)) return error(Errc::kBadRules, "rules: " + e->reason);
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

std::optional<Error> TableModel::join(const Actor& a, std::string_view invite) {
  int mine = seat_of(a.key);
  if (mine && seats_[mine - 1].left)
    return error(ServerErrc::kLeftTable, "you left this table and cannot come back");
  if (mine) return error(ServerErrc::kAlreadySeated, "you already have a seat at this table");
  // Say why the seat cannot be had: a closed table (its owner left, or everyone had gone) and a
  // finished game are not "full".
  // A game played to its end (the table may have closed since) is over, whatever else.
  if (finished_at_ != 0) return error(ServerErrc::kGameOver, "this game is over");
  if (status_ == TableStatus::kClosed)
    return error(ServerErrc::kTableClosed, "this table is closed");
  if (status_ != TableStatus::kWaiting)
    return error(ServerErrc::kTableFull, "this table's seats are taken");
  if (invite_.empty() || invite.size() != invite_.size() ||
      sodium_memcmp(invite.data(), invite_.data(), invite_.size()) != 0)
    return error(ServerErrc::kBadInvite,
                 "this invite link is not valid (it may have been used already)");
  if (rated_ && !a.is_user())
    return error(ServerErrc::kLoginRequired,
                 "this table is rated: log in or register to take the seat");
  int open = seats_[0].empty() ? 0 : 1;
  seats_[open] = seat_for(a);
  invite_.clear();
  status_ = TableStatus::kPlaying;
  started_at_ = unix_now();
  bump();
  return std::nullopt;
}

std::optional<Error> TableModel::set_public(const Actor& a, bool is_public) {
  if (a.key != owner_)
    return error(ServerErrc::kNotOwner, "only the table's owner can change that");
  if (status_ == TableStatus::kClosed)
    return error(ServerErrc::kTableClosed, "this table is closed");
  // A finished game is kept by its id (GET /api/games/<id>) whatever the table's visibility.
  if (status_ == TableStatus::kFinished)
    return error(ServerErrc::kGameOver,
                 "the game is over: the table's visibility no longer changes");
  if (local_ && is_public)
    return error(ServerErrc::kLocalTable,
                 "a pass-and-play table is never public: nobody else can watch it");
  if (is_public_ == is_public) return std::nullopt;
  is_public_ = is_public;
  bump();
  return std::nullopt;
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
    out.error =
        error(ServerErrc::kStaleVersion, "the table has changed since; here is its current state");
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

}  // namespace ur::server
