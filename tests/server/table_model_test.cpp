// Unit tests of the table logic without a network: TableModel (seats, invites, turns, versions,
// action ids, persistence round trip, corrupt rows), Elo, the matchmaker and the in-process
// publish/subscribe bus.
#include <gtest/gtest.h>

#include "engine/game_record.h"
#include "engine/random.h"
#include "server/cluster/matchmaker.h"
#include "server/cluster/pubsub.h"
#include "server/storage/elo.h"
#include "server/tables/table_model.h"
#include "server/tables/table_service.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace {

// The service's names for computer seats, with no solved tables (perfect plays as hard).
std::optional<std::string> computers(const std::string& level, const RuleSet& rules) {
  return computer_name(level, rules, nullptr);
}

Actor user(int id, const std::string& name) {
  return Actor{"u:" + std::to_string(id), id, name, 1200};
}
Actor guest(const std::string& key) {
  return Actor{"g:" + key, 0, "guest-" + key, 0};
}

TableModel make(const TableOptions& o, const Actor& creator) {
  auto made = TableModel::create("00000000000000aa", o, creator, 1000, computers);
  EXPECT_TRUE(std::holds_alternative<TableModel>(made));
  return std::get<TableModel>(std::move(made));
}

// Plays until the game ends: throws from a seeded generator, always the first legal move.
void play_out(TableModel& t, const Actor& light, const Actor& dark, std::uint64_t seed) {
  Rng rng(seed);
  UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  for (int i = 0; i < 10000 && t.status() == TableStatus::kPlaying; ++i) {
    const Actor& a = t.seat_to_act() == 1 ? light : dark;
    TableEvents events;
    if (t.game().awaiting_throw()) {
      ASSERT_FALSE(t.roll(a, dice, events));
    } else {
      Move m = t.game().legal_moves()[0];
      ASSERT_FALSE(t.move(a, m.from, m.to, m.kind, events));
    }
  }
}

TEST(TableModel, InviteSeatsTheSecondPlayerOnce) {
  Actor alice = user(1, "alice"), bob = user(2, "bob"), carol = user(3, "carol");
  TableModel t = make({}, alice);
  EXPECT_EQ(t.status(), TableStatus::kWaiting);
  EXPECT_EQ(t.invite().size(), 32u);
  std::string invite = t.invite();
  EXPECT_EQ(t.join(bob, "wrong")->name(), "bad_invite");
  EXPECT_EQ(t.join(alice, invite)->name(), "already_seated");
  std::int64_t v = t.version();
  EXPECT_FALSE(t.join(bob, invite));
  EXPECT_EQ(t.version(), v + 1);
  EXPECT_EQ(t.status(), TableStatus::kPlaying);
  EXPECT_EQ(t.seat_of(bob.key), 2);
  EXPECT_TRUE(t.invite().empty());
  EXPECT_EQ(t.join(carol, invite)->name(), "table_full");
}

TEST(TableModel, RatedTablesNeedAccountsAndBotsAreUnrated) {
  TableOptions rated;
  rated.rated = true;
  auto made = TableModel::create("00000000000000ab", rated, guest("x"), 0, computers);
  EXPECT_EQ(std::get<Error>(made).name(), "login_required");
  TableModel t = make(rated, user(1, "alice"));
  EXPECT_EQ(t.join(guest("y"), t.invite())->name(), "login_required");
  TableOptions bot;
  bot.bot_level = "hard";
  bot.rated = true;
  EXPECT_EQ(std::get<Error>(TableModel::create("00000000000000ac", bot, user(1, "a"), 0, computers))
                .name(),
            "bad_request");
  bot.rated = false;
  bot.bot_level = "grandmaster";
  EXPECT_EQ(std::get<Error>(TableModel::create("00000000000000ad", bot, user(1, "a"), 0, computers))
                .name(),
            "bad_request");
}

