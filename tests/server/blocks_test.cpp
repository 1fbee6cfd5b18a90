// Blocking (docs/server.md, "Blocking"; migration 13) and who follows whom back (docs/server.md,
// "Friends"): the AccountStore on every backend (SQLite always, PostgreSQL under scripts/pg-test,
// through backend_fixture.h), then GET/POST /api/blocks and what a block does to follows,
// challenges and quick messages against a running server (which `server.postgresql` repeats on
// PostgreSQL).
#include <algorithm>

#include "backend_fixture.h"
#include "server/storage/storage.h"
#include "server/tables/friends.h"
#include "server/tables/live_table.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class BlockStorage : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (HasFatalFailure()) return;
    s_ = open();
    for (const char* name : {"alice", "bob", "carol"}) {
      auto u = s_->create_user(name, "h", 0);
      ASSERT_TRUE(u);
      ids_.push_back(u->id);
    }
  }
  void TearDown() override {
    s_.reset();
    BackendTest::TearDown();
  }
  AccountStore& acc() { return s_->accounts(); }

  std::unique_ptr<Storage> s_;
  std::vector<std::int64_t> ids_;  // alice, bob, carol
};

TEST_P(BlockStorage, MigrationThirteenMakesTheBlockList) {
  EXPECT_EQ(s_->schema_version(), s_->latest_schema_version());
  EXPECT_GE(s_->latest_schema_version(), 13);
  EXPECT_TRUE(acc().blocking(ids_[0]).empty());
  EXPECT_TRUE(acc().blockers_of(ids_[0], 10).empty());
}

TEST_P(BlockStorage, ABlockIsOneWayAndEndsBothFollows) {
  const std::int64_t alice = ids_[0], bob = ids_[1], carol = ids_[2];
  ASSERT_EQ(acc().follow(alice, bob, 1), FollowResult::kFollowed);
  ASSERT_EQ(acc().follow(bob, alice, 1), FollowResult::kFollowed);
  ASSERT_EQ(acc().follow(carol, alice, 1), FollowResult::kFollowed);

  EXPECT_EQ(acc().block(alice, bob, 2), BlockResult::kBlocked);
  EXPECT_EQ(acc().block(alice, bob, 3), BlockResult::kAlready);
  EXPECT_TRUE(acc().blocks(alice, bob));
  EXPECT_FALSE(acc().blocks(bob, alice)) << "a block is one way";
  EXPECT_TRUE(acc().following(alice).empty()) << "the blocker stops following the blocked";
  EXPECT_TRUE(acc().following(bob).empty()) << "the blocked stops following the blocker";
  ASSERT_EQ(acc().following(carol).size(), 1u) << "other follows stay";

  EXPECT_EQ(acc().follow(bob, alice, 4), FollowResult::kBlocked);
  EXPECT_EQ(acc().follow(alice, bob, 4), FollowResult::kBlocking);
  EXPECT_TRUE(acc().following(bob).empty());

  auto list = acc().blocking(alice);
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].username, "bob");
  EXPECT_TRUE(list[0].password_hash.empty());
  EXPECT_EQ(acc().blockers_of(bob, 10), std::vector<std::int64_t>{alice});
  EXPECT_EQ(acc().block(carol, bob, 5), BlockResult::kBlocked);
  auto blockers = acc().blockers_of(bob, 10);
  std::sort(blockers.begin(), blockers.end());
  EXPECT_EQ(blockers, (std::vector<std::int64_t>{alice, carol}));
  EXPECT_EQ(acc().blockers_of(bob, 1).size(), 1u) << "the limit holds";

  EXPECT_TRUE(acc().unblock(alice, bob));
  EXPECT_FALSE(acc().unblock(alice, bob));
  EXPECT_FALSE(acc().blocks(alice, bob));
  EXPECT_EQ(acc().follow(bob, alice, 6), FollowResult::kFollowed) << "unblocked: follows again";
}

