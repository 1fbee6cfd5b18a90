// Faults of the network between machines (docs/operations.md, "Faults between machines"): the
// cluster of scripts/cluster run by scripts/netfault in a network namespace of its own, where
// this test cuts a node off from PostgreSQL and Redis, delays PostgreSQL's answers, drops
// packets to and from Redis, and jumps a node's wall clock, while two bots play a rated game
// through the balancer and a spectator watches on the faulted node. Under each fault: no action
// acknowledged and then lost, none applied twice, one holder per epoch of the table, every
// client at the final version, the same finished game from every node. Each prints its counts.
// Skipped without that environment: the ctest entry server.netfault provides it.
#include <chrono>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "cluster_fixture.h"

namespace ur::server::test {
namespace {

using namespace std::chrono_literals;

// How long a bot waits for an answer or a broadcast before it tries another node: past the
// balancer's health check (a node that cannot reach the database fails it within ~2 s).
constexpr auto kPatience = 4000ms;

class NetFault : public ClusterTest {
 protected:
  void SetUp() override {
    ClusterTest::SetUp();
    if (IsSkipped()) return;
    script_ = std::getenv("UR_TEST_NETFAULT_SCRIPT");
    if (!script_) GTEST_SKIP() << "no network faults (scripts/netfault test runs these)";
    pg_ = std::getenv("UR_TEST_CLUSTER_PG");
    // Every write of a table row as the database applied it, in order: the epochs' holders.
    pg_query_value(pg_, R"(
      CREATE TABLE IF NOT EXISTS netfault_history (seq BIGSERIAL, id TEXT, version BIGINT,
                                                   epoch BIGINT, owner_node TEXT);
      CREATE OR REPLACE FUNCTION netfault_record() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        INSERT INTO netfault_history (id, version, epoch, owner_node)
        VALUES (NEW.id, NEW.version, NEW.epoch, NEW.owner_node);
        RETURN NEW;
      END $$;
      CREATE OR REPLACE TRIGGER netfault_record AFTER INSERT OR UPDATE ON tables
        FOR EACH ROW EXECUTE FUNCTION netfault_record();)");
  }
  void TearDown() override {
    if (script_) fault("heal");
  }

  void fault(const std::string& args) {
    std::string cmd = std::string("bash ") + script_ + " " + args + " >&2";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }

  struct Tally {
    int acked = 0;       // actions answered action_ok
    int duplicates = 0;  // of those, answered as the repeat of a try whose answer was lost
    int found = 0;       // tries whose answer was lost, found applied (stale_version after)
    int retries = 0;     // tries sent again, on another socket
    int reconnects = 0;  // sockets opened again through the balancer
    std::set<std::int64_t> versions;  // the version each accepted action produced
  };

  // A new socket through the balancer for `c`, at table `id`: the table as that node has it.
  json rejoin(Client& c, const std::string& id, Tally& t) {
    for (int attempt = 0; attempt < 40; ++attempt) {
      try {
        ++t.reconnects;
        c.ws = std::make_unique<TestWs>(balancer_);
        c->set_read_deadline(kPatience);
        if (c->connect(c.cookie) == 0) {
          json opened = c->request({{"type", "open_table"}, {"table", id}});
          if (opened["type"] == "joined") return opened["table"];
        }
      } catch (const std::exception&) {
        // That node did not answer in time: the next try may reach another.
      }
      std::this_thread::sleep_for(250ms);
    }
    ADD_FAILURE() << "no node let a player back to table " << id;
    return nullptr;
  }

  // Waits until `c` has version `v` (or later) of the table, on its socket or, when that node
  // says nothing in time, on a new one. The table as it then sees it.
  json await_version(Client& c, const std::string& id, std::int64_t v, Tally& t) {
    for (int attempt = 0; attempt < 10; ++attempt) {
      try {
        return c->next_if([&](const json& j) {
          return j["type"] == "table" && j["table"]["version"].get<std::int64_t>() >= v;
        })["table"];
      } catch (const std::exception&) {
        json table = rejoin(c, id, t);
        if (table.is_object() && table["version"].get<std::int64_t>() >= v) return table;
      }
    }
    ADD_FAILURE() << "version " << v << " never reached a player";
    return nullptr;
  }

