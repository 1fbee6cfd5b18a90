// StateIndex: the bijection between the states of a rule set and 0..S-1 that a table is read
// with, in whichever encoding serves the rule set:
//
//   DenseIndex     (dense_index.h) paths without repeats, one piece a square, no staging: the
//                  fast one, for Finkel, Masters, Bell and their kin
//   MultisetIndex  (multiset_index.h) everything else the engine plays: Murray's paths that
//                  visit squares twice, the boxed game's stacks and staging space
//
// create() picks the dense index where it applies and the multiset index otherwise; a table
// file records which (its encoding id), so a table is never read with the other. The solver
// works on the concrete encodings (dense() / multiset()); readers of tables use rank().
#pragma once

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "solver/dense_index.h"
#include "solver/multiset_index.h"

namespace ur::solver {

class StateIndex;
using StateIndexResult = Result<StateIndex>;

// kAuto: the dense index where it applies, else the multiset index. The multiset index also
// serves every rule set the dense one does (`ur solve --encoding multiset`), which is how the
// two are checked against each other.
enum class Encoding : std::uint8_t { kAuto, kDense, kMultiset };

class StateIndex {
 public:
  // endgame = k > 0: the multiset index of the states where each side has at most k pieces
  // left (an endgame table; MultisetIndex::create), whatever `encoding` says.
  static StateIndexResult create(const Engine& engine, Encoding encoding = Encoding::kAuto,
                                 int endgame = 0);
  // The index of the kind a table's encoding id names, an endgame index when it names one (the
  // caller still compares the ids: another layout of the same kind is refused there).
  static StateIndexResult for_table(const Engine& engine, const std::string& encoding_id);
  // The k of an encoding id's ":endgame<k>" suffix, 0 when it has none.
  static int endgame_of(const std::string& encoding_id);

  std::uint64_t size() const;
  const std::vector<Layer>& layers() const;
  std::string encoding_id() const;
  // The index of a position awaiting a throw (Phase::kAwaitingRoll, game not over).
  std::uint64_t rank(const Position& p) const {
    if (const auto* d = std::get_if<DenseIndex>(&index_)) return d->rank(p);
    return std::get<MultisetIndex>(index_).rank(p);
  }
  // 0 for a whole game's index, else k: each side has at most k pieces left in its states.
  int endgame() const {
    const auto* m = multiset();
    return m != nullptr ? m->endgame() : 0;
  }
  // Whether rank() may be asked about p (awaiting a throw): always for a whole game's index;
  // for an endgame index, when both sides have at most k pieces left.
  bool contains(const Position& p) const {
    const auto* m = multiset();
    return m == nullptr || m->contains(p);
  }
  // The position of an index, light to move.
  Position unrank(std::uint64_t index) const;
  const Engine& engine() const;

  const DenseIndex* dense() const { return std::get_if<DenseIndex>(&index_); }
  const MultisetIndex* multiset() const { return std::get_if<MultisetIndex>(&index_); }

 private:
  explicit StateIndex(std::variant<DenseIndex, MultisetIndex> index) : index_(std::move(index)) {}
  std::variant<DenseIndex, MultisetIndex> index_;
};

}  // namespace ur::solver
