// Perfect play on a fresh start (table_solver.h): a server started without tables solves the
// missing ones in the background with the real `ur solve`, says so in GET /api/rules and its
// log, skips what needs more memory than allowed, and its perfect level plays from the new table
// once it is there, and its puzzles follow (puzzle_seeder.h). The memory limit is set so that only
// the smallest preset (bell) is solved.
#include <cstdlib>

#include "rules/presets.h"
#include "server/tables/table_solver.h"
#include "solver/value_iteration.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class TableSolverTest : public TableFixture {};

json preset_of(const json& rules, const std::string& id) {
  for (const json& p : rules["presets"])
    if (p["id"] == id) return p;
  return nullptr;
}

TEST_F(TableSolverTest, MissingTablesAreSolvedInTheBackgroundAndThenPlayedFrom) {
  ServerConfig c = config();
  c.solve_tables = true;
  c.solver_binary = UR_BINARY;
  // What bell (1.9 M states) and boxed's endgame table of k = 3 need at least, with every
  // stream spilled: less than any larger whole table needs (british-museum's 14.7 M states).
  auto least = [](const std::string& preset, int endgame) {
    const Engine engine(*find_preset(preset));
    return solver::ValueIteration::memory_needed(
        std::get<solver::StateIndex>(
            solver::StateIndex::create(engine, solver::Encoding::kAuto, endgame)),
        true);
  };
  c.solve_memory = std::max(least("bell", 0), least("boxed", 3));
  ASSERT_LT(c.solve_memory, least("british-museum", 0));
  c.seed_puzzles = true;
  ServerFixture::start_server(c);

  json bell, finkel;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(5);
  for (;;) {
    json rules = body_json(get("/api/rules"));
    bell = preset_of(rules, "bell");
    finkel = preset_of(rules, "finkel");
    if (bell["solve"].is_object() && bell["solve"]["state"] == "ready") break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << bell;
    ASSERT_FALSE(bell["solve"].is_object() && bell["solve"]["state"] == "failed") << bell;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_EQ(bell["solve"]["progress"], 1.0);
  EXPECT_EQ(bell["solved"], true) << "the perfect level switched to the new table";
  ASSERT_TRUE(finkel["solve"].is_object()) << finkel;
  EXPECT_EQ(finkel["solve"]["state"], "skipped");
  EXPECT_NE(finkel["solve"].value("reason", "").find("--solve-memory"), std::string::npos);
  EXPECT_TRUE(fs::exists(dir_ / "data" / "tables" / "bell.urt"));

  // The seven-counter boxed game cannot be solved whole: its endgame table is, after the whole
  // tables, with the most pieces left a side that fits the limit (k = 3: 757,788 states).
  json boxed;
  for (;;) {
    boxed = preset_of(body_json(get("/api/rules")), "boxed");
    ASSERT_TRUE(boxed["solve"].is_object()) << boxed;
    if (boxed["solve"]["state"] == "ready") break;
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << boxed;
    ASSERT_NE(boxed["solve"]["state"], "failed") << boxed;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  EXPECT_EQ(boxed["solved"], true);
  EXPECT_EQ(boxed["endgame"], 3);
  EXPECT_TRUE(fs::exists(dir_ / "data" / "tables" / "boxed.endgame3.urt"));

  Client alice = user("alice");
  json made = alice->request({{"type", "create_table"}, {"rules", "bell"}, {"level", "perfect"}});
  ASSERT_EQ(made["type"], "joined") << made;
  EXPECT_EQ(made["table"]["seats"][1]["name"], "Computer (perfect)") << "played from the table";

  // Boxed's perfect level: exact in the endgame from the new table, hard's search before it, and
  // it plays (alice's turns are her first legal action, until the computer has taken three).
  json box = alice->request({{"type", "create_table"}, {"rules", "boxed"}, {"level", "perfect"}});
  ASSERT_EQ(box["type"], "joined") << box;
  EXPECT_EQ(box["table"]["seats"][1]["name"], "Computer (perfect: exact in the endgame)");
  EXPECT_EQ(box["table"]["seats"][1]["level_note"], "endgame");
  json t = box["table"];
  int computer_turns = 0;
  for (int n = 0; computer_turns < 3 && t["status"] == "playing" && n < 200; ++n) {
    const bool mine = t["game"]["to_act"] == 1;
    if (mine) {
      json ok = alice->request(first_action(t, "b" + std::to_string(n)));
      ASSERT_EQ(ok["type"], "action_ok") << ok;
    }
    const std::int64_t v = t["version"];
    t = alice->next_if([&](const json& j) {
      return j["type"] == "table" && j["table"]["version"].get<std::int64_t>() > v;
    })["table"];
    if (!mine && t["game"]["to_act"] == 1) ++computer_turns;
  }
  EXPECT_EQ(computer_turns, 3) << t;

  // Puzzles out of the box (puzzle_seeder.h): the new table's puzzles follow by themselves.
  Response next;
  for (;;) {
    next = get("/api/puzzles/next?rules=bell");
    if (next.result_int() == 200) break;
    ASSERT_EQ(next.result_int(), 404) << next.body();
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no bell puzzle was stored";
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  const json p = body_json(next)["puzzle"];
  EXPECT_EQ(p["rules"], "bell");
  EXPECT_GE(p["moves"].size(), 2u);
  const json answer = body_json(
      post("/api/puzzles/" + p["id"].get<std::string>() + "/attempt", {{"move", p["moves"][0]}}));
  EXPECT_TRUE(answer["correct"].is_boolean()) << answer;
  EXPECT_EQ(get("/api/puzzles/next?rules=finkel").result_int(), 404) << "finkel has no table";
}

TEST_F(TableSolverTest, AServerWithoutSolvingSaysNothingOfIt) {
  start_server();
  json rules = body_json(get("/api/rules"));
  for (const json& p : rules["presets"]) EXPECT_TRUE(p["solve"].is_null()) << p;
}

}  // namespace
}  // namespace ur::server
