// The learned evaluation: the network file, self-play training and the net agent.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>

#include "../test_util.h"
#include "ai/agent.h"
#include "ai/net_agent.h"
#include "ai/net_train.h"
#include "ai/network.h"
#include "ai/tournament.h"
#include "analysis/value_source.h"
#include "solver/table_store.h"
#include "solver/value_iteration.h"

namespace ur::ai {
namespace {

class TempDir {
 public:
  TempDir() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ur_net_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++));
    std::filesystem::create_directories(dir_);
  }
  ~TempDir() { std::filesystem::remove_all(dir_); }
  std::string file(const std::string& name) const { return (dir_ / name).string(); }

 private:
  static inline int counter_ = 0;
  std::filesystem::path dir_;
};

bool same_weights(const Network& a, const Network& b) {
  return a.rules == b.rules && a.w1 == b.w1 && a.b1 == b.b1 && a.w2 == b.w2 && a.b2 == b.b2 &&
         a.info.games == b.info.games && a.info.seed == b.info.seed;
}

Network trained(const Engine& engine, std::uint64_t seed, std::uint64_t games, int threads,
                std::uint64_t from = 0) {
  Network net = make_network(engine, 16, seed);
  TrainOptions options;
  options.threads = threads;
  options.eval_every = 0;
  if (from > 0) {
    options.games = from;
    EXPECT_EQ(train(engine, net, options, {}), "");
  }
  options.games = games;
  EXPECT_EQ(train(engine, net, options, {}), "");
  return net;
}

