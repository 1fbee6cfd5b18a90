// `ur play`: a game in the terminal, any rule set, each seat a person or a computer player.
//
// The game runs on ur::Game; this file only narrates it and asks for decisions. Throws come
// from one Rng seeded with --seed and the bot breaks ties with a second one derived from the
// same seed, so a seed fixes the whole game whoever sits where. Everything goes through plain
// streams, flushed before every read, so the game plays through a pipe as well as on a TTY;
// colour and Unicode are used only when stdout is a terminal and --ascii is not given.
//
// Exit status: 0 when the game ended (a win or a resignation), 2 for bad options, 3 when the
// input ended while a person had to decide.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <tuple>

#include "ai/agent.h"
#include "ai/external_agent.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "engine/game.h"
#include "engine/game_record.h"

namespace ur::cli {
namespace {

// A seat: a person at the keyboard, or a computer player (an agent of src/ai).
struct Seat {
  std::unique_ptr<ai::Agent> agent;  // nullptr: human
  std::string label;                 // "human", "computer (medium)", "expectimax(depth=3)"
  bool human() const { return agent == nullptr; }
};

constexpr int kExitBadOption = 2;
constexpr int kExitEndOfInput = 3;
// No real game comes near this; it only guarantees the command ends if something is wrong.
constexpr int kMaxActions = 1'000'000;

// "human"/"h", "computer"/"c" (the --level player), a difficulty level or an agent spec.
std::variant<Seat, std::string> parse_seat(std::string s, const std::string& level,
                                           const std::string& table, const RuleSet& rules,
                                           std::uint64_t seed) {
  std::string lower = s;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  if (lower == "human" || lower == "h") return Seat{nullptr, "human"};
  std::string spec = s;
  std::string label = s;
  if (lower == "computer" || lower == "c" || lower == "bot") {
    spec = level;
    label = "computer (" + level + ")";
  }
  // --table: the perfect player reads that file (and refuses one of another rule set).
  spec = ai::with_perfect_table(spec, table);
  // A level plays as its spec; the perfect level without a table says so and plays as hard.
  if (std::string note = ai::level_note(spec, rules); !note.empty()) {
    std::cerr << "ur play: " << note << "\n";
    label = "computer (hard: no table for perfect)";
  }
  if (std::string level_agent = ai::level_spec(spec, rules); !level_agent.empty())
    spec = level_agent;
  ai::AgentResult made = ai::make_agent(spec, rules, seed);
  if (auto* e = std::get_if<ai::AgentError>(&made)) return e->message;
  return Seat{std::move(std::get<std::unique_ptr<ai::Agent>>(made)), label};
}

std::string trim_lower(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\r\n");
  std::string out = s.substr(b, e - b + 1);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return out;
}

class PlaySession {
 public:
  PlaySession(Game game, std::array<Seat, 2> seats, std::uint64_t seed, BoardStyle style,
              int delay_ms)
      : game_(std::move(game)),
        seats_(std::move(seats)),
        dice_(seed),
        style_(style),
        delay_ms_(delay_ms),
        dash_(style.unicode ? "\u2014" : "-") {}

  int run();
  const Game& game() const { return game_; }

 private:
  enum class Outcome : std::uint8_t { kChose, kResigned, kEndOfInput };

  void narrate_throw();
  void narrate_pass(Player thrower, int k);
  std::string throw_text(int k) const;
  bool decide();  // false when the input ended
  Outcome ask_human(const MoveList& moves, int& choice);
  void print_choices(const MoveList& moves);
  void play(const Move& m);
  std::string action_sentence(Player p, const Move& m) const;
  void summary();

