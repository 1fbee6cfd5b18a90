// The idle clock against the computer: it never runs, so a player who stops to read the board
// never loses on time. The table messages say so (`clock` is null on the player's turn), which is
// what arms the timer; no test here waits on a timing.
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

}  // namespace
}  // namespace ur::server
