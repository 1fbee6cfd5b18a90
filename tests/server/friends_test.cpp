// Friends (docs/server.md, "Friends"; docs/protocol.md, "Challenges"): following players, who of
// them is online, and challenges by name — accepted into a table with both seated, declined,
// cancelled, expired, and refused for guests, oneself, unknown or offline players, twice the same
// player and too many at once. Runs on SQLite, and on PostgreSQL under scripts/pg-test.
#include <chrono>
#include <thread>

#include "server/tables/friends.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;
using namespace std::chrono_literals;

class FriendsTest : public TableFixture {
 protected:
  void start_server(std::chrono::milliseconds lifetime = 60s) {
    ServerConfig c = config();
    c.challenge_lifetime = lifetime;
    ServerFixture::start_server(c);
  }
  Response follow(const std::string& cookie, const std::string& name, bool on = true) {
    return post("/api/friends", json{{"username", name}, {"follow", on}}, cookie);
  }
  json friends(const std::string& cookie) { return body_json(get("/api/friends", cookie)); }
  // The list's `online` of `name` once it is `want` (presence follows a socket's close a moment
  // later), or its last value after 10 s.
  bool online_becomes(const std::string& cookie, const std::string& name, bool want) {
    auto until = std::chrono::steady_clock::now() + 10s;
    bool now = !want;
    while (std::chrono::steady_clock::now() < until) {
      json list = friends(cookie);  // kept: the loop below reads into it
      for (const json& f : list["following"])
        if (f["username"] == name) now = f["online"];
      if (now == want) break;
      std::this_thread::sleep_for(50ms);
    }
    return now;
  }
  json challenge(Client& c, const std::string& to, json extra = json::object()) {
    extra["type"] = "challenge_player";
    extra["to"] = to;
    return c->request(extra);
  }
};

TEST_F(FriendsTest, APlayerFollowsOthersAndSeesWhoIsOnline) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string carol = register_user("carol");  // an account with no socket open
  EXPECT_EQ(follow(alice.cookie, "BOB").result_int(), 200) << "names ignore case";
  Response r = follow(alice.cookie, "carol");
  ASSERT_EQ(r.result_int(), 200) << r.body();
  EXPECT_EQ(follow(alice.cookie, "bob").result_int(), 200) << "following twice is no error";
  json list = friends(alice.cookie);
  ASSERT_EQ(list["following"].size(), 2u) << list;
  EXPECT_EQ(list["following"][0]["username"], "bob");
  EXPECT_EQ(list["following"][0]["online"], true);
  EXPECT_EQ(list["following"][0]["rating"], 1200);
  EXPECT_EQ(list["following"][1]["username"], "carol");
  EXPECT_EQ(list["following"][1]["online"], false);
  EXPECT_EQ(list["max"], kMaxFollows);
  EXPECT_TRUE(friends(bob.cookie)["following"].empty()) << "following is one way";

  bob.ws.reset();  // bob closes his page
  EXPECT_FALSE(online_becomes(alice.cookie, "bob", false));
  EXPECT_EQ(follow(alice.cookie, "carol", false).result_int(), 200);
  list = friends(alice.cookie);
  ASSERT_EQ(list["following"].size(), 1u) << list;
  EXPECT_EQ(list["following"][0]["username"], "bob");
}

TEST_F(FriendsTest, FollowingIsRefusedClearly) {
  start_server();
  Client alice = user("alice");
  Response r = get("/api/friends");
  EXPECT_EQ(r.result_int(), 401);
  EXPECT_EQ(body_json(r)["error"], "not_logged_in");
  r = follow("", "alice");
  EXPECT_EQ(body_json(r)["error"], "not_logged_in") << "a guest cannot follow";
  r = follow(alice.cookie, "nobody-here");
  EXPECT_EQ(r.result_int(), 404);
  EXPECT_EQ(body_json(r)["error"], "not_found");
  r = follow(alice.cookie, "x y");  // not a valid name at all
  EXPECT_EQ(body_json(r)["error"], "not_found");
  r = follow(alice.cookie, "alice");
  EXPECT_EQ(r.result_int(), 400);
  EXPECT_EQ(body_json(r)["error"], "bad_request");
  r = post("/api/friends", json{{"username", "alice"}}, alice.cookie);
  EXPECT_EQ(body_json(r)["error"], "bad_request") << "follow must be said";
  r = post("/api/friends", json::array({1}), alice.cookie);
  EXPECT_EQ(body_json(r)["error"], "bad_request");
}