TEST_P(BlockStorage, AnAccountBlocksAtMostTheLimit) {
  const std::int64_t me = ids_[0];
  for (int i = 0; i <= kMaxBlocks; ++i) {
    auto u = s_->create_user("b" + std::to_string(i), "h", 0);
    ASSERT_TRUE(u);
    ASSERT_EQ(acc().block(me, u->id, 1),
              i < kMaxBlocks ? BlockResult::kBlocked : BlockResult::kFull)
        << i;
  }
  EXPECT_EQ(acc().blocking(me).size(), static_cast<std::size_t>(kMaxBlocks));
}

TEST_P(BlockStorage, FollowersAreListedNewestFirstWithFollowBack) {
  const std::int64_t alice = ids_[0], bob = ids_[1], carol = ids_[2];
  ASSERT_EQ(acc().follow(bob, alice, 10), FollowResult::kFollowed);
  ASSERT_EQ(acc().follow(carol, alice, 20), FollowResult::kFollowed);
  ASSERT_EQ(acc().follow(alice, carol, 30), FollowResult::kFollowed);
  auto f = acc().followers(alice, 10);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].username, "carol");
  EXPECT_TRUE(f[0].followed_back);
  EXPECT_EQ(f[1].username, "bob");
  EXPECT_FALSE(f[1].followed_back);
  EXPECT_EQ(acc().follower_count(alice), 2);
  EXPECT_EQ(acc().followers(alice, 1).size(), 1u);
  EXPECT_TRUE(acc().followers(bob, 10).empty());
  EXPECT_EQ(acc().follower_count(carol), 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, BlockStorage, ::testing::ValuesIn(storage_backends()),
                         [](const auto& param_info) { return param_info.param; });

TEST(HiddenBroadcast, IsDroppedForTheListedAccountsOnly) {
  const std::string message = R"({"type":"quick_message","code":"oops"})";
  std::string p = hidden_from({11, 2}, message);
  ASSERT_EQ(p.front(), kHiddenMark);
  EXPECT_EQ(shown_to(p, 1), message) << "1 is not 11";
  EXPECT_EQ(shown_to(p, 0), message) << "a guest blocks nobody";
  EXPECT_EQ(shown_to(p, 11), std::nullopt);
  EXPECT_EQ(shown_to(p, 2), std::nullopt);
  EXPECT_EQ(shown_to(message, 3), std::nullopt) << "not a hidden broadcast";
  EXPECT_EQ(shown_to(std::string(1, kHiddenMark) + "5,", 3), std::nullopt) << "no message";
}

class BlocksTest : public TableFixture {
 protected:
  Response block(const std::string& cookie, const std::string& name, bool on = true) {
    return post("/api/blocks", json{{"username", name}, {"block", on}}, cookie);
  }
  Response follow(const std::string& cookie, const std::string& name, bool on = true) {
    return post("/api/friends", json{{"username", name}, {"follow", on}}, cookie);
  }
  json challenge(Client& c, const std::string& to) {
    return c->request({{"type", "challenge_player"}, {"to", to}});
  }
};

TEST_F(BlocksTest, BlockingIsForAccountsAndRefusedClearly) {
  start_server();
  std::string alice = register_user("alice");
  register_user("bob");
  Response r = get("/api/blocks");
  EXPECT_EQ(r.result_int(), 401);
  EXPECT_EQ(body_json(r)["error"], "not_logged_in");
  EXPECT_EQ(body_json(block("", "bob"))["error"], "not_logged_in") << "a guest cannot block";
  r = block(alice, "nobody-here");
  EXPECT_EQ(r.result_int(), 404);
  EXPECT_EQ(body_json(r)["error"], "not_found");
  EXPECT_EQ(body_json(block(alice, "x y"))["error"], "not_found");
  r = block(alice, "ALICE");
  EXPECT_EQ(r.result_int(), 400);
  EXPECT_EQ(body_json(r)["error"], "bad_request");
  r = post("/api/blocks", json{{"username", "bob"}, {"follow", true}}, alice);
  EXPECT_EQ(body_json(r)["error"], "bad_request") << "block must be said";
  r = post("/api/blocks", json::array(), alice);
  EXPECT_EQ(body_json(r)["error"], "bad_request");
  Request put;
  put.method = http::verb::put;
  put.target = "/api/blocks";
  put.cookie = alice;
  r = send_http(port_, put);
  EXPECT_EQ(r.result_int(), 405);
  EXPECT_EQ(r[http::field::allow], "GET, POST");

  r = block(alice, "Bob");
  ASSERT_EQ(r.result_int(), 200) << r.body();
  json list = body_json(r);
  ASSERT_EQ(list["blocking"].size(), 1u);
  EXPECT_EQ(list["blocking"][0]["username"], "bob");
  EXPECT_EQ(list["max"], kMaxBlocks);
  EXPECT_EQ(block(alice, "bob").result_int(), 200) << "blocking twice is no error";
  EXPECT_EQ(body_json(get("/api/blocks", alice))["blocking"].size(), 1u);
  r = block(alice, "bob", false);
  ASSERT_EQ(r.result_int(), 200);
  EXPECT_TRUE(body_json(r)["blocking"].empty());
  EXPECT_EQ(block(alice, "bob", false).result_int(), 200) << "unblocking twice is no error";
}

