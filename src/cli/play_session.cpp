#include "cli/play_session.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <optional>
#include <thread>

#include "engine/game_record.h"

namespace ur::cli {
namespace {

// No real game comes near this; it only guarantees the command ends if something is wrong.
constexpr int kMaxActions = 1'000'000;

std::string trim_lower(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  std::string out = s.substr(b, e - b + 1);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

}  // namespace

std::string PlaySession::throw_text(int k) const {
  const ThrowOutcome& o = game_.rules().dice.by_k[k];
  std::string s = std::to_string(k) + " (";
  if (o.move == 0)
    s += o.ends_turn ? "nothing, the turn ends" : "no move";
  else
    s += "move " + std::to_string(o.move);
  if (o.move > 0 && o.extra_throw) s += ", throw again";
  return s + ")";
}

void PlaySession::narrate_pass(Player thrower, int k) {
  const Position& after = game_.position();
  const bool again = after.phase == Phase::kAwaitingRoll && after.turn == thrower;
  if (game_.engine().move_value(k) == 0) {
    if (!again) out_ << display_name(thrower) << "'s turn ends.\n";
    return;
  }
  out_ << "No legal move " << dash_
       << (again ? " " + display_name(thrower) + " throws again." : " turn passes.") << '\n';
}

void PlaySession::narrate_throw() {
  const Position before = game_.position();
  const Engine& e = game_.engine();
  const int k = game_.roll(dice_);
  const Position& after = game_.position();
  switch (before.phase) {
    case Phase::kStart:
      if (game_.rules().start == StartPolicy::kCoinCall) {
        out_ << "Coin call: " << display_name(after.turn) << " starts.\n";
      } else {
        out_ << "Roll-off: Light throws " << throw_text(k) << ".\n";
      }
      return;
    case Phase::kRollOff: {
      const int light_k = before.roll;
      const int lv = e.move_value(light_k), dv = e.move_value(k);
      out_ << "Roll-off: Dark throws " << throw_text(k);
      if (lv == dv) {
        out_ << " " << dash_ << " a tie, both throw again.\n";
        return;
      }
      const Player winner = lv > dv ? Player::kLight : Player::kDark;
      const int winning_k = lv > dv ? light_k : k;
      out_ << " " << dash_ << " " << display_name(winner) << " starts";
      if (!game_.rules().use_opening_roll) {
        out_ << ".\n";
        return;
      }
      if (winner == Player::kDark)
        out_ << " with this throw.\n";
      else
        out_ << " with the throw " << throw_text(winning_k) << ".\n";
      if (!game_.awaiting_decision()) narrate_pass(winner, winning_k);
      return;
    }
    default:
      out_ << display_name(before.turn) << " throws " << throw_text(k) << '\n';
      if (!game_.awaiting_decision()) narrate_pass(before.turn, k);
      return;
  }
}

std::string PlaySession::action_sentence(Player p, const Move& m) const {
  const std::string who = display_name(p);
  if (m.kind == MoveKind::kAwardYes) return who + " takes the award: a counter onto S.";
  if (m.kind == MoveKind::kAwardNo) return who + " declines the award.";
  const std::string what = describe_move(game_.engine(), game_.position(), m);
  const bool forfeit = game_.position().phase == Phase::kAwaitingForfeit;
  const std::string end = forfeit ? ", the forfeit move." : ".";
  constexpr std::string_view kEnter = "enter to ";
  if (what.starts_with(kEnter))
    return who + " enters a piece at " + what.substr(kEnter.size()) + end;
  if (m.from == kPool) return who + " enters a counter onto S" + end;
  return who + " moves " + what + end;
}

void PlaySession::print_choices(const MoveList& moves) {
  for (int i = 0; i < moves.size; ++i)
    out_ << "  " << (i + 1) << ") " << describe_move(game_.engine(), game_.position(), moves[i])
         << '\n';
}

PlaySession::Outcome PlaySession::ask_human(const MoveList& moves, int& choice) {
  const Player p = game_.position().turn;
  print_choices(moves);
  const std::string range = std::to_string(moves.size);
  const std::string choices = moves.size == 1 ? "1" : "1 to " + range;
  for (;;) {
    out_ << display_name(p) << ", your choice (" << (moves.size == 1 ? "1" : "1-" + range)
         << ", h for help): " << std::flush;
    std::string line;
    if (!std::getline(std::cin, line)) {
      out_ << "\nEnd of input while " << display_name(p)
           << " had to choose a move; the game is abandoned.\n"
           << std::flush;
      return Outcome::kEndOfInput;
    }
    // A terminal echoes what was typed; a pipe does not, so echo it to keep transcripts legible.
    if (!stdin_tty_) out_ << line << '\n';
    const std::string cmd = trim_lower(line);
    if (cmd.empty()) {
      out_ << "Nothing entered: type the number of a move, " << choices << ".\n";
      continue;
    }
    if (cmd == "h" || cmd == "help" || cmd == "?") {
      out_ << "Type the number of a move and press Enter. Other commands:\n"
              "  h, help    this help\n"
              "  r, resign  resign the game (the other side wins)\n"
              "  q, quit    leave the game (counts as resigning)\n"
              "Your moves:\n";
      print_choices(moves);
      continue;
    }
    if (cmd == "r" || cmd == "resign" || cmd == "q" || cmd == "quit") {
      const bool quit = cmd[0] == 'q';
      out_ << display_name(p) << (quit ? " quits, which counts as resigning." : " resigns.")
           << '\n';
      kitty_before_end_ = game_.kitty();
      Status s = game_.resign(p);
      if (!s.ok()) out_ << "Cannot resign: " << s.error << '\n';
      return Outcome::kResigned;
    }
    int n = 0;
    const auto [ptr, ec] = std::from_chars(cmd.data(), cmd.data() + cmd.size(), n);
    if (ec != std::errc() || ptr != cmd.data() + cmd.size()) {
      out_ << "'" << cmd << "' is not a move number: type " << choices << " (h for help).\n";
      continue;
    }
    if (n < 1 || n > moves.size) {
      out_ << "There is no move " << n << ": choose " << choices << ".\n";
      continue;
    }
    choice = n - 1;
    return Outcome::kChose;
  }
}

void PlaySession::play(const Move& m) {
  const Engine& e = game_.engine();
  const Position before = game_.position();
  const Player actor = before.turn;
  const int value = before.phase == Phase::kAwaitingForfeit ? game_.rules().forfeit_move
                                                            : e.move_value(before.roll);
  out_ << action_sentence(actor, m) << '\n';
  const int kitty_before = game_.kitty();
  Status s = game_.apply_move(m);
  if (!s.ok()) {  // cannot happen: m came from legal_moves()
    out_ << "Internal error: " << s.error << '\n';
    return;
  }
  const MoveEffects& fx = game_.last_effects();
  kitty_before_end_ = kitty_before + fx.rosettes * game_.rules().fine;
  const Position& after = game_.position();
  if (fx.bounces) out_ << "Bounced: the counter lands on a stack and goes back off the board.\n";
  if (fx.rosettes && game_.rules().fine)
    out_ << display_name(actor) << " pays a fine of " << game_.rules().fine
         << " into the kitty for the rosette.\n";
  if (fx.doubled && m.kind == MoveKind::kMove) {
    const bool moved_on = after.count[index_of(actor)][m.to] == before.count[index_of(actor)][m.to];
    if (moved_on)
      out_ << "Double: the counter moves " << value << " again, "
           << (m.to + value == e.off_index() ? "and bears off"
                                             : "to " + index_name(e, actor, m.to + value))
           << ".\n";
    else
      out_ << "Double: no room to move " << value << " again; the award lapses.\n";
  }
  if (fx.won) return;
  if (after.phase == Phase::kAwaitingForfeit)
    out_ << "Forfeit: " << display_name(after.turn) << " moves a counter "
         << game_.rules().forfeit_move << " (forfeit).\n";
  if (after.phase == Phase::kAwaitingAward)
    out_ << "Award: " << display_name(after.turn) << " may enter a counter onto S.\n";
  if (game_.rules().turn_mode == TurnMode::kSingleThrow && before.phase == Phase::kAwaitingMove &&
      after.phase == Phase::kAwaitingRoll && after.turn == actor)
    out_ << display_name(actor) << " throws again ("
         << (fx.captures && !fx.extra ? "capture" : "rosette") << ").\n";
}

bool PlaySession::decide() {
  const MoveList moves = game_.legal_moves();
  const Position& pos = game_.position();
  const Player p = pos.turn;
  out_ << '\n' << render_view(game_, style_);
  if (!seats_[index_of(p)].human()) {
    const Move m = seats_[index_of(p)].agent->choose(game_.engine(), pos, std::stop_token{});
    // An engine program that crashed, hung or cheated loses the game.
    if (std::string why = seats_[index_of(p)].agent->failure(); !why.empty()) {
      out_ << display_name(p) << " forfeits: " << seats_[index_of(p)].label << " " << why << "\n";
      return game_.end_by(p, EndReason::kLeft).ok();
    }
    play(m);
    out_ << std::flush;
    if (delay_ms_ > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_));
    return true;
  }
  int choice = 0;
  switch (ask_human(moves, choice)) {
    case Outcome::kChose:
      play(moves[choice]);
      break;
    case Outcome::kResigned:
      break;
    case Outcome::kEndOfInput:
      return false;
  }
  return true;
}

void PlaySession::summary() {
  const Engine& e = game_.engine();
  const Player w = *game_.winner();
  const Player l = other(w);
  out_ << "\n=== Game over ===\n" << render_view(game_, style_);
  for (Player p : {Player::kLight, Player::kDark}) {
    const PlayerStats& st = game_.stats(p);
    out_ << display_name(p) << ": borne off " << e.borne_off(game_.position(), p) << "/"
         << e.pieces() << ", captures " << st.captures << ", rosettes landed " << st.rosettes
         << ", throws " << st.throws;
    if (e.rules().bounce) out_ << ", bounced " << st.bounces;
    out_ << '\n';
  }
  if (game_.rules().stake != 0 || game_.rules().fine != 0)
    out_ << "Kitty: " << display_name(w) << " takes " << kitty_before_end_ << "; balances Light "
         << game_.balance(Player::kLight) << ", Dark " << game_.balance(Player::kDark) << ".\n";
  std::string last = display_name(w) + " wins";
  if (game_.end_reason() == EndReason::kResign) {
    last += " (" + display_name(l) + " resigned)";
  } else if (game_.end_reason() == EndReason::kLeft) {
    last += " (" + display_name(l) + " forfeited)";
  } else {
    last += " by bearing off all " + std::to_string(e.pieces()) + " pieces";
  }
  if (game_.rules().scored_win) last += ", score " + std::to_string(game_.win_score());
  out_ << last << ".\n" << std::flush;
}

int PlaySession::run() {
  const RuleSet& r = game_.rules();
  out_ << "The Royal Game of Ur " << dash_ << " " << r.name << " (" << r.to_string() << ")\n"
       << "Light (" << piece_glyph(Player::kLight, style_) << ", rank 1): " << seats_[0].label
       << "; Dark (" << piece_glyph(Player::kDark, style_) << ", rank 3): " << seats_[1].label
       << "\n"
       << r.summary << '\n';
  if (seats_[0].human() || seats_[1].human())
    out_ << "At your turn type the number of a move; h for help, r to resign, q to quit.\n";
  for (int actions = 0; !game_.is_over(); ++actions) {
    if (actions >= kMaxActions) {
      out_ << "The game did not end after " << kMaxActions << " actions; stopping.\n";
      return 1;
    }
    if (game_.awaiting_throw())
      narrate_throw();
    else if (!decide())
      return kExitEndOfInput;
  }
  summary();
  return 0;
}

}  // namespace ur::cli
