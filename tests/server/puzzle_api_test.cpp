// The puzzle endpoints (docs/puzzles.md, "HTTP API"): the puzzle sent before an attempt holds no
// hint of its answer, an attempt is checked on the server, an account's first attempt at a
// puzzle is rated and a replayed or forged one changes nothing, the next puzzle is never one the
// account attempted, guests solve unrated, and the limits answer 429.
#include <map>
#include <set>

#include "harness.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class PuzzleApiTest : public ServerFixture {
 protected:
  // Two puzzles: the best move is listed last in the stored order, and its chance is distinct.
  // Those of another rule set than Finkel have other ids (c1, d2).
  void add_puzzles(const std::string& rules = "finkel") {
    OpenStorageResult r = open_storage(db_);
    ASSERT_TRUE(r.storage) << r.error;
    std::vector<PuzzleRow> rows;
    const bool finkel = rules == "finkel";
    for (const char* id : {finkel ? "00000000000000a1" : "00000000000000c1",
                           finkel ? "00000000000000b2" : "00000000000000d2"}) {
      PuzzleRow p;
      p.id = id;
      p.rules = rules;
      p.position = "L4/0000006/0000005";
      p.throw_k = 4;
      p.moves = R"([{"move":"6->10","value":0.8125},{"move":"0->4","value":0.4375}])";
      p.best = "6->10";
      p.themes = ",escape,safety,";
      p.difficulty = 0.5;
      p.rating = id[15] == '1' ? 1500 : 1600;
      rows.push_back(p);
    }
    ASSERT_EQ(r.storage->add_puzzles(rows, 1), 2);
  }
  Response attempt(const std::string& id, const std::string& move, const std::string& cookie) {
    return post("/api/puzzles/" + id + "/attempt", {{"move", move}}, cookie);
  }
};

TEST_F(PuzzleApiTest, ThePuzzleBeforeTheAttemptHoldsNoHintOfTheAnswer) {
  start_server();
  add_puzzles();
  for (const char* target : {"/api/puzzles/next?rules=finkel", "/api/puzzles/daily?rules=finkel"}) {
    Response res = get(target);
    ASSERT_EQ(res.result_int(), 200) << res.body();
    const json p = body_json(res)["puzzle"];
    std::set<std::string> keys;
    for (const auto& [k, v] : p.items()) keys.insert(k);
    EXPECT_EQ(keys, (std::set<std::string>{"id", "rules", "position", "throw", "moves", "rating"}));
    EXPECT_EQ(p["moves"], json::array({"0->4", "6->10"})) << "in the order of their text";
    for (const char* hint : {"0.8125", "0.4375", "best", "value", "escape", "safety", "reason"})
      EXPECT_EQ(res.body().find(hint), std::string::npos) << hint << " in " << res.body();
  }
}

// A client that names no rule set needs no list of them first: the server chooses Finkel where
// it has puzzles, else the first preset that has some, and the puzzle says which.
TEST_F(PuzzleApiTest, WithoutARuleSetTheServerChoosesFinkelElseTheFirstWithPuzzles) {
  start_server();
  EXPECT_EQ(get("/api/puzzles/next").result_int(), 404) << "no puzzle anywhere";
  add_puzzles("bell");
  for (const char* target : {"/api/puzzles/next", "/api/puzzles/next?rules=", "/api/puzzles/daily"})
    EXPECT_EQ(body_json(get(target))["puzzle"]["rules"], "bell") << target;
  add_puzzles("finkel");
  for (const char* target : {"/api/puzzles/next", "/api/puzzles/daily?rules="})
    EXPECT_EQ(body_json(get(target))["puzzle"]["rules"], "finkel") << target;
  EXPECT_EQ(body_json(get("/api/puzzles/next?rules=bell"))["puzzle"]["rules"], "bell");
}

// A page that lets the server choose draws the board from the puzzle's answer: asked with
// rules_info=1 it carries the rule set exactly as GET /api/rules/<id> describes it; not otherwise.
TEST_F(PuzzleApiTest, AskedForItThePuzzleCarriesItsRuleSet) {
  start_server();
  add_puzzles("bell");
  const json bell = body_json(get("/api/rules/bell"));
  for (const char* target : {"/api/puzzles/next?rules_info=1", "/api/puzzles/daily?rules_info=1",
                             "/api/puzzles/next?rules=bell&rules_info=1"}) {
    const json answer = body_json(get(target));
    EXPECT_EQ(answer["puzzle"]["rules"], "bell") << target;
    EXPECT_EQ(answer["rules_info"], bell) << target;
  }
  EXPECT_TRUE(body_json(get("/api/puzzles/daily?rules_info=1")).contains("date"));
  for (const char* target :
       {"/api/puzzles/next", "/api/puzzles/daily", "/api/puzzles/next?rules_info=0"})
    EXPECT_FALSE(body_json(get(target)).contains("rules_info")) << target;
}