TEST(TableModel, ComputerSeatsAreNamedByTheirLevel) {
  TableOptions bot;
  bot.rules = "finkel(pieces=2)";  // never solved in the tests' data directory
  bot.bot_level = "easy";
  TableModel easy =
      std::get<TableModel>(TableModel::create("00000000000000ae", bot, guest("x"), 0, computers));
  EXPECT_EQ(easy.seats()[1].name, "Computer (easy)");
  // Without a solved table the perfect level plays as hard, and its name says so.
  bot.bot_level = "perfect";
  TableModel perfect =
      std::get<TableModel>(TableModel::create("00000000000000af", bot, guest("x"), 0, computers));
  EXPECT_EQ(perfect.seats()[1].name, "Computer (hard: no perfect table)");
  EXPECT_EQ(perfect.seats()[1].level, "perfect");
  // The snapshot says how the level plays as a code too (level_note), for a client's own words;
  // the summary stored with the game keeps both.
  json seat = table_snapshot(perfect)["seats"][1];
  EXPECT_EQ(seat["level"], "perfect");
  EXPECT_EQ(seat["level_note"], "as_hard");
  EXPECT_FALSE(table_snapshot(easy)["seats"][1].contains("level_note"));
  EXPECT_EQ(table_snapshot(easy)["seats"][1]["level"], "easy");
  TableEvents events;
  const Actor creator = guest("x");
  ASSERT_FALSE(perfect.resign(creator, events));
  json summary = table_summary(perfect)["seats"];
  EXPECT_EQ(summary[1]["level"], "perfect");
  EXPECT_EQ(summary[1]["level_note"], "as_hard");
  EXPECT_FALSE(summary[0].contains("level"));
  // Each note's name gives its code back, and a name without one none.
  for (std::string_view note : {"endgame", "learned", "as_hard"})
    EXPECT_EQ(computer_note(computer_seat_name("perfect", note)), note);
  EXPECT_EQ(computer_seat_name("hard", ""), "Computer (hard)");
  EXPECT_EQ(computer_note("Computer (hard)"), "");
  EXPECT_EQ(computer_note("alice"), "");
  // The model knows no level itself: it names the seat with what the service hands it.
  ComputerName robots = [](const std::string& level, const RuleSet&) -> std::optional<std::string> {
    if (level == "tin") return "Tin robot";
    return std::nullopt;
  };
  bot.bot_level = "tin";
  auto tin = TableModel::create("00000000000000b0", bot, guest("x"), 0, robots);
  ASSERT_TRUE(std::holds_alternative<TableModel>(tin));
  EXPECT_EQ(std::get<TableModel>(tin).seats()[1].name, "Tin robot");
  EXPECT_EQ(std::get<TableModel>(tin).status(), TableStatus::kPlaying);
  bot.bot_level = "easy";
  EXPECT_EQ(
      std::get<Error>(TableModel::create("00000000000000b1", bot, guest("x"), 0, robots)).name(),
      "bad_request");
}

TEST(TableModel, OnlyThePlayerToActActsAndActionIdsAreAnsweredOnce) {
  Actor alice = user(1, "alice"), bob = user(2, "bob");
  TableModel t = make({}, alice);
  ASSERT_FALSE(t.join(bob, t.invite()));
  UnitRandom dice = [] { return 0.99; };
  TableEvents events;
  EXPECT_EQ(t.roll(bob, dice, events)->name(), "not_your_turn");
  EXPECT_EQ(t.roll(guest("z"), dice, events)->name(), "not_seated");
  EXPECT_EQ(t.move(alice, 0, 4, MoveKind::kMove, events)->name(), "roll_expected");
  EXPECT_TRUE(events.empty());
  std::int64_t v = t.version();
  EXPECT_EQ(t.check_action(alice, "a1", v - 1).error->name(), "stale_version");
  ASSERT_FALSE(t.check_action(alice, "a1", v).error);
  ASSERT_FALSE(t.roll(alice, dice, events));  // 0.99: the highest throw, 4
  EXPECT_EQ(std::get<RollEvent>(events[0]).value, 4);
  t.remember_action(alice, "a1", json{{"version", t.version()}});
  auto dup = t.check_action(alice, "a1", v);
  ASSERT_TRUE(dup.duplicate);
  EXPECT_EQ((*dup.duplicate)["version"], v + 1);
  EXPECT_FALSE(t.check_action(bob, "a1", t.version()).duplicate);  // ids are per player
  EXPECT_EQ(t.roll(alice, dice, events)->name(), "move_expected");
  EXPECT_EQ(t.move(alice, 13, 14, MoveKind::kMove, events)->name(), "illegal_move");
}

