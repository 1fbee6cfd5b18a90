// Game records: random games of every preset survive to_record -> read_record with the same
// events, statistics, ledger and final position; resignations round-trip; corrupted records
// are refused with a message that names the culprit.
#include "engine/game_record.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "engine/notation.h"
#include "engine/random.h"
#include "rules/presets.h"

namespace ur {
namespace {

using nlohmann::json;

// Plays a random game through the checked layer; stops after `max_events` events if given.
Game random_game(std::shared_ptr<const Engine> engine, std::uint64_t seed,
                 size_t max_events = SIZE_MAX) {
  Game g(std::move(engine));
  Rng rng(seed);
  while (!g.is_over() && g.events().size() < max_events) {
    if (g.awaiting_throw()) {
      g.roll(rng);
      continue;
    }
    const MoveList moves = g.legal_moves();
    EXPECT_FALSE(moves.empty());
    if (moves.empty()) break;
    Status s =
        g.apply_move(moves[static_cast<int>(rng.below(static_cast<std::uint32_t>(moves.size)))]);
    EXPECT_TRUE(s.ok()) << s.error;
  }
  return g;
}

void expect_same_game(const Game& a, const Game& b) {
  EXPECT_EQ(a.rules().to_string(), b.rules().to_string());
  EXPECT_TRUE(a.start_position() == b.start_position());
  EXPECT_TRUE(a.position() == b.position())
      << to_position_string(a.engine(), a.position()) << " vs "
      << to_position_string(b.engine(), b.position());
  ASSERT_EQ(a.events().size(), b.events().size());
  for (size_t i = 0; i < a.events().size(); ++i) {
    const GameEvent& x = a.events()[i];
    const GameEvent& y = b.events()[i];
    EXPECT_TRUE(x.type == y.type && x.player == y.player && x.outcome == y.outcome &&
                x.move == y.move && x.move.flags == y.move.flags && x.passed == y.passed)
        << "event " << i + 1;
  }
  for (Player p : {Player::kLight, Player::kDark}) {
    const PlayerStats& s = a.stats(p);
    const PlayerStats& t = b.stats(p);
    EXPECT_EQ(s.throws, t.throws);
    EXPECT_EQ(s.moves, t.moves);
    EXPECT_EQ(s.passes, t.passes);
    EXPECT_EQ(s.captures, t.captures);
    EXPECT_EQ(s.rosettes, t.rosettes);
    EXPECT_EQ(s.borne_off, t.borne_off);
    EXPECT_EQ(s.bounces, t.bounces);
    EXPECT_EQ(s.forfeits, t.forfeits);
    EXPECT_EQ(a.balance(p), b.balance(p));
  }
  EXPECT_EQ(a.kitty(), b.kitty());
  EXPECT_EQ(a.winner(), b.winner());
  EXPECT_EQ(a.end_reason(), b.end_reason());
  EXPECT_EQ(a.win_score(), b.win_score());
  EXPECT_EQ(a.turn_number(), b.turn_number());
}

// Reads a record that must be valid.
Game must_read(const std::string& text, std::optional<std::uint64_t>* seed = nullptr) {
  RecordResult r = read_record(text, seed);
  if (auto* e = std::get_if<Error>(&r)) {
    ADD_FAILURE() << e->message;
    return Game("finkel");
  }
  return std::get<Game>(std::move(r));
}

// The message of a record that must be refused.
std::string refusal(const json& record) {
  RecordResult r = read_record(record.dump());
  if (auto* e = std::get_if<Error>(&r)) return e->message;
  return "(accepted)";
}

TEST(GameRecord, RandomGamesRoundTripInEveryPreset) {
  for (const PresetInfo& info : preset_list()) {
    SCOPED_TRACE(info.id);
    auto engine = std::make_shared<const Engine>(*find_preset(info.id));
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      const Game g = random_game(engine, seed * 7919 + info.id.size());
      ASSERT_TRUE(g.is_over());
      const json rec = to_record(g, seed);
      EXPECT_EQ(rec["rules"], engine->rules().to_string());
      EXPECT_FALSE(rec.contains("start"));
      EXPECT_EQ(rec["events"].size(), g.events().size());
      EXPECT_EQ(rec["result"]["final"], to_position_string(*engine, g.position()));
      EXPECT_EQ(rec["result"].contains("kitty"),
                engine->rules().stake != 0 || engine->rules().fine != 0);
      std::optional<std::uint64_t> read_seed;
      const std::string text = record_to_string(rec);
      const Game back = must_read(text, &read_seed);
      expect_same_game(g, back);
      EXPECT_EQ(read_seed, seed);
      // Writing the replayed game gives the same text again.
      EXPECT_EQ(record_to_string(back, read_seed), text);
      EXPECT_EQ(to_record(back, read_seed), rec);
    }
  }
}

TEST(GameRecord, UnfinishedGamesRoundTrip) {
  for (const char* id : {"finkel", "boxed", "bell", "conventional"}) {
    SCOPED_TRACE(id);
    auto engine = std::make_shared<const Engine>(*find_preset(id));
    for (size_t n : {0, 1, 2, 3, 17, 40}) {
      const Game g = random_game(engine, 5 + n, n);
      const json rec = to_record(g);
      EXPECT_FALSE(rec.contains("seed"));
      EXPECT_TRUE(rec["result"]["winner"].is_null());
      EXPECT_EQ(rec["result"]["reason"], "none");
      std::optional<std::uint64_t> seed = 42;
      expect_same_game(g, must_read(rec.dump(), &seed));
      EXPECT_EQ(seed, std::nullopt);
    }
  }
}

TEST(GameRecord, ResignationsRoundTrip) {
  auto engine = std::make_shared<const Engine>(*find_preset("bell"));
  const std::pair<EndReason, const char*> reasons[] = {
      {EndReason::kResign, "resign"}, {EndReason::kTimeout, "timeout"}, {EndReason::kLeft, "left"}};
  for (const auto& [reason, name] : reasons) {
    for (Player quitter : {Player::kLight, Player::kDark}) {
      Game g = random_game(engine, 77, 60);
      ASSERT_FALSE(g.is_over());
      ASSERT_TRUE(g.end_by(quitter, reason).ok());
      const json rec = to_record(g);
      EXPECT_EQ(rec["events"].back(), (json{{"player", player_name(quitter)}, {"resign", name}}));
      EXPECT_EQ(rec["result"]["winner"], player_name(other(quitter)));
      EXPECT_EQ(rec["result"]["reason"], name);
      const Game back = must_read(record_to_string(rec));
      expect_same_game(g, back);
      EXPECT_EQ(back.winner(), other(quitter));
      EXPECT_EQ(back.kitty(), 0);  // the winner took the kitty
    }
  }
}

TEST(GameRecord, GamesFromAGivenStartRoundTrip) {
  auto engine = std::make_shared<const Engine>(*find_preset("finkel"));
  PositionResult start = parse_position_string(*engine, "Dr/000005d/0000003");
  ASSERT_TRUE(std::holds_alternative<Position>(start));
  Game g(engine, std::get<Position>(start));
  Rng rng(3);
  for (int i = 0; i < 30 && !g.is_over(); ++i) {
    if (g.awaiting_throw())
      g.roll(rng);
    else
      ASSERT_TRUE(g.apply_move(g.legal_moves()[0]).ok());
  }
  const json rec = to_record(g);
  EXPECT_EQ(rec["start"], "Dr/000005d/0000003");
  expect_same_game(g, must_read(rec.dump()));

  // A staked game started from the initial position pays no stakes: "start" keeps it so.
  auto bell = std::make_shared<const Engine>(*find_preset("bell"));
  Game unstaked(bell, bell->initial_position());
  Rng rng2(4);
  for (int i = 0; i < 50; ++i) {
    if (unstaked.awaiting_throw())
      unstaked.roll(rng2);
    else
      ASSERT_TRUE(unstaked.apply_move(unstaked.legal_moves()[0]).ok());
  }
  const json rec2 = to_record(unstaked);
  EXPECT_TRUE(rec2.contains("start"));
  expect_same_game(unstaked, must_read(rec2.dump()));
  EXPECT_FALSE(to_record(random_game(bell, 4, 50)).contains("start"));
}

// A finished Finkel game and the index (0-based) of its first move event.
struct Sample {
  Game game;
  json record;
  size_t first_move;
};

Sample finkel_sample() {
  auto engine = std::make_shared<const Engine>(*find_preset("finkel"));
  Game g = random_game(engine, 2024);
  json rec = to_record(g, 2024);
  size_t first_move = 0;
  while (!rec["events"][first_move].contains("move")) ++first_move;
  return {g, rec, first_move};
}

// The turn number a game has reached after its first n events.
int turn_after(const Game& g, size_t n) {
  Game replay(g.engine_ptr());
  for (size_t i = 0; i < n; ++i) {
    const GameEvent& ev = g.events()[i];
    Status s = ev.type == GameEvent::Type::kThrow ? replay.apply_throw(ev.outcome)
                                                  : replay.apply_move(ev.move);
    EXPECT_TRUE(s.ok());
  }
  return replay.turn_number();
}

TEST(GameRecord, IllegalMoveNamesTheEventAndTurn) {
  Sample s = finkel_sample();
  // Pick a move event late in the game and make it illegal: from a square with no piece.
  size_t i = s.record["events"].size() - 1;
  while (!s.record["events"][i].contains("move")) --i;
  json bad = s.record;
  bad["events"][i]["move"] = {{"from", 1}, {"to", 99}};
  const std::string prefix = "event " + std::to_string(i + 1) + " (turn " +
                             std::to_string(turn_after(s.game, i)) + "): illegal move 1->99 for " +
                             s.record["events"][i]["player"].get<std::string>() + "; legal: ";
  const std::string msg = refusal(bad);
  EXPECT_EQ(msg.rfind(prefix, 0), 0u) << msg << "\nexpected to start with " << prefix;
  // The list of legal moves names the move that was really made.
  const json& real = s.record["events"][i]["move"];
  EXPECT_NE(msg.find(std::to_string(real["from"].get<int>()) + "->" +
                     std::to_string(real["to"].get<int>())),
            std::string::npos)
      << msg;
}

TEST(GameRecord, WrongThrowIsRefused) {
  Sample s = finkel_sample();
  json bad = s.record;
  bad["events"][0]["throw"] = 5;
  EXPECT_EQ(refusal(bad), "event 1 (turn 1): throw 5 is outside the dice (0..4)");
  bad["events"][0]["throw"] = -1;
  EXPECT_EQ(refusal(bad), "event 1 (turn 1): throw -1 is outside the dice (0..4)");
  bad["events"][0]["throw"] = 2.5;
  EXPECT_EQ(refusal(bad), "event 1: \"throw\" must be a whole number");
  bad["events"][0]["throw"] = "3";
  EXPECT_EQ(refusal(bad), "event 1: \"throw\" must be a whole number");
  bad["events"][0]["throw"] = 18446744073709551615ULL;
  EXPECT_EQ(refusal(bad), "event 1: \"throw\" must be a whole number");
  // A different throw makes a later event wrong (or the result differ): never accepted.
  for (int k = 0; k <= 4; ++k) {
    json changed = s.record;
    if (changed["events"][0]["throw"] == k) continue;
    changed["events"][0]["throw"] = k;
    EXPECT_NE(refusal(changed), "(accepted)") << k;
  }
}

TEST(GameRecord, EventsOutOfPlaceAreRefused) {
  Sample s = finkel_sample();
  const size_t m = s.first_move;  // events[m] is a move, events[m-1] the throw before it
  const std::string player = s.record["events"][m]["player"];
  const std::string opponent = player == "light" ? "dark" : "light";
  const std::string at =
      "event " + std::to_string(m + 1) + " (turn " + std::to_string(turn_after(s.game, m)) + "): ";

  json bad = s.record;
  bad["events"][m] = {{"player", player}, {"throw", 2}};  // a throw when a move is due
  EXPECT_EQ(refusal(bad).rfind(at + player + " throws, but " + player + "'s move for throw", 0), 0u)
      << refusal(bad);

  bad = s.record;
  bad["events"][m]["player"] = opponent;  // the wrong player moves
  EXPECT_EQ(refusal(bad).rfind(at + opponent + " moves, but " + player + "'s move", 0), 0u)
      << refusal(bad);

  bad = s.record;
  bad["events"][m] = {{"player", player}, {"award", true}};  // no award is due in finkel
  EXPECT_EQ(refusal(bad).rfind(at + player + " decides an award, but", 0), 0u) << refusal(bad);

  bad = s.record;
  bad["events"].erase(m - 1);  // the move now comes when a throw is due
  EXPECT_NE(refusal(bad).find("moves, but"), std::string::npos) << refusal(bad);

  bad = s.record;
  bad["events"][0]["player"] = "dark";  // light throws first in finkel
  EXPECT_EQ(refusal(bad), "event 1 (turn 1): dark throws, but light's throw is due");

  bad = s.record;
  bad["events"].push_back({{"player", "light"}, {"throw", 1}});  // after the end
  const std::string over = refusal(bad);
  EXPECT_EQ(over.rfind("event " + std::to_string(bad["events"].size()) + " (turn ", 0), 0u) << over;
  EXPECT_NE(over.find("): the game is already over"), std::string::npos) << over;
}

TEST(GameRecord, MalformedEventsAreRefused) {
  Sample s = finkel_sample();
  auto with_event = [&](size_t i, const json& ev) {
    json bad = s.record;
    bad["events"][i] = ev;
    return refusal(bad);
  };
  EXPECT_EQ(with_event(0, json::array()),
            "event 1: must be an object such as {\"player\":\"light\",\"throw\":3}");
  EXPECT_EQ(with_event(0, {{"throw", 3}}), "event 1: missing \"player\" (\"light\" or \"dark\")");
  EXPECT_EQ(with_event(0, {{"player", "white"}, {"throw", 3}}),
            "event 1: \"player\" must be \"light\" or \"dark\"");
  EXPECT_EQ(with_event(0, {{"player", "light"}}),
            "event 1: needs exactly one of \"throw\", \"move\", \"award\", \"resign\"");
  EXPECT_EQ(with_event(0, {{"player", "light"}, {"throw", 3}, {"award", true}}),
            "event 1: needs exactly one of \"throw\", \"move\", \"award\", \"resign\"");
  EXPECT_EQ(with_event(0, {{"player", "light"}, {"throw", 3}, {"thorw", 3}})
                .rfind("event 1: unknown key \"thorw\"", 0),
            0u);
  const size_t m = s.first_move;
  const std::string n = std::to_string(m + 1);
  const std::string pl = s.record["events"][m]["player"];
  EXPECT_EQ(with_event(m, {{"player", pl}, {"move", 3}}),
            "event " + n + ": \"move\" must be an object {\"from\":F,\"to\":T}");
  EXPECT_EQ(with_event(m, {{"player", pl}, {"move", {{"from", 0}}}}),
            "event " + n + ": \"move\" needs whole numbers \"from\" and \"to\"");
  EXPECT_EQ(with_event(m, {{"player", pl}, {"move", {{"from", 0}, {"to", "3"}}}}),
            "event " + n + ": \"move\" needs whole numbers \"from\" and \"to\"");
  EXPECT_EQ(with_event(m, {{"player", pl}, {"move", {{"from", 0}, {"to", 3}, {"via", 1}}}})
                .rfind("event " + n + ": \"move\": unknown key \"via\"", 0),
            0u);
  EXPECT_EQ(with_event(m, {{"player", pl}, {"award", 1}}),
            "event " + n + ": \"award\" must be true or false");
  EXPECT_EQ(with_event(m, {{"player", pl}, {"resign", "quit"}}),
            "event " + n + ": \"resign\" must be \"resign\", \"timeout\" or \"left\"");
}

TEST(GameRecord, MalformedJsonAndHeaderAreRefused) {
  Sample s = finkel_sample();
  const std::string text = record_to_string(s.record);
  // Truncated: the message gives the line and column where the text ran out.
  RecordResult r = read_record(text.substr(0, text.size() / 2));
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  const std::string& msg = std::get<Error>(r).message;
  EXPECT_EQ(msg.rfind("malformed JSON: parse error at line ", 0), 0u) << msg;
  EXPECT_NE(msg.find(", column "), std::string::npos) << msg;
  r = read_record("{\"format\": \"ur-game\",\n  \"version\": 1,,\n}");
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_NE(std::get<Error>(r).message.find("line 2, column 16"), std::string::npos)
      << std::get<Error>(r).message;
  r = read_record("");
  ASSERT_TRUE(std::holds_alternative<Error>(r));
  EXPECT_EQ(std::get<Error>(r).message.rfind("malformed JSON", 0), 0u);

  auto with = [&](const char* key, const json& v) {
    json bad = s.record;
    bad[key] = v;
    return refusal(bad);
  };
  auto without = [&](const char* key) {
    json bad = s.record;
    bad.erase(key);
    return refusal(bad);
  };
  EXPECT_EQ(refusal(json::array()), "a game record must be a JSON object");
  EXPECT_EQ(with("format", "ur-match"), "\"format\" must be \"ur-game\"");
  EXPECT_EQ(without("format"), "\"format\" must be \"ur-game\"");
  EXPECT_EQ(with("version", 2), "record version 2 is not supported (this build reads version 1)");
  EXPECT_EQ(without("version"), "missing \"version\"");
  EXPECT_EQ(with("rules", 7), "missing \"rules\" (a rule-set string such as \"finkel\")");
  EXPECT_EQ(with("rules", "finkle").rfind("\"rules\": ", 0), 0u);
  EXPECT_EQ(with("rules", "finkel(pieces=99)").rfind("\"rules\": ", 0), 0u);
  EXPECT_EQ(with("seed", -3), "\"seed\" must be a non-negative whole number");
  EXPECT_EQ(with("start", "Lr/000/0000000").rfind("\"start\": position 'Lr/000/0000000'", 0), 0u);
  EXPECT_EQ(with("events", json::object()), "missing \"events\" (an array, possibly empty)");
  EXPECT_EQ(with("comment", "hi").rfind("unknown key \"comment\"", 0), 0u);
  // The right JSON for the wrong rule set fails somewhere in the replay.
  EXPECT_NE(with("rules", "finkel(pieces=6)"), "(accepted)");
  EXPECT_NE(with("rules", "masters"), "(accepted)");
}

TEST(GameRecord, ResultMismatchIsRefused) {
  Sample s = finkel_sample();
  const std::string winner = s.record["result"]["winner"];
  const std::string loser = winner == "light" ? "dark" : "light";
  auto with = [&](const char* key, const json& v) {
    json bad = s.record;
    bad["result"][key] = v;
    return refusal(bad);
  };
  EXPECT_EQ(with("winner", loser),
            "result: the record says the winner is " + loser + ", the replay gives " + winner);
  EXPECT_EQ(with("winner", nullptr),
            "result: the record says the winner is null, the replay gives " + winner);
  EXPECT_EQ(with("reason", "resign"),
            "result: the record says the game ended by resign, the replay gives bore-off");
  EXPECT_EQ(with("score", 3), "result: \"score\" is 3 in the record, 0 in the replay");
  const std::string final_pos = s.record["result"]["final"];
  EXPECT_EQ(
      with("final", "Lr/0000000/0000000"),
      "result: the record's final position is Lr/0000000/0000000, the replay ends at " + final_pos);
  EXPECT_EQ(with("final", "nonsense").rfind("result: \"final\": position 'nonsense'", 0), 0u);
  json bad = s.record;
  const int captures = bad["result"]["stats"]["dark"]["captures"];
  bad["result"]["stats"]["dark"]["captures"] = captures + 1;
  EXPECT_EQ(refusal(bad), "result: stats of dark \"captures\" is " + std::to_string(captures + 1) +
                              " in the record, " + std::to_string(captures) + " in the replay");
  bad = s.record;
  bad["result"]["stats"]["dark"]["sixes"] = 1;
  EXPECT_EQ(refusal(bad), "result: stats of dark: unknown statistic \"sixes\"");
  EXPECT_EQ(with("kitty", 4), "result: \"kitty\" is 4 in the record, 0 in the replay");
  // Every result field is optional: a record without one replays.
  json lean = s.record;
  lean.erase("result");
  expect_same_game(s.game, must_read(lean.dump()));
  lean["result"] = {{"final", final_pos}};
  expect_same_game(s.game, must_read(lean.dump()));
}

TEST(GameRecord, BoxedAwardsAndForfeitsAreRecorded) {
  // A boxed game exercises the coin call, award decisions and forfeit responses.
  auto engine = std::make_shared<const Engine>(*find_preset("boxed"));
  int awards = 0, forfeits = 0;
  for (std::uint64_t seed = 1; seed <= 4; ++seed) {
    const Game g = random_game(engine, seed);
    const json rec = to_record(g);
    for (const json& ev : rec["events"]) awards += ev.contains("award");
    forfeits += g.stats(Player::kLight).forfeits + g.stats(Player::kDark).forfeits;
    EXPECT_EQ(rec["events"][0]["player"], "light");  // the coin call
    EXPECT_LE(rec["events"][0]["throw"].get<int>(), 1);
    expect_same_game(g, must_read(rec.dump()));
    // Flipping an award decision changes the game: the result no longer matches.
    json flipped = rec;
    for (json& ev : flipped["events"])
      if (ev.contains("award")) {
        ev["award"] = !ev["award"].get<bool>();
        break;
      }
    if (flipped != rec) {
      EXPECT_NE(refusal(flipped), "(accepted)");
    }
  }
  EXPECT_GT(awards, 0);
  EXPECT_GT(forfeits, 0);
}

}  // namespace
}  // namespace ur