  // `msg` by `c`, sent again with the same action id on other sockets until a node answers it.
  // Returns the version the action produced.
  std::optional<std::int64_t> commit(Client& c, const std::string& id, const json& msg, Tally& t) {
    const std::int64_t based = msg["version"];
    for (int attempt = 0; attempt < 40; ++attempt) {
      json answer;
      try {
        answer = c->request(msg);
      } catch (const std::exception&) {
        ++t.retries;
        rejoin(c, id, t);
        continue;
      }
      if (answer["type"] == "action_ok") {
        std::int64_t v = answer["version"];
        ++t.acked;
        if (answer.value("duplicate", false)) ++t.duplicates;
        EXPECT_TRUE(t.versions.insert(v).second) << "two actions acknowledged at version " << v;
        EXPECT_EQ(v, based + 1) << answer;
        return v;
      }
      std::string code = answer.value("code", "");
      if (code == "stale_version") {
        // Only the player to act acts at `based` (no clock runs out: a minute's idle clock), so
        // a newer table means an earlier try was committed and its answer lost.
        std::int64_t now = answer["snapshot"]["version"];
        EXPECT_GT(now, based) << answer;
        ++t.found;
        EXPECT_TRUE(t.versions.insert(based + 1).second) << "version " << based + 1 << " twice";
        return based + 1;
      }
      if (code == "rate_limited") {
        std::this_thread::sleep_for(100ms);
        continue;
      }
      // A node that cannot reach the database says so: try again, elsewhere.
      ++t.retries;
      std::this_thread::sleep_for(200ms);
      rejoin(c, id, t);
    }
    ADD_FAILURE() << "no node accepted " << msg;
    return std::nullopt;
  }

  // One action of the player to act; both players then have its version. The table after it.
  json act(Client& light, Client& dark, const std::string& id, const json& table,
           const std::string& action_id, Tally& t) {
    Client& c = table["game"]["to_act"] == 1 ? light : dark;
    Client& other = table["game"]["to_act"] == 1 ? dark : light;
    auto v = commit(c, id, action(table, action_id), t);
    if (!v) return nullptr;
    await_version(c, id, *v, t);
    return await_version(other, id, *v, t);
  }

  // Every write of table `id` in order, as (version, epoch, holder).
  struct Write {
    std::int64_t version, epoch;
    std::string holder;
  };
  std::vector<Write> history(const std::string& id) {
    std::string all = pg_query_value(
        pg_,
        "SELECT string_agg(version || ' ' || epoch || ' ' || owner_node, ',' ORDER BY seq) "
        "FROM netfault_history WHERE id = '" +
            id + "'");
    std::vector<Write> writes;
    std::stringstream in(all);
    std::string item;
    while (std::getline(in, item, ',')) {
      std::stringstream fields(item);
      Write w;
      fields >> w.version >> w.epoch;
      std::getline(fields >> std::ws, w.holder);
      writes.push_back(w);
    }
    return writes;
  }

  // A rated game by two bots through the balancer (dark's first socket on node `watched`), a
  // spectator on node `watched`; `inject` starts the fault after four actions, heal ends it
  // after `under` more; four more actions and a resignation end the game. Then the checks.
  void play(const std::string& name, const std::function<int(const std::string&)>& pick,
            const std::function<void(int)>& inject, int under) {
    try {
      play_game(name, pick, inject, under);
    } catch (const std::exception& e) {
      FAIL() << e.what() << " (" << phase_ << ")";
    }
  }
  void play_game(const std::string& name, const std::function<int(const std::string&)>& pick,
                 const std::function<void(int)>& inject, int under);

  const char* script_ = nullptr;
  const char* pg_ = nullptr;
  std::string phase_;  // what play_game was doing, for a failure's message
};

void NetFault::play_game(const std::string& name,
                         const std::function<int(const std::string&)>& pick,
                         const std::function<void(int)>& inject, int under) {
  const auto started = std::chrono::steady_clock::now();
  phase_ = "the start of the game";
  Tally t;
  Client light = user(balancer_, balancer_, unique("nfl"));
  Client dark = user(balancer_, balancer_, unique("nfd"));
  std::string id = start_game(light, dark);
  const int k = pick(id);
  ASSERT_GE(k, 0);
  json table = reconnect(dark, nodes_[k], id);
  Client watcher{"", std::make_unique<TestWs>(nodes_[k])};
  ASSERT_EQ(watcher->connect(), 0u);
  ASSERT_EQ(watcher->request({{"type", "open_table"}, {"table", id}})["type"], "joined");
  for (Client* c : {&light, &dark}) (*c)->set_read_deadline(kPatience);
  const std::int64_t first = table["version"];

  int n = 0;
  // Under the fault the bots think half a second before each action, as people do: a clock
  // that a faulted node runs wrongly has the time to fire.
  auto steps = [&](int count, std::chrono::milliseconds think) {
    for (int i = 0; i < count && table.is_object() && table["status"] == "playing"; ++i) {
      std::this_thread::sleep_for(think);
      table = act(light, dark, id, table, name + std::to_string(++n), t);
    }
  };
  phase_ = "before the fault";
  steps(4, 0ms);
  inject(k);
  phase_ = "under the fault";
  steps(under, 500ms);
  fault("heal");
  phase_ = "after the fault";
  steps(4, 0ms);
  ASSERT_TRUE(table.is_object());
  EXPECT_EQ(table["status"], "playing") << "the game ended before the bots ended it: " << table;
  if (table["status"] == "playing") {
    json resign{{"type", "resign"},
                {"table", id},
                {"version", table["version"]},
                {"action_id", name + "-end"}};
    auto v = commit(light, id, resign, t);
    ASSERT_TRUE(v);
    table = await_version(dark, id, *v, t);
    await_version(light, id, *v, t);
  }
  ASSERT_EQ(table["status"], "finished") << table;
  const std::int64_t last = table["version"];

  // Every acknowledged action is in the final version once, and nothing else is.
  ASSERT_FALSE(t.versions.empty());
  EXPECT_EQ(last - first, static_cast<std::int64_t>(t.versions.size()))
      << "an action lost or applied twice";
  EXPECT_EQ(*t.versions.rbegin(), last);
  EXPECT_EQ(row(id).version, last);
  phase_ = "the checks";
  // The spectator on the faulted node converges too (its own socket, never reopened).
  watcher->set_read_deadline(30s);
  json seen = watcher->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["version"].get<std::int64_t>() >= last;
  });
  EXPECT_EQ(seen["table"]["version"], last);
  EXPECT_EQ(seen["table"]["status"], "finished");
  std::set<std::string> games;
  for (std::uint16_t port : {nodes_[0], nodes_[1], nodes_[2], balancer_})
    games.insert(get_json(port, "/api/games/" + id).dump());
  EXPECT_EQ(games.size(), 1u) << "the nodes disagree on the game";
  EXPECT_NE(games.begin()->find("winner"), std::string::npos) << *games.begin();

