// Learn from your mistakes (docs/puzzles.md, "Learn from your mistakes"): a finished game's
// mistakes and blunders of one seat, from its review, served as puzzles with no hint of the
// answer, and each answered on the server with every move's chance, the best move and a reason.
// The game is played here from fixed dice (light always takes its last legal move, dark its
// first), so its review is the same at every run.
#include <set>

#include "engine/game.h"
#include "engine/game_record.h"
#include "engine/notation.h"
#include "engine/random.h"
#include "harness.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

constexpr const char* kGame = "00000000000000c7";

class MistakesApiTest : public ServerFixture {
 protected:
  // Stores a finished game of Finkel past the server, as a table's end would.
  void store_game() {
    Game g("finkel");
    Rng rng(7);
    while (!g.is_over()) {
      if (g.awaiting_throw()) {
        g.roll(rng);
        continue;
      }
      const MoveList legal = g.legal_moves();
      const Move m = g.to_act() == Player::kLight ? legal[legal.size - 1] : legal[0];
      const Status done = g.apply_move(m);
      ASSERT_TRUE(done.ok()) << done.error;
    }
    MatchRow m;
    m.id = kGame;
    m.rules = g.rules().to_string();
    m.names = {"alice", "Computer (easy)"};
    m.winner = g.winner() == Player::kLight ? 1 : 2;
    m.reason = "bore-off";
    m.summary = "{}";
    m.record = to_record(g).dump();
    m.started_at = 1;
    m.finished_at = 2;
    TableRow t{m.id, m.rules, "finished", false, false, 1, "{}", 0, 0, "", 0, ""};
    ASSERT_TRUE(server_->context().storage->finish_game(t, -1, m));
  }
};

TEST_F(MistakesApiTest, AGamesMistakesArePuzzlesAnsweredOnTheServer) {
  start_server();
  store_game();
  Response res = get(std::string("/api/games/") + kGame + "/mistakes?seat=1");
  ASSERT_EQ(res.result_int(), 200) << res.body();
  const json list = body_json(res);
  EXPECT_EQ(list["seat"], 1);
  EXPECT_EQ(list["estimate"], true) << "no tables on a test server";
  const json& mistakes = list["mistakes"];
  ASSERT_GT(mistakes.size(), 0u) << "always the last legal move: the review finds mistakes";
  EXPECT_LE(mistakes.size(), 10u);
  // They are the review's mistakes and blunders of seat 1, in game order.
  const json review = body_json(get(std::string("/api/games/") + kGame + "/analysis"));
  std::set<int> graded;
  for (const json& m : review["moves"])
    if (m["seat"] == 1 && (m["grade"] == "mistake" || m["grade"] == "blunder"))
      graded.insert(m["event"].get<int>());
  int last = -1;
  for (const json& m : mistakes) {
    std::set<std::string> keys;
    for (const auto& [k, v] : m.items()) keys.insert(k);
    EXPECT_EQ(keys,
              (std::set<std::string>{"event", "position", "throw", "moves", "played", "grade"}));
    EXPECT_TRUE(graded.count(m["event"].get<int>())) << m;
    EXPECT_GT(m["event"].get<int>(), last);
    last = m["event"];
    std::vector<std::string> moves = m["moves"];
    EXPECT_TRUE(std::is_sorted(moves.begin(), moves.end()));
    EXPECT_GT(moves.size(), 1u);
    EXPECT_NE(std::find(moves.begin(), moves.end(), m["played"].get<std::string>()), moves.end());
  }
  for (const char* hint : {"value", "best", "reason", "themes"})
    EXPECT_EQ(res.body().find(hint), std::string::npos) << hint;

  // An attempt: every move with its chance, the best, and the played move is not right.
  const json& first = mistakes[0];
  const std::string target = std::string("/api/games/") + kGame + "/mistakes/" +
                             std::to_string(first["event"].get<int>()) + "/attempt";
  json played = body_json(post(target, {{"move", first["played"]}}));
  EXPECT_EQ(played["correct"], false) << played;
  EXPECT_EQ(played["moves"].size(), first["moves"].size());
  EXPECT_NE(played["best"], first["played"]);
  EXPECT_FALSE(played["reason"].get<std::string>().empty());
  json best = body_json(post(target, {{"move", played["best"]}}));
  EXPECT_EQ(best["correct"], true);
  double top = 0;
  for (const json& m : best["moves"]) top = std::max(top, m["value"].get<double>());
  for (const json& m : best["moves"]) {
    if (m["move"] == best["best"]) {
      EXPECT_DOUBLE_EQ(m["value"].get<double>(), top);
    }
  }

  // Bad input: an illegal move, an event that is no mistake, a bad seat, an unknown game.
  EXPECT_EQ(post(target, {{"move", "1->2"}}).result_int(), 400);
  EXPECT_EQ(post(target, {{"move", 3}}).result_int(), 400);
  EXPECT_EQ(post(std::string("/api/games/") + kGame + "/mistakes/0/attempt", {{"move", "0->1"}})
                .result_int(),
            404);
  EXPECT_EQ(post(std::string("/api/games/") + kGame + "/mistakes/x/attempt", {{"move", "0->1"}})
                .result_int(),
            404);
  EXPECT_EQ(get(std::string("/api/games/") + kGame + "/mistakes?seat=3").result_int(), 400);
  EXPECT_EQ(get(std::string("/api/games/") + kGame + "/mistakes").result_int(), 400);
  EXPECT_EQ(get("/api/games/ffffffffffffffff/mistakes?seat=1").result_int(), 404);
  EXPECT_EQ(post(std::string("/api/games/") + kGame + "/mistakes", json::object()).result_int(),
            405);
}

}  // namespace
}  // namespace ur::server