TEST_F(BlocksTest, ABlockedPlayerCannotFollowNorSeeTheBlockerOnline) {
  start_server();
  Client alice = user("alice");  // online: her page is open
  std::string bob = register_user("bob");
  ASSERT_EQ(follow(bob, "alice").result_int(), 200);
  ASSERT_EQ(body_json(get("/api/friends", bob))["following"][0]["online"], true);
  ASSERT_EQ(follow(alice.cookie, "bob").result_int(), 200);

  ASSERT_EQ(block(alice.cookie, "bob").result_int(), 200);
  json list = body_json(get("/api/friends", bob));
  EXPECT_TRUE(list["following"].empty()) << "bob no longer sees alice at all: " << list;
  EXPECT_TRUE(list["followers"].empty()) << "alice no longer follows bob";
  EXPECT_TRUE(body_json(get("/api/friends", alice.cookie))["following"].empty());
  Response r = follow(bob, "alice");
  EXPECT_EQ(r.result_int(), 403);
  EXPECT_EQ(body_json(r)["error"], "refused");
  EXPECT_EQ(body_json(r)["message"].get<std::string>().find("block"), std::string::npos)
      << "the blocked player is not told why";
  r = follow(alice.cookie, "bob");
  EXPECT_EQ(body_json(r)["error"], "refused") << "the blocker unblocks first";
  EXPECT_TRUE(body_json(get("/api/friends", bob))["following"].empty());

  ASSERT_EQ(block(alice.cookie, "bob", false).result_int(), 200);
  EXPECT_EQ(follow(bob, "alice").result_int(), 200) << "unblocked, bob may follow again";
}

TEST_F(BlocksTest, ABlockedPlayersChallengesAreRefusedWhetherTheBlockerIsOnlineOrNot) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  json waiting = challenge(bob, "alice");
  ASSERT_EQ(waiting["type"], "challenge_sent") << waiting;
  ASSERT_EQ(alice->next("challenged")["challenge"]["from"], "bob");

  ASSERT_EQ(block(alice.cookie, "bob").result_int(), 200);
  json ended = bob->next("challenge_ended");
  EXPECT_EQ(ended["challenge"], waiting["challenge"]["id"]) << "the waiting challenge ends";
  EXPECT_EQ(ended["reason"], "cancelled");
  EXPECT_EQ(alice->next("challenge_ended")["reason"], "cancelled");

  json refused = challenge(bob, "ALICE");
  EXPECT_EQ(refused["type"], "error");
  EXPECT_EQ(refused["code"], "refused") << refused;
  EXPECT_EQ(refused["message"].get<std::string>().find("block"), std::string::npos);
  EXPECT_EQ(challenge(alice, "bob")["code"], "refused") << "nor does the blocker challenge";
  alice.ws.reset();  // alice goes offline: bob hears the same answer, not "not online"
  json later = challenge(bob, "alice");
  EXPECT_EQ(later["code"], "refused") << later;
  EXPECT_EQ(later["message"], refused["message"]);

  Client carol = user("carol");  // someone else is still challenged as before
  EXPECT_EQ(challenge(bob, "carol")["type"], "challenge_sent");
}

