// Crash safety: `ur serve` runs as a child process, two players play part of a game, the server is
// killed with SIGKILL (no shutdown code runs) and started again on the same database; the game
// resumes at the same version, position and seats, the idle clock restarts in full, and play goes
// on.
#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "harness.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class ChildServer {
 public:
  // Starts `ur serve --db DB` on a free port; returns its port (0 on failure).
  std::uint16_t start(const fs::path& dir, const std::string& db) {
    fs::path log = dir / "serve.log";
    std::ofstream(log, std::ios::trunc).close();
    pid_ = fork();
    if (pid_ == 0) {
      std::string data = (dir / "data").string();
      std::string web = (dir / "web").string();
      FILE* f = std::freopen(log.c_str(), "w", stderr);
      (void)f;
      execl(UR_BINARY, UR_BINARY, "serve", "--port", "0", "--data-dir", data.c_str(), "--db",
            db.c_str(), "--web-root", web.c_str(), "--quiet", "--no-solve", nullptr);
      _exit(127);
    }
    auto deadline = std::chrono::steady_clock::now() + kDeadline;
    while (std::chrono::steady_clock::now() < deadline) {
      std::ifstream in(log);
      std::stringstream text;
      text << in.rdbuf();
      std::string s = text.str();
      auto at = s.find("listening on http://127.0.0.1:");
      if (at != std::string::npos) {
        std::size_t p = at + std::string("listening on http://127.0.0.1:").size();
        return static_cast<std::uint16_t>(std::stoi(s.substr(p)));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return 0;
  }

  void kill9() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

  ~ChildServer() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    waitpid(pid_, nullptr, 0);
  }

 private:
  pid_t pid_ = -1;
};

class RestartTest : public ServerFixture {};

json act(TestWs& ws, const json& table, const std::string& action_id) {
  return ws.request(first_action(table, action_id));
}

TEST_F(RestartTest, KillDashNineThenRestartResumesTheGameAtTheSameVersion) {
  ChildServer child;
  port_ = child.start(dir_, db_);
  ASSERT_NE(port_, 0) << "ur serve did not start";
  std::string alice_cookie = register_user("alice"), bob_cookie = register_user("bob");
  std::string id, position;
  std::int64_t version = 0;
  json seats;
  {
    TestWs alice(port_), bob(port_);
    ASSERT_EQ(alice.connect(alice_cookie), 0u);
    ASSERT_EQ(bob.connect(bob_cookie), 0u);
    json created = alice.request({{"type", "create_table"}, {"rated", true}});
    id = created["table"]["id"];
    json joined =
        bob.request({{"type", "join_table"}, {"table", id}, {"invite", created["invite"]}});
    json table = joined["table"];
    for (int i = 0; i < 12 && table["status"] == "playing"; ++i) {
      TestWs& ws = table["game"]["to_act"] == 1 ? alice : bob;
      json answer = act(ws, table, "x" + std::to_string(i));
      ASSERT_EQ(answer["type"], "action_ok") << answer;
      std::int64_t v = answer["version"];
      table = ws.next_if([&](const json& j) {
        return j["type"] == "table" && j["table"]["version"] == v;
      })["table"];
    }
    ASSERT_EQ(table["status"], "playing");
    version = table["version"];
    position = table["game"]["position"];
    seats = table["seats"];
    child.kill9();
  }

  port_ = child.start(dir_, db_);
  ASSERT_NE(port_, 0) << "ur serve did not restart";
  TestWs alice(port_), bob(port_);
  ASSERT_EQ(alice.connect(alice_cookie), 0u);
  ASSERT_EQ(bob.connect(bob_cookie), 0u);
  json resumed = alice.request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(resumed["type"], "joined") << resumed;
  EXPECT_EQ(resumed["role"], "player");
  EXPECT_EQ(resumed["you"], 1);
  json table = resumed["table"];
  EXPECT_EQ(table["version"], version);
  EXPECT_EQ(table["game"]["position"], position);
  EXPECT_EQ(table["seats"], seats);
  ASSERT_TRUE(resumed["clock"].is_object());
  EXPECT_EQ(resumed["clock"]["seat"], table["game"]["to_act"]);
  EXPECT_EQ(resumed["clock"]["timeout_ms"], 30000);
  ASSERT_EQ(bob.request({{"type", "open_table"}, {"table", id}})["you"], 2);

  // Play goes on from there.
  TestWs& ws = table["game"]["to_act"] == 1 ? alice : bob;
  json answer = act(ws, table, "after-restart");
  ASSERT_EQ(answer["type"], "action_ok") << answer;
  EXPECT_EQ(answer["version"], version + 1);
}

}  // namespace
}  // namespace ur::server
