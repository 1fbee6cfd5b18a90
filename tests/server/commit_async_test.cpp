// A table's database write leaves its strand (table_service.h, docs/scaling.md): while the writes
// of three tables are held in storage, a fourth table still answers its players, and once the
// writes go through, each held action is committed, answered and broadcast, in order, with the
// next operation of the same table having waited at its gate instead of meeting a conflict.
//
// The writes are held by a Storage wrapper on a latch the test opens; nothing here depends on a
// timing but the harness's generous deadline, which turns a hang into a failure.
//
// CommitAsyncCluster: the same for a node of a cluster (a Redis bus: scripts/cluster test runs
// it), whose first move's clock start and lease holder's reload leave the table's strand too; and
// a page that opens a table on a node not yet subscribed to it misses no commit made between the
// node's read and its subscription.
#include <cstdlib>

#include "holding_storage.h"
#include "server/accounts/accounts.h"
#include "server/cluster/redis_commands.h"
#include "server/cluster/redis_pubsub.h"
#include "server/cluster/table_lease.h"
#include "server/tables/live_table.h"
#include "server/tables/table_model.h"
#include "table_fixture.h"

namespace ur::server::test {
namespace {

class CommitAsyncTest : public TableFixture {
 protected:
  // The server of TableFixture, its storage wrapped before it serves anything; the default two
  // table threads, and four storage threads.
  HoldingStorage& start_holding_server() {
    ServerConfig c = config();
    c.table_threads = 2;
    return start_holding_server(std::move(c));
  }
  HoldingStorage& start_holding_server(ServerConfig c) {
    c.db_connections = 4;
    server_ = std::make_unique<Server>(std::move(c));
    EXPECT_EQ(server_->start(), "");
    std::unique_ptr<Storage>& storage = server_->context().storage;
    auto holding = std::make_unique<HoldingStorage>(std::move(storage));
    holding_ = holding.get();
    storage = std::move(holding);
    port_ = server_->port();
    thread_ = std::thread([this] { server_->run(); });
    return *holding_;
  }
  // A failed assertion must not leave writes held: the server could not stop.
  void TearDown() override {
    if (holding_) holding_->release();
    TableFixture::TearDown();
  }
  HoldingStorage* holding_ = nullptr;

  TableRow storage_row(const std::string& id) {
    auto row = server_->context().storage->find_table(id);
    EXPECT_TRUE(row) << id;
    return row ? *row : TableRow{};
  }

  // The first action of a fresh game (light throws), sent without waiting for its answer.
  void first_throw(Client& light, const std::string& id, std::int64_t version,
                   const std::string& action_id, int msg_id) {
    light->send(json{{"v", 1},
                     {"id", msg_id},
                     {"type", "roll"},
                     {"table", id},
                     {"version", version},
                     {"action_id", action_id}});
  }
};

// Needs a Redis bus: a suite of its own, run by the cluster's ctest entry (server.cluster).
class CommitAsyncCluster : public CommitAsyncTest {};

TEST_F(CommitAsyncTest, AHeldWriteStallsOnlyItsOwnTable) {
  HoldingStorage& storage = start_holding_server();
  struct Game {
    Client light, dark;
    std::string id;
    std::int64_t version = 0;
  };
  std::vector<Game> games;
  for (int i = 0; i < 4; ++i) {
    Game g{guest(), guest(), ""};
    g.id = start_game(g.light, g.dark);
    // Read before any write is held: opening a table passes its gate too.
    g.version = snapshot(g.light, g.id)["version"];
    games.push_back(std::move(g));
  }
  json d_table = snapshot(games[3].light, games[3].id);
  storage.hold({games[0].id, games[1].id, games[2].id});
  // Tables A, B, C: a throw each, whose writes are held; more than the table threads.
  for (int i = 0; i < 3; ++i)
    first_throw(games[i].light, games[i].id, games[i].version, "held", 1000);
  ASSERT_TRUE(storage.wait_held(3, kDeadline)) << "the third write never reached storage";
  // A second throw at A waits at A's gate behind the held one (then meets the new version).
  first_throw(games[0].light, games[0].id, games[0].version, "again", 1001);

  // Table D is answered and broadcast while A, B and C wait for the database.
  Game& d = games[3];
  json answer = act(d.light, d_table, "free");
  EXPECT_EQ(answer["type"], "action_ok") << answer;
  json seen = d.dark->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["version"] == answer["version"];
  });
  EXPECT_EQ(seen["events"][0]["kind"], answer["events"][0]["kind"]) << seen;