TEST(TableModel, ThePersistedRowRestoresTheTableExactly) {
  Actor alice = user(1, "alice"), bob = guest("b0b");
  TableOptions o;
  o.rules = "masters";
  o.is_public = true;
  TableModel t = make(o, alice);
  ASSERT_FALSE(t.join(bob, t.invite()));
  Rng rng(3);
  UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  for (int i = 0; i < 40; ++i) {
    TableEvents events;
    const Actor& a = t.seat_to_act() == 1 ? alice : bob;
    if (t.game().awaiting_throw())
      ASSERT_FALSE(t.roll(a, dice, events));
    else
      ASSERT_FALSE(t.move(a, t.game().legal_moves()[0].from, t.game().legal_moves()[0].to,
                          t.game().legal_moves()[0].kind, events));
    t.remember_action(a, "id" + std::to_string(i), json{{"n", i}});
  }
  TableRow row = t.to_row(2000);
  auto back = TableModel::from_row(row);
  ASSERT_TRUE(std::holds_alternative<TableModel>(back)) << std::get<Error>(back).message;
  const TableModel& r = std::get<TableModel>(back);
  EXPECT_EQ(table_snapshot(r), table_snapshot(t));
  EXPECT_EQ(r.to_row(2000).state, row.state);
  EXPECT_TRUE(r.check_action(alice, "id38", 0).duplicate ||
              r.check_action(bob, "id38", 0).duplicate);
}

TEST(TableModel, CorruptRowsAreRefusedWithAReason) {
  TableModel t = make({}, user(1, "alice"));
  TableRow good = t.to_row(5);
  auto refused = [](TableRow row) {
    auto r = TableModel::from_row(row);
    return std::holds_alternative<Error>(r) && std::get<Error>(r).name() == "corrupt_table";
  };
  TableRow r1 = good;
  r1.state = "{not json";
  EXPECT_TRUE(refused(r1));
  TableRow r2 = good;
  r2.rules = "no-such-rules";
  EXPECT_TRUE(refused(r2));
  TableRow r3 = good;
  r3.status = "dancing";
  EXPECT_TRUE(refused(r3));
  TableRow r4 = good;
  json s = json::parse(good.state);
  s["events"] = json::array({{{"player", "light"}, {"throw", 9}}});  // no such throw
  r4.state = s.dump();
  EXPECT_TRUE(refused(r4));
  TableRow r5 = good;
  s = json::parse(good.state);
  s["seats"] = json::array();
  r5.state = s.dump();
  EXPECT_TRUE(refused(r5));
  TableRow r7 = good;
  s = json::parse(good.state);
  s["events"] = json::array({{{"player", "light"}, {"throw", 2}},
                             {{"player", "light"}, {"move", {{"from", 5}, {"to", 7}}}}});
  r7.state = s.dump();
  EXPECT_TRUE(refused(r7));
  TableRow r6 = good;
  s = json::parse(good.state);
  s.erase("owner");
  r6.state = s.dump();
  EXPECT_TRUE(refused(r6));
  TableRow r8 = good;
  r8.events = "{not json";
  EXPECT_TRUE(refused(r8));
  TableRow r9 = good;
  r9.new_events = R"({"player":"light","throw":9})";  // an appended event that does not replay
  EXPECT_TRUE(refused(r9));
}

