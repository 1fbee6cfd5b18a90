// The multiset encoding (Murray's paths, the boxed game's stacks): a bijection, values that
// satisfy the Bellman equation with the boxed game's awards, doubles and forfeits as decisions,
// agreement with an independent reference solver, the same values as the dense index where both
// apply, and tables of the wrong encoding or rule set refused.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "../test_util.h"
#include "engine/notation.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

// A namespace of its own: the unity build may batch this file with the other solver tests.
namespace ur::solver::multiset_test {
namespace {

struct Solved {
  Engine engine;
  StateIndex index;
  ValueIteration vi;
  Solved(const std::string& rules, Encoding encoding)
      : engine(rule_set_or_throw(rules)),
        index(std::get<StateIndex>(StateIndex::create(engine, encoding))),
        vi(index, SolveOptions{}) {
    vi.solve({});
  }
};

Solved& solved(const std::string& rules, Encoding encoding = Encoding::kMultiset) {
  static std::map<std::pair<std::string, Encoding>, std::unique_ptr<Solved>> cache;
  auto& slot = cache[{rules, encoding}];
  if (!slot) slot = std::make_unique<Solved>(rules, encoding);
  return *slot;
}

// A position awaiting a throw with the mover as light, as the index stores it.
Position normalised(const Engine& e, Position p) {
  if (p.turn == Player::kDark) {
    std::swap(p.count[0], p.count[1]);
    std::swap(p.pool[0], p.pool[1]);
    p.turn = p.next = Player::kLight;
    e.refresh_masks(p);
  }
  return p;
}

const char* const kSmall[] = {"murray(pieces=2)", "murray-royalur(pieces=2)", "boxed(pieces=2)",
                              "finkel(pieces=2)", "bell(pieces=2)"};

TEST(MultisetIndex, IsABijectionOnSmallRuleSetsOfEachKind) {
  for (const char* rules : kSmall) {
    Engine e(rule_set_or_throw(rules));
    StateIndex idx = std::get<StateIndex>(StateIndex::create(e, Encoding::kMultiset));
    ASSERT_NE(idx.multiset(), nullptr);
    std::set<std::string> seen;
    std::uint64_t expected = 0;
    for (const Layer& l : idx.layers()) {
      ASSERT_EQ(l.begin, expected) << rules;
      expected = l.end;
    }
    ASSERT_EQ(expected, idx.size()) << rules;
    for (std::uint64_t i = 0; i < idx.size(); ++i) {
      const Position p = idx.unrank(i);
      ASSERT_EQ(e.check(p), "") << rules << " " << i;
      ASSERT_EQ(idx.rank(p), i) << rules << " " << to_position_string(e, p);
      seen.insert(to_position_string(e, p));
    }
    EXPECT_EQ(seen.size(), idx.size()) << rules << ": two indices decode to one position";
  }
}

TEST(MultisetIndex, HoldsEveryPositionOfRealGames) {
  for (const char* rules : {"murray", "murray-royalur", "boxed", "boxed(pieces=4)"}) {
    Engine e(rule_set_or_throw(rules));
    StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
    ASSERT_NE(idx.multiset(), nullptr) << rules;
    Rng rng(5);
    int checked = 0;
    for (int game = 0; game < 40; ++game) {
      Position p = e.initial_position();
      MoveList moves;
      for (int ply = 0; ply < 3000 && !p.is_over(); ++ply) {
        if (p.phase == Phase::kAwaitingRoll) {
          const std::uint64_t i = idx.rank(p);
          ASSERT_LT(i, idx.size()) << rules;
          ASSERT_EQ(idx.unrank(i), normalised(e, p)) << rules << " " << to_position_string(e, p);
          ++checked;
        }
        if (p.is_chance()) {
          e.apply_throw(p, e.sample_throw(rng), moves);
        } else {
          e.legal_moves(p, moves);
          e.apply_move(p, moves[static_cast<int>(rng.below(moves.size))]);
        }
      }
    }
    EXPECT_GT(checked, 1000) << rules;
  }
}

TEST(MultisetIndex, CountsMatchTheirArithmetic) {
  // boxed(pieces=2): per side 2 counters over S, the 14 squares, the pool and off, no square
  // shared by both colours. Worked out in docs/solver.md; here the count of the index against
  // a brute-force enumeration of the same set.
  for (const char* rules : {"boxed(pieces=2)", "murray(pieces=2)"}) {
    Engine e(rule_set_or_throw(rules));
    StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
    const int n = e.path_length(), P = e.pieces();
    const bool staging = e.has_staging();
    std::uint64_t brute = 0;
    // Every (mover, opponent) pair of placements of P pieces over indices 0..n+1.
    std::vector<std::vector<int>> sides;
    std::vector<int> c(n + 2, 0);
    std::function<void(int, int)> place = [&](int i, int left) {
      if (i == n + 1) {
        c[n + 1] = left;
        if (left < P) sides.push_back(c);
        return;
      }
      for (int k = 0; k <= left; ++k) {
        c[i] = k;
        place(i + 1, left - k);
      }
      c[i] = 0;
    };
    place(0, P);
    for (const auto& m : sides)
      for (const auto& o : sides) {
        Position p;
        for (int i = 0; i <= n + 1; ++i) p.count[0][i] = static_cast<std::uint8_t>(m[i]);
        for (int i = 0; i <= n + 1; ++i) p.count[1][i] = static_cast<std::uint8_t>(o[i]);
        if (staging) {
          p.pool[0] = 0, p.pool[1] = 0;  // S and the pool: count the split of index 0
          for (int s0 = 0; s0 <= m[0]; ++s0)
            for (int s1 = 0; s1 <= o[0]; ++s1) {
              Position q = p;
              q.count[0][0] = static_cast<std::uint8_t>(s0);
              q.pool[0] = static_cast<std::uint8_t>(m[0] - s0);
              q.count[1][0] = static_cast<std::uint8_t>(s1);
              q.pool[1] = static_cast<std::uint8_t>(o[0] - s1);
              e.refresh_masks(q);
              brute += e.check(q).empty();
            }
          continue;
        }
        e.refresh_masks(p);
        brute += e.check(p).empty();
      }
    EXPECT_EQ(idx.size(), brute) << rules;
  }
}

// The mover's value of a position inside a turn: decisions taken by whoever decides there,
// positions awaiting a throw read through `leaf` (the mover's value of that position's mover).
template <typename Leaf>
double within_turn(const Engine& e, const Position& r, Player mover, Leaf&& leaf) {
  if (r.is_over()) return r.turn == mover ? 1.0 : 0.0;
  if (r.phase == Phase::kAwaitingRoll) return r.turn == mover ? leaf(r) : 1.0 - leaf(r);
  MoveList moves;
  e.legal_moves(r, moves);
  double best = r.turn == mover ? -1.0 : 2.0;
  for (const Move& m : moves) {
    Position s = r;
    e.apply_move(s, m);
    const double v = within_turn(e, s, mover, leaf);
    best = r.turn == mover ? std::max(best, v) : std::min(best, v);
  }
  return best;
}

TEST(MultisetIndex, ValuesSatisfyTheBellmanEquationEverywhere) {
  for (const char* rules : {"murray(pieces=2)", "boxed(pieces=2)"}) {
    Solved& s = solved(rules);
    auto leaf = [&](const Position& q) {
      return static_cast<double>(s.vi.values()[s.index.rank(q)]);
    };
    double worst = 0;
    for (std::uint64_t i = 0; i < s.index.size(); ++i) {
      const Position p = s.index.unrank(i);
      double total = 0;
      for (const ChanceOutcome& c : s.engine.chance_outcomes(p)) {
        Position q = p;
        s.engine.apply_throw(q, c.outcome);
        total += c.probability * within_turn(s.engine, q, p.turn, leaf);
      }
      worst = std::max(worst, std::fabs(total - s.vi.values()[i]));
    }
    EXPECT_LT(worst, 1e-6) << rules;
    EXPECT_LT(s.vi.max_residual(), 1e-6) << rules;
  }
}

// An independent reference: every position the engine's move generator reaches from the start
// (throws, moves, awards, forfeit responses, the roll-off or the coin call), in a dictionary
// keyed by the position's fields; each value is the chance of the side to act there, iterated
// in place in double precision. No index, no layers, no streams.
std::string key(const Position& p) {
  std::string k(reinterpret_cast<const char*>(p.count.data()), sizeof p.count);
  k += static_cast<char>(p.pool[0]);
  k += static_cast<char>(p.pool[1]);
  k += static_cast<char>(p.turn);
  k += static_cast<char>(p.next);
  k += static_cast<char>(p.phase);
  k += static_cast<char>(p.roll);
  return k;
}

void expect_agrees_with_a_reference_solver(const char* rules) {
  Solved& s = solved(rules);
  const Engine& e = s.engine;
  std::unordered_map<std::string, int> id;
  std::vector<Position> nodes;
  struct Edge {
    int to;         // -1: the game is over, won by `winner`
    double weight;  // the throw's probability at a chance node, else 0
    Player winner;
  };
  std::vector<Edge> edges;            // every node's edges, one after the other
  std::vector<std::size_t> first{0};  // node i's edges are [first[i], first[i + 1])
  auto intern = [&](const Position& p) {
    auto [it, fresh] = id.emplace(key(p), static_cast<int>(nodes.size()));
    if (fresh) nodes.push_back(p);
    return it->second;
  };
  intern(e.initial_position());
  MoveList moves;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Position p = nodes[i];
    auto add = [&](const Position& q, double w) {
      edges.push_back(q.is_over() ? Edge{-1, w, q.turn} : Edge{intern(q), w, q.turn});
    };
    if (p.is_chance()) {
      for (const ChanceOutcome& c : e.chance_outcomes(p)) {
        Position q = p;
        e.apply_throw(q, c.outcome, moves);
        add(q, c.probability);
      }
    } else {
      e.legal_moves(p, moves);
      for (const Move& m : moves) {
        Position q = p;
        e.apply_move(q, m);
        add(q, 0);
      }
    }
    first.push_back(edges.size());
  }
  // In place, latest-discovered first: values flow back from the game's end in fewer sweeps.
  std::vector<double> v(nodes.size(), 0.5);
  std::vector<char> chance(nodes.size());
  std::vector<Player> turn(nodes.size());
  for (std::size_t i = 0; i < nodes.size(); ++i)
    chance[i] = nodes[i].is_chance(), turn[i] = nodes[i].turn;
  int sweeps = 0;
  for (; sweeps < 20000; ++sweeps) {
    double change = 0;
    for (std::size_t i = nodes.size(); i-- > 0;) {
      const Player me = turn[i];
      double total = 0, best = -1;
      for (std::size_t k = first[i]; k < first[i + 1]; ++k) {
        const Edge& x = edges[k];
        const double mine =
            x.to < 0 ? (x.winner == me ? 1.0 : 0.0) : (turn[x.to] == me ? v[x.to] : 1.0 - v[x.to]);
        total += x.weight * mine;
        best = std::max(best, mine);
      }
      const double now = chance[i] ? total : best;
      change = std::max(change, std::fabs(now - v[i]));
      v[i] = now;
    }
    if (change < 1e-11) break;
  }
  double worst = 0;
  int compared = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (nodes[i].phase != Phase::kAwaitingRoll) continue;
    worst = std::max(worst, std::fabs(v[i] - s.vi.values()[s.index.rank(nodes[i])]));
    ++compared;
  }
  EXPECT_LT(worst, 1e-6) << rules << " over " << compared << " positions awaiting a throw, "
                         << nodes.size() << " in all, " << sweeps << " sweeps";
  EXPECT_GT(compared, 1000) << rules;
}