TEST_F(PuzzleApiTest, AnAttemptIsCheckedAndRatedOnce) {
  start_server();
  add_puzzles();
  const std::string cookie = register_user("solver");
  const json first = body_json(get("/api/puzzles/next?rules=finkel", cookie))["puzzle"];
  const std::string id = first["id"];
  Response right = attempt(id, "6->10", cookie);
  ASSERT_EQ(right.result_int(), 200) << right.body();
  json r = body_json(right);
  EXPECT_EQ(r["correct"], true);
  EXPECT_EQ(r["rated"], true);
  EXPECT_GT(r["change"].get<int>(), 0);
  EXPECT_EQ(r["best"], "6->10");
  EXPECT_EQ(r["moves"].size(), 2u);
  EXPECT_EQ(r["reason"], "it takes a threatened piece out of reach");
  const json rating = body_json(get("/api/puzzles/me", cookie))["rating"];
  EXPECT_EQ(rating["attempts"], 1);
  // Replayed, or another move at the same puzzle: answered, never rated again.
  for (const char* move : {"6->10", "0->4"}) {
    json again = body_json(attempt(id, move, cookie));
    EXPECT_EQ(again["rated"], false);
    EXPECT_EQ(again.contains("change"), false);
  }
  EXPECT_EQ(body_json(get("/api/puzzles/me", cookie))["rating"], rating);
  // Forged: a move that is not legal, an unknown or malformed id. Nothing changes.
  EXPECT_EQ(attempt(id, "1->2", cookie).result_int(), 400);
  EXPECT_EQ(attempt("ffffffffffffffff", "6->10", cookie).result_int(), 404);
  EXPECT_EQ(attempt("../../etc", "6->10", cookie).result_int(), 404);
  EXPECT_EQ(post("/api/puzzles/" + id + "/attempt", {{"move", 3}}, cookie).result_int(), 400);
  EXPECT_EQ(body_json(get("/api/puzzles/me", cookie))["rating"], rating);
  // The next puzzle is the other one, then none is left.
  const json second = body_json(get("/api/puzzles/next?rules=finkel", cookie))["puzzle"];
  EXPECT_NE(second["id"], id);
  EXPECT_EQ(body_json(attempt(second["id"], "0->4", cookie))["correct"], false);
  EXPECT_EQ(get("/api/puzzles/next?rules=finkel", cookie).result_int(), 404);
  // The history: both rated attempts (the first only once), with the rating they left.
  const json me = body_json(get("/api/puzzles/me", cookie));
  ASSERT_EQ(me["history"].size(), 2u) << me;
  std::map<std::string, json> by_id;
  for (const json& a : me["history"]) by_id[a["puzzle"]] = a;
  EXPECT_EQ(by_id[id]["solved"], true);
  EXPECT_EQ(by_id[id]["move"], "6->10");
  EXPECT_EQ(by_id[id]["rules"], "finkel");
  EXPECT_GT(by_id[id]["change"].get<int>(), 0);
  EXPECT_EQ(by_id[second["id"]]["solved"], false);
  EXPECT_LT(by_id[second["id"]]["change"].get<int>(), 0);
  EXPECT_EQ(me["rating"]["attempts"], 2);
}

TEST_F(PuzzleApiTest, GuestsSolveUnrated) {
  start_server();
  add_puzzles();
  const json p = body_json(get("/api/puzzles/next"))["puzzle"];
  json r = body_json(attempt(p["id"], "6->10", ""));
  EXPECT_EQ(r["correct"], true);
  EXPECT_EQ(r["rated"], false);
  EXPECT_EQ(body_json(get("/api/puzzles/me"))["rating"], nullptr);
  EXPECT_EQ(body_json(get("/api/puzzles/me")).contains("history"), false);
  EXPECT_EQ(get("/api/puzzles/next?theme=nonsense").result_int(), 400);
}

// The refusals docs/server.md lists beyond the answers: another method (405 with Allow) and a
// malformed % escape (400).
TEST_F(PuzzleApiTest, OtherMethodsAndMalformedEscapesAreRefused) {
  start_server();
  add_puzzles();
  for (const char* target : {"/api/puzzles/next", "/api/puzzles/daily", "/api/puzzles/me"}) {
    Response res = post(target, json::object());
    EXPECT_EQ(res.result_int(), 405) << target;
    EXPECT_EQ(res[http::field::allow], "GET") << target;
  }
  Request r;
  r.target = "/api/puzzles/00000000000000a1/attempt";
  Response res = send_http(port_, r);
  EXPECT_EQ(res.result_int(), 405);
  EXPECT_EQ(res[http::field::allow], "POST");
  for (const char* target : {"/api/puzzles/next?rules=%zz", "/api/puzzles/daily?rules=%zz"}) {
    Response bad = get(target);
    EXPECT_EQ(bad.result_int(), 400) << target;
    EXPECT_EQ(body_json(bad)["error"], "bad_request") << target;
  }
}

TEST_F(PuzzleApiTest, AttemptsAreCountedInTheMetrics) {
  ServerConfig c = base_config();
  c.metrics_token = "m3trics";
  start_server(c);
  add_puzzles();
  const std::string alice = register_user("alice");
  ASSERT_EQ(attempt("00000000000000a1", "0->4", alice).result_int(), 200);   // rated, missed
  ASSERT_EQ(attempt("00000000000000a1", "6->10", alice).result_int(), 200);  // a replay: unrated
  ASSERT_EQ(attempt("00000000000000b2", "6->10", "").result_int(), 200);     // a guest
  Request r;
  r.target = "/metrics";
  r.headers.emplace_back("Authorization", "Bearer m3trics");
  const std::string text = send_http(port_, r).body();
  EXPECT_NE(text.find("ur_puzzle_attempts_total{result=\"missed\",rated=\"true\"} 1\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ur_puzzle_attempts_total{result=\"solved\",rated=\"false\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("ur_puzzle_attempts_total{result=\"solved\",rated=\"true\"} 0\n"),
            std::string::npos);
}

TEST_F(PuzzleApiTest, RequestsBeyondTheAddressLimitAreRefused) {
  ServerConfig c = base_config();
  c.puzzle_ip_burst = 3;
  c.puzzle_ip_refill_per_sec = 0.001;
  start_server(c);
  add_puzzles();
  for (int i = 0; i < 3; ++i) EXPECT_EQ(get("/api/puzzles/next").result_int(), 200);
  Response limited = get("/api/puzzles/next");
  EXPECT_EQ(limited.result_int(), 429);
  EXPECT_FALSE(limited[http::field::retry_after].empty());
}

}  // namespace
}  // namespace ur::server
