#include "rules/rule_set.h"

#include <charconv>
#include <cmath>
#include <functional>
#include <set>
#include <stdexcept>

#include "rules/presets.h"

namespace ur {

const char* player_name(Player p) {
  return p == Player::kLight ? "light" : "dark";
}

const Board& RuleSet::board_layout() const {
  return board == BoardShape::kAseb ? aseb_board() : standard_board();
}

const SquareRule* RuleSet::square(Cell c) const {
  for (const SquareRule& s : squares)
    if (s.cell == c) return &s;
  return nullptr;
}

void RuleSet::derive_squares() {
  squares.clear();
  // A square is shared when both paths visit it; only shared squares can ever see a hit.
  std::set<Cell> p1(path.cells[0].begin(), path.cells[0].end());
  for (const Square& sq : board_layout().squares) {
    SquareRule r;
    r.cell = sq.cell;
    r.rosette = sq.marking == Marking::kRosette;
    r.safe = r.rosette && safe_rosettes;
    r.capture = !r.safe && (!capture_centre_only || cell_rank(sq.cell) == 2);
    r.score_value = r.rosette ? 1 : sq.dots;
    r.rosette_enters_counter = r.rosette && rosette_award;
    if (doubles && sq.marking == Marking::kQuincunxes && cell_rank(sq.cell) == 2)
      r.special = Special::kDoubleMove;
    bool eye = sq.marking == Marking::kEyes;
    if (forfeits == Forfeits::kEyes && eye) r.special = Special::kForfeit;
    if (forfeits == Forfeits::kCentreEye && eye && cell_rank(sq.cell) == 2)
      r.special = Special::kForfeit;
    squares.push_back(r);
  }
}

namespace {

using Setter = std::function<std::string(RuleSet&, std::string_view)>;  // "" = ok, else error
using Getter = std::function<std::string(const RuleSet&)>;

struct Param {
  std::string key;
  std::string allowed;
  Getter get;
  Setter set;
};

std::string bool_str(bool b) {
  return b ? "true" : "false";
}

Setter bool_setter(bool RuleSet::*field) {
  return [field](RuleSet& r, std::string_view v) -> std::string {
    if (v == "true" || v == "yes" || v == "on" || v == "1")
      r.*field = true;
    else if (v == "false" || v == "no" || v == "off" || v == "0")
      r.*field = false;
    else
      return "expected true or false";
    return "";
  };
}

Setter int_setter(int RuleSet::*field, int lo, int hi) {
  return [=](RuleSet& r, std::string_view v) -> std::string {
    int x = 0;
    auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
    if (ec != std::errc{} || ptr != v.data() + v.size() || x < lo || x > hi)
      return "expected a whole number from " + std::to_string(lo) + " to " + std::to_string(hi);
    r.*field = x;
    return "";
  };
}

template <typename E>
Param enum_param(std::string key, E RuleSet::*field, std::vector<std::pair<std::string, E>> names) {
  std::string allowed;
  for (auto& [n, e] : names) allowed += (allowed.empty() ? "" : "|") + n;
  Getter get = [field, names](const RuleSet& r) {
    for (auto& [n, e] : names)
      if (r.*field == e) return n;
    return std::string("?");
  };
  Setter set = [field, names, allowed](RuleSet& r, std::string_view v) -> std::string {
    for (auto& [n, e] : names)
      if (n == v) {
        r.*field = e;
        return "";
      }
    return "expected one of " + allowed;
  };
  return {std::move(key), allowed, get, set};
}

std::string format_p(double p) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", p);
  return buf;
}

const std::vector<Param>& params() {
  static const std::vector<Param> list = [] {
    std::vector<Param> v;
    v.push_back({"pieces", "1..15", [](const RuleSet& r) { return std::to_string(r.pieces); },
                 int_setter(&RuleSet::pieces, 1, 15)});
    v.push_back(enum_param<StartPolicy>("start", &RuleSet::start,
                                        {{"light", StartPolicy::kLight},
                                         {"dark", StartPolicy::kDark},
                                         {"rolloff", StartPolicy::kRollOff},
                                         {"coin", StartPolicy::kCoinCall}}));
    v.push_back({"opening_roll", "true|false (roll-off: the winning throw is used)",
                 [](const RuleSet& r) { return bool_str(r.use_opening_roll); },
                 bool_setter(&RuleSet::use_opening_roll)});
    v.push_back({"path", "bell14|masters16|murray27_own|murray27_royalur|aseb16",
                 [](const RuleSet& r) { return r.path.id; },
                 [](RuleSet& r, std::string_view val) -> std::string {
                   const PathPair* p = find_path(val);
                   if (!p)
                     return "expected one of bell14|masters16|murray27_own|murray27_royalur|aseb16";
                   r.path = *p;
                   r.board = p->board;
                   return "";
                 }});
    v.push_back({"dice", "d4b|d3b_0is4|d3b_bell", [](const RuleSet& r) { return r.dice.id; },
                 [](RuleSet& r, std::string_view val) -> std::string {
                   const DiceModel* d = find_dice(val);
                   if (!d) return "expected one of d4b|d3b_0is4|d3b_bell";
                   double p = r.dice.p_marked;
                   r.dice = *d;
                   r.dice.p_marked = p;
                   return "";
                 }});
    v.push_back({"p", "a probability strictly between 0 and 1 (chance a die shows a mark)",
                 [](const RuleSet& r) { return format_p(r.dice.p_marked); },
                 [](RuleSet& r, std::string_view val) -> std::string {
                   std::string s(val);
                   char* end = nullptr;
                   double p = std::strtod(s.c_str(), &end);
                   if (s.empty() || end != s.c_str() + s.size() || !(p > 0.0 && p < 1.0))
                     return "expected a number strictly between 0 and 1";
                   r.dice.p_marked = p;
                   return "";
                 }});
    v.push_back({"safe", "true|false (rosettes protect)",
                 [](const RuleSet& r) { return bool_str(r.safe_rosettes); },
                 bool_setter(&RuleSet::safe_rosettes)});
    v.push_back({"rosette_extra", "true|false",
                 [](const RuleSet& r) { return bool_str(r.rosette_extra); },
                 bool_setter(&RuleSet::rosette_extra)});
    v.push_back({"capture_extra", "true|false",
                 [](const RuleSet& r) { return bool_str(r.capture_extra); },
                 bool_setter(&RuleSet::capture_extra)});
    v.push_back(enum_param<TurnMode>(
        "turn", &RuleSet::turn_mode,
        {{"single", TurnMode::kSingleThrow}, {"chain", TurnMode::kThrowChain}}));
    v.push_back(enum_param<EntryTarget>("entry", &RuleSet::entry,
                                        {{"move", EntryTarget::kMoveValue},
                                         {"fixed", EntryTarget::kFixedIndex},
                                         {"staging", EntryTarget::kStaging}}));
    v.push_back({"entry_index", "1..N (entry=fixed)",
                 [](const RuleSet& r) { return std::to_string(r.entry_index); },
                 int_setter(&RuleSet::entry_index, 1, kMaxPathLength)});
    v.push_back({"stacking", "true|false", [](const RuleSet& r) { return bool_str(r.stacking); },
                 bool_setter(&RuleSet::stacking)});
    v.push_back({"bounce", "true|false", [](const RuleSet& r) { return bool_str(r.bounce); },
                 bool_setter(&RuleSet::bounce)});
    v.push_back({"centre_hits", "true|false (hits only on rank 2)",
                 [](const RuleSet& r) { return bool_str(r.capture_centre_only); },
                 bool_setter(&RuleSet::capture_centre_only)});
    v.push_back({"doubles", "true|false (c2, f2 double the move)",
                 [](const RuleSet& r) { return bool_str(r.doubles); },
                 bool_setter(&RuleSet::doubles)});
    v.push_back(enum_param<RuleSet::Forfeits>("forfeits", &RuleSet::forfeits,
                                              {{"none", RuleSet::Forfeits::kNone},
                                               {"eyes", RuleSet::Forfeits::kEyes},
                                               {"g2", RuleSet::Forfeits::kCentreEye}}));
    v.push_back({"forfeit_move", "1..5",
                 [](const RuleSet& r) { return std::to_string(r.forfeit_move); },
                 int_setter(&RuleSet::forfeit_move, 1, 5)});
    v.push_back({"rosette_award", "true|false (a rosette landing may enter a counter onto S)",
                 [](const RuleSet& r) { return bool_str(r.rosette_award); },
                 bool_setter(&RuleSet::rosette_award)});
    v.push_back({"scored", "true|false (the win is scored)",
                 [](const RuleSet& r) { return bool_str(r.scored_win); },
                 bool_setter(&RuleSet::scored_win)});
    v.push_back({"stake", "0..1000", [](const RuleSet& r) { return std::to_string(r.stake); },
                 int_setter(&RuleSet::stake, 0, 1000)});
    v.push_back({"fine", "0..1000", [](const RuleSet& r) { return std::to_string(r.fine); },
                 int_setter(&RuleSet::fine, 0, 1000)});
    return v;
  }();
  return list;
}

std::string trim(std::string_view s) {
  size_t a = 0, b = s.size();
  while (a < b && (s[a] == ' ' || s[a] == '\t')) ++a;
  while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t')) --b;
  return std::string(s.substr(a, b - a));
}

std::string validate(const RuleSet& r) {
  const int n = r.path.length();
  if (r.path.board != r.board) return "the path does not fit the board";
  if (r.entry == EntryTarget::kFixedIndex && (r.entry_index < 1 || r.entry_index > n))
    return "entry_index must lie on the path (1.." + std::to_string(n) + ")";
  if (r.stacking) {
    std::set<Cell> seen(r.path.cells[0].begin(), r.path.cells[0].end());
    if (seen.size() != r.path.cells[0].size())
      return "stacking is not supported on a path that visits a square twice";
  }
  if (r.bounce && !r.stacking) return "bounce needs stacking (two enemy pieces on one square)";
  if (r.rosette_award && r.entry != EntryTarget::kStaging)
    return "rosette_award needs entry=staging";
  if (r.turn_mode == TurnMode::kThrowChain) {
    bool ends = false;
    for (const ThrowOutcome& o : r.dice.by_k) ends = ends || o.ends_turn;
    if (!ends) return "turn=chain needs dice with a throw that ends the turn (dice=d3b_bell)";
  }
  bool can_enter = false;
  for (const ThrowOutcome& o : r.dice.by_k)
    can_enter = can_enter || (o.may_enter && (o.move > 0 || r.entry != EntryTarget::kMoveValue));
  if (!can_enter) return "no throw of these dice can enter a piece";
  return "";
}

}  // namespace