TEST_F(FriendsTest, AnAccountFollowsAtMostTheLimit) {
  start_server();
  Storage& st = *server_->context().storage;
  auto me = st.create_user("many", "h", 0);
  ASSERT_TRUE(me);
  for (int i = 0; i <= kMaxFollows; ++i) {
    auto u = st.create_user("f" + std::to_string(i), "h", 0);
    ASSERT_TRUE(u);
    EXPECT_EQ(st.accounts().follow(me->id, u->id, 1),
              i < kMaxFollows ? FollowResult::kFollowed : FollowResult::kFull);
    if (i == 0) {
      EXPECT_EQ(st.accounts().follow(me->id, u->id, 1), FollowResult::kAlready);
    }
  }
  EXPECT_EQ(st.accounts().following(me->id).size(), static_cast<std::size_t>(kMaxFollows));
  auto first = st.find_user_by_name("f0");
  EXPECT_TRUE(st.accounts().unfollow(me->id, first->id));
  EXPECT_FALSE(st.accounts().unfollow(me->id, first->id));
  EXPECT_EQ(st.accounts().following(me->id).size(), static_cast<std::size_t>(kMaxFollows - 1));
}

TEST_F(FriendsTest, AnAcceptedChallengeSeatsBothAtANewRatedTable) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  TestWs bob2(port_);  // bob's second page: the challenge shows there too
  ASSERT_EQ(bob2.connect(bob.cookie), 0u);
  ready(bob2);
  json sent = challenge(alice, "Bob", {{"rules", "masters"}, {"rated", true}});
  ASSERT_EQ(sent["type"], "challenge_sent") << sent;
  const json& ch = sent["challenge"];
  EXPECT_EQ(ch["from"], "alice");
  EXPECT_EQ(ch["to"], "bob");
  EXPECT_EQ(ch["rated"], true);
  EXPECT_EQ(ch["rules"], "masters");
  EXPECT_GT(ch["expires_at"].get<std::int64_t>(), 0);
  json pushed = bob->next("challenged");
  EXPECT_EQ(pushed["challenge"]["id"], ch["id"]);
  EXPECT_EQ(pushed["challenge"]["from_rating"], 1200);
  EXPECT_GT(pushed["challenge"]["expires_in"].get<int>(), 50'000);
  EXPECT_LE(pushed["challenge"]["expires_in"].get<int>(), 60'000);
  EXPECT_EQ(bob2.next("challenged")["challenge"]["id"], ch["id"]);

  json ok = bob->request({{"type", "challenge_answer"}, {"challenge", ch["id"]}, {"accept", true}});
  EXPECT_EQ(ok["type"], "ok") << ok;
  json ended = alice->next("challenge_ended");
  EXPECT_EQ(ended["reason"], "accepted") << ended;
  ASSERT_TRUE(ended["table"].is_string());
  EXPECT_EQ(bob->next("challenge_ended")["table"], ended["table"]);
  EXPECT_EQ(bob2.next("challenge_ended")["table"], ended["table"]);
  json found_a = alice->next("match_found"), found_b = bob->next("match_found");
  EXPECT_EQ(found_a["table"]["id"], ended["table"]);
  EXPECT_EQ(found_a["table"]["status"], "playing");
  EXPECT_EQ(found_a["table"]["rated"], true);
  EXPECT_EQ(found_a["you"].get<int>() + found_b["you"].get<int>(), 3) << "one seat each";
  json again =
      bob->request({{"type", "challenge_answer"}, {"challenge", ch["id"]}, {"accept", true}});
  EXPECT_EQ(again["code"], "not_found") << "a challenge is answered once";
}

TEST_F(FriendsTest, AChallengeIsDeclinedCancelledOrExpires) {
  start_server(400ms);
  Client alice = user("alice"), bob = user("bob");
  json ch = challenge(alice, "bob")["challenge"];
  EXPECT_EQ(bob->next("challenged")["challenge"]["id"], ch["id"]);
  json no =
      bob->request({{"type", "challenge_answer"}, {"challenge", ch["id"]}, {"accept", false}});
  EXPECT_EQ(no["type"], "ok") << no;
  EXPECT_EQ(alice->next("challenge_ended")["reason"], "declined");
  EXPECT_EQ(bob->next("challenge_ended")["reason"], "declined");

  ch = challenge(alice, "bob")["challenge"];
  json stranger =
      alice->request({{"type", "challenge_answer"}, {"challenge", ch["id"]}, {"accept", true}});
  EXPECT_EQ(stranger["code"], "not_found") << "only the challenged player answers";
  json cancel = bob->request({{"type", "challenge_cancel"}, {"challenge", ch["id"]}});
  EXPECT_EQ(cancel["code"], "not_found") << "only the challenger cancels";
  EXPECT_EQ(alice->request({{"type", "challenge_cancel"}, {"challenge", ch["id"]}})["type"], "ok");
  json ended = bob->next_if(
      [&](const json& j) { return j["type"] == "challenge_ended" && j["challenge"] == ch["id"]; });
  EXPECT_EQ(ended["reason"], "cancelled");

  ch = challenge(alice, "bob")["challenge"];
  ended = alice->next_if(
      [&](const json& j) { return j["type"] == "challenge_ended" && j["challenge"] == ch["id"]; });
  EXPECT_EQ(ended["reason"], "expired");
  json late =
      bob->request({{"type", "challenge_answer"}, {"challenge", ch["id"]}, {"accept", true}});
  EXPECT_EQ(late["code"], "not_found");
}

TEST_F(FriendsTest, TheChallengersPageClosingCancelsTheChallenge) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  json ch = challenge(alice, "bob")["challenge"];
  alice.ws.reset();
  json ended = bob->next_if([&](const json& j) { return j["type"] == "challenge_ended"; });
  EXPECT_EQ(ended["challenge"], ch["id"]);
  EXPECT_EQ(ended["reason"], "cancelled");
}