TEST(NetworkFile, RoundTripsAndRefusesDamage) {
  TempDir dir;
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  Network net = make_network(engine, 8, 42);
  net.info.games = 1234;
  const std::string path = dir.file("n.urn");
  ASSERT_EQ(write_network(path, net), "");
  Result<Network> back = load_network_for(path, engine);
  ASSERT_TRUE(std::holds_alternative<Network>(back)) << std::get<Error>(back).message;
  EXPECT_TRUE(same_weights(std::get<Network>(back), net));

  auto error_of = [&](const std::string& file, const Engine& e) {
    Result<Network> r = load_network_for(file, e);
    return std::holds_alternative<Error>(r) ? std::get<Error>(r).message : std::string();
  };
  // Made for another rule set.
  const Engine finkel(rule_set_or_throw("finkel"));
  EXPECT_NE(error_of(path, finkel).find("was trained for rule set finkel(pieces=3)"),
            std::string::npos)
      << error_of(path, finkel);
  // One byte changed anywhere: the checksum.
  std::string bytes;
  {
    std::ifstream in(path, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto write = [&](const std::string& name, const std::string& data) {
    std::ofstream(dir.file(name), std::ios::binary) << data;
    return dir.file(name);
  };
  for (std::size_t at : {std::size_t{9}, std::size_t{40}, bytes.size() / 2, bytes.size() - 2}) {
    std::string damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    EXPECT_NE(error_of(write("d.urn", damaged), engine).find("checksum"), std::string::npos) << at;
  }
  // Truncated, empty, not a network file, missing.
  EXPECT_NE(error_of(write("t.urn", bytes.substr(0, bytes.size() - 5)), engine).find("checksum"),
            std::string::npos);
  EXPECT_NE(error_of(write("e.urn", ""), engine).find("not a network file"), std::string::npos);
  EXPECT_NE(error_of(write("x.urn", "URT table"), engine).find("not a network file"),
            std::string::npos);
  EXPECT_NE(error_of(dir.file("none.urn"), engine).find("cannot open"), std::string::npos);
}

// The shared copy: read once while the file stays as it is, read again once it changes; a damaged
// file and another rule set are refused as by load_network_for.
TEST(NetworkFile, ASharedCopyIsReadOnceAndAgainWhenTheFileChanges) {
  TempDir dir;
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  const std::string path = dir.file("s.urn");
  ASSERT_EQ(write_network(path, make_network(engine, 8, 1)), "");
  using Shared = std::shared_ptr<const Network>;
  auto shared = [&](const Engine& e) { return shared_network_for(path, e); };
  auto first = shared(engine), second = shared(engine);
  ASSERT_TRUE(std::holds_alternative<Shared>(first)) << std::get<Error>(first).message;
  EXPECT_EQ(std::get<Shared>(first), std::get<Shared>(second)) << "one copy";
  EXPECT_TRUE(same_weights(*std::get<Shared>(first), make_network(engine, 8, 1)));

  const Engine finkel(rule_set_or_throw("finkel"));
  auto other = shared(finkel);
  ASSERT_TRUE(std::holds_alternative<Error>(other));
  EXPECT_NE(std::get<Error>(other).message.find("was trained for rule set"), std::string::npos);

  // Trained again into place (another size): the new network.
  ASSERT_EQ(write_network(path, make_network(engine, 16, 2)), "");
  auto third = shared(engine);
  ASSERT_TRUE(std::holds_alternative<Shared>(third)) << std::get<Error>(third).message;
  EXPECT_NE(std::get<Shared>(third), std::get<Shared>(first));
  EXPECT_TRUE(same_weights(*std::get<Shared>(third), make_network(engine, 16, 2)));
  EXPECT_TRUE(same_weights(*std::get<Shared>(first), make_network(engine, 8, 1)))
      << "a copy in use is untouched";

  // Damaged in place, then gone.
  std::ofstream(path, std::ios::binary | std::ios::trunc) << "not a network";
  auto damaged = shared(engine);
  ASSERT_TRUE(std::holds_alternative<Error>(damaged));
  EXPECT_NE(std::get<Error>(damaged).message.find("not a network file"), std::string::npos);
  std::filesystem::remove(path);
  auto gone = shared(engine);
  ASSERT_TRUE(std::holds_alternative<Error>(gone));
  EXPECT_NE(std::get<Error>(gone).message.find("cannot open"), std::string::npos);
}

TEST(NetworkTraining, TheSameSeedGivesTheSameNetwork) {
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  const Network a = trained(engine, 7, 64, 2);
  const Network b = trained(engine, 7, 64, 1);  // the thread count changes nothing
  const Network c = trained(engine, 8, 64, 2);
  const Network resumed = trained(engine, 7, 64, 2, 32);
  EXPECT_EQ(a.info.games, 64u);
  EXPECT_TRUE(same_weights(a, b));
  EXPECT_TRUE(same_weights(a, resumed));
  EXPECT_FALSE(same_weights(a, c));
  EXPECT_FALSE(same_weights(a, make_network(engine, 16, 7)));  // it learned something
}

TEST(NetworkTraining, CheckpointsAndReportsProgress) {
  TempDir dir;
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  Network net = make_network(engine, 8, 3);
  TrainOptions options;
  options.games = 96;
  options.checkpoint_every = 32;
  options.eval_every = 48;
  options.eval_games = 20;
  std::vector<std::uint64_t> checkpoints;
  options.checkpoint = [&](const Network& n) {
    checkpoints.push_back(n.info.games);
    return write_network(dir.file("c.urn"), n);
  };
  std::vector<TrainProgress> reports;
  ASSERT_EQ(train(engine, net, options, [&](const TrainProgress& p) { reports.push_back(p); }), "");
  EXPECT_EQ(checkpoints, (std::vector<std::uint64_t>{32, 64, 96}));
  ASSERT_EQ(reports.size(), 96u / kRoundGames);
  EXPECT_EQ(reports.back().games, 96u);
  EXPECT_EQ(reports.back().total, 96u);
  EXPECT_EQ(reports.back().eval_games, 20);
  EXPECT_GT(reports.back().positions, 96u * 10);
  // A failing checkpoint stops the run with its reason.
  options.games = 200;
  options.checkpoint = [](const Network&) { return std::string("disk full"); };
  EXPECT_EQ(train(engine, net, options, {}), "disk full");
}

// A cap on a training game's length: a game still running after max_throws throws stops there
// (at most max_throws + 1 trained positions a game), scored by the two sides' progress; the run
// stays reproducible by its seed on any thread count.
TEST(NetworkTraining, ACapOnAGamesLengthScoresItByProgress) {
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  Position p = engine.initial_position();
  EXPECT_EQ(progress(engine, p, Player::kLight), 0.0);
  p.count[0][0] = 0;
  p.count[0][static_cast<std::size_t>(engine.path_length() + 1)] = 2;
  p.count[0][static_cast<std::size_t>((engine.path_length() + 1) / 2)] = 1;
  EXPECT_NEAR(
      progress(engine, p, Player::kLight),
      (2.0 + static_cast<double>((engine.path_length() + 1) / 2) / (engine.path_length() + 1)) /
          3.0,
      1e-12);
  EXPECT_EQ(progress(engine, p, Player::kDark), 0.0);

  auto capped = [&](int threads) {
    Network net = make_network(engine, 16, 5);
    TrainOptions options;
    options.games = 96;
    options.eval_every = 0;
    options.max_throws = 6;
    options.threads = threads;
    std::uint64_t positions = 0;
    EXPECT_EQ(train(engine, net, options, [&](const TrainProgress& r) { positions = r.positions; }),
              "");
    EXPECT_GT(positions, 96u);
    EXPECT_LE(positions, 96u * 7);
    return net;
  };
  const Network a = capped(2);
  EXPECT_TRUE(same_weights(a, capped(1)));
  EXPECT_FALSE(same_weights(a, trained(engine, 5, 96, 2)));
}

// Search targets: each position's bootstrap value comes from an expectimax search over the
// round's network; the run stays reproducible by its seed on any thread count and learns other
// weights than plain TD(λ).
TEST(NetworkTraining, SearchTargetsAreReproducible) {
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  auto searched = [&](int threads, int depth) {
    Network net = make_network(engine, 16, 5);
    TrainOptions options;
    options.games = 64;
    options.eval_every = 0;
    options.target_depth = depth;
    options.threads = threads;
    EXPECT_EQ(train(engine, net, options, {}), "");
    return net;
  };
  const Network a = searched(2, 1);
  EXPECT_TRUE(same_weights(a, searched(1, 1)));
  EXPECT_FALSE(same_weights(a, searched(2, 0)));
  EXPECT_FALSE(same_weights(a, searched(2, 2)));
  EXPECT_FALSE(same_weights(a, make_network(engine, 16, 5)));
}

// The table's value, for the mover of `p`, of the position after `m`.
double solved_value(const Engine& engine, const solver::StateIndex& index,
                    std::span<const float> values, const Position& p, const Move& m) {
  Position q = p;
  engine.apply_move(q, m);
  if (q.is_over()) return q.turn == p.turn ? 1.0 : 0.0;
  const double v = values[index.rank(q)];
  return q.turn == p.turn ? v : 1.0 - v;
}

// The mean chance lost per decision with a choice by `agent` in its own self-play.
double mean_loss(const Engine& engine, const solver::StateIndex& index,
                 std::span<const float> values, Agent& agent, int games) {
  Rng rng(11);
  double lost = 0;
  int decisions = 0;
  for (int g = 0; g < games; ++g) {
    Position p = engine.initial_position();
    MoveList moves;
    while (!p.is_over()) {
      if (p.is_chance()) {
        engine.apply_throw(p, engine.sample_throw(rng), moves);
        continue;
      }
      engine.legal_moves(p, moves);
      const Move chosen = agent.choose(engine, p, {});
      if (moves.size > 1) {
        double best = 0;
        for (const Move& m : moves)
          best = std::max(best, solved_value(engine, index, values, p, m));
        lost += best - solved_value(engine, index, values, p, chosen);
        ++decisions;
      }
      engine.apply_move(p, chosen);
    }
  }
  return lost / decisions;
}

// value() remembers what it computed: whatever it met before (more positions than it keeps,
// each twice, in another order), its answers are the network's own output for the position.
TEST(NetEvaluator, RememberedValuesAreTheNetworksOutput) {
  const Engine engine(rule_set_or_throw("boxed"));
  auto net = std::make_shared<const Network>(make_network(engine, 16, 9));
  NetEvaluator eval(engine, net);
  Encoding encoding(engine);
  Rng rng(5);
  std::vector<Position> seen;
  MoveList moves;
  while (seen.size() < 200'000) {
    Position p = engine.initial_position();
    for (int throws = 0; !p.is_over() && throws < 400;) {
      if (p.is_chance()) {
        engine.apply_throw(p, engine.sample_throw(rng), moves);
        ++throws;
        continue;
      }
      if (p.phase == Phase::kAwaitingAward || p.phase == Phase::kAwaitingForfeit) seen.push_back(p);
      engine.legal_moves(p, moves);
      engine.apply_move(p,
                        moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
      if (p.phase == Phase::kAwaitingRoll) seen.push_back(p);
    }
  }
  SparseInput in;
  Eigen::VectorXf hidden(net->hidden());
  auto check = [&](std::size_t i) {
    encoding.encode(seen[i], in);
    ASSERT_EQ(eval.value(seen[i]), static_cast<double>(forward(*net, in, hidden)))
        << "position " << i;
  };
  for (std::size_t i = 0; i < seen.size(); ++i) check(i);
  for (std::size_t i = seen.size(); i-- > 0;) check(i);
}

// The test: a short self-play run on finkel(pieces=3), which never reads a table, beats
// greedy and loses less chance per decision than greedy against the table solved here.
TEST(NetworkTraining, AShortRunBeatsGreedyAndLosesLessThanItAgainstTheTable) {
  TempDir dir;
  const RuleSet rules = rule_set_or_throw("finkel(pieces=3)");
  const Engine engine(rules);
  Network net = make_network(engine, 32, 1);
  TrainOptions options;
  options.games = 16000;
  options.eval_every = 0;
  ASSERT_EQ(train(engine, net, options, {}), "");
  const std::string path = dir.file("f3.urn");
  ASSERT_EQ(write_network(path, net), "");

  TournamentConfig config{.rules = rules,
                          .agent_a = "net(file=" + path + ")",
                          .agent_b = "greedy",
                          .games = 2000,
                          .threads = 2,
                          .seed = 5};
  auto result = run_tournament(config);
  ASSERT_TRUE(std::holds_alternative<TournamentResult>(result)) << std::get<Error>(result).message;
  const TournamentResult& r = std::get<TournamentResult>(result);
  EXPECT_GT(r.ci_low(), 0.5) << "net won " << r.score();

  solver::StateIndex index = std::get<solver::StateIndex>(solver::StateIndex::create(engine));
  solver::ValueIteration vi(index, solver::SolveOptions{});
  vi.solve({});
  auto net_agent = std::get<std::unique_ptr<Agent>>(make_agent(config.agent_a, rules, 1));
  auto greedy = std::get<std::unique_ptr<Agent>>(make_agent("greedy", rules, 1));
  const double net_loss = mean_loss(engine, index, vi.values(), *net_agent, 150);
  const double greedy_loss = mean_loss(engine, index, vi.values(), *greedy, 150);
  EXPECT_LT(net_loss, greedy_loss);
  std::cout << "finkel(pieces=3): net won " << r.score() << " against greedy; lost per decision "
            << net_loss << " (greedy " << greedy_loss << ")\n";
}

TEST(NetAgent, SpecsAndRefusals) {
  TempDir dir;
  const RuleSet rules = rule_set_or_throw("finkel(pieces=3)");
  const Engine engine(rules);
  const std::string path = dir.file("n.urn");
  ASSERT_EQ(write_network(path, make_network(engine, 8, 1)), "");
  AgentResult made = make_agent("net(depth=2,file=" + path + ")", rules, 1);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made))
      << std::get<Error>(made).message;
  Agent& agent = *std::get<std::unique_ptr<Agent>>(made);
  EXPECT_EQ(agent.name(), "net(depth=2,file=" + path + ")");
  Position p = engine.initial_position();
  Rng rng(1);
  MoveList moves;
  while (!p.is_decision()) engine.apply_throw(p, engine.sample_throw(rng), moves);
  engine.legal_moves(p, moves);
  EXPECT_GE(index_of_move(moves, agent.choose(engine, p, {})), 0);
  // A deadline without a depth deepens until the time is spent, as for expectimax.
  AgentResult timed = make_agent("net(time_ms=50,file=" + path + ")", rules, 1);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(timed));
  EXPECT_EQ(std::get<std::unique_ptr<Agent>>(timed)->name(),
            "net(depth=60,time_ms=50,file=" + path + ")");

  auto error_of = [](const std::string& spec, const RuleSet& r) {
    AgentResult a = make_agent(spec, r, 1);
    return std::holds_alternative<Error>(a) ? std::get<Error>(a).message : std::string();
  };
  EXPECT_NE(error_of("net(file=" + path + ")", rule_set_or_throw("finkel")).find("trained for"),
            std::string::npos);
  EXPECT_NE(error_of("net(depth=0,file=" + path + ")", rules).find("depth"), std::string::npos);
  EXPECT_NE(error_of("net(speed=1)", rules).find("unknown parameter 'speed'"), std::string::npos);
  EXPECT_NE(error_of("net", rules).find("no network"), std::string::npos);
}

