#include "engine/game.h"

#include <stdexcept>

#include "engine/notation.h"

namespace ur {

const char* end_reason_name(EndReason r) {
  switch (r) {
    case EndReason::kNone:
      return "none";
    case EndReason::kBoreOff:
      return "bore-off";
    case EndReason::kResign:
      return "resign";
    case EndReason::kTimeout:
      return "timeout";
    case EndReason::kLeft:
      return "left";
  }
  return "?";
}

Game::Game(std::shared_ptr<const Engine> engine) : Game(engine, engine->initial_position()) {
  // Stakes are paid when the game starts.
  for (int pl = 0; pl < 2; ++pl) balance_[pl] = -rules().stake;
  kitty_ = 2 * rules().stake;
}

Game::Game(std::string_view rules)
    : Game(std::make_shared<const Engine>(rule_set_or_throw(rules))) {}

Game::Game(std::shared_ptr<const Engine> engine, const Position& start)
    : engine_(std::move(engine)), start_(start), pos_(start) {
  settle_if_over();
}

std::optional<Player> Game::winner() const {
  if (reason_ == EndReason::kNone) return std::nullopt;
  return winner_;
}

int Game::win_score() const {
  if (reason_ == EndReason::kNone) return 0;
  return engine_->win_score(pos_, winner_);
}

ChanceList Game::chance_outcomes() const {
  if (!awaiting_throw()) return {};
  return engine_->chance_outcomes(pos_);
}

MoveList Game::legal_moves() const {
  MoveList m;
  if (awaiting_decision()) engine_->legal_moves(pos_, m);
  return m;
}

void Game::push_snapshot() {
  undo_.push_back({pos_, stats_, kitty_, balance_, reason_, winner_, turns_});
}

bool Game::undo() {
  if (undo_.empty()) return false;
  const Snapshot& s = undo_.back();
  pos_ = s.pos;
  stats_ = s.stats;
  kitty_ = s.kitty;
  balance_ = s.balance;
  reason_ = s.reason;
  winner_ = s.winner;
  turns_ = s.turns;
  undo_.pop_back();
  events_.pop_back();
  return true;
}

void Game::after_change(Player previous_turn) {
  // A new turn begins when the side to throw changes.
  if (pos_.phase == Phase::kAwaitingRoll && pos_.turn != previous_turn) ++turns_;
  settle_if_over();
}

void Game::settle_if_over() {
  if (pos_.phase != Phase::kGameOver || reason_ != EndReason::kNone) return;
  reason_ = EndReason::kBoreOff;
  winner_ = pos_.turn;
  // The winner takes the kitty.
  balance_[index_of(winner_)] += kitty_;
  kitty_ = 0;
}

Status Game::apply_throw(int outcome) {
  if (is_over()) return Status::fail("the game is over");
  if (!pos_.is_chance())
    return Status::fail(std::string(player_name(pos_.turn)) + " must decide, not throw");
  bool listed = false;
  for (const ChanceOutcome& c : engine_->chance_outcomes(pos_)) listed |= c.outcome == outcome;
  if (!listed)
    return Status::fail("throw " + std::to_string(outcome) + " is not a throw of these dice");
  push_snapshot();
  const Player thrower = pos_.turn;
  const Phase before = pos_.phase;
  MoveList moves;
  const bool decide = engine_->apply_throw(pos_, outcome, moves);
  GameEvent ev{GameEvent::Type::kThrow, thrower, outcome, {}, false};
  if (before == Phase::kAwaitingRoll) {
    ++stats_[index_of(thrower)].throws;
    if (!decide) {
      ev.passed = true;
      ++stats_[index_of(thrower)].passes;
    }
  } else if (decide) {  // the roll-off winner's throw became his first throw
    ++stats_[index_of(pos_.turn)].throws;
  }
  events_.push_back(ev);
  after_change(before == Phase::kAwaitingRoll ? thrower : other(pos_.turn));
  return {};
}

int Game::roll(Rng& rng) {
  int k = pos_.phase == Phase::kStart && rules().start == StartPolicy::kCoinCall
              ? static_cast<int>(rng.below(2))
              : engine_->sample_throw(rng);
  Status s = apply_throw(k);
  (void)s;
  return k;
}

Status Game::apply_move(const Move& m) {
  if (is_over()) return Status::fail("the game is over");
  if (!pos_.is_decision())
    return Status::fail(std::string(player_name(pos_.turn)) + " must throw first");
  MoveList legal;
  engine_->legal_moves(pos_, legal);
  const Move* found = nullptr;
  for (const Move& l : legal)
    if (l == m) found = &l;
  if (!found) {
    std::string list;
    for (const Move& l : legal)
      list += (list.empty() ? "" : ", ") +
              (l.kind == MoveKind::kMove
                   ? std::to_string(l.from) + "->" + std::to_string(l.to)
                   : std::string(l.kind == MoveKind::kAwardYes ? "award yes" : "award no"));
    return Status::fail("illegal move " + std::to_string(m.from) + "->" + std::to_string(m.to) +
                        "; legal: " + list);
  }
  push_snapshot();
  const Player actor = pos_.turn;
  const Phase before = pos_.phase;
  const Move chosen = *found;
  const MoveEffects fx = engine_->apply_move(pos_, chosen);
  last_effects_ = fx;
  PlayerStats& st = stats_[index_of(actor)];
  if (chosen.kind == MoveKind::kMove) ++st.moves;
  if (before == Phase::kAwaitingForfeit) ++st.forfeits;
  st.captures += fx.captures;
  st.rosettes += fx.rosettes;
  st.borne_off += fx.borne_off;
  st.bounces += fx.bounces;
  // Every rosette landing is fined into the kitty.
  kitty_ += fx.rosettes * rules().fine;
  balance_[index_of(actor)] -= fx.rosettes * rules().fine;
  events_.push_back({GameEvent::Type::kMove, actor, 0, chosen, false});
  after_change(before == Phase::kAwaitingForfeit ? other(actor) : actor);
  return {};
}

Status Game::apply_move(int from, int to) {
  for (const Move& l : legal_moves())
    if (l.kind == MoveKind::kMove && l.from == from && l.to == to) return apply_move(l);
  return apply_move(
      Move{static_cast<std::int8_t>(from), static_cast<std::int8_t>(to), 0, MoveKind::kMove});
}

Status Game::resign(Player p) {
  if (is_over()) return Status::fail("the game is over");
  Status s = end_by(p, EndReason::kResign);
  return s;
}

Status Game::end_by(Player loser, EndReason why) {
  if (is_over()) return Status::fail("the game is over");
  if (why == EndReason::kNone || why == EndReason::kBoreOff)
    return Status::fail("a game ends early only by resigning, a timeout or leaving");
  push_snapshot();
  events_.push_back({GameEvent::Type::kResign, loser, static_cast<int>(why), {}, false});
  reason_ = why;
  winner_ = other(loser);
  balance_[index_of(winner_)] += kitty_;
  kitty_ = 0;
  return {};
}

}  // namespace ur
