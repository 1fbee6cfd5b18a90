// Solver: the dense index is a bijection, the solved values satisfy the Bellman equation and
// agree with an independent reference solver, and table files refuse corruption.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "../test_util.h"
#include "engine/notation.h"
#include "rules/presets.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

namespace ur::solver {
namespace {

struct Solved {
  Engine engine;
  StateIndex index;
  ValueIteration vi;
  explicit Solved(const std::string& rules)
      : engine(rule_set_or_throw(rules)),
        index(std::get<StateIndex>(StateIndex::create(engine))),
        vi(index, SolveOptions{}) {
    vi.solve({});
  }
};

// Solved once per rule set and shared by the tests below.
Solved& solved(const std::string& rules) {
  static std::map<std::string, std::unique_ptr<Solved>> cache;
  auto& slot = cache[rules];
  if (!slot) slot = std::make_unique<Solved>(rules);
  return *slot;
}

// Normalises a position awaiting a throw so that the mover is light (what the index stores).
Position normalised(const Engine& e, Position p) {
  if (p.turn == Player::kDark) {
    std::swap(p.count[0], p.count[1]);
    p.turn = p.next = Player::kLight;
    e.refresh_masks(p);
  }
  return p;
}

TEST(StateIndex, CountsMatchTheFormula) {
  const std::pair<const char*, std::uint64_t> expected[] = {
      {"finkel(pieces=2)", 12869}, {"finkel(pieces=3)", 263121}, {"finkel", 137870097},
      {"finkel6", 53188365},       {"british-museum", 14669769}, {"masters", 500929993},
      {"blitz", 41243781},         {"aseb", 41243781},           {"bell", 1872793}};
  for (const auto& [rules, count] : expected) {
    Engine e(rule_set_or_throw(rules));
    auto r = StateIndex::create(e);
    ASSERT_TRUE(std::holds_alternative<StateIndex>(r)) << rules;
    EXPECT_EQ(std::get<StateIndex>(r).size(), count) << rules;
  }
}

TEST(StateIndex, TheDenseIndexRefusesWhatTheMultisetIndexServes) {
  for (const char* rules : {"boxed", "murray", "murray-royalur"}) {
    Engine e(rule_set_or_throw(rules));
    auto dense = StateIndex::create(e, Encoding::kDense);
    ASSERT_TRUE(std::holds_alternative<Error>(dense)) << rules;
    EXPECT_FALSE(std::get<Error>(dense).message.empty());
    auto any = StateIndex::create(e);
    ASSERT_TRUE(std::holds_alternative<StateIndex>(any)) << rules;
    EXPECT_NE(std::get<StateIndex>(any).multiset(), nullptr) << rules;
  }
}

TEST(StateIndex, ExhaustiveBijectionOnSmallRuleSets) {
  for (const char* rules :
       {"finkel(pieces=2)", "finkel(pieces=3)", "blitz(pieces=2)", "bell(pieces=2)"}) {
    Engine e(rule_set_or_throw(rules));
    StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
    std::uint64_t expected = 0;
    std::set<std::string> seen;
    for (const Layer& l : idx.layers()) {
      EXPECT_EQ(l.begin, expected);
      for (int side = 0; side < (l.a == l.b ? 1 : 2); ++side) {
        const int a = side ? l.b : l.a, b = side ? l.a : l.b;
        idx.dense()->for_each(
            a, b, 0, idx.dense()->hi_codes(), [&](std::uint64_t i, const Position& p) {
              ASSERT_EQ(i, expected) << rules;
              ASSERT_EQ(e.check(p), "") << rules << " " << to_position_string(e, p);
              ASSERT_EQ(idx.rank(p), i) << rules;
              ASSERT_EQ(idx.unrank(i), p) << rules << " " << i;
              seen.insert(to_position_string(e, p));
              ++expected;
            });
      }
      EXPECT_EQ(l.end, expected);
    }
    EXPECT_EQ(expected, idx.size()) << rules;
    EXPECT_EQ(seen.size(), idx.size()) << rules << ": two indices decode to one position";
  }
}

TEST(StateIndex, SampledBijectionOnFinkelAndMasters) {
  for (const char* rules : {"finkel", "masters", "aseb"}) {
    Engine e(rule_set_or_throw(rules));
    StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
    Rng rng(11);
    int checked = 0;
    for (int game = 0; game < 30; ++game) {
      Position p = e.initial_position();
      MoveList moves;
      while (!p.is_over()) {
        if (p.phase == Phase::kAwaitingRoll) {
          const std::uint64_t i = idx.rank(p);
          ASSERT_LT(i, idx.size());
          ASSERT_EQ(idx.unrank(i), normalised(e, p)) << to_position_string(e, p);
          ++checked;
          e.apply_throw(p, e.sample_throw(rng), moves);
        } else if (p.is_chance()) {
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

// The right-hand side of the Bellman equation for a state, from a value function.
template <typename V>
double bellman(const Engine& e, const Position& p, V&& value_of) {
  double total = 0;
  MoveList moves;
  for (const ChanceOutcome& c : e.chance_outcomes(p)) {
    Position q = p;
    double best = -1;
    auto consider = [&](const Position& r) {
      if (r.is_over())
        best = std::max(best, r.turn == p.turn ? 1.0 : 0.0);
      else
        best = std::max(best, r.turn == p.turn ? value_of(r) : 1.0 - value_of(r));
    };
    if (!e.apply_throw(q, c.outcome, moves)) {
      consider(q);
    } else {
      for (const Move& m : moves) {
        Position r = q;
        e.apply_move(r, m);
        consider(r);
      }
    }
    total += c.probability * best;
  }
  return total;
}

TEST(ValueIteration, SatisfiesTheBellmanEquationEverywhere) {
  for (const char* rules : {"finkel(pieces=2)", "finkel(pieces=3)"}) {
    Solved& s = solved(rules);
    double worst = 0;
    for (std::uint64_t i = 0; i < s.index.size(); ++i) {
      const Position p = s.index.unrank(i);
      const double rhs = bellman(s.engine, p, [&](const Position& q) {
        return static_cast<double>(s.vi.values()[s.index.rank(q)]);
      });
      worst = std::max(worst, std::fabs(rhs - s.vi.values()[i]));
    }
    EXPECT_LT(worst, 1e-6) << rules;
    EXPECT_LT(s.vi.max_residual(), 1e-6) << rules;
  }
}

// An independent reference: every reachable position found by a search from the start and
// numbered through a map keyed by its position string (no StateIndex), successors straight
// from the engine, plain Jacobi iteration in double precision to a tight tolerance.
TEST(ValueIteration, AgreesWithASimpleReferenceSolver) {
#ifdef __SANITIZE_ADDRESS__
  // Ten times slower under the sanitizers: the 3-piece check runs in the release build.
  const std::vector<const char*> sets = {"finkel(pieces=2)"};
#else
  const std::vector<const char*> sets = {"finkel(pieces=2)", "finkel(pieces=3)"};
#endif
  for (const char* rules : sets) {
    Solved& s = solved(rules);
    const Engine& e = s.engine;
    std::map<std::string, int> id;
    std::vector<Position> states;
    // succ[state][outcome] = list of (successor id, or -1 for a win; flipped?)
    std::vector<std::vector<std::vector<std::pair<int, bool>>>> succ;
    std::vector<double> prob;
    auto intern = [&](const Position& p) {
      auto [it, fresh] = id.emplace(to_position_string(e, p), static_cast<int>(states.size()));
      if (fresh) states.push_back(p);
      return it->second;
    };
    intern(e.initial_position());
    MoveList moves;
    for (std::size_t i = 0; i < states.size(); ++i) {
      const Position p = states[i];
      std::vector<std::vector<std::pair<int, bool>>> per_outcome;
      prob.clear();
      for (const ChanceOutcome& c : e.chance_outcomes(p)) {
        prob.push_back(c.probability);
        std::vector<Position> next;
        Position q = p;
        if (!e.apply_throw(q, c.outcome, moves))
          next.push_back(q);
        else
          for (const Move& m : moves) {
            Position r = q;
            e.apply_move(r, m);
            next.push_back(r);
          }
        std::vector<std::pair<int, bool>> list;
        for (const Position& r : next)
          list.emplace_back(r.is_over() ? -1 : intern(r), r.turn != p.turn);
        per_outcome.push_back(std::move(list));
      }
      succ.push_back(std::move(per_outcome));
    }
    std::vector<double> v(states.size(), 0.5), next(states.size());
    for (int iter = 0; iter < 5000; ++iter) {
      double change = 0;
      for (std::size_t i = 0; i < states.size(); ++i) {
        double total = 0;
        for (std::size_t o = 0; o < prob.size(); ++o) {
          double best = -1;
          for (auto [j, flip] : succ[i][o]) {
            const double x = j < 0 ? 1.0 : (flip ? 1.0 - v[j] : v[j]);
            best = std::max(best, x);
          }
          total += prob[o] * best;
        }
        next[i] = total;
        change = std::max(change, std::fabs(total - v[i]));
      }
      v.swap(next);
      if (change < 1e-10) break;
    }
    double worst = 0;
    for (std::size_t i = 0; i < states.size(); ++i)
      worst = std::max(worst, std::fabs(v[i] - s.vi.values()[s.index.rank(states[i])]));
    EXPECT_LT(worst, 1e-6) << rules << " over " << states.size() << " reachable states";
    EXPECT_GT(states.size(), 1000u);
  }
}

class TableFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("ur_table_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / "f2.urt").string();
    Solved& s = solved("finkel(pieces=2)");
    ASSERT_EQ(write_table(path_, s.vi.values(), ValueType::kU16, s.engine.rules().to_string(),
                          s.index.encoding_id(), s.vi.max_residual()),
              "");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string corrupt_copy(const std::function<void(std::string&)>& edit) {
    return test::edited_copy(path_, (dir_ / "bad.urt").string(), edit);
  }
  std::filesystem::path dir_;
  std::string path_;
};

TEST_F(TableFileTest, RoundTripsTheValues) {
  Solved& s = solved("finkel(pieces=2)");
  TableResult r = Table::open(path_, "finkel(pieces=2)", s.index.encoding_id());
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(r))
      << std::get<Error>(r).message;
  const Table& t = *std::get<std::shared_ptr<const Table>>(r);
  ASSERT_EQ(t.size(), s.index.size());
  for (std::uint64_t i = 0; i < t.size(); ++i)
    EXPECT_NEAR(t.value(i), s.vi.values()[i], 0.5 / 65535 + 1e-7);
}

TEST_F(TableFileTest, RefusesAFlippedPayloadByte) {
  auto bad = corrupt_copy([](std::string& b) { b[b.size() - 100] ^= 0x01; });
  TableResult r = Table::open(bad);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("checksum"), std::string::npos);
}

TEST_F(TableFileTest, RefusesAFlippedHeaderByte) {
  auto bad = corrupt_copy([](std::string& b) { b[60] ^= 0x20; });
  TableResult r = Table::open(bad);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("corrupt"), std::string::npos);
}

TEST_F(TableFileTest, RefusesATruncatedFile) {
  auto bad = corrupt_copy([](std::string& b) { b.resize(b.size() - 2); });
  TableResult r = Table::open(bad);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("truncated"), std::string::npos);
}

TEST_F(TableFileTest, RefusesAnotherRuleSet) {
  TableResult r = Table::open(path_, "finkel(pieces=3)");
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("finkel(pieces=2)"), std::string::npos);
}

TEST_F(TableFileTest, RefusesSomethingThatIsNotATable) {
  auto bad = corrupt_copy([](std::string& b) { b.replace(0, 8, "NOTATABL"); });
  TableResult r = Table::open(bad);
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("magic"), std::string::npos);
  TableResult missing = Table::open((dir_ / "absent.urt").string());
  ASSERT_TRUE(std::holds_alternative<Error>(missing));
}

TEST(ValueIteration, ResumesFromCheckpoints) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ur_ckpt_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  Engine e(rule_set_or_throw("finkel(pieces=2)"));
  StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
  SolveOptions opt;
  opt.checkpoint_dir = dir.string();
  ValueIteration first(idx, opt);
  first.solve({});
  // Drop the last layer's file, as if the solve had been interrupted there.
  const Layer& last = idx.layers().back();
  std::filesystem::remove(
      dir / ("layer-" + std::to_string(last.a) + "-" + std::to_string(last.b) + ".f32"));
  ValueIteration second(idx, opt);
  second.solve({});
  ASSERT_EQ(second.reports().size(), idx.layers().size());
  for (std::size_t i = 0; i + 1 < idx.layers().size(); ++i) {
    EXPECT_TRUE(second.reports()[i].from_checkpoint) << i;
    // A layer read back reports the residual its solve certified (the table's header holds
    // the largest), not 0.
    EXPECT_EQ(second.reports()[i].residual, first.reports()[i].residual) << i;
  }
  EXPECT_FALSE(second.reports().back().from_checkpoint);
  EXPECT_GT(second.max_residual(), 0.0);
  for (std::uint64_t i = 0; i < idx.size(); ++i)
    ASSERT_NEAR(first.values()[i], second.values()[i], 1e-6);