// Appended rows cannot take events back: after an undo the next row is a whole snapshot, and a
// store that applies the rows as storage.h says loads the table back exactly.
TEST(TableModel, RowsAppendBetweenSnapshotsAndAnUndoRewritesTheRecord) {
  Actor me = user(1, "alice");
  TableOptions o;
  o.local = true;
  TableModel t = make(o, me);
  TableRow stored = t.to_row(1);
  ASSERT_TRUE(stored.snapshot);
  t.saved();
  Rng rng(4);
  UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  std::string snapshot_events = stored.events, appended;
  for (int i = 0; i < 30; ++i) {
    TableEvents events;
    Move m = t.game().awaiting_throw() ? Move{} : t.game().legal_moves()[0];
    ASSERT_FALSE(t.game().awaiting_throw() ? t.roll(me, dice, events)
                                           : t.move(me, m.from, m.to, m.kind, events));
    TableRow row = t.to_row(2);
    EXPECT_FALSE(row.snapshot) << "30 events are fewer than kSnapshotEvents";
    EXPECT_EQ(row.events, "");
    if (!row.new_events.empty()) appended += (appended.empty() ? "" : ",") + row.new_events;
    t.saved();
  }
  TableRow loaded = t.to_row(2);
  loaded.events = snapshot_events;
  loaded.new_events = appended;
  auto back = TableModel::from_row(loaded);
  ASSERT_TRUE(std::holds_alternative<TableModel>(back)) << std::get<Error>(back).message;
  EXPECT_EQ(table_snapshot(std::get<TableModel>(back)), table_snapshot(t));

  TableEvents events;
  ASSERT_FALSE(t.undo(me, events));
  TableRow row = t.to_row(3);
  EXPECT_TRUE(row.snapshot);
  EXPECT_EQ(json::parse("[" + row.events + "]"), to_record(t.game())["events"]);
  t.saved();
  Move m = t.game().awaiting_throw() ? Move{} : t.game().legal_moves()[0];
  ASSERT_FALSE(t.game().awaiting_throw() ? t.roll(me, dice, events)
                                         : t.move(me, m.from, m.to, m.kind, events));
  TableRow next = t.to_row(4);
  EXPECT_FALSE(next.snapshot) << "then appending again";
  EXPECT_FALSE(next.new_events.empty());
}

// A game event as rows stored it before the game record was the stored form (the old server's
// writer, kept here to make such rows): "t<k>", "m|y|n<from>.<to>", "x<reason><L|D>".
std::string legacy_token(const GameEvent& ev) {
  switch (ev.type) {
    case GameEvent::Type::kThrow:
      return "t" + std::to_string(ev.outcome);
    case GameEvent::Type::kMove: {
      char k = ev.move.kind == MoveKind::kAwardYes  ? 'y'
               : ev.move.kind == MoveKind::kAwardNo ? 'n'
                                                    : 'm';
      return k + std::to_string(ev.move.from) + "." + std::to_string(ev.move.to);
    }
    case GameEvent::Type::kResign:
      return "x" + std::to_string(ev.outcome) + (ev.player == Player::kLight ? "L" : "D");
  }
  return "?";
}