  storage.release();
  for (int i = 0; i < 3; ++i) {
    Game& g = games[i];
    json ok = g.light->next_if([](const json& j) { return j.value("re", json()) == 1000; });
    ASSERT_EQ(ok["type"], "action_ok") << ok;
    EXPECT_EQ(ok["version"], g.version + 1);
    json broadcast = g.dark->next_if(
        [&](const json& j) { return j["type"] == "table" && j["table"]["version"] > g.version; });
    EXPECT_EQ(broadcast["table"]["version"], g.version + 1) << "the first broadcast is the throw";
    auto row = server_->context().storage->find_table(g.id);
    ASSERT_TRUE(row);
    EXPECT_EQ(row->version, g.version + 1);
  }
  // The second throw at A came after the first was applied: refused as stale, with the new
  // state, not as a storage conflict.
  json late = games[0].light->next_if([](const json& j) { return j.value("re", json()) == 1001; });
  EXPECT_EQ(late["type"], "error") << late;
  EXPECT_EQ(late["code"], "stale_version") << late;
  EXPECT_EQ(late["snapshot"]["version"], games[0].version + 1) << late;
}

// The matchmaking queue's new table is stored off the service strand, which runs on a table
// thread: on a node with one table thread, while that write is held another table still answers
// and broadcasts (were the write on the thread, nothing would). Released, both players hear
// `match_found` for the same table.
TEST_F(CommitAsyncTest, AHeldMatchTableStallsNoOtherTable) {
  ServerConfig c = config();
  c.table_threads = 1;
  HoldingStorage& storage = start_holding_server(std::move(c));
  Client other_light = guest(), other_dark = guest();
  std::string other = start_game(other_light, other_dark);
  json other_table = snapshot(other_light, other);

  storage.hold({"new"});
  Client a = guest(), b = guest();
  ASSERT_EQ(a->request({{"type", "find_match"}})["type"], "queued");
  ASSERT_EQ(b->request({{"type", "find_match"}})["type"], "queued");
  ASSERT_TRUE(storage.wait_held(1, kDeadline)) << "the pair's table never reached storage";

  json answer = act(other_light, other_table, "free");
  EXPECT_EQ(answer["type"], "action_ok") << answer;
  json seen = other_dark->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["version"] == answer["version"];
  });
  EXPECT_EQ(seen["events"][0]["kind"], answer["events"][0]["kind"]) << seen;

  storage.release();
  json fa = a->next("match_found"), fb = b->next("match_found");
  ASSERT_EQ(fa["type"], "match_found") << fa;
  ASSERT_EQ(fb["type"], "match_found") << fb;
  EXPECT_EQ(fa["table"]["id"], fb["table"]["id"]);
  EXPECT_NE(fa["you"], fb["you"]) << fa << fb;
  EXPECT_EQ(storage_row(fa["table"]["id"]).status, "playing");
}