TEST(MultisetIndex, AgreesWithAReferenceSolverOnBoxed) {
  expect_agrees_with_a_reference_solver("boxed(pieces=2)");
}

// A million positions and a few hundred sweeps each: ten times slower under the sanitizers,
// where boxed(pieces=2) above checks the same code.
#ifndef __SANITIZE_ADDRESS__
TEST(MultisetIndex, AgreesWithAReferenceSolverOnMurray) {
  expect_agrees_with_a_reference_solver("murray(pieces=2)");
}

TEST(MultisetIndex, AgreesWithAReferenceSolverOnMurrayRoyalUr) {
  expect_agrees_with_a_reference_solver("murray-royalur(pieces=2)");
}
#endif

// The solver sweeps a layer in order of progress where the index's slots do not follow it
// (paths that come back over squares); the two reference-solver tests above solve such layers.
TEST(MultisetIndex, SaysWhereAPathComesBackOverItsSquares) {
  for (const auto& [rules, revisits] :
       std::vector<std::pair<std::string, bool>>{{"murray", true},
                                                 {"murray-royalur", true},
                                                 {"murray(pieces=2)", true},
                                                 {"boxed", false},
                                                 {"finkel", false},
                                                 {"bell", false},
                                                 {"masters(pieces=3)", false}}) {
    const Engine e(rule_set_or_throw(rules));
    const MultisetIndexResult index = MultisetIndex::create(e);
    ASSERT_TRUE(std::holds_alternative<MultisetIndex>(index)) << rules;
    EXPECT_EQ(std::get<MultisetIndex>(index).revisits(), revisits) << rules;
  }
}