TEST(TableModel, RowsOfTheOldEventLogFormStillLoadAndAreSavedAsTheGameRecord) {
  Actor alice = user(1, "alice"), bob = user(2, "bob");
  TableModel t = make({}, alice);
  ASSERT_FALSE(t.join(bob, t.invite()));
  Rng rng(7);
  UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  for (int i = 0; i < 60 && t.status() == TableStatus::kPlaying; ++i) {
    TableEvents events;
    const Actor& a = t.seat_to_act() == 1 ? alice : bob;
    Move m = t.game().awaiting_throw() ? Move{} : t.game().legal_moves()[0];
    ASSERT_FALSE(t.game().awaiting_throw() ? t.roll(a, dice, events)
                                           : t.move(a, m.from, m.to, m.kind, events));
  }
  TableEvents events;
  ASSERT_FALSE(t.resign(bob, events));
  TableRow row = t.to_row(3000);
  json state = json::parse(row.state);
  ASSERT_TRUE(row.snapshot);
  ASSERT_EQ(json::parse("[" + row.events + "]"), to_record(t.game())["events"])
      << "the game record's own events";
  std::string log;
  for (const GameEvent& ev : t.game().events()) log += (log.empty() ? "" : " ") + legacy_token(ev);
  state["log"] = log;
  TableRow old = row;
  old.state = state.dump();
  old.events.clear();
  auto back = TableModel::from_row(old);
  ASSERT_TRUE(std::holds_alternative<TableModel>(back)) << std::get<Error>(back).message;
  EXPECT_EQ(table_snapshot(std::get<TableModel>(back)), table_snapshot(t));
  TableRow again = std::get<TableModel>(back).to_row(3000);
  EXPECT_EQ(again.state, row.state);
  EXPECT_TRUE(again.snapshot) << "saved whole in the current form";
  EXPECT_EQ(again.events, row.events);
  state["log"] = "t9";  // an old row that does not replay is refused like a new one
  old.state = state.dump();
  EXPECT_EQ(std::get<Error>(TableModel::from_row(old)).name(), "corrupt_table");
}

TEST(TableModel, EndingsNameTheWinnerAndClose) {
  Actor alice = user(1, "alice"), bob = user(2, "bob");
  TableModel done = make({}, alice);
  ASSERT_FALSE(done.join(bob, done.invite()));
  play_out(done, alice, bob, 11);
  ASSERT_EQ(done.status(), TableStatus::kFinished);
  json s = table_summary(done);
  EXPECT_EQ(s["reason"], "bore-off");
  EXPECT_EQ(s["seats"][s["winner"].get<int>() - 1]["borne_off"], 7);
  MatchRow m = done.match_row(9);
  EXPECT_EQ(m.winner, s["winner"]);
  EXPECT_EQ(m.user_ids[0], 1);

  TableModel t = make({}, alice);
  ASSERT_FALSE(t.join(bob, t.invite()));
  TableEvents events;
  ASSERT_FALSE(t.time_out(events));  // light is to act
  EXPECT_EQ(table_summary(t)["winner"], 2);
  EXPECT_EQ(table_summary(t)["reason"], "timeout");

  TableModel w = make({}, alice);
  ASSERT_FALSE(w.leave(alice, events));  // nobody else came: the table closes
  EXPECT_EQ(w.status(), TableStatus::kClosed);

  TableModel l = make({}, alice);
  ASSERT_FALSE(l.join(bob, l.invite()));
  ASSERT_FALSE(l.leave(bob, events));
  EXPECT_EQ(table_summary(l)["winner"], 1);
  EXPECT_EQ(l.status(), TableStatus::kFinished);
  EXPECT_EQ(l.leave(bob, events)->name(), "left_table");
  ASSERT_FALSE(l.leave(alice, events));
  EXPECT_EQ(l.status(), TableStatus::kClosed);
}

TEST(Elo, ProvisionalPlayersMoveFaster) {
  EXPECT_DOUBLE_EQ(elo_expected(1200, 1200), 0.5);
  EloResult r = elo_update(1200, 0, 1200, 0);
  EXPECT_DOUBLE_EQ(r.winner_after, 1220);
  EXPECT_DOUBLE_EQ(r.loser_after, 1180);
  r = elo_update(1200, 30, 1200, 30);
  EXPECT_DOUBLE_EQ(r.winner_after, 1210);
  r = elo_update(1600, 30, 1200, 30);  // the favourite gains little
  EXPECT_NEAR(r.winner_after - 1600, 20 * (1 - elo_expected(1600, 1200)), 1e-9);
  EXPECT_LT(r.winner_after - 1600, 2);
}