  Game game_;
  std::array<Seat, 2> seats_;
  Rng dice_;
  BoardStyle style_;
  int delay_ms_;
  std::string dash_;
  int kitty_before_end_ = 0;
  bool stdin_tty_ = ::isatty(::fileno(stdin)) != 0;
  std::ostream& out_ = std::cout;
};

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

}  // namespace

void add_play_command(CLI::App& app) {
  struct Options {
    std::string rules = "finkel";
    std::string light = "human";
    std::string dark = "computer";
    std::string level = "medium";
    std::string table;
    std::string record;
    std::optional<std::uint64_t> seed;
    bool ascii = false;
    int delay_ms = 0;
    int engine_timeout = ai::kDefaultEngineTimeoutMs;
  };
  auto opt = std::make_shared<Options>();
  auto* cmd = app.add_subcommand(
      "play",
      "Play a game in the terminal. Each seat is a person (types move numbers) or the computer.\n"
      "Works through a pipe: input is read line by line, the board is drawn in ASCII.");
  cmd->add_option("--rules,-r", opt->rules, "preset or rule-set string, e.g. finkel(pieces=5)")
      ->capture_default_str();
  cmd->add_option(
         "--light", opt->light,
         "who plays light: human, computer, a level (beginner easy medium hard perfect) "
         "an agent spec such as \"expectimax(depth=3)\", or engine:PATH ARGS (a UEP program)")
      ->capture_default_str();
  cmd->add_option("--dark", opt->dark, "who plays dark (as --light)")->capture_default_str();
  cmd->add_option("--level", opt->level, "the level of a seat given as `computer`")
      ->capture_default_str();
  cmd->add_option("--table", opt->table,
                  "the solved table of the perfect player (default: DATA/tables/<rules>.urt, "
                  "DATA from UR_DATA_DIR, else ./data)")
      ->check(CLI::ExistingFile);
  cmd->add_option("--record", opt->record,
                  "write the game record (JSON, docs/notation.md) to this file when the game "
                  "ends or the input does; `ur analyse FILE` grades its moves");
  cmd->add_option("--seed", opt->seed, "seed for the dice (default: random, printed)");
  cmd->add_flag("--ascii", opt->ascii, "plain ASCII board without colour");
  cmd->add_option("--engine-timeout", opt->engine_timeout,
                  "ms a seat given as engine:PATH ARGS (a UEP program) may take for a move")
      ->check(CLI::Range(1, 3'600'000))
      ->capture_default_str();
  cmd->add_option("--delay-ms", opt->delay_ms, "pause after each computer move")
      ->check(CLI::Range(0, 60'000))
      ->capture_default_str();
  cmd->callback([opt] {
    RuleSetResult parsed = parse_rule_set(opt->rules);
    if (auto* err = std::get_if<RuleSetError>(&parsed)) {
      std::cerr << "ur play: bad --rules value: " << err->message << '\n';
      exit_status() = kExitBadOption;
      return;
    }
    std::uint64_t seed = 0;
    if (opt->seed) {
      seed = *opt->seed;
    } else {
      std::random_device rd;
      seed = (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
    }
    const RuleSet& rules = std::get<RuleSet>(parsed);
    // Each computer seat draws from its own stream of the seed, apart from the dice.
    opt->light = ai::with_engine_timeout(opt->light, opt->engine_timeout);
    opt->dark = ai::with_engine_timeout(opt->dark, opt->engine_timeout);
    auto light =
        parse_seat(opt->light, opt->level, opt->table, rules, seed ^ 0x9e3779b97f4a7c15ULL);
    auto dark = parse_seat(opt->dark, opt->level, opt->table, rules, seed ^ 0xbf58476d1ce4e5b9ULL);
    for (const auto& [name, seat, value] :
         {std::tuple{"--light", &light, opt->light}, std::tuple{"--dark", &dark, opt->dark}}) {
      if (auto* err = std::get_if<std::string>(seat)) {
        std::cerr << "ur play: bad " << name << " value '" << value << "': " << *err
                  << " (expected human, computer, a level or an agent spec)\n";
        exit_status() = kExitBadOption;
        return;
      }
    }
    const bool tty = ::isatty(::fileno(stdout)) != 0;
    BoardStyle style;
    style.unicode = tty && !opt->ascii;
    style.colour = style.unicode && std::getenv("NO_COLOR") == nullptr;
    auto engine = std::make_shared<const Engine>(std::get<RuleSet>(parsed));
    if (!opt->seed)
      std::cout << "Seed " << seed << " (replay this game with --seed " << seed << ")\n";
    PlaySession session(Game(engine),
                        {std::get<Seat>(std::move(light)), std::get<Seat>(std::move(dark))}, seed,
                        style, opt->delay_ms);
    exit_status() = session.run();
    if (!opt->record.empty()) {
      std::ofstream out(opt->record, std::ios::binary | std::ios::trunc);
      out << record_to_string(session.game(), seed);
      out.close();
      if (!out) {
        std::cerr << "ur play: cannot write the record to " << opt->record << "\n";
        if (exit_status() == 0) exit_status() = 1;
      }
    }
  });
}

}  // namespace ur::cli
