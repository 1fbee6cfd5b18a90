// Board view: the text drawing of a position and the words for its moves, for `ur play`.
//
// The drawing follows docs/rules.md §1: rank 3 (dark's private row) on top, the shared rank 2 in
// the middle, rank 1 (light's row) at the bottom, files a.. left to right, labelled on both
// axes. It works for every board shape (STD20's 8 files, ASEB20's 12 with ranks 1 and 3 only
// up to file d) because it walks the rule set's board, never a fixed picture. Every square is
// five columns wide, "[mgn]": m the square's marking (rosette, the boxed game's double and
// forfeit squares), g the glyph of the colour on it, n the count when a stacking rule set
// puts several pieces there. The gap cells (e1 f1 e3 f3) stay blank.
//
// Plain ASCII is the baseline and must stay readable on its own (pipes, logs, tests); the
// Unicode style only swaps glyphs and adds ANSI colour, keeping every square five columns.
#pragma once

#include <string>

#include "engine/game.h"

namespace ur::cli {

struct BoardStyle {
  bool unicode = false;  // Unicode glyphs for pieces and rosettes
  bool colour = false;   // ANSI colour escapes
};

// The glyph of a colour's pieces ("L" / "D" in ASCII), without colour escapes.
std::string piece_glyph(Player p, const BoardStyle& style);

// "Light" / "Dark", for the start of a sentence.
std::string display_name(Player p);

// The board grid with file and rank labels and a one-line legend, '\n'-terminated lines.
std::string render_board(const Engine& engine, const Position& pos, const BoardStyle& style);

// One player's status line: glyph, pieces waiting, on S (staging rule sets), on the board,
// borne off, the balance (rule sets with stakes), and who is to act.
std::string render_status(const Game& game, Player p, const BoardStyle& style);

// The full view: dark's status, the board, light's status, and the kitty when there is one.
std::string render_view(const Game& game, const BoardStyle& style);

// The board name of a path index for player p: a square ("d1"), "S" for the staging space,
// "start" for off-board entry, "off" for bear-off.
std::string index_name(const Engine& engine, Player p, int index);

// A move in words, for p (the player deciding in pos): "enter to d1", "c2 -> e2 captures",
// "g1 -> off", "enter a counter onto S", "award: yes, enter a counter onto S".
std::string describe_move(const Engine& engine, const Position& pos, const Move& m);

}  // namespace ur::cli
