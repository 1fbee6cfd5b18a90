// The cluster tests: three real `ur serve` nodes over one PostgreSQL database with a Redis event
// bus, and HAProxy in front, as `scripts/cluster test` starts them (UR_TEST_CLUSTER_* says
// where). Skipped without that environment: the ctest entry server.cluster provides it.
#include <signal.h>

#include <algorithm>
#include <future>
#include <iostream>
#include <set>

#include "cluster_fixture.h"
#include "server/cluster/redis_commands.h"
#include "server/cluster/redis_pubsub.h"
#include "server/cluster/table_lease.h"

namespace ur::server::test {
namespace {

// alice on node 1 directly, bob through the balancer, a spectator on node 3: a full rated game.
TEST_F(ClusterTest, PlayersOnDifferentNodesPlayARatedGame) {
  std::string a = unique("alice"), b = unique("bob");
  Client alice = user(nodes_[0], nodes_[0], a);
  Client bob = user(nodes_[1], balancer_, b);
  std::string id = start_game(alice, bob);
  Client watcher{"", std::make_unique<TestWs>(nodes_[2])};
  ASSERT_EQ(watcher->connect(), 0u);
  json opened = watcher->request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(opened["type"], "joined") << opened;
  std::int64_t first = opened["table"]["version"];

  json table = opened["table"];
  int n = 0;
  table = play_out(alice, bob, table, n);
  ASSERT_TRUE(table.is_object());
  ASSERT_EQ(table["status"], "finished");
  std::int64_t last = table["version"];

  // The spectator on the third node saw every version in order, none skipped, once it ignores a
  // version it has or an older one as a client does (docs/protocol.md, "Ordering": a node
  // resyncs its watchers once Redis confirms their subscription, and a commit of another node
  // may reach them both ways, so one may come again); at most twice in a game.
  std::vector<std::int64_t> seen = versions_until(watcher, last);
  std::vector<std::int64_t> distinct;
  int repeats = 0;
  for (std::int64_t v : seen) {
    if (v <= (distinct.empty() ? first : distinct.back())) {
      ++repeats;
      continue;
    }
    distinct.push_back(v);
  }
  EXPECT_LE(repeats, 2) << "n=" << n;
  ASSERT_EQ(distinct.size(), static_cast<std::size_t>(last - first)) << "n=" << n;
  for (std::size_t i = 0; i < distinct.size(); ++i)
    EXPECT_EQ(distinct[i], first + 1 + std::int64_t(i));

  // Result, ratings and history are the same from every node.
  std::set<std::string> games, histories, ratings;
  for (std::uint16_t port : {nodes_[0], nodes_[1], nodes_[2], balancer_}) {
    games.insert(get_json(port, "/api/games/" + id).dump());
    histories.insert(get_json(port, "/api/users/" + a + "/matches").dump());
    json me = get_json(port, "/api/me", alice.cookie)["user"];
    ratings.insert(me["rating"].dump());
  }
  EXPECT_EQ(games.size(), 1u) << *games.begin();
  EXPECT_EQ(histories.size(), 1u);
  EXPECT_EQ(ratings.size(), 1u);
  json game = get_json(nodes_[2], "/api/games/" + id);
  EXPECT_TRUE(game.contains("winner")) << game;
  EXPECT_NE(*ratings.begin(), "1200") << "a rated game moves the rating";
}

// No stickiness: the balancer spreads requests over every node (each health answer names the
// node that gave it, a different id for each), as the reconnects of the other tests rely on.
TEST_F(ClusterTest, TheBalancerSpreadsRequestsOverEveryNode) {
  std::set<std::string> direct, through;
  for (std::uint16_t port : nodes_) {
    json health = get_json(port, "/api/health");
    ASSERT_TRUE(health["node"].is_string()) << health;
    EXPECT_EQ(health["bus"]["kind"], "redis") << health;
    direct.insert(health["node"].get<std::string>());
  }
  EXPECT_EQ(direct.size(), nodes_.size()) << "every node has an id of its own";
  for (int i = 0; i < 10 * static_cast<int>(nodes_.size()) && through.size() < direct.size(); ++i)
    through.insert(get_json(balancer_, "/api/health")["node"].get<std::string>());
  EXPECT_EQ(through, direct) << "the balancer reached every node";
}

// The node holding a table's lease is stopped (SIGSTOP) while the player to act idles: another
// node takes the table at the next epoch with the stored deadline and its idle clock fires once;
// the old holder, woken after that, cannot commit (the database refuses its epoch and version).
TEST_F(ClusterTest, StoppedOwnerCannotCommitAndTheIdleClockFiresOnce) {
  Client light = user(nodes_[0], nodes_[1], unique("gina"));
  Client dark = user(nodes_[0], nodes_[2], unique("hugo"));
  std::string id = start_game(light, dark);
  int k = owner_index(id);
  ASSERT_GE(k, 0) << "nobody holds the table's lease";
  // The players' sockets stay clear of the node that will be stopped.
  const std::vector<std::uint16_t> others = nodes_but(k);
  json table = reconnect(light, others[0], id);
  reconnect(dark, others[1], id);
  int n = 0;
  for (int i = 0; i < 2; ++i) table = step(light, dark, table, ++n);
  ASSERT_TRUE(table.is_object());
  ASSERT_EQ(table["status"], "playing");
  TableRow before = row(id);
  ASSERT_GT(before.clock_deadline, 0) << "the idle deadline is stored with the commit";

  pid_t pid = node_pid(k);
  ASSERT_EQ(::kill(pid, SIGSTOP), 0);
  auto stopped = std::chrono::steady_clock::now();
  auto took = takeover(id, before, stopped);
  ASSERT_TRUE(took) << "no other node took the table";
  EXPECT_LE(took->count(), 5000) << "takeover took " << took->count() << " ms";
  TableRow taken = row(id);
  EXPECT_EQ(taken.version, before.version) << "a takeover changes no state";
  EXPECT_EQ(taken.clock_deadline, before.clock_deadline) << "the remaining time is kept";

  // The clock fires on the new holder: one commit, the game lost on time.
  std::int64_t v = before.version + 1;
  json ended = light->next_if(
      [&](const json& j) { return j["type"] == "table" && j["table"]["version"] >= v; });
  EXPECT_EQ(ended["table"]["version"], v);
  EXPECT_EQ(ended["table"]["status"], "finished") << ended;
  ASSERT_EQ(::kill(pid, SIGCONT), 0);
  // Woken, the old holder's clock has run out too: it tries, is refused, and lets go.
  std::string log;
  for (int i = 0; i < 200; ++i) {
    std::ifstream in(cluster_file("node" + std::to_string(k + 1) + "/log"));
    log.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (log.find("table " + id + ": version or epoch conflict") != std::string::npos ||
        log.find("table " + id + ": lease lost") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_TRUE(log.find("table " + id + ": version or epoch conflict") != std::string::npos ||
              log.find("table " + id + ": lease lost") != std::string::npos)
      << "the old holder never noticed the takeover";
  TableRow after = row(id);
  EXPECT_EQ(after.version, v) << "the old holder committed nothing";
  EXPECT_EQ(after.status, "finished");
  json game = get_json(nodes_[k], "/api/games/" + id);
  EXPECT_EQ(game.value("reason", ""), "timeout") << game;
}

// The node holding the table's lease is killed (kill -9) mid-game, twenty times: each time the
// game goes on through another node at once, another node takes the lease within 5 s, and every
// accepted action is applied exactly once (versions one by one, a resent action not again).
// About 2.5 s a round with the test cluster's 2 s leases.
TEST_F(ClusterTest, KilledOwnerTwentyTimesTheGameGoesOn) {
  Client light = user(nodes_[0], nodes_[0], unique("ivy"));
  Client dark = user(nodes_[0], nodes_[1], unique("jon"));
  std::string id = start_game(light, dark);
  json table = light->request({{"type", "open_table"}, {"table", id}})["table"];
  std::int64_t first = table["version"];
  std::vector<std::uint16_t> on{nodes_[0], nodes_[1]};  // each player's node
  std::future<int> restarting;
  std::vector<long> times;
  int n = 0;
  for (int round = 0; round < 20; ++round) {
    if (restarting.valid()) {
      ASSERT_EQ(restarting.get(), 0) << "a node did not start again";
    }
    int k = owner_index(id);
    ASSERT_GE(k, 0) << "round " << round << ": nobody holds the lease";
    TableRow before = row(id);
    ASSERT_EQ(::kill(node_pid(k), SIGKILL), 0);
    auto killed = std::chrono::steady_clock::now();
    // Players on the dead node come back on the others, as a page reconnects.
    const std::vector<std::uint16_t> alive = nodes_but(k);
    for (int p = 0; p < 2; ++p)
      if (on[p] == nodes_[k]) {
        on[p] = alive[p];
        table = reconnect(p == 0 ? light : dark, on[p], id);
      }
    // The game goes on at once: any node accepts the action.
    Client& c = table["game"]["to_act"] == 1 ? light : dark;
    json msg = action(table, "r" + std::to_string(round));
    json answer = paced(c, msg);
    ASSERT_EQ(answer["type"], "action_ok") << answer;
    EXPECT_EQ(answer["version"], table["version"].get<std::int64_t>() + 1) << "applied once";
    ++n;
    table = step_wait(light, dark, answer["version"]);
    ASSERT_TRUE(table.is_object());
    auto took = takeover(id, before, killed);
    ASSERT_TRUE(took) << "round " << round << ": no other node took the table";
    EXPECT_LE(took->count(), 5000) << "round " << round;
    times.push_back(took->count());
    // Sent again after the takeover (an answer lost with its node): not applied twice.
    json again = paced(c, msg);
    EXPECT_TRUE(again["type"] == "action_ok" ? again.value("duplicate", false)
                                             : again.value("code", "") == "stale_version")
        << again;
    EXPECT_EQ(row(id).version, table["version"].get<std::int64_t>());
    restarting = std::async(std::launch::async, [k] { return restart_node(k); });
  }
  if (restarting.valid()) {
    EXPECT_EQ(restarting.get(), 0);
  }
  std::sort(times.begin(), times.end());
  std::cerr << "takeover after kill -9, ms: min " << times.front() << ", median "
            << times[times.size() / 2] << ", max " << times.back() << "\n";

  // The game ends (a resignation keeps the test short): its record is the same everywhere.
  json resign{
      {"type", "resign"}, {"table", id}, {"version", table["version"]}, {"action_id", "end"}};
  json resigned = paced(light, resign);
  ASSERT_EQ(resigned["type"], "action_ok") << resigned;
  ++n;
  table = step_wait(light, dark, resigned["version"]);
  ASSERT_EQ(table["status"], "finished");
  EXPECT_EQ(table["version"].get<std::int64_t>(), first + n) << "one version per accepted action";
  TableRow last = row(id);
  EXPECT_EQ(last.version, first + n);
  std::set<std::string> games;
  for (std::uint16_t port : nodes_) games.insert(get_json(port, "/api/games/" + id).dump());
  EXPECT_EQ(games.size(), 1u);
  EXPECT_NE(games.begin()->find("winner"), std::string::npos) << *games.begin();
}

// A node stopped gracefully (SIGTERM) hands its leases back first, before its connections
// drain: another node takes the table at its next sweep, at a new epoch, with the state
// unchanged, while a socket still holds the stopping node open (it never answers the close).
TEST_F(ClusterTest, AGracefulStopHandsTheLeasesBack) {
  Client light = user(nodes_[0], nodes_[0], unique("nia"));
  Client dark = user(nodes_[0], nodes_[1], unique("oto"));
  std::string id = start_game(light, dark);
  int k = owner_index(id);
  ASSERT_GE(k, 0) << "nobody holds the table's lease";
  // The players move to the other nodes; a lingering socket keeps the node draining.
  const std::vector<std::uint16_t> others = nodes_but(k);
  reconnect(light, others[0], id);
  reconnect(dark, others[1], id);
  auto lingering = std::make_unique<TestWs>(nodes_[k]);
  ASSERT_EQ(lingering->connect(), 0u);
  const std::string log_path = cluster_file("node" + std::to_string(k + 1) + "/log");
  auto log_since = [&, from = std::filesystem::file_size(log_path)] {
    std::ifstream in(log_path);
    in.seekg(static_cast<std::streamoff>(from));
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  };
  TableRow before = row(id);
  ASSERT_EQ(::kill(node_pid(k), SIGTERM), 0);
  auto took = takeover(id, before, std::chrono::steady_clock::now());
  ASSERT_TRUE(took) << "no other node took the table";
  std::cerr << "takeover after SIGTERM: " << took->count() << " ms\n";
  // Only now the node's last socket closes: the handback came before the drain ended.
  lingering.reset();
  std::string log;
  for (int i = 0; i < 400; ++i) {
    log = log_since();
    if (log.find("every connection closed") != std::string::npos ||
        log.find("grace period over") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::size_t handed = log.find("table leases: handed back");
  std::size_t drained =
      std::min(log.find("every connection closed"), log.find("grace period over"));
  ASSERT_NE(handed, std::string::npos) << log;
  ASSERT_NE(drained, std::string::npos) << log;
  EXPECT_LT(handed, drained) << "the leases were handed back after the drain:\n" << log;
  EXPECT_EQ(row(id).version, before.version) << "a handback changes no state";
  ASSERT_EQ(restart_node(k), 0) << "the node did not start again";
}

// A game's first move is timed from the moment its player's page opens the table, between
// commits: that start is stored, so that the holder (another node) runs the same clock, and so
// does the node taking the table over when the holder dies: the game is lost on time once.
TEST_F(ClusterTest, TheFirstMovesClockIsKeptAcrossATakeover) {
  Client a = user(nodes_[0], nodes_[0], unique("pia"));
  Client b = user(nodes_[1], nodes_[1], unique("quo"));
  ASSERT_EQ(a->request({{"type", "find_match"}, {"rated", false}})["type"], "queued");
  ASSERT_EQ(b->request({{"type", "find_match"}, {"rated", false}})["type"], "queued");
  json fa = a->next("match_found"), fb = b->next("match_found");
  std::string id = fa["table"]["id"];
  ASSERT_EQ(fb["table"]["id"], id) << fb;
  TableRow matched = row(id);
  ASSERT_EQ(matched.clock_deadline, 0) << "no page has the table yet: no clock";
  int to_act = fa["table"]["game"]["to_act"];
  Client& first = fa["you"] == to_act ? a : b;
  int k = owner_index(id);
  ASSERT_GE(k, 0) << "nobody holds the table's lease";
  // The first player's page opens the table on a node that does not hold it.
  first.ws = std::make_unique<TestWs>(nodes_but(k)[0]);
  ASSERT_EQ(first->connect(first.cookie), 0u);
  json opened = first->request({{"type", "open_table"}, {"table", id}});
  ASSERT_EQ(opened["type"], "joined") << opened;
  ASSERT_TRUE(opened["clock"].is_object()) << opened;
  TableRow started = row(id);
  ASSERT_GT(started.clock_deadline, 0) << "the clock's start is stored";
  EXPECT_EQ(started.version, matched.version) << "starting the clock is no change of the game";

  ASSERT_EQ(::kill(node_pid(k), SIGKILL), 0);
  auto took = takeover(id, started, std::chrono::steady_clock::now());
  ASSERT_TRUE(took) << "no other node took the table";
  EXPECT_LE(took->count(), 5000);
  EXPECT_EQ(row(id).clock_deadline, started.clock_deadline) << "the same clock";
  // The new holder's clock ends the game once, on time.
  std::int64_t v = started.version + 1;
  json ended = first->next_if(
      [&](const json& j) { return j["type"] == "table" && j["table"]["version"] >= v; });
  EXPECT_EQ(ended["table"]["version"], v);
  EXPECT_EQ(ended["table"]["status"], "finished") << ended;
  EXPECT_EQ(row(id).version, v) << "one commit";
  json game = get_json(nodes_but(k)[0], "/api/games/" + id);
  EXPECT_EQ(game.value("reason", ""), "timeout") << game;
  ASSERT_EQ(restart_node(k), 0) << "the node did not start again";
}

// Redis goes away mid-game and comes back: an action taken meanwhile reaches the player on the
// other node (the bus republishes or the node resyncs), and the game goes on to its end with
// every later broadcast delivered live.
TEST_F(ClusterTest, RedisRestartMidGame) {
  const char* script = std::getenv("UR_TEST_CLUSTER_SCRIPT");
  ASSERT_NE(script, nullptr);
  Client alice = user(nodes_[0], nodes_[0], unique("carol"));
  Client bob = user(nodes_[1], nodes_[1], unique("dave"));
  std::string id = start_game(alice, bob);
  json table = alice->request({{"type", "open_table"}, {"table", id}})["table"];
  int n = 0;
  for (int i = 0; i < 6 && table["status"] == "playing"; ++i) table = step(alice, bob, table, ++n);

  ASSERT_EQ(std::system((std::string("bash ") + script + " stop-redis").c_str()), 0);
  // Taken while Redis is down: committed on its node, the broadcast to the other node is lost.
  Client& c = table["game"]["to_act"] == 1 ? alice : bob;
  Client& other = table["game"]["to_act"] == 1 ? bob : alice;
  json answer = paced(c, action(table, "down"));
  ASSERT_EQ(answer["type"], "action_ok") << answer;
  std::int64_t v = answer["version"];
  ASSERT_EQ(std::system((std::string("bash ") + script + " start-redis").c_str()), 0);
  table = other->next_if(
      [&](const json& j) { return j["type"] == "table" && j["table"]["version"] >= v; })["table"];
  EXPECT_EQ(table["version"], v);
  // The acting player's own node told it at once.
  c->next_if([&](const json& j) { return j["type"] == "table" && j["table"]["version"] == v; });

  table = play_out(alice, bob, table, n);
  ASSERT_TRUE(table.is_object());
  EXPECT_EQ(table["status"], "finished");
  for (std::uint16_t port : nodes_) {
    json health = get_json(port, "/api/health");
    EXPECT_EQ(health["bus"]["kind"], "redis") << health;
  }
}

// Two players queued on different nodes are matched through the shared queue in Redis: one
// table, each player told by their own node, the game played across them. A player whose socket
// closed has left the queue first (else the oldest ticket, theirs, would take one of the two).
TEST_F(ClusterTest, TwoPlayersQueuedOnDifferentNodesAreMatched) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  ASSERT_NE(port, nullptr);
  auto bus = std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
  auto exists = [&](const std::string& key) {
    return redis_sync(*bus->redis(), {"EXISTS", key}).integer == 1;
  };
  Client gone = user(nodes_[2], nodes_[2], unique("kim"));
  std::string gone_key =
      "ur:match:t:u:" + get_json(nodes_[2], "/api/me", gone.cookie)["user"]["id"].dump();
  ASSERT_EQ(gone->request({{"type", "find_match"}, {"rated", true}})["type"], "queued");
  EXPECT_TRUE(exists(gone_key)) << "the ticket is in Redis";
  gone.ws.reset();
  bool left = false;
  for (int i = 0; i < 400 && !(left = !exists(gone_key)); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  ASSERT_TRUE(left) << "a closed socket's ticket stays queued";

  Client alice = user(nodes_[0], nodes_[0], unique("lea"));
  Client bob = user(nodes_[1], nodes_[1], unique("max"));
  ASSERT_EQ(alice->request({{"type", "find_match"}, {"rated", true}})["type"], "queued");
  ASSERT_EQ(bob->request({{"type", "find_match"}, {"rated", true}})["type"], "queued");
  json fa = alice->next("match_found"), fb = bob->next("match_found");
  std::string id = fa["table"]["id"];
  ASSERT_EQ(fb["table"]["id"], id) << fb;
  EXPECT_EQ(fa["role"], "player");
  EXPECT_EQ(fb["role"], "player");
  EXPECT_NE(fa["you"], fb["you"]);
  EXPECT_TRUE(fa["table"]["rated"].get<bool>());
  // Both sockets watch the table: an action on one node reaches the other player.
  Client& light = fa["you"] == 1 ? alice : bob;
  Client& dark = fa["you"] == 1 ? bob : alice;
  json table = step(light, dark, fa["table"], 1);
  ASSERT_TRUE(table.is_object());
  EXPECT_EQ(row(id).version, table["version"].get<std::int64_t>());
}

// The per-address limit of the account endpoints is counted once for the cluster: requests
// spread over the three nodes get the burst once (10), not once per node (30).
TEST_F(ClusterTest, TheAccountLimitIsSharedByTheNodes) {
  std::string source = some_loopback_address();
  int allowed = 0;
  std::set<std::size_t> refused_on;
  for (std::size_t i = 0; i < 30; ++i) {
    // Not JSON: an allowed request costs no password hash (400), a refused one is 429.
    unsigned status = post_from(source, nodes_[i % 3], "/api/login", "{").result_int();
    if (status == 429) {
      refused_on.insert(i % 3);
    } else {
      EXPECT_EQ(status, 400u);
      ++allowed;
    }
  }
  // 10 at once, then one more every 5 s: the run may earn one or two on a slow machine.
  EXPECT_GE(allowed, 10);
  EXPECT_LE(allowed, 13) << "each node kept a quota of its own";
  EXPECT_EQ(refused_on.size(), 3u) << "every node refuses once the shared bucket is empty";
}

// The bus alone: two nodes' RedisPubSub on the cluster's Redis.
// Friends across nodes (docs/scaling.md, "Friends and presence"): a player with a socket on node
// 2 is online for a follower asking node 3; a challenge made on node 1 reaches him, his accept on
// node 2 goes to the challenge's owner, and both are seated at one table; closed, he goes offline.
TEST_F(ClusterTest, AChallengeReachesAPlayerOnAnotherNodeAndSeatsBoth) {
  std::string a = unique("fa"), b = unique("fb");
  Client alice = user(nodes_[0], nodes_[0], a), bob = user(nodes_[1], nodes_[1], b);
  Request follow;
  follow.method = http::verb::post;
  follow.target = "/api/friends";
  follow.body = json{{"username", b}, {"follow", true}}.dump();
  follow.cookie = alice.cookie;
  ASSERT_EQ(send_http(nodes_[2], follow).result_int(), 200);
  auto bob_online = [&](bool want) {
    bool now = !want;
    for (int i = 0; i < 200 && now != want; ++i) {
      json list = get_json(nodes_[2], "/api/friends", alice.cookie);
      now = list["following"][0]["online"] == true;
      if (now != want) std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return now;
  };
  EXPECT_TRUE(bob_online(true)) << "node 3 knows of bob's socket on node 2";

  json sent = alice->request({{"type", "challenge_player"}, {"to", b}, {"rated", true}});
  ASSERT_EQ(sent["type"], "challenge_sent") << sent;
  std::string id = sent["challenge"]["id"];
  EXPECT_EQ(bob->next("challenged")["challenge"]["id"], id);
  json ok = bob->request({{"type", "challenge_answer"}, {"challenge", id}, {"accept", true}});
  EXPECT_EQ(ok["type"], "ok") << ok;
  EXPECT_EQ(ok["forwarded"], true) << "node 1 owns the challenge";
  json ended = alice->next("challenge_ended");
  ASSERT_EQ(ended["reason"], "accepted") << ended;
  EXPECT_EQ(bob->next("challenge_ended")["table"], ended["table"]);
  json found_a = alice->next("match_found"), found_b = bob->next("match_found");
  EXPECT_EQ(found_a["table"]["id"], ended["table"]);
  EXPECT_EQ(found_b["table"]["id"], ended["table"]);
  EXPECT_EQ(found_a["you"].get<int>() + found_b["you"].get<int>(), 3);

  bob.ws.reset();
  EXPECT_FALSE(bob_online(false)) << "his last socket closed: offline everywhere";
}

// A block made through node 1 ends a challenge that node 2 owns (the bus topic `blocks`), and the
// shared matchmaking queue never seats the two together: alice (node 1) and bob (node 2) queue
// first, carol (node 3) after them; alice plays carol, and bob dave, who comes last.
TEST_F(ClusterTest, ABlockEndsAChallengeMadeOnAnotherNodeAndKeepsTheQueueApart) {
  std::string a = unique("ba"), b = unique("bb");
  Client alice = user(nodes_[0], nodes_[0], a), bob = user(nodes_[1], nodes_[1], b);
  json sent = bob->request({{"type", "challenge_player"}, {"to", a}});
  ASSERT_EQ(sent["type"], "challenge_sent") << sent;
  const std::string id = sent["challenge"]["id"];
  EXPECT_EQ(alice->next("challenged")["challenge"]["id"], id);
  Request block;
  block.method = http::verb::post;
  block.target = "/api/blocks";
  block.body = json{{"username", b}, {"block", true}}.dump();
  block.cookie = alice.cookie;
  ASSERT_EQ(send_http(nodes_[0], block).result_int(), 200);
  json ended = bob->next("challenge_ended");
  EXPECT_EQ(ended["challenge"], id);
  EXPECT_EQ(ended["reason"], "cancelled") << "node 2's challenge ended at once, not expired";
  EXPECT_EQ(alice->next("challenge_ended")["challenge"], id);

  Client carol = user(nodes_[2], nodes_[2], unique("bc"));
  auto queue = [](Client& c) {
    json q = c->request({{"type", "find_match"}, {"rated", true}});
    EXPECT_EQ(q["type"], "queued") << q;
  };
  queue(alice);
  queue(bob);
  queue(carol);
  json fa = alice->next("match_found"), fc = carol->next("match_found");
  EXPECT_EQ(fa["table"]["id"], fc["table"]["id"]) << "alice plays carol, not bob";
  Client dave = user(nodes_[0], nodes_[0], unique("bd"));
  queue(dave);
  json fb = bob->next("match_found"), fd = dave->next("match_found");
  EXPECT_EQ(fb["table"]["id"], fd["table"]["id"]);
}

// A ban decided on node 1 reaches the other nodes on the bus's "accounts" topic
// (docs/server.md, "Moderation"): the banned player's game on node 2 ends for its opponent on
// node 3, its waiting table there closes, and its socket on node 2 is closed.
TEST_F(ClusterTest, ABanOnOneNodeClosesTheTablesAndSocketsOnAnother) {
  std::string admin_name = unique("root"), bad_name = unique("troll");
  Client admin = user(nodes_[0], nodes_[0], admin_name);
  Client troll = user(nodes_[1], nodes_[1], bad_name);
  Client other = user(nodes_[2], nodes_[2], unique("kind"));
  std::string grant = std::string(UR_BINARY) + " admin grant " + admin_name + " --db '" +
                      std::getenv("UR_TEST_CLUSTER_PG") + "' >&2";
  ASSERT_EQ(std::system(grant.c_str()), 0) << grant;
  std::string game = start_game(troll, other);
  Client troll2{troll.cookie, std::make_unique<TestWs>(nodes_[2])};
  ASSERT_EQ(troll2->connect(troll2.cookie), 0u);
  json waiting = troll2->request({{"type", "create_table"}, {"public", true}});
  ASSERT_EQ(waiting["type"], "joined") << waiting;
  std::string waiting_id = waiting["table"]["id"];

  Request ban;
  ban.method = http::verb::post;
  ban.target = "/api/admin/users/" + bad_name + "/ban";
  ban.body = json{{"reason", "cluster test"}}.dump();
  ban.cookie = admin.cookie;
  Response res = send_http(nodes_[0], ban);
  ASSERT_EQ(res.result_int(), 200) << res.body();

  json ended = other->next_if([&](const json& j) {
    return j["type"] == "table" && j["table"]["id"] == game && j["table"]["status"] == "finished";
  });
  EXPECT_EQ(ended["table"]["status"], "finished");
  EXPECT_EQ(troll->read_until_closed(), websocket::error::closed) << "its socket on node 2";
  EXPECT_EQ(troll2->read_until_closed(), websocket::error::closed) << "its socket on node 3";
  EXPECT_NE(row(waiting_id).status, "waiting") << "its waiting table on node 3 closed";
  EXPECT_EQ(row(game).status, "finished");
  json me = get_json(nodes_[2], "/api/me", troll.cookie);
  EXPECT_FALSE(me.contains("user") && me["user"].is_object()) << "its session ended: " << me;
}

TEST(RedisBus, DeliversAcrossNodesOnceAndUnsubscribes) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  if (!port) GTEST_SKIP() << "no cluster (scripts/cluster test runs this)";
  auto a = std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
  auto b = std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> at_a, at_b;
  auto record = [&](std::vector<std::string>& into) {
    return [&](const Payload& p) {
      std::lock_guard lock(m);
      into.push_back(*p);
      cv.notify_all();
    };
  };
  auto wait_for = [&](std::vector<std::string>& v, std::size_t n,
                      std::chrono::milliseconds within = kDeadline) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, within, [&] { return v.size() >= n; });
  };
  Subscription sa = a->subscribe("t:1", record(at_a));
  Subscription sb = b->subscribe("t:1", record(at_b));
  EXPECT_EQ(b->subscribers("t:1"), 1);
  // b's SUBSCRIBE is asynchronous: publish until the first message arrives.
  for (int i = 0; i < 400 && !wait_for(at_b, 1, std::chrono::milliseconds(50)); ++i)
    a->publish("t:1", std::make_shared<const std::string>("hello"));
  ASSERT_FALSE(at_b.empty());
  a->publish("t:1", std::make_shared<const std::string>("last"));
  ASSERT_TRUE(wait_for(at_b, 2) && at_b.back() == "last");
  {
    std::lock_guard lock(m);
    // a hears its own messages once each (locally, not again through Redis).
    EXPECT_EQ(std::count(at_a.begin(), at_a.end(), "last"), 1);
  }
  sb.reset();
  EXPECT_EQ(b->subscribers("t:1"), 0);
  std::size_t before = at_b.size();
  a->publish("t:1", std::make_shared<const std::string>("after"));
  // A second node still subscribed would have it by the time this round trip is back.
  Subscription probe = b->subscribe("t:2", record(at_b));
  for (int i = 0; i < 400 && !wait_for(at_b, before + 1, std::chrono::milliseconds(50)); ++i)
    a->publish("t:2", std::make_shared<const std::string>("probe"));
  std::lock_guard lock(m);
  ASSERT_GT(at_b.size(), before);
  EXPECT_EQ(std::count(at_b.begin(), at_b.end(), "after"), 0)
      << "an unsubscribed handler is never called";
  EXPECT_TRUE(b->status().connected);
}

// The messages one bus received on a topic, for the bus tests below.
struct Inbox {
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> got;
  Subscription subscribe(PubSub& bus, const std::string& topic) {
    return bus.subscribe(topic, [this](const Payload& p) {
      std::lock_guard lock(m);
      got.push_back(*p);
      cv.notify_all();
    });
  }
  template <class Pred>
  bool wait_for(Pred pred, std::chrono::milliseconds within) {
    std::unique_lock lock(m);
    return cv.wait_for(lock, within, pred);
  }
  // A SUBSCRIBE is asynchronous: `from` publishes "probe" until the first message arrives.
  bool probe(PubSub& from, const std::string& topic) {
    for (int i = 0; i < 400; ++i) {
      if (wait_for([&] { return !got.empty(); }, std::chrono::milliseconds(50))) return true;
      from.publish(topic, std::make_shared<const std::string>("probe"));
    }
    return wait_for([&] { return !got.empty(); }, std::chrono::milliseconds(0));
  }
};

std::unique_ptr<PubSub> cluster_bus(const char* port) {
  return std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
}

// More than hiredis reads at once (16 KB) sent in one burst, as after a reconnect: all of it
// arrives, in order, the last message without a later one to push it.
TEST(RedisBus, ABurstLargerThanOneReadArrivesWhole) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  if (!port) GTEST_SKIP() << "no cluster (scripts/cluster test runs this)";
  auto a = cluster_bus(port);
  auto b = cluster_bus(port);
  Inbox in;
  Subscription sb = in.subscribe(*b, "burst");
  ASSERT_TRUE(in.probe(*a, "burst"));
  constexpr int kBurst = 200;  // 200 x 2 KB: about 25 reads' worth
  const std::string body(2000, 'x');
  for (int i = 0; i < kBurst; ++i)
    a->publish("burst", std::make_shared<const std::string>(std::to_string(i) + ":" + body));
  std::string last = std::to_string(kBurst - 1) + ":" + body;
  EXPECT_TRUE(in.wait_for([&] { return !in.got.empty() && in.got.back() == last; }, kDeadline))
      << "the burst's tail stayed in the socket";
  std::lock_guard lock(in.m);
  std::vector<std::string> burst;
  for (const std::string& g : in.got)
    if (g != "probe") burst.push_back(g.substr(0, g.find(':')));
  ASSERT_EQ(burst.size(), static_cast<std::size_t>(kBurst));
  for (int i = 0; i < kBurst; ++i) EXPECT_EQ(burst[i], std::to_string(i)) << "in order";
}

// After Redis restarts, a node resyncs a topic only once its subscription is back: whatever is
// published from then on (here: from inside the resync) reaches it. Resyncing before Redis had
// the SUBSCRIBE lost such messages (the cause of RedisRestartMidGame's old failures).
TEST(RedisBus, AResyncAfterARestartMissesNothingPublishedFromThen) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  const char* script = std::getenv("UR_TEST_CLUSTER_SCRIPT");
  if (!port || !script) GTEST_SKIP() << "no cluster (scripts/cluster test runs this)";
  auto a = cluster_bus(port);
  auto b = cluster_bus(port);
  Inbox in;
  int resyncs = 0;
  Subscription sb = in.subscribe(*b, "r:1");
  in.probe(*a, "r:1");
  b->set_resync([&](const std::string& topic, bool lost) {
    EXPECT_TRUE(lost) << "a reconnect's resync";
    {
      std::lock_guard lock(in.m);
      ++resyncs;
    }
    // Another node acts the moment this one has resynced.
    a->publish(topic, std::make_shared<const std::string>("after resync"));
  });
  ASSERT_EQ(std::system((std::string("bash ") + script + " stop-redis").c_str()), 0);
  ASSERT_EQ(std::system((std::string("bash ") + script + " start-redis").c_str()), 0);
  EXPECT_TRUE(in.wait_for(
      [&] { return std::count(in.got.begin(), in.got.end(), "after resync") >= 1; }, kDeadline))
      << "a message published after the resync was lost";
  b->set_resync({});
  std::lock_guard lock(in.m);
  EXPECT_EQ(resyncs, 1) << "one resync per topic and reconnect";
}

// A first subscription is resynced once Redis confirms it (not as a lost link): whatever another
// node published before that moment never reached this one, so its owner reads the state again.
// The confirmation comes before anything published after it is delivered.
TEST(RedisBus, AFirstSubscriptionIsResyncedOnceRedisConfirmsIt) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  if (!port) GTEST_SKIP() << "no cluster (scripts/cluster test runs this)";
  auto a = cluster_bus(port);
  auto b = cluster_bus(port);
  Inbox in;
  std::vector<std::pair<std::string, bool>> resyncs;
  std::size_t got_at_resync = 99;
  b->set_resync([&](const std::string& topic, bool lost) {
    std::lock_guard lock(in.m);
    resyncs.emplace_back(topic, lost);
    got_at_resync = in.got.size();
    in.cv.notify_all();
  });
  Subscription sb = in.subscribe(*b, "r:first");
  ASSERT_TRUE(in.probe(*a, "r:first"));
  b->set_resync({});
  std::lock_guard lock(in.m);
  ASSERT_EQ(resyncs.size(), 1u) << "one resync for the new subscription";
  EXPECT_EQ(resyncs[0].first, "r:first");
  EXPECT_FALSE(resyncs[0].second) << "a first subscription, not a lost link";
  EXPECT_EQ(got_at_resync, 0u) << "resynced before any message of the topic arrived";
}

TEST(RedisBus, ParsesItsAddress) {
  auto ok = parse_redis_url("redis://127.0.0.1:6380");
  ASSERT_TRUE(std::holds_alternative<RedisAddress>(ok));
  EXPECT_EQ(std::get<RedisAddress>(ok).host, "127.0.0.1");
  EXPECT_EQ(std::get<RedisAddress>(ok).port, 6380);
  EXPECT_EQ(std::get<RedisAddress>(parse_redis_url("redis://cache/")).port, 6379);
  for (const char* bad : {"127.0.0.1:6379", "redis://", "redis://h:0", "redis://h:70000",
                          "redis://u:p@h:1", "redis://h:1/2", "redis://h:x"})
    EXPECT_TRUE(std::holds_alternative<Error>(parse_redis_url(bad))) << bad;
  EXPECT_TRUE(std::holds_alternative<Error>(open_bus("nats://h:1")));
  EXPECT_EQ(std::get<std::unique_ptr<PubSub>>(open_bus(""))->status().kind, "in-process");
}

}  // namespace
}  // namespace ur::server::test