TEST(MultisetIndex, GivesTheDenseIndexsValuesWhereBothApply) {
#ifdef __SANITIZE_ADDRESS__
  // Bell's 1.9 M states twice are ten times slower under the sanitizers.
  const std::vector<const char*> sets = {"finkel(pieces=2)"};
#else
  const std::vector<const char*> sets = {"finkel(pieces=3)", "bell"};
#endif
  for (const char* rules : sets) {
    Solved& dense = solved(rules, Encoding::kDense);
    Solved& multiset = solved(rules, Encoding::kMultiset);
    ASSERT_NE(dense.index.encoding_id(), multiset.index.encoding_id());
    ASSERT_EQ(dense.index.size(), multiset.index.size()) << rules << ": the same states";
    double worst = 0;
    for (std::uint64_t i = 0; i < dense.index.size(); ++i) {
      const Position p = dense.index.unrank(i);
      worst = std::max(worst, std::fabs(static_cast<double>(dense.vi.values()[i]) -
                                        multiset.vi.values()[multiset.index.rank(p)]));
    }
    EXPECT_LT(worst, 1e-6) << rules;
  }
}

class MultisetTableTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ur_ms_table_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& rules, Encoding encoding, const std::string& name) {
    Solved& s = solved(rules, encoding);
    const std::string path = (dir_ / name).string();
    EXPECT_EQ(write_table(path, s.vi.values(), ValueType::kU16, rules, s.index.encoding_id(),
                          s.vi.max_residual()),
              "");
    return path;
  }
  std::filesystem::path dir_;
};