  // A layer file cut short, or without its residual (as older solves wrote them), is solved
  // again.
  const Layer& first_layer = idx.layers().front();
  const auto first_file = dir / ("layer-" + std::to_string(first_layer.a) + "-" +
                                 std::to_string(first_layer.b) + ".f32");
  std::filesystem::resize_file(first_file, std::filesystem::file_size(first_file) - 8);
  ValueIteration third(idx, opt);
  third.solve({});
  EXPECT_FALSE(third.reports().front().from_checkpoint);
  EXPECT_TRUE(third.reports().back().from_checkpoint);
  for (std::uint64_t i = 0; i < idx.size(); ++i)
    ASSERT_NEAR(first.values()[i], third.values()[i], 1e-6);
  std::filesystem::remove_all(dir);
}

// A tolerance finer than float32 can show (here 0) still ends each layer: once its largest
// change has stayed at the floats' resolution for a few sweeps, with the same values.
TEST(ValueIteration, StopsAtTheFloatsResolution) {
  Engine e(rule_set_or_throw("murray(pieces=2)"));
  StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
  ValueIteration usual(idx, SolveOptions{});
  usual.solve({});
  SolveOptions fine;
  fine.tolerance = 0;
  fine.max_sweeps = 5000;
  ValueIteration vi(idx, fine);
  vi.solve({});
  for (const LayerReport& r : vi.reports()) {
    EXPECT_LT(r.sweeps, 5000) << r.a << "," << r.b;
    EXPECT_LE(r.last_change, kFloatResolution);
    EXPECT_LE(r.residual, 2 * kFloatResolution);
  }
  for (std::uint64_t i = 0; i < idx.size(); ++i)
    ASSERT_NEAR(usual.values()[i], vi.values()[i], 1e-6) << i;
}

