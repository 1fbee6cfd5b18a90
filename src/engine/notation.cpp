#include "engine/notation.h"

#include <algorithm>
#include <charconv>

namespace ur {
namespace {

char index_char(int i) {
  if (i < 0) return '-';
  return static_cast<char>(i < 10 ? '0' + i : 'a' + (i - 10));
}

int char_index(char c) {
  if (c == '-') return -1;
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'z') return c - 'a' + 10;
  return -2;
}

std::string pieces_string(const Engine& e, const Position& p, Player pl) {
  std::string s;
  for (int i : piece_list(e, p, pl)) s += index_char(i);
  return s;
}

}  // namespace

std::vector<int> piece_list(const Engine& e, const Position& p, Player pl) {
  std::vector<int> out;
  const int me = index_of(pl);
  for (int j = 0; j < p.pool[me]; ++j) out.push_back(-1);
  for (int i = 0; i <= e.off_index(); ++i)
    for (int j = 0; j < p.count[me][i]; ++j) out.push_back(i);
  return out;
}

std::string to_position_string(const Engine& e, const Position& p) {
  std::string s(1, p.turn == Player::kLight ? 'L' : 'D');
  auto who = [](Player x) { return x == Player::kLight ? 'L' : 'D'; };
  switch (p.phase) {
    case Phase::kStart:
      s += 's';
      break;
    case Phase::kRollOff:
      s += 'o';
      s += static_cast<char>('0' + p.roll);
      break;
    case Phase::kAwaitingRoll:
      s += 'r';
      break;
    case Phase::kAwaitingMove:
      s += static_cast<char>('0' + p.roll);
      break;
    case Phase::kAwaitingAward:
      s += 'a';
      s += who(p.next);
      break;
    case Phase::kAwaitingForfeit:
      s += 'f';
      s += who(p.next);
      break;
    case Phase::kGameOver:
      s += 'w';
      break;
  }
  return s + "/" + pieces_string(e, p, Player::kLight) + "/" + pieces_string(e, p, Player::kDark);
}

PositionResult position_from_pieces(const Engine& e, Player turn, const std::vector<int>& light,
                                    const std::vector<int>& dark) {
  Position p;
  const int off = e.off_index();
  const std::vector<int>* lists[2] = {&light, &dark};
  for (int pl = 0; pl < 2; ++pl) {
    const char* name = player_name(static_cast<Player>(pl));
    if (static_cast<int>(lists[pl]->size()) != e.pieces())
      return Error{Errc::kBadPosition, std::string(name) + " has " +
                                           std::to_string(lists[pl]->size()) + " pieces; " +
                                           e.rules().preset + " has " + std::to_string(e.pieces())};
    for (int i : *lists[pl]) {
      if (i == -1 && e.has_staging()) {
        ++p.pool[pl];
        continue;
      }
      if (i < 0 || i > off)
        return Error{Errc::kBadPosition, std::string(name) + " piece at index " +
                                             std::to_string(i) + ": path indices run 0.." +
                                             std::to_string(off) +
                                             (e.has_staging() ? " (-1 = not entered)" : "")};
      ++p.count[pl][i];
    }
  }
  p.turn = turn;
  p.next = turn;
  p.phase = Phase::kAwaitingRoll;
  for (int pl = 0; pl < 2; ++pl)
    if (p.count[pl][off] == e.pieces()) {
      p.phase = Phase::kGameOver;
      p.turn = static_cast<Player>(pl);
    }
  e.refresh_masks(p);
  if (std::string err = e.check(p); !err.empty()) return Error{Errc::kBadPosition, err};
  return p;
}