// The matchmaking queue never pairs two players one of whom blocks the other: the block is read
// when a pair is formed, and each goes on to the next candidate at their old place. Alice (the
// oldest ticket) and bob are the same rating; carol, queued after them, is paired with alice,
// and bob with dave, who comes last.
TEST_F(BlocksTest, MatchmakingNeverPairsABlockedPlayerWithTheBlocker) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol"), dave = user("dave");
  ASSERT_EQ(block(alice.cookie, "bob").result_int(), 200);
  auto queue = [](Client& c) {
    json q = c->request({{"type", "find_match"}, {"rules", "finkel"}, {"rated", true}});
    EXPECT_EQ(q["type"], "queued") << q;
  };
  queue(alice);
  queue(bob);
  queue(carol);
  json a = alice->next("match_found"), c = carol->next("match_found");
  EXPECT_EQ(a["table"]["id"], c["table"]["id"]) << "alice plays carol, not bob";
  queue(dave);
  json b = bob->next("match_found"), d = dave->next("match_found");
  EXPECT_EQ(b["table"]["id"], d["table"]["id"]);
  EXPECT_NE(b["table"]["id"], a["table"]["id"]);
  // The other way round too: the blocked player queued first.
  queue(bob);
  queue(alice);
  Client erin = user("erin");
  queue(erin);
  json b2 = bob->next("match_found"), e = erin->next("match_found");
  EXPECT_EQ(b2["table"]["id"], e["table"]["id"]) << "bob plays erin, not alice";
}

TEST_F(BlocksTest, QuickMessagesOfABlockedPlayerAreNotShownToTheBlocker) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), carol = user("carol");
  std::string id = start_game(alice, bob, {{"public", true}});
  ASSERT_EQ(carol->request({{"type", "open_table"}, {"table", id}})["type"], "joined");
  ASSERT_EQ(block(alice.cookie, "bob").result_int(), 200);

  json said = bob->request({{"type", "quick_message"}, {"table", id}, {"code", "oops"}});
  EXPECT_EQ(said["type"], "ok") << "the sender is not told: " << said;
  json heard = carol->next("quick_message");
  EXPECT_EQ(heard["name"], "bob") << "a spectator who blocks nobody sees it";
  EXPECT_EQ(heard["code"], "oops");
  EXPECT_EQ(bob->next("quick_message")["code"], "oops") << "the sender sees his own";
  // alice's own message comes after bob's on the table's topic: the first she gets is hers.
  ASSERT_EQ(alice->request({{"type", "quick_message"}, {"table", id}, {"code", "thanks"}})["type"],
            "ok");
  json first = alice->next("quick_message");
  EXPECT_EQ(first["name"], "alice") << first;
  EXPECT_EQ(first["code"], "thanks");
  EXPECT_EQ(bob->next("quick_message")["name"], "alice") << "bob still sees alice's messages";
  EXPECT_EQ(carol->next("quick_message")["name"], "alice");
}

TEST_F(BlocksTest, TheFriendsListShowsFollowersWithFollowBack) {
  start_server();
  std::string alice = register_user("alice"), bob = register_user("bob");
  std::string carol = register_user("carol");
  ASSERT_EQ(follow(bob, "alice").result_int(), 200);
  ASSERT_EQ(follow(carol, "alice").result_int(), 200);
  json list = body_json(get("/api/friends", alice));
  ASSERT_EQ(list["followers"].size(), 2u) << list;
  EXPECT_EQ(list["followers_total"], 2);
  for (const json& f : list["followers"]) {
    EXPECT_EQ(f["following"], false);
    EXPECT_EQ(f["rating"], 1200);
    EXPECT_EQ(f["games"], 0);
  }
  list = body_json(follow(alice, "bob"));  // follow back
  json back;
  for (const json& f : list["followers"])
    if (f["username"] == "bob") back = f;
  EXPECT_EQ(back["following"], true) << list;
  EXPECT_EQ(list["following"][0]["username"], "bob");
  EXPECT_TRUE(body_json(get("/api/friends", carol))["followers"].empty());
}

}  // namespace
}  // namespace ur::server