// A pair whose table cannot be stored (the database away) goes back to the queue, and is seated
// once the database answers again, instead of waiting for a `match_found` that never comes.
TEST_F(CommitAsyncTest, APairWhoseTableCannotBeStoredIsMatchedAgain) {
  HoldingStorage& storage = start_holding_server();
  storage.fail_new(true);
  Client a = guest(), b = guest();
  ASSERT_EQ(a->request({{"type", "find_match"}})["type"], "queued");
  ASSERT_EQ(b->request({{"type", "find_match"}})["type"], "queued");
  bool failed = false;
  for (int i = 0; i < 800 && !(failed = storage.failed_new() > 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(failed) << "the pair was never made";
  storage.fail_new(false);
  json fa = a->next("match_found"), fb = b->next("match_found");
  ASSERT_EQ(fa["type"], "match_found") << fa;
  ASSERT_EQ(fb["type"], "match_found") << fb;
  EXPECT_EQ(fa["table"]["id"], fb["table"]["id"]);
  EXPECT_EQ(storage_row(fa["table"]["id"]).status, "playing");
}

// A node of a cluster with one table thread: a table's first move's clock start and, on the
// holder of another table, the reload that another node's newer broadcast calls for are held in
// storage, and a third table still answers and broadcasts (were either call blocking the strand's
// thread, nothing would answer: there is one, and the other held call would never come).
// Released, the page that opened the first table gets its answer with the stored clock.
TEST_F(CommitAsyncCluster, AHeldClockStartOrReloadStallsOnlyItsOwnTable) {
  const char* redis = std::getenv("UR_TEST_CLUSTER_REDIS");
  if (!redis) GTEST_SKIP() << "no Redis (scripts/cluster test runs this)";
  ServerConfig c = config();
  c.table_threads = 1;
  c.bus = std::string("redis://127.0.0.1:") + redis;
  HoldingStorage& storage = start_holding_server(std::move(c));
  Client a_light = guest(), a_dark = guest(), b_light = guest(), b_dark = guest();
  std::string a = start_game(a_light, a_dark);
  std::string b = start_game(b_light, b_dark);
  json b_table = snapshot(b_light, b);  // b's creator loaded it: its clock start is stored now
  ASSERT_NE(storage_row(b).clock_deadline, 0) << "b's clock start was not stored";
  // Table d waits for a player; this node holds its lease (claimed on creation).
  Client d_owner = guest();
  json created = d_owner->request({{"type", "create_table"}});
  ASSERT_EQ(created["type"], "joined") << created;
  std::string d = created["table"]["id"];
  bool claimed = false;
  for (int i = 0; i < 400 && !(claimed = !storage_row(d).owner_node.empty()); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(claimed) << "d's lease was never claimed";

  storage.hold({"clock:" + a, "read:" + d});
  // a's creator opens it: the first move is timed from now, and the start is stored (held).
  a_light->send(json{{"v", 1}, {"id", 2000}, {"type", "open_table"}, {"table", a}});
  // Another node's broadcast of d at a newer version: the holder reloads d (held). Sent until
  // it arrives: the holder's SUBSCRIBE to d's topic is asynchronous.
  auto other =
      std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + redis));
  auto newer = std::make_shared<const std::string>(
      json{{"type", "table"}, {"table", {{"id", d}, {"version", 99}}}}.dump());
  bool both = false;
  for (int i = 0; i < 40 && !both; ++i) {
    other->publish(table_topic(d), newer);
    both = storage.wait_held(2, std::chrono::milliseconds(500));
  }
  ASSERT_TRUE(both) << "the clock start or the reload never reached storage";

  json answer = act(b_light, b_table, "free");
  EXPECT_EQ(answer["type"], "action_ok") << answer;
  json seen = b_dark->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["version"] == answer["version"];
  });
  EXPECT_EQ(seen["events"][0]["kind"], answer["events"][0]["kind"]) << seen;

  storage.release();
  json opened = a_light->next_if([](const json& j) { return j.value("re", json()) == 2000; });
  ASSERT_EQ(opened["type"], "joined") << opened;
  EXPECT_EQ(opened["clock"]["seat"], 1) << opened;
  EXPECT_NE(storage_row(a).clock_deadline, 0) << "the clock start was not stored";
  // d's holder still serves it.
  EXPECT_EQ(snapshot(d_owner, d)["version"], created["table"]["version"]);
}

// How many subscribers Redis has for `channel` (every node's).
long long redis_subscribers(PubSub& bus, const std::string& channel) {
  RedisReply r = redis_sync(*bus.redis(), {"PUBSUB", "NUMSUB", channel});
  return r.elements.size() == 2 ? r.elements[1].integer : -1;
}