TEST(Matchmaker, NearestRatingWithinAWindowThatWidens) {
  Matchmaker mm(100, 25);
  auto t0 = std::chrono::steady_clock::now();
  auto ticket = [&](const std::string& key, double rating, std::uint64_t conn) {
    return MatchTicket{key, 0, key, conn, "finkel", false, rating, t0};
  };
  mm.add(ticket("a", 1200, 1));
  mm.add(ticket("b", 1500, 2));
  mm.add(ticket("c", 1260, 3));
  mm.add(ticket("d", 1290, 4));
  auto pairs = mm.pair(t0);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.key, "a");
  EXPECT_EQ(pairs[0].second.key, "c");  // nearest of c (60) and d (90)
  // b and d are 210 apart: not after 3 s (window 175), after 5 s (window 225).
  EXPECT_TRUE(mm.pair(t0 + std::chrono::seconds(3)).empty());
  pairs = mm.pair(t0 + std::chrono::seconds(5));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(mm.size(), 0u);
  mm.add(ticket("e", 1200, 5));
  MatchTicket other = ticket("f", 1200, 6);
  other.rules = "masters";
  mm.add(other);
  EXPECT_TRUE(mm.pair(t0).empty());  // different queues never meet
  mm.add(ticket("e", 1200, 7));      // queueing again replaces
  EXPECT_EQ(mm.size(), 2u);
  mm.remove_connection(7);
  EXPECT_EQ(mm.size(), 1u);
}

// A candidate either ticket avoids (a block between the two accounts) is skipped for the next
// nearest; the oldest ticket still leads, and the avoided one waits at its place.
TEST(Matchmaker, AnAvoidedCandidateIsSkippedForTheNextNearest) {
  Matchmaker mm(100, 25);
  auto t0 = std::chrono::steady_clock::now();
  auto ticket = [&](const std::string& key, std::int64_t user, double rating) {
    return MatchTicket{key,      user, key,    static_cast<std::uint64_t>(user),
                       "finkel", true, rating, t0};
  };
  MatchTicket a = ticket("a", 1, 1500);
  a.avoid = {2};
  mm.add(a);
  mm.add(ticket("b", 2, 1500));
  EXPECT_TRUE(mm.pair(t0).empty()) << "a avoids b: no pair";
  mm.add(ticket("c", 3, 1560));
  auto pairs = mm.pair(t0);
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.key, "a");
  EXPECT_EQ(pairs[0].second.key, "c") << "the next nearest";
  MatchTicket d = ticket("d", 4, 1500);
  d.avoid = {2};
  mm.add(d);
  EXPECT_TRUE(mm.pair(t0).empty()) << "the avoided side's ticket is checked too";
  mm.add(ticket("e", 5, 1700));
  pairs = mm.pair(t0 + std::chrono::seconds(10));
  ASSERT_EQ(pairs.size(), 1u);
  EXPECT_EQ(pairs[0].first.key, "b") << "b, the oldest, leads";
  EXPECT_EQ(pairs[0].second.key, "e");
  EXPECT_TRUE(may_meet(ticket("g1", 0, 1500), ticket("g2", 0, 1500))) << "guests avoid nobody";
}

TEST(PubSub, DeliversToSubscribersUntilTheyUnsubscribe) {
  InProcessPubSub bus;
  int a = 0, b = 0;
  Subscription sa = bus.subscribe("t", [&](const Payload&) { ++a; });
  {
    Subscription sb =
        bus.subscribe("t", [&](const Payload& p) { b += static_cast<int>(p->size()); });
    EXPECT_EQ(bus.subscribers("t"), 2);
    bus.publish("t", std::make_shared<const std::string>("xyz"));
    bus.publish("other", std::make_shared<const std::string>("no"));
  }
  EXPECT_EQ(bus.subscribers("t"), 1);
  bus.publish("t", std::make_shared<const std::string>("x"));
  EXPECT_EQ(a, 2);
  EXPECT_EQ(b, 3);
  Subscription moved = std::move(sa);
  moved.reset();
  EXPECT_EQ(bus.subscribers("t"), 0);
}

}  // namespace
}  // namespace ur::server
