// External engines (ai/external_agent.h) and the child processes under them
// (ai/child_process.h): lines both ways, programs that cannot start, crash, hang or cheat, and
// no child left unreaped. The engines here are small shell scripts written by the test;
// tests/cli/engine_tournament.sh seats `ur engine` and examples/uep_random.py.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "ai/child_process.h"
#include "ai/external_agent.h"
#include "ai/tournament.h"
#include "engine/notation.h"

namespace ur::ai {
namespace {

using namespace std::chrono_literals;

// A shell script in a temporary directory, removed with the object.
class Script {
 public:
  explicit Script(const std::string& body) {
    path_ = std::filesystem::temp_directory_path() /
            ("ur_engine_" + std::to_string(::getpid()) + "_" + std::to_string(counter_++) + ".sh");
    std::ofstream(path_) << "#!/bin/sh\n" << body;
    std::filesystem::permissions(path_, std::filesystem::perms::owner_all);
  }
  ~Script() { std::filesystem::remove(path_); }
  std::string spec(int timeout_ms = 5000) const {
    return "engine(timeout_ms=" + std::to_string(timeout_ms) + "):" + path_.string();
  }

 private:
  static inline int counter_ = 0;
  std::filesystem::path path_;
};

// The handshake of a minimal engine that then answers each go with `answer`.
std::string engine_body(const std::string& on_go) {
  return "while read cmd rest; do\n"
         "  case $cmd in\n"
         "    uep) echo 'id name t'; echo 'uepok';;\n"
         "    isready) echo readyok;;\n"
         "    go) " +
         on_go +
         ";;\n"
         "    quit) exit 0;;\n"
         "  esac\n"
         "done\n";
}

bool reaped(pid_t pid) {
  return ::waitpid(pid, nullptr, WNOHANG) < 0 && errno == ECHILD;
}

TEST(ChildProcess, LinesGoBothWaysAndTheChildIsReaped) {
  auto started = ChildProcess::start({"cat"});
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<ChildProcess>>(started));
  auto child = std::get<std::unique_ptr<ChildProcess>>(std::move(started));
  const pid_t pid = child->pid();
  ASSERT_TRUE(child->write_line("hello there"));
  std::string line;
  EXPECT_EQ(child->read_line(line, ChildProcess::Clock::now() + 10s), ChildProcess::Read::kLine);
  EXPECT_EQ(line, "hello there");
  child.reset();
  EXPECT_TRUE(reaped(pid));
}

TEST(ChildProcess, AProgramThatCannotStartIsAnError) {
  auto started = ChildProcess::start({"/nonexistent/engine"});
  ASSERT_TRUE(std::holds_alternative<Error>(started));
  EXPECT_NE(std::get<Error>(started).message.find("cannot start '/nonexistent/engine'"),
            std::string::npos);
}

TEST(ChildProcess, AChildThatIgnoresQuitIsKilledAndReaped) {
  auto started = ChildProcess::start({"sleep", "1000"});
  ASSERT_TRUE(std::holds_alternative<std::unique_ptr<ChildProcess>>(started));
  auto child = std::get<std::unique_ptr<ChildProcess>>(std::move(started));
  const pid_t pid = child->pid();
  std::string line;
  EXPECT_EQ(child->read_line(line, ChildProcess::Clock::now() + 10ms),
            ChildProcess::Read::kTimeout);
  child.reset();
  EXPECT_TRUE(reaped(pid));
}

struct Played {
  Move move;
  std::string failure;
};

Played play_once(const std::string& spec, const char* position = "L2/0000005/0000000") {
  const RuleSet rules = rule_set_or_throw("finkel");
  const Engine engine(rules);
  AgentResult made = make_agent(spec, rules, 1);
  if (auto* e = std::get_if<Error>(&made)) return {Move{}, "make: " + e->message};
  Agent& agent = *std::get<std::unique_ptr<Agent>>(made);
  const Position pos = std::get<Position>(parse_position_string(engine, position));
  const Move m = agent.choose(engine, pos, {});
  return {m, agent.failure()};
}

TEST(ExternalAgent, PlaysTheMoveItIsSent) {
  Script s(engine_body("echo 'info depth 1'; echo 'bestmove 5->7'"));
  const Played p = play_once(s.spec());
  EXPECT_EQ(p.failure, "");
  EXPECT_EQ(move_text(p.move), "5->7");
}

TEST(ExternalAgent, AnIllegalOrMalformedMoveIsAForfeit) {
  Script illegal(engine_body("echo 'bestmove 5->9'"));
  EXPECT_NE(play_once(illegal.spec()).failure.find("sent an illegal move in L2/0000005/0000000"),
            std::string::npos);
  Script malformed(engine_body("echo 'bestmove'"));
  EXPECT_NE(play_once(malformed.spec()).failure.find("malformed bestmove"), std::string::npos);
}

TEST(ExternalAgent, ACrashOrAHangIsAForfeit) {
  Script crash(engine_body("exit 7"));
  EXPECT_NE(play_once(crash.spec()).failure.find("exited with status 7"), std::string::npos);
  Script hang(engine_body("sleep 1000"));
  EXPECT_NE(play_once(hang.spec(100)).failure.find("sent no bestmove within 100 ms (killed)"),
            std::string::npos);
}

TEST(ExternalAgent, AFailedHandshakeIsAnErrorThatSaysWhy) {
  Script silent("exit 0\n");
  const std::string why = play_once(silent.spec()).failure;
  // It may be gone before `uep` is written, or after: either way the reason is its exit.
  EXPECT_NE(why.find("the handshake failed: it "), std::string::npos) << why;
  EXPECT_NE(why.find("exited with status 0"), std::string::npos) << why;
  EXPECT_NE(play_once("engine:/nonexistent/engine").failure.find("cannot start"),
            std::string::npos);
  EXPECT_NE(play_once("engine(timeout_ms=0):x").failure.find("timeout_ms=T"), std::string::npos);
  EXPECT_NE(play_once("engine:").failure.find("no program"), std::string::npos);
}

TEST(ExternalAgent, ATournamentGoesOnAfterForfeitsAndRecordsWhy) {
  Script crash(engine_body("exit 7"));
  TournamentConfig config;
  config.rules = rule_set_or_throw("finkel");
  config.agent_a = crash.spec();
  config.agent_b = "random";
  config.games = 4;
  auto outcome = run_tournament(config);
  ASSERT_TRUE(std::holds_alternative<TournamentResult>(outcome))
      << std::get<Error>(outcome).message;
  const TournamentResult& r = std::get<TournamentResult>(outcome);
  EXPECT_EQ(r.games, 4);
  EXPECT_EQ(r.forfeits, 4);
  EXPECT_EQ(r.b_wins, 4);
  for (const GameSummary& g : r.per_game)
    EXPECT_NE(g.forfeit.find("A (" + crash.spec() + ") forfeits: "), std::string::npos)
        << g.forfeit;
  EXPECT_EQ(with_engine_timeout("engine:x y", 50), "engine(timeout_ms=50):x y");
  EXPECT_EQ(with_engine_timeout("greedy", 50), "greedy");
}

}  // namespace
}  // namespace ur::ai
