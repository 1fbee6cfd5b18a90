// The idle clock for newcomers: against the computer it never runs, so a player who stops to read
// the board never loses on time; and a game's first move is not timed until the player's page
// has opened the table (a match found while they looked away). The messages say so (`clock` is
// null, or names the seat), which is what arms the timer; no test here waits on a timing.
#include "harness.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class ClockTest : public ServerFixture {};

TEST_F(ClockTest, NoClockRunsAgainstTheComputer) {
  ServerConfig c = base_config();
  c.idle_timeout = std::chrono::seconds(1);
  c.bot_delay = std::chrono::milliseconds(1);
  ServerFixture::start_server(c);
  TestWs g(port_);
  ASSERT_EQ(g.connect(), 0u);
  // The guest takes seat 1 and throws first: a clock would run for it from the start.
  json created = g.request({{"type", "create_table"}, {"level", "easy"}, {"seat", 1}});
  ASSERT_EQ(created["type"], "joined") << created;
  ASSERT_EQ(created["table"]["game"]["to_act"], 1);
  EXPECT_TRUE(created["clock"].is_null()) << created["clock"];
  json roll = g.request({{"type", "roll"},
                         {"table", created["table"]["id"]},
                         {"version", created["table"]["version"]},
                         {"action_id", "r1"}});
  ASSERT_EQ(roll["type"], "action_ok") << roll;
  std::int64_t v = roll["version"];
  json table =
      g.next_if([&](const json& j) { return j["type"] == "table" && j["table"]["version"] == v; });
  EXPECT_TRUE(table["clock"].is_null()) << table["clock"];
  EXPECT_EQ(table["table"]["status"], "playing");
}

TEST_F(ClockTest, TheFirstMoveWaitsForThePlayersPage) {
  ServerConfig c = base_config();
  c.idle_timeout = std::chrono::seconds(30);
  ServerFixture::start_server(c);
  TestWs a(port_), b(port_);
  ASSERT_EQ(a.connect(), 0u);
  ASSERT_EQ(b.connect(), 0u);
  ASSERT_EQ(a.request({{"type", "find_match"}, {"rules", "finkel"}})["type"], "queued");
  ASSERT_EQ(b.request({{"type", "find_match"}, {"rules", "finkel"}})["type"], "queued");
  json fa = a.next("match_found"), fb = b.next("match_found");
  // Matched, but neither page has shown the board yet: no clock.
  EXPECT_TRUE(fa["clock"].is_null()) << fa["clock"];
  EXPECT_TRUE(fb["clock"].is_null()) << fb["clock"];
  int to_act = fa["table"]["game"]["to_act"];
  ASSERT_TRUE(to_act == 1 || to_act == 2);
  TestWs& first = fa["you"] == to_act ? a : b;
  TestWs& second = fa["you"] == to_act ? b : a;
  std::string id = fa["table"]["id"];
  // The other player's page opening the table does not start the first player's clock...
  json other = second.request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(other["type"], "joined") << other;
  EXPECT_TRUE(other["clock"].is_null()) << other["clock"];
  // ...the first player's page does.
  json opened = first.request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(opened["type"], "joined") << opened;
  ASSERT_TRUE(opened["clock"].is_object()) << opened["clock"];
  EXPECT_EQ(opened["clock"]["seat"], to_act);
  EXPECT_EQ(opened["clock"]["timeout_ms"], 30000);
}

}  // namespace
}  // namespace ur::server
