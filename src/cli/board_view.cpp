#include "cli/board_view.h"

#include <array>
#include <string_view>
#include <vector>

namespace ur::cli {
namespace {

constexpr std::string_view kReset = "\x1b[0m";
constexpr std::string_view kLightColour = "\x1b[1;33m";  // bold yellow
constexpr std::string_view kDarkColour = "\x1b[1;31m";   // bold red
constexpr std::string_view kRosetteColour = "\x1b[32m";
constexpr std::string_view kSpecialColour = "\x1b[36m";
constexpr std::string_view kFrameColour = "\x1b[2m";  // dim brackets keep the pieces prominent

std::string paint(std::string_view text, std::string_view colour, const BoardStyle& style) {
  if (!style.colour) return std::string(text);
  return std::string(colour) + std::string(text) + std::string(kReset);
}

std::string coloured_glyph(Player p, const BoardStyle& style) {
  return paint(piece_glyph(p, style), p == Player::kLight ? kLightColour : kDarkColour, style);
}

// The marking character of a square, and the colour to draw it in.
struct Mark {
  std::string text = " ";
  std::string_view colour;
};

Mark mark_of(const RuleSet& rules, Cell c, const BoardStyle& style) {
  const SquareRule* sq = rules.square(c);
  if (sq == nullptr) return {};
  if (sq->special == Special::kDoubleMove) return {"=", kSpecialColour};
  if (sq->special == Special::kForfeit) return {"!", kSpecialColour};
  if (sq->rosette) return {style.unicode ? "\u273f" : "*", kRosetteColour};
  return {};
}

bool has_special(const RuleSet& rules, Special s) {
  for (const SquareRule& sq : rules.squares)
    if (sq.special == s) return true;
  return false;
}

}  // namespace

std::string piece_glyph(Player p, const BoardStyle& style) {
  if (style.unicode) return p == Player::kLight ? "\u25cf" : "\u25a0";  // ● ■
  return p == Player::kLight ? "L" : "D";
}

std::string display_name(Player p) {
  return p == Player::kLight ? "Light" : "Dark";
}

std::string render_board(const Engine& engine, const Position& pos, const BoardStyle& style) {
  const RuleSet& rules = engine.rules();
  const Board& board = rules.board_layout();
  const int n = engine.path_length();

  // Pieces per cell and colour. A Murray path visits a cell under two indices; sum them.
  std::array<std::array<int, kCells>, 2> on{};
  for (int pl = 0; pl < 2; ++pl)
    for (int i = 1; i <= n; ++i) {
      const Cell c = engine.cell_at(static_cast<Player>(pl), i);
      if (c != kNoCell) on[pl][c] += pos.count[pl][i];
    }

  std::string out = "   ";
  for (int f = 1; f <= board.files; ++f) {
    out += "  ";
    out += static_cast<char>('a' + f - 1);
    out += "  ";
  }
  while (out.back() == ' ') out.pop_back();
  out += '\n';
  for (int rank = kRanks; rank >= 1; --rank) {
    std::string row = std::to_string(rank) + "  ";
    for (int f = 1; f <= board.files; ++f) {
      const Cell c = make_cell(f, rank);
      if (board.find(c) == nullptr) {
        row += "     ";  // a gap (e1 f1 e3 f3) or Aseb's missing squares
        continue;
      }
      const Mark mark = mark_of(rules, c, style);
      const int light = on[0][c], dark = on[1][c];
      std::string inner;
      if (light == 0 && dark == 0) {
        inner.append(" ").append(paint(mark.text, mark.colour, style)).append(" ");
      } else {
        // Both colours on one cell cannot happen in a legal position; light is shown first.
        const Player who = light > 0 ? Player::kLight : Player::kDark;
        const int count = light > 0 ? light : dark;
        inner = paint(mark.text, mark.colour, style) + coloured_glyph(who, style) +
                (count > 1 ? std::to_string(count) : std::string(" "));
      }
      row += paint("[", kFrameColour, style) + inner + paint("]", kFrameColour, style);
    }
    out += row + "  " + std::to_string(rank) + '\n';
  }

  std::string legend = "   " + coloured_glyph(Player::kLight, style) + " light  " +
                       coloured_glyph(Player::kDark, style) + " dark  " +
                       paint(style.unicode ? "\u273f" : "*", kRosetteColour, style) + " rosette";
  if (has_special(rules, Special::kDoubleMove))
    legend += "  " + paint("=", kSpecialColour, style) + " double move";
  if (has_special(rules, Special::kForfeit))
    legend += "  " + paint("!", kSpecialColour, style) + " forfeit";
  if (rules.stacking) legend += "  " + piece_glyph(Player::kLight, style) + "3 = three pieces";
  out += legend + '\n';
  return out;
}

std::string render_status(const Game& game, Player p, const BoardStyle& style) {
  const Engine& e = game.engine();
  const Position& pos = game.position();
  const int pl = index_of(p);
  const int waiting = e.waiting(pos, p);
  const int staged = e.has_staging() ? pos.count[pl][0] : 0;
  const int off = e.borne_off(pos, p);
  const int on_board = e.pieces() - waiting - staged - off;

  std::string s = display_name(p) + (p == Player::kLight ? " " : "  ") + coloured_glyph(p, style) +
                  "  to enter " + std::to_string(waiting);
  if (e.has_staging()) s += "  on S " + std::to_string(staged);
  s += "  on board " + std::to_string(on_board) + "  borne off " + std::to_string(off) + "/" +
       std::to_string(e.pieces());
  if (game.rules().stake != 0 || game.rules().fine != 0)
    s += "  balance " + std::string(game.balance(p) > 0 ? "+" : "") +
         std::to_string(game.balance(p));

  if (game.is_over()) {
    if (game.winner() == p) s += "  <- wins";
  } else if (pos.turn == p) {
    switch (pos.phase) {
      case Phase::kStart:
      case Phase::kRollOff:
      case Phase::kAwaitingRoll:
        s += "  <- to throw";
        break;
      case Phase::kAwaitingMove:
        s += "  <- to move";
        break;
      case Phase::kAwaitingAward:
        s += "  <- award";
        break;
      case Phase::kAwaitingForfeit:
        s += "  <- forfeit move";
        break;
      case Phase::kGameOver:
        break;
    }
  }
  return s + '\n';
}

std::string render_view(const Game& game, const BoardStyle& style) {
  std::string out = render_status(game, Player::kDark, style);
  out += render_board(game.engine(), game.position(), style);
  out += render_status(game, Player::kLight, style);
  if (game.rules().stake != 0 || game.rules().fine != 0)
    out += "Kitty " + std::to_string(game.kitty()) + '\n';
  return out;
}

std::string index_name(const Engine& engine, Player p, int index) {
  if (index == kPool) return "start";
  if (index == 0) return engine.has_staging() ? "S" : "start";
  if (index >= engine.off_index()) return "off";
  return cell_name(engine.cell_at(p, index));
}

std::string describe_move(const Engine& engine, const Position& pos, const Move& m) {
  if (m.kind == MoveKind::kAwardYes) return "award: yes, enter a counter onto S";
  if (m.kind == MoveKind::kAwardNo) return "award: no, enter nothing";
  if (m.from == kPool) return "enter a counter onto S";

  const Player p = pos.turn;
  std::string s;
  if (m.from == 0 && !engine.has_staging())
    s = "enter to " + index_name(engine, p, m.to);
  else
    s = index_name(engine, p, m.from) + " -> " + index_name(engine, p, m.to);

  if (m.flags & move_flag::kCapture) s += " captures";
  std::vector<std::string> notes;
  if (m.flags & move_flag::kBounce) {
    notes.emplace_back("bounced back by a stack");  // the landing itself then does nothing
  } else {
    if (m.flags & move_flag::kRosette) notes.emplace_back("rosette");
    if (m.flags & move_flag::kDouble) notes.emplace_back("double");
    if (m.flags & move_flag::kForfeit) notes.emplace_back("forfeit");
  }
  if (!notes.empty()) {
    s += " (";
    for (std::size_t i = 0; i < notes.size(); ++i) s += (i ? ", " : "") + notes[i];
    s += ")";
  }
  return s;
}

}  // namespace ur::cli
