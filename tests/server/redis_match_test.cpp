// The shared matchmaking queue's Lua scripts (src/server/cluster/redis_match.cpp) against a real Redis
// server: the cluster's (scripts/cluster test starts one; skipped without it). Each test keeps
// its keys under a prefix of its own, so the nodes of the cluster never see these tickets.
#include <future>
#include <map>
#include <random>
#include <set>

#include "harness.h"
#include "server/cluster/redis_match.h"
#include "server/cluster/redis_pubsub.h"

namespace ur::server::test {
namespace {

class RedisMatch : public ::testing::Test {
 protected:
  void SetUp() override {
    const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
    if (!port) GTEST_SKIP() << "no cluster (scripts/cluster test runs these)";
    bus_ = std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
    prefix_ = "test" + std::to_string(std::random_device{}()) + ":match:";
    // The link connects asynchronously: wait until a command goes through.
    for (int i = 0; i < 200 && call({"PING"}).error(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    heartbeat("n1");
  }
  void TearDown() override {
    if (!bus_) return;
    RedisReply keys = call({"KEYS", prefix_ + "*"});
    for (const RedisReply& k : keys.elements) call({"DEL", k.str});
  }

  RedisReply call(std::vector<std::string> args) {
    return redis_sync(*bus_->redis(), std::move(args));
  }
  SharedMatchQueue queue(double base = 100, double per_second = 0) {
    return SharedMatchQueue(*bus_->redis(), prefix_, base, per_second);
  }
  void heartbeat(const std::string& node) {
    queue().heartbeat(node, 60'000);
    call({"PING"});  // after the SET on the same connection
  }
  static SharedTicket ticket(const std::string& key, double rating, const std::string& node = "n1",
                             const std::string& rules = "finkel", bool rated = true) {
    SharedTicket s;
    s.ticket.key = key;
    s.ticket.user_id = 7;
    s.ticket.name = "name of " + key;
    s.ticket.connection = 42;
    s.ticket.rules = rules;
    s.ticket.rated = rated;
    s.ticket.rating = rating;
    s.node = node;
    return s;
  }
  bool add(const SharedTicket& t, long long since_ms = 0) {
    std::promise<bool> p;
    queue().add(t, since_ms, [&p](bool ok) { p.set_value(ok); });
    return p.get_future().get();
  }
  SharedMatchQueue::Pairs pair(SharedMatchQueue q) {
    std::promise<SharedMatchQueue::Pairs> p;
    q.pair([&p](SharedMatchQueue::Pairs pairs) { p.set_value(std::move(pairs)); });
    return p.get_future().get();
  }
  bool remove(const std::string& key, const std::string& node = "", std::uint64_t conn = 0) {
    std::promise<bool> p;
    queue().remove(key, node, conn, [&p](bool removed) { p.set_value(removed); });
    return p.get_future().get();
  }
  long long redis_now_ms() {
    RedisReply t = call({"TIME"});
    return std::stoll(t.elements[0].str) * 1000 + std::stoll(t.elements[1].str) / 1000;
  }
  static std::set<std::string> keys_of(const SharedMatchQueue::Pairs& pairs) {
    std::set<std::string> keys;
    for (const auto& [a, b] : pairs) keys.insert({a.ticket.key, b.ticket.key});
    return keys;
  }

  std::unique_ptr<PubSub> bus_;
  std::string prefix_;
};

// The oldest ticket gets the nearest rating in its window, within its own rule set and rated
// flag only; the pair comes back whole; nothing is paired twice.
TEST_F(RedisMatch, PairsTheNearestOfTheSameQueueOnce) {
  ASSERT_TRUE(add(ticket("a", 1500)));
  ASSERT_TRUE(add(ticket("b", 1590)));
  ASSERT_TRUE(add(ticket("c", 1540)));
  ASSERT_TRUE(add(ticket("other-rules", 1500, "n1", "masters")));
  ASSERT_TRUE(add(ticket("casual", 1500, "n1", "finkel", false)));
  auto pairs = pair(queue());
  ASSERT_EQ(pairs.size(), 1u);
  const auto& [a, c] = pairs[0];
  EXPECT_EQ(a.ticket.key, "a");
  EXPECT_EQ(c.ticket.key, "c");
  EXPECT_EQ(c.ticket.rating, 1540);
  EXPECT_EQ(c.ticket.name, "name of c");
  EXPECT_EQ(c.ticket.connection, 42u);
  EXPECT_EQ(c.ticket.user_id, 7);
  EXPECT_EQ(c.ticket.rules, "finkel");
  EXPECT_TRUE(c.ticket.rated);
  EXPECT_EQ(c.node, "n1");
  EXPECT_GT(c.since_ms, 0);
  EXPECT_TRUE(pair(queue()).empty()) << "b waits alone; the others are in other queues";
  EXPECT_EQ(call({"EXISTS", prefix_ + "t:a"}).integer, 0) << "a paired ticket leaves the queue";
}

// A candidate either ticket avoids (a block) is skipped for the next nearest, and the avoid list
// comes back with the pair (a pair put back keeps it).
TEST_F(RedisMatch, AnAvoidedCandidateIsSkippedForTheNextNearest) {
  SharedTicket a = ticket("a", 1500);
  a.ticket.user_id = 1;
  a.ticket.avoid = {2, 9};
  SharedTicket b = ticket("b", 1500);
  b.ticket.user_id = 2;
  ASSERT_TRUE(add(a));
  ASSERT_TRUE(add(b));
  EXPECT_TRUE(pair(queue()).empty()) << "a avoids b";
  SharedTicket c = ticket("c", 1560);
  c.ticket.user_id = 3;
  c.ticket.avoid = {2};
  ASSERT_TRUE(add(c));
  auto pairs = pair(queue());
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.ticket.key, "a");
  EXPECT_EQ(pairs[0].second.ticket.key, "c");
  EXPECT_EQ(pairs[0].first.ticket.avoid, (std::vector<std::int64_t>{2, 9}));
  EXPECT_EQ(pairs[0].second.ticket.avoid, (std::vector<std::int64_t>{2}));
  SharedTicket d = ticket("d", 1600);
  d.ticket.user_id = 4;
  ASSERT_TRUE(add(d));
  pairs = pair(queue());
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.ticket.key, "b");
  EXPECT_TRUE(pairs[0].first.ticket.avoid.empty());
}

// The window grows with the wait of the one who waited longer (Redis's clock).
TEST_F(RedisMatch, TheWindowGrowsWithTheWait) {
  ASSERT_TRUE(add(ticket("old", 1000), redis_now_ms() - 60'000));
  ASSERT_TRUE(add(ticket("new", 1400)));
  EXPECT_TRUE(pair(queue(100, 0)).empty()) << "400 points apart, a window of 100";
  auto pairs = pair(queue(100, 25));  // 100 + 25 * 60 s
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.ticket.key, "old") << "the older ticket leads";
}

// A ticket whose node stopped beating is dropped, never paired.
TEST_F(RedisMatch, ATicketOfADeadNodeExpires) {
  ASSERT_TRUE(add(ticket("ghost", 1500, "dead-node")));
  ASSERT_TRUE(add(ticket("alive", 1500)));
  EXPECT_TRUE(pair(queue()).empty());
  EXPECT_EQ(call({"EXISTS", prefix_ + "t:ghost"}).integer, 0);
  ASSERT_TRUE(add(ticket("late", 1500)));
  EXPECT_EQ(keys_of(pair(queue())), (std::set<std::string>{"alive", "late"}));
}

// Queueing again replaces the ticket; a closed socket removes only the ticket it queued.
TEST_F(RedisMatch, RequeueReplacesAndRemovalIsGuarded) {
  ASSERT_TRUE(add(ticket("p", 1500, "n1", "masters")));
  ASSERT_TRUE(add(ticket("p", 1500)));
  ASSERT_TRUE(add(ticket("q", 1500, "n1", "masters")));
  EXPECT_TRUE(pair(queue()).empty()) << "p left the masters queue; no pair with itself";
  EXPECT_FALSE(remove("p", "n1", 41)) << "another socket's ticket stays";
  EXPECT_FALSE(remove("p", "n2", 42));
  EXPECT_TRUE(remove("p", "n1", 42));
  EXPECT_FALSE(remove("p"));
  EXPECT_TRUE(remove("q")) << "cancel_match removes the player's ticket, whatever socket";
  EXPECT_EQ(call({"EXISTS", prefix_ + "queues"}).integer, 0) << "empty queues are forgotten";
}

// Two nodes pairing at the same moment: every ticket is taken at most once.
TEST_F(RedisMatch, ConcurrentPairingTakesEachTicketOnce) {
  const char* port = std::getenv("UR_TEST_CLUSTER_REDIS");
  auto other =
      std::get<std::unique_ptr<PubSub>>(open_bus(std::string("redis://127.0.0.1:") + port));
  heartbeat("n2");
  for (int i = 0; i < 40; ++i)
    ASSERT_TRUE(add(ticket("k" + std::to_string(i), 1500 + i, i % 2 ? "n1" : "n2")));
  std::promise<SharedMatchQueue::Pairs> first, second;
  for (int i = 0; i < 200 && other->redis() && !other->status().connected; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  SharedMatchQueue q1 = queue(), q2(*other->redis(), prefix_, 100, 0);
  q1.pair([&](SharedMatchQueue::Pairs p) { first.set_value(std::move(p)); });
  q2.pair([&](SharedMatchQueue::Pairs p) { second.set_value(std::move(p)); });
  auto p1 = first.get_future().get(), p2 = second.get_future().get();
  std::map<std::string, int> taken;
  for (const auto* pairs : {&p1, &p2})
    for (const auto& [a, b] : *pairs) {
      ++taken[a.ticket.key];
      ++taken[b.ticket.key];
    }
  EXPECT_EQ(taken.size(), 40u) << "all forty within 100 points of a partner";
  for (const auto& [key, n] : taken) EXPECT_EQ(n, 1) << key;
}

}  // namespace
}  // namespace ur::server::test