  // One holder per epoch, epochs and versions never going back.
  std::map<std::int64_t, std::set<std::string>> holders;
  std::int64_t epoch = -1, version = -1;
  for (const Write& w : history(id)) {
    holders[w.epoch].insert(w.holder);
    EXPECT_GE(w.epoch, epoch) << "the epoch went back";
    EXPECT_GE(w.version, version) << "the version went back";
    epoch = std::max(epoch, w.epoch);
    version = std::max(version, w.version);
  }
  int shared = 0;
  for (const auto& [e, who] : holders) shared += who.size() > 1;
  EXPECT_EQ(shared, 0) << "an epoch with two holders";

  const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started);
  std::cerr << "netfault " << name << ": " << t.acked << " actions acknowledged (" << t.duplicates
            << " as the repeat of a lost answer), " << t.found
            << " found applied after a lost answer; lost "
            << std::max<std::int64_t>(0,
                                      static_cast<std::int64_t>(t.versions.size()) - (last - first))
            << ", applied twice "
            << std::max<std::int64_t>(0,
                                      (last - first) - static_cast<std::int64_t>(t.versions.size()))
            << "; " << t.retries << " tries sent again, " << t.reconnects << " reconnects; "
            << holders.size() << " epochs, " << holders.size() - shared
            << " with one holder; 3 clients at version " << last << "; "
            << static_cast<int>(seconds.count() * 10) / 10.0 << " s\n";
}

// The node holding the game's table (with the spectator and dark's first socket) loses
// PostgreSQL and Redis for a while; its clients still reach it.
TEST_F(NetFault, ANodeCutOffFromPostgresqlAndRedis) {
  play(
      "cut", [&](const std::string& id) { return owner_index(id); },
      [&](int k) { fault("cut " + std::to_string(k + 1)); }, 12);
}

// 20% of the packets to Redis and 20% of those from it are dropped.
TEST_F(NetFault, TwentyPercentPacketLossToRedis) {
  play(
      "redis-loss", [&](const std::string&) { return 2; }, [&](int) { fault("loss-redis 20"); },
      20);
}

// The wall clock of the node holding the table jumps an hour forward (as a bad NTP step does);
// heal puts it back.
TEST_F(NetFault, ANodesClockJumpsForward) {
  int jumped = -1;
  play(
      "clock", [&](const std::string& id) { return jumped = owner_index(id); },
      [&](int k) { fault("clock " + std::to_string(k + 1) + " +3600s"); }, 12);
  if (jumped >= 0) fault("clock " + std::to_string(jumped + 1) + " +0");
}

// Every answer of PostgreSQL reaches every node 200 ms late. Once its relay stops (heal), every
// node's connections through it break: the next game, with no fault, must go as the first.
TEST_F(NetFault, PostgresqlAnswers200MsLate) {
  play(
      "pg-delay", [&](const std::string& id) { return owner_index(id); },
      [&](int) { fault("delay-pg 200"); }, 10);
  play(
      "pg-healed", [&](const std::string& id) { return owner_index(id); }, [&](int) {}, 2);
}

}  // namespace
}  // namespace ur::server::test
