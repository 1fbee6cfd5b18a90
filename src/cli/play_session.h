// PlaySession: one game of `ur play` in the terminal (cmd_play.cpp parses the options and seats
// the players). The game runs on ur::Game; the session only narrates it and asks for decisions.
// Throws come from one Rng seeded with the game's seed, so a seed fixes the whole game whoever
// sits where. Everything goes through plain streams, flushed before every read, so the game plays
// through a pipe as well as on a TTY.
#pragma once

#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <memory>
#include <string>

#include "ai/agent.h"
#include "cli/board_view.h"
#include "engine/game.h"
#include "engine/random.h"

namespace ur::cli {

// A seat: a person at the keyboard, or a computer player (an agent of src/ai).
struct Seat {
  std::unique_ptr<ai::Agent> agent;  // nullptr: human
  std::string label;                 // "human", "computer (medium)", "expectimax(depth=3)"
  bool human() const { return agent == nullptr; }
};

// The exit status of a game whose input ended while a person had to decide.
inline constexpr int kExitEndOfInput = 3;

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

}  // namespace ur::cli
