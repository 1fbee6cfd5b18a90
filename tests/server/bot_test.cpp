// Bot accounts (docs/server.md, "Bot accounts"; docs/protocol.md, "Bots"): the token's life
// (issued once, stored hashed, revocable), and `ur bot` with the example engine
// (examples/uep_random.py) as a child process: a browser-less client challenges it and plays a
// rated game to its end (rated in the bot pool: the ordinary rating untouched); an engine killed
// mid-game, one that answers an illegal move and one that answers garbage each lose on the idle
// clock (a short one here) with the failure reported by `ur bot`, never a hang.
#include <signal.h>
#include <sys/wait.h>

#include <fstream>
#include <sstream>

#include "bot_ws.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A child process (`ur bot`), its stderr in a file; killed and reaped at the end if still running.
class Child {
 public:
  Child(const std::vector<std::string>& args, const fs::path& log) : log_(log) {
    pid_ = fork();
    if (pid_ == 0) {
      FILE* f = std::freopen(log.c_str(), "w", stderr);
      (void)f;
      std::vector<char*> argv;
      for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
      argv.push_back(nullptr);
      execv(argv[0], argv.data());
      _exit(127);
    }
  }
  ~Child() {
    if (pid_ <= 0) return;
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  // The exit status, or -1 when it is still running after a minute (a loaded machine is slow).
  int wait() {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return -1;
  }
  std::string log() const { return read_text(log_); }

 private:
  pid_t pid_ = -1;
  fs::path log_;
};

class BotTest : public ServerFixture {
 protected:
  // A short idle clock for the games a failing engine must lose on time; a long one where the
  // game must end on the board whatever the load of the machine.
  void start(int idle_ms) {
    ServerConfig c = base_config();
    c.idle_timeout = std::chrono::milliseconds(idle_ms);
    // The test's player acts far faster than people: no message allowance to run out of.
    c.ws_burst = c.ws_ip_burst = 1e9;
    c.ws_refill_per_sec = c.ws_ip_refill_per_sec = 1e9;
    start_server(c);
  }

  // Registers `name`, marks the account as a bot and returns its token.
  std::string make_bot(const std::string& name) {
    std::string cookie = register_user(name);
    json made = body_json(post("/api/bot", {{"bot", true}}, cookie));
    EXPECT_EQ(made["bot"], true) << made;
    return made.value("token", "");
  }

  std::unique_ptr<Child> start_bot(const std::string& token, const std::string& engine,
                                   const std::string& name, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{
        UR_BINARY, "bot", "--server", "http://127.0.0.1:" + std::to_string(port_),
        "--token", token, "--engine", engine};
    args.insert(args.end(), extra.begin(), extra.end());
    return std::make_unique<Child>(args, dir_ / (name + ".log"));
  }

  // Waits until the bot `name` is listed online (the list is asked again until then).
  void wait_online(TestWs& ws, const std::string& name) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
    while (std::chrono::steady_clock::now() < deadline) {
      json answer = ws.request({{"type", "list_bots"}});  // named: the loop reads into it
      for (const json& b : answer["bots"])
        if (b["name"] == name && b["busy"] == false) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    FAIL() << "bot " << name << " never came online";
  }

  // Plays `seat` at the table (first legal move, or a roll) until the game is over; `on_table`
  // sees every state. Returns the final table.
  json play_out(TestWs& ws, json table, int seat,
                const std::function<void(const json&)>& on_table = {}) {
    std::string id = table["id"];
    std::int64_t acted = -1;
    int n = 0;
    while (table["status"] == "playing") {
      if (on_table) on_table(table);
      std::int64_t v = table["version"];
      if (table["game"]["to_act"] == seat && v > acted) {
        acted = v;
        json msg{{"v", 1}, {"table", id}, {"version", v}, {"action_id", std::to_string(++n)}};
        const json& moves = table["game"]["legal_moves"];
        msg["type"] = moves.empty() ? "roll" : "move";
        if (!moves.empty())
          for (const char* k : {"from", "to", "kind"}) msg[k] = moves[0][k];
        ws.send(msg);
      }
      table = ws.next_if([&](const json& j) {
        return j["type"] == "table" && j["table"]["id"] == id && j["table"]["version"] > v;
      })["table"];
    }
    return table;
  }