// Without a solved table, the perfect level plays a network of the data directory and says so.
TEST(NetAgent, ThePerfectLevelPlaysTheLearnedNetworkWhereThereIsNoTable) {
  TempDir dir;
  const RuleSet rules = rule_set_or_throw("finkel(pieces=3)");
  const solver::TableStore empty(dir.file("empty"));
  EXPECT_EQ(level_spec("perfect", rules, &empty), level_spec("hard", rules, &empty));
  std::filesystem::create_directories(dir.file("data/networks"));
  const solver::TableStore tables(dir.file("data"));
  const std::string path = network_path(&tables, rules.to_string());
  EXPECT_EQ(path, dir.file("data/networks/finkel_pieces_3.urn"));
  // A damaged file does not count.
  std::ofstream(path) << "not a network";
  EXPECT_EQ(level_spec("perfect", rules, &tables), level_spec("hard", rules, &tables));
  ASSERT_EQ(write_network(path, make_network(Engine(rules), 8, 1)), "");
  EXPECT_EQ(level_spec("perfect", rules, &tables), "net(depth=3)");
  EXPECT_NE(level_note("perfect", rules, &tables).find("strongest: learned, no exact table"),
            std::string::npos)
      << level_note("perfect", rules, &tables);
  AgentResult made = make_agent(level_spec("perfect", rules, &tables), rules, 1, &tables);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made))
      << std::get<Error>(made).message;
  EXPECT_EQ(std::get<std::unique_ptr<Agent>>(made)->name(), "net(depth=3)");
  // Another rule set has no network there.
  EXPECT_EQ(level_spec("perfect", rule_set_or_throw("finkel"), &tables),
            level_spec("hard", rule_set_or_throw("finkel"), &tables));
}