TEST_F(MultisetTableTest, TheStoreReadsATableInTheEncodingItWasMadeWith) {
  for (Encoding encoding : {Encoding::kDense, Encoding::kMultiset}) {
    const std::string path = write("finkel(pieces=3)", encoding, "f3.urt");
    TableLookup found = open_table(rule_set_or_throw("finkel(pieces=3)"), path, true);
    ASSERT_TRUE(found.ready()) << found.why;
    Solved& s = solved("finkel(pieces=3)", encoding);
    EXPECT_EQ(found.solved.index->encoding_id(), s.index.encoding_id());
    const Position p = s.index.unrank(1234);
    EXPECT_NEAR(found.solved.table->value(found.solved.index->rank(p)),
                s.vi.values()[s.index.rank(p)], 1e-4);
  }
  const std::string boxed = write("boxed(pieces=2)", Encoding::kAuto, "b2.urt");
  TableLookup found = open_table(rule_set_or_throw("boxed(pieces=2)"), boxed, true);
  ASSERT_TRUE(found.ready()) << found.why;
  EXPECT_NE(found.solved.index->multiset(), nullptr);
}

TEST_F(MultisetTableTest, RefusesAnotherEncodingRuleSetTruncationAndCorruption) {
  const std::string path = write("boxed(pieces=2)", Encoding::kAuto, "b2.urt");
  // Another rule set of the same kind.
  TableLookup other = open_table(rule_set_or_throw("murray(pieces=2)"), path, true);
  EXPECT_EQ(other.state, TableState::kRefused);
  EXPECT_NE(other.why.find("boxed(pieces=2)"), std::string::npos) << other.why;
  // The same values under a forged encoding id.
  Solved& s = solved("boxed(pieces=2)");
  const std::string forged = (dir_ / "forged.urt").string();
  ASSERT_EQ(write_table(forged, s.vi.values(), ValueType::kU16, "boxed(pieces=2)",
                        "ur-multiset-1:P2:stack:staging:slots1:0000000000000000", 0),
            "");
  TableLookup wrong = open_table(rule_set_or_throw("boxed(pieces=2)"), forged, true);
  EXPECT_EQ(wrong.state, TableState::kRefused);
  EXPECT_NE(wrong.why.find("encoding"), std::string::npos) << wrong.why;
  // Truncated and corrupted copies.
  for (const std::string& bad : test::damaged_copies(path, dir_.string())) {
    TableLookup r = open_table(rule_set_or_throw("boxed(pieces=2)"), bad, true);
    EXPECT_EQ(r.state, TableState::kRefused) << bad;
    EXPECT_FALSE(r.why.empty());
  }
}

TEST(ValueIteration, SaysWhatASolveNeedsBeforeAllocating) {
  Engine small(rule_set_or_throw("boxed(pieces=2)"));
  const StateIndex idx = std::get<StateIndex>(StateIndex::create(small));
  const std::uint64_t need = ValueIteration::memory_needed(idx);
  EXPECT_GE(need, idx.size() * 4);
  EXPECT_EQ(ValueIteration::cannot_solve(idx), "");
  Engine murray(rule_set_or_throw("murray"));
  const StateIndex big = std::get<StateIndex>(StateIndex::create(murray));
  EXPECT_GT(big.size(), 100'000'000'000ull) << "seven counters on a 27-square path";
  EXPECT_GT(ValueIteration::memory_needed(big), big.size() * 4);
}

}  // namespace
}  // namespace ur::solver::multiset_test