TEST_F(FriendsTest, ChallengesAreRefusedClearly) {
  start_server();
  Client alice = user("alice"), bob = user("bob"), dave = user("dave"), erin = user("erin");
  Client visitor = guest();
  register_user("carol");  // offline
  EXPECT_EQ(challenge(visitor, "bob")["code"], "login_required");
  EXPECT_EQ(challenge(alice, "alice")["code"], "bad_request");
  EXPECT_EQ(challenge(alice, "zed-nobody")["code"], "not_found");
  json offline = challenge(alice, "carol");
  EXPECT_EQ(offline["code"], "not_found");
  EXPECT_EQ(offline["message"], "that player is not online");
  EXPECT_EQ(challenge(alice, "bob", {{"rules", "nonsense"}})["code"], "bad_rules");
  EXPECT_EQ(challenge(alice, "bob")["type"], "challenge_sent");
  EXPECT_EQ(challenge(alice, "bob")["code"], "conflict") << "one challenge to a player at a time";
  EXPECT_EQ(challenge(alice, "dave")["type"], "challenge_sent");
  EXPECT_EQ(challenge(alice, "erin")["type"], "challenge_sent");
  Client fred = user("fred");
  json fourth = challenge(alice, "fred");
  EXPECT_EQ(fourth["code"], "rate_limited") << fourth;
  json answer = bob->request({{"type", "challenge_answer"}, {"challenge", "x"}});
  EXPECT_EQ(answer["code"], "bad_request") << "accept must be said";
}

TEST_F(FriendsTest, ChallengesAreRateLimitedPerAccount) {
  start_server(200ms);
  Client alice = user("alice"), bob = user("bob");
  int sent = 0;
  json last;
  for (int i = 0; i < 10; ++i) {
    last = challenge(alice, "bob");
    if (last["type"] != "challenge_sent") break;
    ++sent;
    alice->request({{"type", "challenge_cancel"}, {"challenge", last["challenge"]["id"]}});
  }
  EXPECT_EQ(sent, static_cast<int>(kChallengeBurst));
  EXPECT_EQ(last["code"], "rate_limited") << last;
}

}  // namespace
}  // namespace ur::server