// A solve stopped inside a layer resumes from the sweeps it saved (in the order the layer is
// held in: Murray's are swept in order of progress), and a damaged sweeps file is ignored.
// One thread: two interleave their chunks differently from run to run, so the number of
// sweeps a layer takes varies by a few; on one the resumed solve repeats the stopped one.
TEST(ValueIteration, ResumesALayerFromItsSavedSweeps) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ur_sweeps_test_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  Engine e(rule_set_or_throw("murray(pieces=2)"));
  StateIndex idx = std::get<StateIndex>(StateIndex::create(e));
  SolveOptions one_thread;
  one_thread.threads = 1;
  ValueIteration clean(idx, one_thread);
  clean.solve({});
  const Layer& last = idx.layers().back();
  const auto sweeps_file =
      dir / ("layer-" + std::to_string(last.a) + "-" + std::to_string(last.b) + ".sweeps");
  SolveOptions opt = one_thread;
  opt.checkpoint_dir = dir.string();
  opt.sweeps_checkpoint_seconds = 0;
  struct Stopped {};
  auto stop_at = [&](int sweep) {
    ValueIteration vi(idx, opt);
    EXPECT_THROW(vi.solve([&](const Progress& p) {
      if (p.layer == p.layers && !p.layer_done && p.sweep == sweep) throw Stopped{};
    }),
                 Stopped);
  };
  stop_at(5);
  ASSERT_TRUE(std::filesystem::exists(sweeps_file));
  ValueIteration resumed(idx, opt);
  resumed.solve({});
  EXPECT_EQ(resumed.reports().back().resumed_at, 5);
  EXPECT_EQ(resumed.reports().back().sweeps, clean.reports().back().sweeps);
  EXPECT_FALSE(std::filesystem::exists(sweeps_file));  // the finished layer replaces them
  for (std::uint64_t i = 0; i < idx.size(); ++i)
    ASSERT_NEAR(clean.values()[i], resumed.values()[i], 1e-6) << i;

  // Damaged: cut short, or made for another order of the layer. Solved from the start.
  const auto layer_file =
      dir / ("layer-" + std::to_string(last.a) + "-" + std::to_string(last.b) + ".f32");
  for (int damage = 0; damage < 2; ++damage) {
    std::filesystem::remove(layer_file);
    stop_at(4);
    if (damage == 0) {
      std::filesystem::resize_file(sweeps_file, std::filesystem::file_size(sweeps_file) - 4);
    } else {
      std::fstream f(sweeps_file, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(16);  // the order's hash
      f.put('\x5a');
    }
    ValueIteration again(idx, opt);
    again.solve({});
    EXPECT_EQ(again.reports().back().resumed_at, 0) << damage;
    for (std::uint64_t i = 0; i < idx.size(); ++i)
      ASSERT_NEAR(clean.values()[i], again.values()[i], 1e-6) << i;
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace ur::solver