PositionResult parse_position_string(const Engine& e, std::string_view text) {
  auto bad = [&](const std::string& why) {
    return Error{Errc::kBadPosition, "position '" + std::string(text) + "': " + why};
  };
  const size_t s1 = text.find('/');
  const size_t s2 = s1 == std::string_view::npos ? s1 : text.find('/', s1 + 1);
  if (s2 == std::string_view::npos || text.find('/', s2 + 1) != std::string_view::npos)
    return bad("expected <actor><state>/<light>/<dark>, e.g. Lr/0000000/0000000");
  std::string_view head = text.substr(0, s1);
  std::vector<int> lists[2];
  std::string_view parts[2] = {text.substr(s1 + 1, s2 - s1 - 1), text.substr(s2 + 1)};
  for (int pl = 0; pl < 2; ++pl)
    for (char c : parts[pl]) {
      int i = char_index(c);
      if (i < -1) return bad(std::string("'") + c + "' is not a path index (0-9, a-z or -)");
      lists[pl].push_back(i);
    }
  for (auto& l : lists) std::sort(l.begin(), l.end());
  if (head.size() < 2 || (head[0] != 'L' && head[0] != 'D'))
    return bad("the state must start with L or D");
  const Player actor = head[0] == 'L' ? Player::kLight : Player::kDark;
  PositionResult r = position_from_pieces(e, actor, lists[0], lists[1]);
  if (auto* err = std::get_if<Error>(&r)) return bad(err->message);
  Position p = std::get<Position>(r);
  auto player_of = [&](char c) -> int { return c == 'L' ? 0 : c == 'D' ? 1 : -1; };
  const char st = head[1];
  const bool finished = p.phase == Phase::kGameOver;
  if (st == 'w') {
    if (!finished || p.turn != actor) return bad("'w' needs the actor to have borne off all");
    return p;
  }
  if (finished) return bad("a player has borne off every piece: the state must be 'w'");
  if (st == 'r' && head.size() == 2) return p;
  if (st == 's' && head.size() == 2) {
    if (e.rules().start != StartPolicy::kRollOff && e.rules().start != StartPolicy::kCoinCall)
      return bad("'s' (start) only exists with a roll-off or coin-call start");
    p.phase = Phase::kStart;
    return p;
  }
  if (st == 'o' && head.size() == 3) {
    int k = head[2] - '0';
    if (e.rules().start != StartPolicy::kRollOff || actor != Player::kDark || k < 0 ||
        k > e.rules().dice.dice)
      return bad("'oK' needs a roll-off start, D to throw and K a throw of the dice");
    p.phase = Phase::kRollOff;
    p.roll = static_cast<std::int8_t>(k);
    return p;
  }
  if (st >= '0' && st <= '9' && head.size() == 2) {
    int k = st - '0';
    if (k > e.rules().dice.dice) return bad("throw " + std::to_string(k) + " is outside the dice");
    MoveList moves;
    e.moves_for_throw(p, k, moves);
    if (moves.empty()) return bad("throw " + std::to_string(k) + " leaves no move to decide");
    p.phase = Phase::kAwaitingMove;
    p.roll = static_cast<std::int8_t>(k);
    return p;
  }
  if ((st == 'a' || st == 'f') && head.size() == 3 && player_of(head[2]) >= 0) {
    p.next = static_cast<Player>(player_of(head[2]));
    if (st == 'a') {
      if (!e.has_staging() || p.pool[index_of(actor)] == 0)
        return bad("an award decision needs a counter waiting to enter");
      p.phase = Phase::kAwaitingAward;
    } else {
      p.phase = Phase::kAwaitingForfeit;
      MoveList moves;
      e.legal_moves(p, moves);
      if (moves.empty()) return bad("a forfeit response needs a legal move");
    }
    return p;
  }
  return bad("unknown state '" + std::string(head.substr(1)) + "'");
}

std::string move_text(const Move& m) {
  if (m.kind == MoveKind::kAwardYes) return "award_yes";
  if (m.kind == MoveKind::kAwardNo) return "award_no";
  return std::to_string(m.from) + "->" + std::to_string(m.to);
}

MoveResult parse_move_text(const Engine& e, const Position& p, std::string_view text) {
  auto bad = [&](const std::string& why) {
    return Error{Errc::kBadMove, "move '" + std::string(text) + "': " + why};
  };
  if (!p.is_decision())
    return bad(p.is_over() ? "the game is over" : "the position awaits a throw, not a move");
  MoveList moves;
  e.legal_moves(p, moves);
  std::string legal;
  for (const Move& m : moves) legal += (legal.empty() ? "" : ", ") + move_text(m);
  Move want;
  if (text == "award_yes" || text == "award_no") {
    want.kind = text == "award_yes" ? MoveKind::kAwardYes : MoveKind::kAwardNo;
  } else {
    const size_t arrow = text.find("->");
    if (arrow == std::string_view::npos)
      return bad("expected FROM->TO (path indices, e.g. 0->4), award_yes or award_no");
    int from = 0, to = 0;
    const std::string_view a = text.substr(0, arrow), b = text.substr(arrow + 2);
    const auto ra = std::from_chars(a.data(), a.data() + a.size(), from);
    const auto rb = std::from_chars(b.data(), b.data() + b.size(), to);
    if (a.empty() || b.empty() || ra.ec != std::errc{} || ra.ptr != a.data() + a.size() ||
        rb.ec != std::errc{} || rb.ptr != b.data() + b.size() || from < -1 || to < 0 ||
        from > e.off_index() || to > e.off_index())
      return bad("FROM and TO must be path indices from -1 to " + std::to_string(e.off_index()));
    want.from = static_cast<std::int8_t>(from);
    want.to = static_cast<std::int8_t>(to);
  }
  for (const Move& m : moves)  // award moves are told apart by their kind alone
    if (m.kind == want.kind && (m.kind != MoveKind::kMove || m == want)) return m;
  return bad("not a legal move here (legal: " + legal + ")");
}

}  // namespace ur