  // Challenges the bot and plays the game out; the final table.
  json challenge_and_play(TestWs& ws, const std::string& bot, bool rated,
                          const std::function<void(const json&)>& on_table = {}) {
    wait_online(ws, bot);
    json found = ws.request(
        {{"type", "challenge_bot"}, {"bot", bot}, {"rules", "finkel"}, {"rated", rated}});
    EXPECT_EQ(found["type"], "match_found") << found;
    if (found["type"] != "match_found") return json();
    ws.request({{"type", "open_table"}, {"table", found["table"]["id"]}});
    return play_out(ws, found["table"], found["you"], on_table);
  }

  std::string engine_script() const {
    // Appended in place: GCC 12 misreads std::string(...) + "..." here as an overflow
    // (-Warray-bounds), depending on what the unity batch inlines around it.
    std::string path = UR_SOURCE_DIR;
    path += "/examples/uep_random.py";
    return path;
  }
};

TEST_F(BotTest, TokenIsShownOnceStoredHashedAndRevocable) {
  start(30'000);
  std::string cookie = register_user("robo");
  EXPECT_EQ(body_json(get("/api/bot", cookie))["bot"], false);
  EXPECT_EQ(get("/api/bot").result_int(), 401);
  EXPECT_EQ(post("/api/bot", {{"bot", "yes"}}, cookie).result_int(), 400);
  json made = body_json(post("/api/bot", {{"bot", true}}, cookie));
  std::string token = made["token"];
  ASSERT_EQ(token.size(), 32u);
  json status = body_json(get("/api/bot", cookie));
  EXPECT_EQ(status["bot"], true);
  EXPECT_EQ(status["has_token"], true);
  EXPECT_FALSE(status.contains("token"));

  BotWs bot(port_);
  ASSERT_EQ(bot.connect(token), 0u);
  EXPECT_EQ(bot.request({{"type", "hello"}})["user"]["username"], "robo");
  json refused = bot.request({{"type", "bot_ready"}, {"rules", {"finkel", "nonsense"}}});
  EXPECT_EQ(refused["code"], "bad_rules") << refused;
  EXPECT_EQ(bot.request({{"type", "bot_ready"}, {"rules", {"finkel"}}})["type"], "bot_ready");
  // A bot token cannot manage the account, and a player cannot offer games as a bot.
  Request r;
  r.target = "/api/bot";
  r.headers = {{"Authorization", "Bearer " + token}};
  EXPECT_EQ(send_http(port_, r).result_int(), 401);
  TestWs human(port_);
  ASSERT_EQ(human.connect(cookie), 0u);
  EXPECT_EQ(human.request({{"type", "bot_ready"}, {"rules", {"finkel"}}})["code"], "not_bot");

  EXPECT_EQ(BotWs(port_).connect(std::string(32, '0')), 401u);
  // A new token replaces the old; a revoked one stops working; the account stays a bot.
  std::string second = body_json(post("/api/bot", {{"bot", true}}, cookie))["token"];
  EXPECT_EQ(BotWs(port_).connect(token), 401u);
  json revoked = body_json(post("/api/bot", {{"revoke", true}}, cookie));
  EXPECT_EQ(revoked["bot"], true);
  EXPECT_EQ(revoked["has_token"], false);
  EXPECT_EQ(BotWs(port_).connect(second), 401u);

  Child refused_bot({UR_BINARY, "bot", "--server", "http://127.0.0.1:" + std::to_string(port_),
                     "--token", second, "--engine", "python3 " + engine_script()},
                    dir_ / "refused.log");
  EXPECT_EQ(refused_bot.wait(), 1);
  EXPECT_NE(refused_bot.log().find("refused the bot token"), std::string::npos)
      << refused_bot.log();
}

TEST_F(BotTest, UrBotPlaysAChallengeToTheEndRatedInTheBotPool) {
  start(120'000);
  std::string token = make_bot("randombot");
  auto bot = start_bot(token, "python3 " + engine_script(), "randombot", {"--games", "1"});
  std::string cookie = register_user("bob");
  TestWs bob(port_);
  ASSERT_EQ(bob.connect(cookie), 0u);
  wait_online(bob, "randombot");
  json bots = body_json(get("/api/bots"));
  ASSERT_EQ(bots["bots"].size(), 1u);
  EXPECT_EQ(bots["bots"][0]["rules"], json({"finkel"}));
  EXPECT_EQ(bob.request({{"type", "challenge_bot"}, {"bot", "randombot"}, {"rules", "masters"}})
                .value("code", ""),
            "bot_refuses");
  EXPECT_EQ(bob.request({{"type", "challenge_bot"}, {"bot", "nobody"}}).value("code", ""),
            "no_bot");
  json end = challenge_and_play(bob, "randombot", true);
  ASSERT_EQ(end["status"], "finished") << end;
  EXPECT_EQ(end["summary"]["reason"], "bore-off") << end["summary"];
  EXPECT_EQ(bot->wait(), 0) << bot->log();
  // Rated in the bot pool: bob's ordinary rating and game count are untouched.
  json me = body_json(get("/api/me", cookie))["user"];
  EXPECT_EQ(me["rating"], 1200);
  EXPECT_EQ(me["games"], 0);
  json pool = body_json(get("/api/bot", cookie));
  EXPECT_EQ(pool["bot"], false);
  EXPECT_EQ(pool["games"], 1);
  EXPECT_NE(pool["rating"], 1200);
}

TEST_F(BotTest, AnEngineKilledMidGameLosesOnTheIdleClock) {
  start(6'000);
  std::string token = make_bot("fragile");
  fs::path pid_file = dir_ / "engine.pid";
  fs::path wrapper = dir_ / "engine.sh";
  std::ofstream(wrapper) << "#!/bin/sh\necho $$ > " << pid_file.string() << "\nexec python3 "
                         << engine_script() << "\n";
  fs::permissions(wrapper, fs::perms::owner_all);
  auto bot = start_bot(token, wrapper.string(), "fragile");
  TestWs bob(port_);
  ASSERT_EQ(bob.connect(register_user("bob")), 0u);
  int prev_actor = 0, bot_actions = 0;
  bool killed = false;
  json end = challenge_and_play(bob, "fragile", false, [&](const json& t) {
    int bot_seat = t["seats"][0]["name"] == "fragile" ? 1 : 2;
    if (prev_actor == bot_seat) ++bot_actions;
    prev_actor = t["game"]["to_act"].is_number() ? t["game"]["to_act"].get<int>() : 0;
    if (killed || bot_actions < 3) return;
    // The bot has acted in this game, so the engine of this game wrote the pid file last.
    killed = true;
    kill(std::stoi(read_text(pid_file)), SIGKILL);
  });
  ASSERT_TRUE(killed);
  ASSERT_EQ(end["status"], "finished") << end;
  EXPECT_EQ(end["summary"]["reason"], "timeout") << end["summary"];
  EXPECT_NE(end["summary"]["winner"], json(nullptr));
  EXPECT_NE(bot->log().find("the engine failed"), std::string::npos) << bot->log();
}

TEST_F(BotTest, IllegalMovesAndGarbageAreReportedAndLoseOnTheIdleClock) {
  start(3'000);
  fs::path garbage = dir_ / "garbage.sh";
  std::ofstream(garbage) << "#!/bin/sh\nwhile read line; do case \"$line\" in\n"
                         << "  uep) echo 'id name garbage'; echo uepok;;\n"
                         << "  isready) echo readyok;;\n"
                         << "  go*) echo 'bestmove !!garbage!!';;\n"
                         << "  quit) exit 0;;\nesac; done\n";
  fs::permissions(garbage, fs::perms::owner_all);
  struct Case {
    std::string name, engine;
  };
  for (const Case& c : {Case{"cheater", "python3 " + engine_script() + " --illegal-after 1"},
                        Case{"babbler", garbage.string()}}) {
    SCOPED_TRACE(c.name);
    auto bot = start_bot(make_bot(c.name), c.engine, c.name, {"--games", "1"});
    TestWs bob(port_);
    ASSERT_EQ(bob.connect(register_user("bob_" + c.name)), 0u);
    json end = challenge_and_play(bob, c.name, true);
    ASSERT_EQ(end["status"], "finished") << end;
    EXPECT_EQ(end["summary"]["reason"], "timeout") << end["summary"];
    EXPECT_EQ(bot->wait(), 0);
    EXPECT_NE(bot->log().find("the engine failed"), std::string::npos) << bot->log();
  }
}

}  // namespace
}  // namespace ur::server