std::string RuleSet::to_string() const {
  const RuleSet* base = find_preset(preset);
  std::string out = preset;
  std::string args;
  for (const Param& p : params()) {
    std::string mine = p.get(*this);
    if (base && mine == p.get(*base)) continue;
    args += (args.empty() ? "" : ",") + p.key + "=" + mine;
  }
  if (!args.empty()) out += "(" + args + ")";
  return out;
}

RuleSetResult parse_rule_set(std::string_view text) {
  std::string s = trim(text);
  std::string id = s;
  std::string args;
  if (auto open = s.find('('); open != std::string::npos) {
    if (s.back() != ')')
      return Error{Errc::kBadRules, "rule set '" + s + "': missing ')' at the end", "missing ')'"};
    id = trim(s.substr(0, open));
    args = s.substr(open + 1, s.size() - open - 2);
  }
  const RuleSet* preset = find_preset(id);
  if (!preset) {
    std::string known;
    for (const PresetInfo& p : preset_list()) known += (known.empty() ? "" : ", ") + p.id;
    return Error{Errc::kBadRules, "unknown rule set '" + id + "' (known: " + known + ")",
                 "unknown preset"};
  }
  RuleSet r = *preset;
  std::set<std::string> seen;
  size_t pos = 0;
  while (!trim(args).empty() && pos <= args.size()) {
    size_t comma = args.find(',', pos);
    std::string item =
        trim(args.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos));
    pos = comma == std::string::npos ? args.size() + 1 : comma + 1;
    auto eq = item.find('=');
    if (item.empty())
      return Error{Errc::kBadRules, "rule set '" + s + "': empty parameter", "empty parameter"};
    if (eq == std::string::npos)
      return Error{Errc::kBadRules,
                   "rule set '" + s + "': parameter '" + item + "' needs key=value",
                   "a parameter needs key=value"};
    std::string key = trim(item.substr(0, eq));
    std::string value = trim(item.substr(eq + 1));
    const Param* param = nullptr;
    for (const Param& p : params())
      if (p.key == key) param = &p;
    if (!param) {
      std::string known;
      for (const Param& p : params()) known += (known.empty() ? "" : ", ") + p.key;
      return Error{Errc::kBadRules,
                   "rule set '" + s + "': unknown parameter '" + key + "' (known: " + known + ")",
                   "unknown parameter"};
    }
    if (!seen.insert(key).second)
      return Error{Errc::kBadRules, "rule set '" + s + "': parameter '" + key + "' given twice",
                   "parameter " + param->key + " given twice"};
    if (std::string err = param->set(r, value); !err.empty())
      return Error{Errc::kBadRules,
                   "rule set '" + s + "': bad value '" + value + "' for " + key + ": " + err,
                   "bad value for " + param->key};
  }
  r.derive_squares();
  if (std::string err = validate(r); !err.empty())
    return Error{Errc::kBadRules, "rule set '" + s + "': " + err,
                 "the parameters do not fit together"};
  // The preset's summary describes the preset ("7 pieces, ..."): say what was changed first.
  if (std::string canonical = r.to_string(); canonical != preset->preset)
    r.summary = canonical + ": the " + preset->preset +
                " rules with the parameters given in brackets. The preset: " + preset->summary;
  return r;
}

RuleSet rule_set_or_throw(std::string_view text) {
  RuleSetResult r = parse_rule_set(text);
  if (auto* e = std::get_if<Error>(&r)) throw std::invalid_argument(e->message);
  return std::get<RuleSet>(std::move(r));
}

std::vector<std::pair<std::string, std::string>> rule_set_parameters() {
  std::vector<std::pair<std::string, std::string>> out;
  for (const Param& p : params()) out.emplace_back(p.key, p.allowed);
  return out;
}

}  // namespace ur