// A page opens a table on a node that is not subscribed to it: the node reads the table, then
// subscribes. Another node's commit between the two was published to nobody here; once Redis
// confirms the subscription the node reads the table again and sends the newer version (before,
// the page stayed at the old one until some later change: a game stalled where the page's
// player was to act next). The read's answer is held in storage while "the other node" (the
// test, through the database and the bus) commits.
TEST_F(CommitAsyncCluster, ACommitBeforeTheSubscriptionStillReachesThePage) {
  const char* redis = std::getenv("UR_TEST_CLUSTER_REDIS");
  if (!redis) GTEST_SKIP() << "no Redis (scripts/cluster test runs this)";
  const std::string bus_url = std::string("redis://127.0.0.1:") + redis;
  ServerConfig c = config();
  c.bus = bus_url;
  HoldingStorage& storage = start_holding_server(std::move(c));
  // A public game between two players of another node, which holds its lease for an hour.
  const std::string id = random_token_hex(8), elsewhere = "elsewhere:1/" + random_token_hex(4);
  Actor light{"g:far-light", 0, "far light", 0}, dark{"g:far-dark", 0, "far dark", 0};
  std::int64_t now = unix_now();
  TableModel m =
      std::get<TableModel>(TableModel::create_match(id, "finkel", false, light, dark, now, true));
  ASSERT_TRUE(storage.save_table(m.to_row(now), -1, kAnyEpoch));
  m.saved();
  storage.renew_leases(elsewhere, unix_now_ms() + 3'600'000);
  ASSERT_TRUE(storage.claim_table(id, elsewhere, unix_now_ms())) << "the other node holds it";

  // A first page caches the table on this node, then stops watching: no subscription is left.
  auto other = std::get<std::unique_ptr<PubSub>>(open_bus(bus_url));
  const std::string topic = table_topic(id);
  Client first = guest();
  ASSERT_EQ(first->request({{"type", "open_table"}, {"table", id}})["type"], "joined");
  bool subscribed = false;
  for (int i = 0; i < 400 && !(subscribed = redis_subscribers(*other, topic) == 1); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(subscribed) << "the node never subscribed";
  ASSERT_EQ(first->request({{"type", "unwatch"}, {"table", id}})["type"], "ok");
  // Three reads before the page's: the cache's load, the open's reload and the reload of the
  // first subscription's resync, which must not be the read held below (each counted once past
  // its holds: a slow resync's read must not be caught by the hold meant for the page's).
  bool read = false;
  for (int i = 0; i < 400 && !(read = storage.reads(id) >= 3); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(read) << "the first subscription's resync never read the table";
  bool gone = false;
  for (int i = 0; i < 400 && !(gone = redis_subscribers(*other, topic) == 0); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(gone) << "the node never unsubscribed";

  // The page's open reads version 1 (held there, the row already read); meanwhile the other node
  // commits a throw and publishes it, which this node cannot hear.
  storage.hold({"read-done:" + id});
  Client page = guest();
  page->send(json{{"v", 1}, {"id", 3000}, {"type", "open_table"}, {"table", id}});
  ASSERT_TRUE(storage.wait_held(1, kDeadline)) << "the open never read the table";
  TableModel next = m;
  TableEvents events;
  ASSERT_FALSE(next.roll(
      light, [] { return 0.5; }, events));
  ASSERT_TRUE(storage.save_table(next.to_row(unix_now()), m.version(), kAnyEpoch));
  other->publish(
      topic,
      std::make_shared<const std::string>(
          json{{"type", "table"}, {"table", {{"id", id}, {"version", next.version()}}}}.dump()));
  storage.release();

  json opened = page->next_if([](const json& j) { return j.value("re", json()) == 3000; });
  ASSERT_EQ(opened["type"], "joined") << opened;
  EXPECT_EQ(opened["table"]["version"], m.version()) << "the open answered what it had read";
  json newer = page->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["version"] >= next.version();
  });
  EXPECT_EQ(newer["table"]["version"], next.version()) << "the other node's throw, as stored";
}

}  // namespace
}  // namespace ur::server::test