// Hard plays the network where it is measured stronger than hard's search (Finkel), with a
// network that loads; elsewhere, and without one, the search.
TEST(NetAgent, HardPlaysTheNetworkOnlyWhereItIsMeasuredStronger) {
  TempDir dir;
  const RuleSet finkel = rule_set_or_throw("finkel"), masters = rule_set_or_throw("masters");
  const RuleSet blitz = rule_set_or_throw("blitz");
  std::filesystem::create_directories(dir.file("data/networks"));
  const solver::TableStore tables(dir.file("data"));
  EXPECT_EQ(level_spec("hard", finkel, &tables), "expectimax(depth=4)") << "no network yet";
  EXPECT_EQ(level_spec("hard", finkel, nullptr), "expectimax(depth=4)");
  std::ofstream(network_path(&tables, finkel.to_string())) << "not a network";
  EXPECT_EQ(level_spec("hard", finkel, &tables), "expectimax(depth=4)") << "a damaged file";
  ASSERT_EQ(
      write_network(network_path(&tables, finkel.to_string()), make_network(Engine(finkel), 8, 1)),
      "");
  for (const RuleSet* r : {&masters, &blitz})
    ASSERT_EQ(write_network(network_path(&tables, r->to_string()), make_network(Engine(*r), 8, 1)),
              "");
  EXPECT_EQ(level_spec("hard", finkel, &tables), kLearnedHardSpec);
  EXPECT_EQ(level_spec("hard", masters, &tables), kLearnedHardSpec);
  EXPECT_EQ(level_spec("hard", blitz, &tables), "expectimax(depth=4)") << "measured level there";
  EXPECT_EQ(level_spec("medium", finkel, &tables), "expectimax(depth=2)");
  AgentResult made = make_agent(level_spec("hard", finkel, &tables), finkel, 1, &tables);
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<Agent>>(made))
      << std::get<Error>(made).message;
  EXPECT_EQ(std::get<std::unique_ptr<Agent>>(made)->name(), "net(depth=2)");
}

// Without a table, reviews, hints and the explorer estimate with the data directory's network.
TEST(NetAgent, EstimatesUseTheNetworkWhereThereIsNoTable) {
  TempDir dir;
  const RuleSet rules = rule_set_or_throw("finkel(pieces=3)");
  const solver::TableStore empty(dir.file("empty"));
  EXPECT_EQ(analysis::open_source(rules, &empty).source->name(), "expectimax(depth=2)");
  std::filesystem::create_directories(dir.file("data/networks"));
  const solver::TableStore tables(dir.file("data"));
  const Engine engine(rules);
  ASSERT_EQ(write_network(network_path(&tables, rules.to_string()), make_network(engine, 8, 1)),
            "");
  analysis::OpenedSource opened = analysis::open_source(rules, &tables);
  EXPECT_EQ(opened.source->name(), "net(depth=2)");
  EXPECT_FALSE(opened.source->exact());
  EXPECT_EQ(opened.table, solver::TableState::kMissing);
  const double v = opened.source->value(engine.initial_position(), Player::kLight);
  EXPECT_GT(v, 0.0);
  EXPECT_LT(v, 1.0);
}

}  // namespace
}  // namespace ur::ai
