// Shared helpers for the unit and conformance tests.
//
// Tests build positions from piece lists or position strings and compare move sets as sets of
// (from, to) pairs, because move order and flags are the engine's business, the set is the
// rule. Helpers that can fail (a bad piece list, a bad position string) throw
// std::runtime_error with the notation's own message, so a mistake in a test reads clearly in
// the GoogleTest output instead of crashing.
#pragma once

#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "engine/engine.h"
#include "engine/notation.h"
#include "engine/random.h"
#include "rules/presets.h"
#include "rules/rule_set.h"

namespace ur::test {

// The two sides by the short names the tests write positions with.
inline constexpr Player kL = Player::kLight;
inline constexpr Player kD = Player::kDark;

// Every preset id, in display order.
inline std::vector<std::string> preset_ids() {
  std::vector<std::string> ids;
  for (const PresetInfo& p : preset_list()) ids.push_back(p.id);
  return ids;
}

// GoogleTest parameter names may hold only letters, digits and '_'.
inline std::string test_name(std::string id) {
  for (char& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return id;
}

// The name of a test instantiated over preset ids (INSTANTIATE_TEST_SUITE_P's name generator).
inline std::string param_name(const ::testing::TestParamInfo<std::string>& param) {
  return test_name(param.param);
}

inline Engine make_engine(std::string_view rules) {
  return Engine(rule_set_or_throw(rules));
}

// A position awaiting `turn`'s throw; -1 = not entered in staging rule sets.
inline Position pieces(const Engine& e, Player turn, const std::vector<int>& light,
                       const std::vector<int>& dark) {
  PositionResult r = position_from_pieces(e, turn, light, dark);
  if (auto* err = std::get_if<Error>(&r)) throw std::runtime_error(err->message);
  return std::get<Position>(r);
}

inline Position parse(const Engine& e, std::string_view text) {
  PositionResult r = parse_position_string(e, text);
  if (auto* err = std::get_if<Error>(&r)) throw std::runtime_error(err->message);
  return std::get<Position>(r);
}

using MoveSet = std::set<std::pair<int, int>>;

inline MoveSet move_set(const MoveList& moves) {
  MoveSet s;
  for (const Move& m : moves) s.emplace(m.from, m.to);
  return s;
}

inline MoveSet moves_for(const Engine& e, const Position& p, int k) {
  MoveList moves;
  e.moves_for_throw(p, k, moves);
  return move_set(moves);
}

inline MoveSet legal(const Engine& e, const Position& p) {
  MoveList moves;
  e.legal_moves(p, moves);
  return move_set(moves);
}

// The move of `moves` from `from` to `to`; throws when there is none.
inline Move find_move(const MoveList& moves, int from, int to) {
  for (const Move& m : moves)
    if (m.kind == MoveKind::kMove && m.from == from && m.to == to) return m;
  throw std::runtime_error("no move " + std::to_string(from) + "->" + std::to_string(to));
}

inline Move find_move(const Engine& e, const Position& p, int from, int to) {
  MoveList moves;
  e.legal_moves(p, moves);
  return find_move(moves, from, to);
}

// Samples a chance outcome from the engine's own chance list, so that the list itself is what
// random play exercises (a coin call included).
inline int sample_outcome(const Engine& e, const Position& p, Rng& rng) {
  const ChanceList outcomes = e.chance_outcomes(p);
  if (outcomes.size == 0) throw std::runtime_error("no chance outcomes at a chance node");
  double u = rng.uniform();
  for (const ChanceOutcome& c : outcomes) {
    if (u < c.probability) return c.outcome;
    u -= c.probability;
  }
  return outcomes.items[outcomes.size - 1].outcome;  // rounding: the last outcome
}

inline double probability_sum(const ChanceList& outcomes) {
  double sum = 0;
  for (const ChanceOutcome& c : outcomes) sum += c.probability;
  return sum;
}

inline std::string describe(const Engine& e, const Position& p) {
  return to_position_string(e, p);
}

inline std::string data_path(std::string_view relative) {
  // Appended in place: GCC 12's -Warray-bounds misfires on `string(literal) + "/"` for some
  // lengths of the checkout's path, which would make the build depend on where it is cloned.
  std::string path(UR_TEST_DATA_DIR);
  path.append("/").append(relative);
  return path;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

// The file at `path` with its bytes changed by `edit`, written to `out` (the damaged files the
// readers of tables and networks must refuse); returns `out`.
inline std::string edited_copy(const std::string& path, const std::string& out,
                               const std::function<void(std::string&)>& edit) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  edit(bytes);
  std::ofstream(out, std::ios::binary | std::ios::trunc) << bytes;
  return out;
}

// Two damaged copies of the file at `path` in directory `dir`: cut 10 bytes short, and with a
// bit of its middle byte flipped.
inline std::vector<std::string> damaged_copies(const std::string& path, const std::string& dir) {
  return {edited_copy(path, dir + "/cut.bin", [](std::string& b) { b.resize(b.size() - 10); }),
          edited_copy(path, dir + "/flip.bin", [](std::string& b) { b[b.size() / 2] ^= 0x10; })};
}

}  // namespace ur::test
