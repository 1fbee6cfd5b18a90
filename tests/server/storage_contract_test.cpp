// The Storage contract (storage.h), checked the same way on every backend: SQLite always, and
// PostgreSQL when UR_TEST_PG_URL names a server (scripts/pg-test starts one; ctest's
// server.postgresql entry runs this file through it). Users unique ignoring case, sessions that
// expire, tables written only at the expected version with their game's events appended between
// snapshots, finish_game all or nothing with Elo,
// match history paged newest first, the leaderboard, and migrations that run once even when
// several servers open the same database at the same moment.
#include <sqlite3.h>

#include <atomic>
#include <chrono>
#include <pqxx/pqxx>
#include <set>
#include <thread>

#include "backend_fixture.h"
#include "engine/random.h"
#include "harness.h"
#include "server/storage/elo.h"
#include "server/storage/pg_storage.h"
#include "server/storage/sql_database.h"
#include "server/storage/storage.h"
#include "server/tables/table_model.h"
#include "server/tables/table_views.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class StorageContract : public BackendTest {
 protected:
  // A number straight from the database, past the Storage interface.
  long long count(const std::string& sql) {
    if (pg_) {
      return std::stoll(pg_query_value(pg_->url(), sql));
    }
    sqlite3* h = nullptr;
    EXPECT_EQ(sqlite3_open((dir_ / "ur.db").c_str(), &h), SQLITE_OK);
    sqlite3_stmt* st = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK);
    long long n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
    sqlite3_finalize(st);
    sqlite3_close(h);
    return n;
  }

  // The number of migration steps this build knows (the same in both dialects); their numbers
  // may leave a gap where another branch took one.
  static long long steps() { return static_cast<long long>(sqlite_dialect().migrations.size()); }

  // A statement run past the Storage interface (a row as an older server wrote it).
  void exec(const std::string& sql) {
    if (pg_) {
      pg_query_value(pg_->url(), sql);
      return;
    }
    sqlite3* h = nullptr;
    ASSERT_EQ(sqlite3_open((dir_ / "ur.db").c_str(), &h), SQLITE_OK);
    sqlite3_busy_timeout(h, 5000);
    EXPECT_EQ(sqlite3_exec(h, sql.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(h);
    sqlite3_close(h);
  }

  static TableRow table(const std::string& id, std::int64_t version, const std::string& status,
                        bool is_public, std::int64_t time) {
    TableRow t;
    t.id = id;
    t.rules = "finkel";
    t.status = status;
    t.is_public = is_public;
    t.rated = true;
    t.version = version;
    t.state = R"({"v":)" + std::to_string(version) + "}";
    t.created_at = t.updated_at = time;
    return t;
  }

  static MatchRow match(const std::string& id, std::int64_t light, std::int64_t dark, int winner,
                        bool rated, std::int64_t finished_at) {
    MatchRow m;
    m.id = id;
    m.rules = "finkel";
    m.rated = rated;
    m.user_ids = {light, dark};
    m.names = {"light", "dark"};
    m.winner = winner;
    m.reason = "bore-off";
    m.summary = R"({"moves":42})";
    m.record = R"({"record":"of )" + id + R"("})";
    m.started_at = finished_at - 60;
    m.finished_at = finished_at;
    return m;
  }
};

TEST_P(StorageContract, BackendHealthAndMigrationsAreIdempotent) {
  {
    auto s = open();
    EXPECT_EQ(s->backend(), GetParam());
    EXPECT_EQ(s->connections(), 1) << "open_storage's default: one connection, called inline";
    EXPECT_TRUE(s->healthy());
    EXPECT_EQ(s->schema_version(), s->latest_schema_version());
    EXPECT_GE(s->latest_schema_version(), 2);
    ASSERT_TRUE(s->create_user("Alice", "$argon2id$fake", 1000));
  }
  for (int i = 0; i < 2; ++i) {
    auto s = open();
    EXPECT_EQ(s->schema_version(), s->latest_schema_version());
    auto u = s->find_user_by_name("alice");
    ASSERT_TRUE(u) << "data survives reopening";
    EXPECT_EQ(u->password_hash, "$argon2id$fake");
  }
  // Each step recorded once (the numbers may leave a gap for another branch's step).
  EXPECT_EQ(count("SELECT COUNT(*) - COUNT(DISTINCT version) FROM schema_version"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM schema_version"), steps());
  EXPECT_EQ(count("SELECT MAX(version) FROM schema_version"), open()->latest_schema_version());
  EXPECT_EQ(count("SELECT COUNT(*) FROM users"), 1);
}

TEST_P(StorageContract, ServersOpeningTogetherMigrateOnce) {
  constexpr int kOpeners = 4;
  std::vector<std::string> errors(kOpeners);
  std::vector<std::thread> threads;
  for (int i = 0; i < kOpeners; ++i)
    threads.emplace_back([&, i] {
      OpenStorageResult r = open_storage(url_);
      if (!r.storage) errors[i] = r.error;
    });
  for (auto& t : threads) t.join();
  for (const std::string& e : errors) EXPECT_EQ(e, "");
  auto s = open();
  EXPECT_EQ(count("SELECT COUNT(*) - COUNT(DISTINCT version) FROM schema_version"), 0);
  EXPECT_EQ(count("SELECT MAX(version) FROM schema_version"), s->latest_schema_version());
  EXPECT_EQ(count("SELECT COUNT(*) FROM schema_version"), steps());
}

TEST_P(StorageContract, UsernamesAreUniqueIgnoringCase) {
  auto s = open();
  auto alice = s->create_user("Alice", "h1", 1000);
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->username, "Alice");
  EXPECT_EQ(alice->created_at, 1000);
  EXPECT_EQ(alice->rating, kInitialRating);
  EXPECT_EQ(alice->games, 0);
  EXPECT_EQ(alice->wins, 0);
  EXPECT_FALSE(s->create_user("aLiCe", "h2", 1001));
  auto bob = s->create_user("bob", "h3", 1002);
  ASSERT_TRUE(bob) << "a failed insert leaves the storage usable";
  EXPECT_NE(bob->id, alice->id);
  EXPECT_EQ(s->find_user_by_name("ALICE")->id, alice->id);
  EXPECT_EQ(s->find_user_by_name("ALICE")->password_hash, "h1");
  EXPECT_EQ(s->find_user_by_id(bob->id)->username, "bob");
  EXPECT_FALSE(s->find_user_by_name("carol"));
  EXPECT_FALSE(s->find_user_by_id(bob->id + 1000));
}

TEST_P(StorageContract, SessionsExpireAndDelete) {
  auto s = open();
  auto u = s->create_user("bob", "h", 0);
  ASSERT_TRUE(u);
  std::string live(32, 'a'), old(32, 'b');
  s->create_session({live, u->id, 100, 200});
  s->create_session({old, u->id, 100, 150});
  EXPECT_EQ(s->user_for_session(live, 160)->username, "bob");
  EXPECT_FALSE(s->user_for_session(old, 160));
  EXPECT_FALSE(s->user_for_session(std::string(32, 'c'), 160));
  EXPECT_EQ(s->delete_expired_sessions(160), 1);
  EXPECT_TRUE(s->delete_session(live));
  EXPECT_FALSE(s->delete_session(live));
  EXPECT_FALSE(s->user_for_session(live, 160));
  // A session of a user that does not exist violates the foreign key: a failure, not a value.
  EXPECT_THROW(s->create_session({std::string(32, 'd'), u->id + 1000, 1, 2}), StorageError);
  EXPECT_TRUE(s->healthy()) << "and the storage carries on";
}

TEST_P(StorageContract, TablesAreWrittenOnlyAtTheExpectedVersion) {
  auto s = open();
  TableRow t = table("00000000000000a1", 1, "waiting", true, 10);
  EXPECT_TRUE(s->save_table(t, -1));
  EXPECT_FALSE(s->save_table(t, -1)) << "the row exists already";
  auto found = s->find_table(t.id);
  ASSERT_TRUE(found);
  EXPECT_EQ(found->rules, "finkel");
  EXPECT_EQ(found->status, "waiting");
  EXPECT_TRUE(found->is_public);
  EXPECT_TRUE(found->rated);
  EXPECT_EQ(found->version, 1);
  EXPECT_EQ(found->state, R"({"v":1})");
  EXPECT_EQ(found->created_at, 10);

  TableRow next = table(t.id, 2, "playing", false, 20);
  EXPECT_TRUE(s->save_table(next, 1));
  TableRow stale = table(t.id, 2, "finished", true, 30);
  EXPECT_FALSE(s->save_table(stale, 1)) << "version 1 is no longer stored";
  found = s->find_table(t.id);
  EXPECT_EQ(found->version, 2);
  EXPECT_EQ(found->status, "playing");
  EXPECT_FALSE(found->is_public);
  EXPECT_EQ(found->created_at, 10) << "an update keeps the creation time";
  EXPECT_EQ(found->updated_at, 20);
  EXPECT_FALSE(s->save_table(table("00000000000000ff", 1, "waiting", true, 1), 0));
  EXPECT_FALSE(s->find_table("00000000000000ff"));
}

TEST_P(StorageContract, LiveAndPublicTables) {
  auto s = open();
  ASSERT_TRUE(s->save_table(table("0000000000000001", 1, "playing", true, 300), -1));
  ASSERT_TRUE(s->save_table(table("0000000000000002", 1, "waiting", false, 100), -1));
  ASSERT_TRUE(s->save_table(table("0000000000000003", 1, "finished", true, 50), -1));
  ASSERT_TRUE(s->save_table(table("0000000000000004", 1, "waiting", true, 200), -1));
  ASSERT_TRUE(s->save_table(table("0000000000000005", 1, "closed", false, 60), -1));
  std::vector<std::string> ids;
  for (const TableRow& t : s->live_tables()) ids.push_back(t.id);
  EXPECT_EQ(ids,
            (std::vector<std::string>{"0000000000000002", "0000000000000004", "0000000000000001"}))
      << "live tables in creation order";
  ids.clear();
  for (const TableRow& t : s->public_tables({10, 0, 1000})) ids.push_back(t.id);
  EXPECT_EQ(ids, (std::vector<std::string>{"0000000000000004", "0000000000000001"}))
      << "live public tables, the waiting one first";
  EXPECT_EQ(s->public_tables({1, 0, 1000}).size(), 1u);
}

TEST_P(StorageContract, LobbyOrderIsTheSameEverywhereAndBreaksTiesById) {
  auto s = open();
  const std::int64_t now = 10 * kEstablishedAfterSeconds;
  auto veteran = s->create_user("veteran", "h", 0);      // registered long ago: established
  auto newcomer = s->create_user("newcomer", "h", now);  // registered just now
  ASSERT_TRUE(veteran && newcomer);
  auto owned = [&](const std::string& id, const std::string& status, const User* u,
                   std::int64_t t) {
    TableRow r = table(id, 1, status, true, t);
    if (u) {
      r.owner_user = u->id;
      r.owner_key = "u:" + std::to_string(u->id);
    } else {
      r.owner_key = "g:guest";
      r.owner_addr = "10.0.0.1";
    }
    return r;
  };
  // A flood from the newcomer and guests, all in the same second as the veteran's table.
  for (int i = 0; i < 30; ++i) {
    char id[17];
    std::snprintf(id, sizeof id, "%016x", 0x100 + i);
    ASSERT_TRUE(s->save_table(owned(id, "waiting", i % 2 ? &*newcomer : nullptr, now), -1));
  }
  ASSERT_TRUE(s->save_table(owned("0000000000000050", "waiting", &*veteran, now), -1));
  ASSERT_TRUE(s->save_table(owned("00000000000000f0", "playing", &*veteran, now + 5), -1));
  std::vector<std::string> page1, page2, all;
  for (const TableRow& t : s->public_tables({10, 0, now})) page1.push_back(t.id);
  for (const TableRow& t : s->public_tables({10, 10, now})) page2.push_back(t.id);
  for (const TableRow& t : s->public_tables({100, 0, now})) all.push_back(t.id);
  ASSERT_EQ(all.size(), 32u);
  EXPECT_EQ(all.front(), "0000000000000050") << "the established account's waiting table leads";
  EXPECT_EQ(all.back(), "00000000000000f0") << "games in progress come after waiting tables";
  EXPECT_EQ(all[1], "000000000000011d") << "equal times: the greater id first";
  EXPECT_EQ(all[30], "0000000000000100");
  EXPECT_EQ(page1, std::vector<std::string>(all.begin(), all.begin() + 10));
  EXPECT_EQ(page2, std::vector<std::string>(all.begin() + 10, all.begin() + 20));

  EXPECT_EQ(s->open_tables_of(owned("x", "waiting", &*newcomer, now)), 15);
  EXPECT_EQ(s->open_tables_of(owned("x", "waiting", &*veteran, now)), 1) << "playing not counted";
  EXPECT_EQ(s->open_tables_of(owned("x", "waiting", nullptr, now)), 15) << "guests by address";
  TableRow other = owned("x", "waiting", nullptr, now);
  other.owner_addr = "10.0.0.2";
  EXPECT_EQ(s->open_tables_of(other), 0);
  TableRow later = *s->find_table("0000000000000050");
  EXPECT_EQ(later.owner_key, "u:" + std::to_string(veteran->id)) << "owner columns read back";
  later.owner_key = "changed";
  later.version = 2;
  ASSERT_TRUE(s->save_table(later, 1));
  EXPECT_EQ(s->find_table("0000000000000050")->owner_key, "u:" + std::to_string(veteran->id))
      << "an update never changes the owner";
}

TEST_P(StorageContract, FinishGameUpdatesEloInOneTransaction) {
  auto s = open();
  auto alice = s->create_user("alice", "h", 0), bob = s->create_user("bob", "h", 0);
  ASSERT_TRUE(alice && bob);
  ASSERT_TRUE(s->save_table(table("00000000000000b1", 5, "playing", false, 1), -1));

  MatchRow m = match("00000000000000b1", alice->id, bob->id, 2, true, 500);
  EXPECT_TRUE(s->finish_game(table("00000000000000b1", 6, "finished", false, 500), 5, m));
  EloResult elo = elo_update(kInitialRating, 0, kInitialRating, 0);
  EXPECT_EQ(m.rating_before, (std::array<double, 2>{kInitialRating, kInitialRating}));
  EXPECT_DOUBLE_EQ(m.rating_after[1], elo.winner_after);
  EXPECT_DOUBLE_EQ(m.rating_after[0], elo.loser_after);
  auto a = s->find_user_by_id(alice->id), b = s->find_user_by_id(bob->id);
  EXPECT_DOUBLE_EQ(a->rating, elo.loser_after);
  EXPECT_DOUBLE_EQ(b->rating, elo.winner_after);
  EXPECT_EQ(a->games, 1);
  EXPECT_EQ(a->wins, 0);
  EXPECT_EQ(b->games, 1);
  EXPECT_EQ(b->wins, 1);
  EXPECT_EQ(s->find_table("00000000000000b1")->status, "finished");

  auto stored = s->find_match(m.id);
  ASSERT_TRUE(stored);
  EXPECT_TRUE(stored->rated);
  EXPECT_EQ(stored->user_ids, m.user_ids);
  EXPECT_EQ(stored->names, m.names);
  EXPECT_EQ(stored->winner, 2);
  EXPECT_EQ(stored->reason, "bore-off");
  EXPECT_EQ(stored->rating_before, m.rating_before);
  EXPECT_EQ(stored->rating_after, m.rating_after) << "ratings round-trip exactly";
  EXPECT_EQ(stored->summary, m.summary);
  EXPECT_EQ(stored->record, m.record);
  EXPECT_EQ(stored->started_at, 440);
  EXPECT_EQ(stored->finished_at, 500);

  // A second node finishing the same game from a stale version writes nothing at all.
  MatchRow again = match("00000000000000b2", alice->id, bob->id, 1, true, 600);
  EXPECT_FALSE(s->finish_game(table("00000000000000b1", 6, "finished", false, 600), 5, again));
  EXPECT_FALSE(s->find_match("00000000000000b2"));
  EXPECT_EQ(s->find_user_by_id(alice->id)->games, 1);

  // A rated game whose user vanished fails, and the table write before it is rolled back.
  ASSERT_TRUE(s->save_table(table("00000000000000b3", 3, "playing", false, 1), -1));
  MatchRow ghost = match("00000000000000b3", alice->id, bob->id + 1000, 1, true, 700);
  EXPECT_THROW(s->finish_game(table("00000000000000b3", 4, "finished", false, 700), 3, ghost),
               StorageError);
  EXPECT_EQ(s->find_table("00000000000000b3")->version, 3);
  EXPECT_FALSE(s->find_match("00000000000000b3"));
  EXPECT_EQ(s->find_user_by_id(alice->id)->games, 1);

  // An unrated game against a guest (user 0) changes no rating.
  ASSERT_TRUE(s->save_table(table("00000000000000b4", 1, "playing", false, 1), -1));
  MatchRow casual = match("00000000000000b4", 0, alice->id, 2, false, 800);
  EXPECT_TRUE(s->finish_game(table("00000000000000b4", 2, "finished", false, 800), 1, casual));
  EXPECT_EQ(casual.rating_after, (std::array<double, 2>{0, 0}));
  EXPECT_EQ(s->find_match("00000000000000b4")->user_ids,
            (std::array<std::int64_t, 2>{0, alice->id}));
  EXPECT_EQ(s->find_user_by_id(alice->id)->games, 1);
}

TEST_P(StorageContract, EachRuleSetIsRatedSeparatelyBesideTheOverallRating) {
  auto s = open();
  auto alice = s->create_user("alice", "h", 0), bob = s->create_user("bob", "h", 0);
  ASSERT_TRUE(alice && bob);
  EXPECT_TRUE(s->rule_ratings(alice->id).empty());
  // Two Finkel games (alice wins both), then one at Masters (bob wins).
  const char* ids[] = {"00000000000000e1", "00000000000000e2", "00000000000000e3"};
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(s->save_table(table(ids[i], 1, "playing", false, 1), -1));
    MatchRow m = match(ids[i], alice->id, bob->id, i < 2 ? 1 : 2, true, 100 + i);
    if (i == 2) m.rules = "masters";
    ASSERT_TRUE(s->finish_game(table(ids[i], 2, "finished", false, 100 + i), 1, m));
  }
  EloResult first = elo_update(kInitialRating, 0, kInitialRating, 0);
  EloResult second = elo_update(first.winner_after, 1, first.loser_after, 1);
  EloResult masters = elo_update(kInitialRating, 0, kInitialRating, 0);
  auto a = s->rule_ratings(alice->id), b = s->rule_ratings(bob->id);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].rules, "finkel") << "most games first";
  EXPECT_DOUBLE_EQ(a[0].rating, second.winner_after);
  EXPECT_EQ(a[0].games, 2);
  EXPECT_EQ(a[0].wins, 2);
  EXPECT_EQ(a[1].rules, "masters");
  EXPECT_DOUBLE_EQ(a[1].rating, masters.loser_after) << "a rule set starts from 1200";
  EXPECT_EQ(a[1].games, 1);
  EXPECT_EQ(a[1].wins, 0);
  ASSERT_EQ(b.size(), 2u);
  EXPECT_DOUBLE_EQ(b[1].rating, masters.winner_after);
  EXPECT_EQ(b[1].wins, 1);
  // The overall rating counts every game, in order.
  EloResult third = elo_update(second.loser_after, 2, second.winner_after, 2);
  EXPECT_DOUBLE_EQ(s->find_user_by_id(alice->id)->rating, third.loser_after);
  EXPECT_EQ(s->find_user_by_id(alice->id)->games, 3);

  // An unrated game moves no rating at any rule set.
  ASSERT_TRUE(s->save_table(table("00000000000000e4", 1, "playing", false, 1), -1));
  MatchRow casual = match("00000000000000e4", alice->id, bob->id, 2, false, 200);
  ASSERT_TRUE(s->finish_game(table("00000000000000e4", 2, "finished", false, 200), 1, casual));
  EXPECT_EQ(s->rule_ratings(alice->id)[0].games, 2);
}

TEST_P(StorageContract, BotAccountsHaveHashedTokensAndARatingPoolOfTheirOwn) {
  auto s = open();
  auto human = s->create_user("human", "h", 0), bot = s->create_user("robot", "h", 0);
  ASSERT_TRUE(human && bot);
  EXPECT_FALSE(s->bot_status(bot->id).is_bot);
  s->set_bot(bot->id, true, "hash-1");
  EXPECT_TRUE(s->bot_status(bot->id).is_bot);
  EXPECT_TRUE(s->bot_status(bot->id).has_token);
  EXPECT_EQ(s->user_for_bot_token("hash-1")->id, bot->id);
  EXPECT_FALSE(s->user_for_bot_token("hash-2"));

  // A rated game with a bot in a seat moves the bot pool only, on both sides.
  ASSERT_TRUE(s->save_table(table("00000000000000c1", 5, "playing", false, 1), -1));
  MatchRow m = match("00000000000000c1", human->id, bot->id, 1, true, 500);
  EXPECT_TRUE(s->finish_game(table("00000000000000c1", 6, "finished", false, 500), 5, m));
  EloResult elo = elo_update(kInitialRating, 0, kInitialRating, 0);
  EXPECT_DOUBLE_EQ(m.rating_after[0], elo.winner_after);
  EXPECT_EQ(s->find_user_by_id(human->id)->rating, kInitialRating);
  EXPECT_EQ(s->find_user_by_id(human->id)->games, 0);
  BotStatus pool = s->bot_status(human->id);
  EXPECT_FALSE(pool.is_bot);
  EXPECT_DOUBLE_EQ(pool.rating, elo.winner_after);
  EXPECT_EQ(pool.games, 1);
  EXPECT_EQ(pool.wins, 1);
  EXPECT_DOUBLE_EQ(s->bot_status(bot->id).rating, elo.loser_after);
  EXPECT_TRUE(s->leaderboard(10).empty()) << "bot games stay off the leaderboard";

  // Revoked: the token finds nobody, the account stays a bot; unmarked: no longer a bot.
  s->set_bot(bot->id, true, "");
  EXPECT_FALSE(s->user_for_bot_token("hash-1"));
  EXPECT_FALSE(s->bot_status(bot->id).has_token);
  EXPECT_TRUE(s->bot_status(bot->id).is_bot);
  s->set_bot(bot->id, true, "hash-3");
  s->set_bot(bot->id, false, "");
  EXPECT_FALSE(s->user_for_bot_token("hash-3"));
  EXPECT_FALSE(s->bot_status(bot->id).is_bot);
}

TEST_P(StorageContract, MatchHistoryPagesNewestFirst) {
  auto s = open();
  auto alice = s->create_user("alice", "h", 0), bob = s->create_user("bob", "h", 0);
  ASSERT_TRUE(alice && bob);
  // Six games of alice, alternating seats; two of them end in the same second.
  std::int64_t times[] = {100, 200, 300, 300, 400, 500};
  for (int i = 0; i < 6; ++i) {
    std::string id = "00000000000000c" + std::to_string(i);
    ASSERT_TRUE(s->save_table(table(id, 1, "playing", false, 1), -1));
    MatchRow m = i % 2 ? match(id, bob->id, alice->id, 1, false, times[i])
                       : match(id, alice->id, 0, 1, false, times[i]);
    ASSERT_TRUE(s->finish_game(table(id, 2, "finished", false, times[i]), 1, m));
  }
  auto ids = [](const std::vector<MatchRow>& ms) {
    std::vector<std::string> out;
    for (const MatchRow& m : ms) {
      EXPECT_EQ(m.record, "") << "lists leave out the game record";
      out.push_back(m.id.substr(14));
    }
    return out;
  };
  EXPECT_EQ(ids(s->user_matches(alice->id, 2, 0)), (std::vector<std::string>{"c5", "c4"}));
  EXPECT_EQ(ids(s->user_matches(alice->id, 3, 400)), (std::vector<std::string>{"c2", "c3", "c1"}))
      << "the next page; equal times in id order";
  // A page that ends between two games of the same second: the cursor's id carries on after it.
  EXPECT_EQ(ids(s->user_matches(alice->id, 1, 400, "")), (std::vector<std::string>{"c2"}));
  EXPECT_EQ(ids(s->user_matches(alice->id, 2, 300, "00000000000000c2")),
            (std::vector<std::string>{"c3", "c1"}));
  EXPECT_EQ(ids(s->user_matches(alice->id, 3, 200)), (std::vector<std::string>{"c0"}));
  EXPECT_EQ(ids(s->user_matches(alice->id, 10, 0)),
            (std::vector<std::string>{"c5", "c4", "c2", "c3", "c1", "c0"}));
  EXPECT_EQ(ids(s->user_matches(bob->id, 10, 0)), (std::vector<std::string>{"c5", "c3", "c1"}));
  EXPECT_TRUE(s->user_matches(bob->id, 10, 100).empty());
}

TEST_P(StorageContract, ReviewsAreStoredReplacedAndSummarised) {
  auto s = open();
  for (const char* id : {"00000000000000d0", "00000000000000d1"}) {
    ASSERT_TRUE(s->save_table(table(id, 1, "playing", false, 1), -1));
    MatchRow m = match(id, 0, 0, 1, false, 100);
    ASSERT_TRUE(s->finish_game(table(id, 2, "finished", false, 100), 1, m));
  }
  EXPECT_FALSE(s->find_review("00000000000000d0"));
  ReviewRow r{"00000000000000d0", true, {41.5, 87.25}, R"({"estimate":true})", 7};
  s->save_review(r);
  std::optional<ReviewRow> got = s->find_review("00000000000000d0");
  ASSERT_TRUE(got);
  EXPECT_TRUE(got->estimate);
  EXPECT_EQ(got->accuracy, (std::array<double, 2>{41.5, 87.25}));
  EXPECT_EQ(got->review, r.review);
  EXPECT_EQ(got->created_at, 7);
  // A second review of the same game (exact now that a table came) replaces the first.
  s->save_review({"00000000000000d0", false, {50, 60}, R"({"estimate":false})", 8});
  got = s->find_review("00000000000000d0");
  ASSERT_TRUE(got);
  EXPECT_FALSE(got->estimate);
  EXPECT_EQ(got->accuracy[1], 60);
  EXPECT_EQ(count("SELECT COUNT(*) FROM reviews"), 1);
  // The history's summaries: only the reviewed games, without the JSON.
  std::vector<ReviewRow> sums = s->review_summaries({"00000000000000d0", "00000000000000d1"});
  ASSERT_EQ(sums.size(), 1u);
  EXPECT_EQ(sums[0].match_id, "00000000000000d0");
  EXPECT_EQ(sums[0].review, "");
  EXPECT_EQ(sums[0].accuracy[0], 50);
  // A review of a game that is not stored is refused by the database, never kept dangling.
  EXPECT_THROW(s->save_review({"00000000000000ff", false, {1, 2}, "{}", 9}), StorageError);
}

TEST_P(StorageContract, LeaderboardRanksRatedPlayersOnly) {
  auto s = open();
  auto a = s->create_user("alice", "secret-hash", 0), b = s->create_user("bob", "h", 0);
  auto c = s->create_user("carol", "h", 0), d = s->create_user("dave", "h", 0);
  ASSERT_TRUE(a && b && c && d);
  // bob beats alice twice, carol beats alice once; dave never plays.
  int n = 0;
  for (auto [w, l] : {std::pair{b, a}, std::pair{b, a}, std::pair{c, a}}) {
    std::string id = "00000000000000d" + std::to_string(n++);
    ASSERT_TRUE(s->save_table(table(id, 1, "playing", false, 1), -1));
    MatchRow m = match(id, w->id, l->id, 1, true, 100 + n);
    ASSERT_TRUE(s->finish_game(table(id, 2, "finished", false, 100 + n), 1, m));
  }
  std::vector<User> board = s->leaderboard(10);
  ASSERT_EQ(board.size(), 3u);
  EXPECT_EQ(board[0].username, "bob");
  EXPECT_EQ(board[1].username, "carol");
  EXPECT_EQ(board[2].username, "alice");
  EXPECT_EQ(board[0].games, 2);
  EXPECT_EQ(board[0].wins, 2);
  EXPECT_GT(board[0].rating, board[1].rating);
  EXPECT_GT(board[1].rating, board[2].rating);
  for (const User& u : board) EXPECT_EQ(u.password_hash, "") << "no hashes in public lists";
  EXPECT_EQ(s->leaderboard(1).size(), 1u);
}

// Node leases (migrations 6 and 8): a node's lease is one row renewed in one statement whatever
// its tables; a live table is claimed when free or its holder's lease ran out; once a node's
// lease runs out its tables move at epoch + 1 (at most the limit at once), and a node left with
// no table is forgotten. Times in unix ms, from kT.
constexpr std::int64_t kT = 1'700'000'000'000;

TEST_P(StorageContract, ANodeLeaseIsRenewedOnceAndItsTablesMoveAtTheNextEpoch) {
  auto s = open();
  const std::string d1 = "00000000000000d1", d2 = "00000000000000d2", d3 = "00000000000000d3";
  ASSERT_TRUE(s->save_table(table(d1, 1, "playing", true, kT / 1000), -1));
  ASSERT_TRUE(s->save_table(table(d2, 1, "waiting", true, kT / 1000), -1));
  ASSERT_TRUE(s->save_table(table(d3, 1, "finished", true, kT / 1000), -1));
  EXPECT_EQ(s->claim_table(d1, "a", kT), std::nullopt) << "a has no lease yet";
  EXPECT_TRUE(s->renew_leases("a", kT + 3000).empty());
  EXPECT_TRUE(s->renew_leases("b", kT + 3000).empty());
  EXPECT_EQ(s->claim_table(d1, "a", kT), 1) << "never held: epoch 1";
  EXPECT_EQ(s->claim_table(d1, "b", kT + 1000), std::nullopt) << "a holds it";
  EXPECT_EQ(s->claim_table(d1, "a", kT + 1000), 1) << "a's own: same epoch";
  EXPECT_EQ(s->claim_table(d3, "a", kT + 1000), std::nullopt) << "finished";
  EXPECT_EQ(s->claim_table("00000000000000ff", "a", kT + 1000), std::nullopt) << "no table";
  EXPECT_EQ(s->claim_table(d2, "a", kT + 1000), 1);

  auto ids = [](const std::vector<TableLease>& leases) {
    std::set<std::string> out;
    for (const TableLease& l : leases) out.insert(l.table_id + "@" + std::to_string(l.epoch));
    return out;
  };
  // One row per node, whatever the number of its tables.
  EXPECT_EQ(ids(s->renew_leases("a", kT + 5000)), (std::set<std::string>{d1 + "@1", d2 + "@1"}));
  EXPECT_EQ(count("SELECT COUNT(*) FROM nodes"), 2);
  EXPECT_EQ(count("SELECT lease_until FROM nodes WHERE node = 'a'"), kT + 5000);
  EXPECT_TRUE(s->take_expired_leases("b", kT + 4999, kT + 8000, 10).empty()) << "a is alive";
  auto row = s->find_table(d1);
  EXPECT_EQ(row->owner_node, "a");
  EXPECT_EQ(row->lease_until, kT + 5000) << "a table shows its holder's lease";
  EXPECT_EQ(row->epoch, 1);

  // a's lease ran out: b takes its tables at epoch 2, at most the limit at once.
  EXPECT_EQ(s->take_expired_leases("b", kT + 5001, kT + 8000, 1).size(), 1u) << "the limit";
  EXPECT_EQ(s->take_expired_leases("b", kT + 5001, kT + 8000, 10).size(), 1u) << "the other";
  EXPECT_EQ(s->claim_table(d1, "a", kT + 5001), std::nullopt) << "a's lease is not live";
  EXPECT_TRUE(s->renew_leases("a", kT + 9000).empty()) << "a holds nothing any more";
  EXPECT_EQ(ids(s->renew_leases("b", kT + 8500)), (std::set<std::string>{d1 + "@2", d2 + "@2"}));
  EXPECT_EQ(s->claim_table(d1, "a", kT + 8000), std::nullopt) << "b holds it";
  EXPECT_EQ(s->claim_table(d1, "a", kT + 8501), 3) << "b's lease ran out: a claims it";
  EXPECT_EQ(s->find_table(d3)->epoch, 0) << "finished tables are never leased";

  // A node whose lease ran out with no table left is forgotten by the next takeover.
  EXPECT_EQ(ids(s->take_expired_leases("a", kT + 8600, kT + 12000, 10)),
            std::set<std::string>{d2 + "@3"});
  EXPECT_EQ(s->take_expired_leases("a", kT + 8600, kT + 12000, 10).size(), 0u);
  EXPECT_EQ(count("SELECT COUNT(*) FROM nodes WHERE node = 'b'"), 0);
  EXPECT_EQ(s->find_table(d1)->lease_until, kT + 12000) << "the taker's lease runs on";
}

// Survivors share a dead node's tables: each takes enough to reach the live nodes' average (at
// least its head's share of what is left), so two takers move them all in one period each.
TEST_P(StorageContract, SurvivorsShareADeadNodesTables) {
  auto s = open();
  ASSERT_TRUE(s->renew_leases("dead", kT + 1000).empty());
  for (int i = 0; i < 10; ++i) {
    char id[17];
    std::snprintf(id, sizeof id, "%016x", 0xc000 + i);
    ASSERT_TRUE(s->save_table(table(id, 1, "playing", true, kT / 1000), -1));
    ASSERT_EQ(s->claim_table(id, "dead", kT), 1);
  }
  ASSERT_TRUE(s->renew_leases("b", kT + 5000).empty());
  ASSERT_TRUE(s->renew_leases("c", kT + 5000).empty());
  EXPECT_EQ(s->take_expired_leases("b", kT + 2000, kT + 5000, 100).size(), 5u) << "half each";
  EXPECT_EQ(s->take_expired_leases("c", kT + 2000, kT + 5000, 100).size(), 5u);
  EXPECT_EQ(count("SELECT COUNT(*) FROM tables WHERE owner_node = 'dead'"), 0);
  EXPECT_EQ(count("SELECT COUNT(*) FROM tables WHERE epoch <> 2"), 0);
}

// A table left unclaimed (its creator died before claiming it) is taken once it has waited a
// lease; a table just created is left to its creator.
TEST_P(StorageContract, AnUnclaimedTableIsTakenOnlyAfterALease) {
  auto s = open();
  ASSERT_TRUE(s->save_table(table("00000000000000b1", 1, "waiting", true, kT / 1000), -1));
  ASSERT_TRUE(s->renew_leases("b", kT + 3000).empty());
  EXPECT_TRUE(s->take_expired_leases("b", kT + 1000, kT + 4000, 10).empty()) << "just created";
  auto taken = s->take_expired_leases("b", kT + 4000, kT + 7000, 10);
  ASSERT_EQ(taken.size(), 1u);
  EXPECT_EQ(taken[0].epoch, 1);
  EXPECT_EQ(s->find_table("00000000000000b1")->owner_node, "b");
}

// The first move's clock starts when the player's page opens the table, between commits: it is
// stored once, at the version it was started at, so that another node taking over keeps it.
TEST_P(StorageContract, TheFirstMovesClockIsStoredOnce) {
  auto s = open();
  ASSERT_TRUE(s->save_table(table("00000000000000c1", 2, "playing", true, 10), -1));
  EXPECT_FALSE(s->start_clock("00000000000000c1", 1, kT)) << "an older version";
  EXPECT_TRUE(s->start_clock("00000000000000c1", 2, kT));
  EXPECT_FALSE(s->start_clock("00000000000000c1", 2, kT + 500)) << "started already";
  auto row = s->find_table("00000000000000c1");
  EXPECT_EQ(row->clock_deadline, kT);
  EXPECT_EQ(row->version, 2) << "no version changes";
  ASSERT_TRUE(s->save_table(table("00000000000000c3", 1, "finished", true, 10), -1));
  EXPECT_FALSE(s->start_clock("00000000000000c3", 1, kT)) << "a finished game has no clock";
}

TEST_P(StorageContract, CommitsWithAStaleEpochOrVersionAreRefusedAndChangeNothing) {
  auto s = open();
  TableRow t = table("00000000000000e1", 1, "playing", true, 10);
  ASSERT_TRUE(s->save_table(t, -1));
  ASSERT_TRUE(s->renew_leases("a", kT + 2000).empty());
  ASSERT_EQ(s->claim_table(t.id, "a", kT + 1000), 1);
  TableRow next = table(t.id, 2, "playing", true, 20);
  next.clock_deadline = 31000;
  EXPECT_TRUE(s->save_table(next, 1, 1)) << "the holder's epoch and version";
  EXPECT_EQ(s->find_table(t.id)->clock_deadline, 31000) << "the idle deadline is stored";
  // a's lease runs out (a paused holder): b takes the table at epoch 2.
  ASSERT_EQ(s->take_expired_leases("b", kT + 3000, kT + 6000, 10).size(), 1u);

  TableRow old_owner = table(t.id, 3, "finished", false, 30);
  old_owner.clock_deadline = 0;
  EXPECT_FALSE(s->save_table(old_owner, 2, 1)) << "epoch 1 was taken over";
  ASSERT_TRUE(s->renew_leases("a", kT + 9000).empty()) << "a wakes and renews: nothing held";
  EXPECT_FALSE(s->save_table(old_owner, 2, 1)) << "renewing does not give the table back";
  MatchRow m;
  m.id = t.id;
  m.rules = "finkel";
  m.names = {"x", "y"};
  m.winner = 1;
  m.reason = "timeout";
  m.summary = "{}";
  m.record = "{}";
  EXPECT_FALSE(s->finish_game(old_owner, 2, m, 1)) << "a fenced end of game writes nothing";
  EXPECT_FALSE(s->save_table(old_owner, 1, 2)) << "version 1 is no longer stored";
  auto row = s->find_table(t.id);
  EXPECT_EQ(row->version, 2);
  EXPECT_EQ(row->status, "playing");
  EXPECT_EQ(row->state, R"({"v":2})");
  EXPECT_EQ(row->clock_deadline, 31000);
  EXPECT_FALSE(s->find_match(t.id));
  EXPECT_EQ(count("SELECT COUNT(*) FROM matches"), 0);

  TableRow player = table(t.id, 3, "playing", true, 40);
  EXPECT_TRUE(s->save_table(player, 2)) << "a player's action: the version fences it alone";
  TableRow holder = table(t.id, 4, "playing", true, 50);
  EXPECT_TRUE(s->save_table(holder, 3, 2)) << "the new holder's epoch";
  EXPECT_EQ(s->find_table(t.id)->epoch, 2) << "a commit never changes the epoch";
}

TEST_P(StorageContract, TwoSweepersNeverTakeTheSameTable) {
  auto s = open();
  const int n = 40;
  for (int i = 0; i < n; ++i) {
    char id[17];
    std::snprintf(id, sizeof id, "%016x", 0xf000 + i);
    ASSERT_TRUE(s->save_table(table(id, 1, "playing", true, kT / 1000), -1));
  }
  auto s2 = open();
  std::vector<TableLease> got[2];
  std::thread other([&] {
    for (int k = 0; k < 10; ++k) {
      auto l = s2->take_expired_leases("b", kT + 5000, kT + 8000, 3);
      got[1].insert(got[1].end(), l.begin(), l.end());
    }
  });
  for (int k = 0; k < 10; ++k) {
    auto l = s->take_expired_leases("a", kT + 5000, kT + 8000, 3);
    got[0].insert(got[0].end(), l.begin(), l.end());
  }
  other.join();
  std::set<std::string> taken;
  for (const auto& side : got)
    for (const TableLease& l : side) {
      EXPECT_TRUE(taken.insert(l.table_id).second) << l.table_id << " taken twice";
      EXPECT_EQ(l.epoch, 1);
    }
  EXPECT_EQ(taken.size(), static_cast<std::size_t>(std::min(n, 60)));
  EXPECT_EQ(count("SELECT COUNT(*) FROM tables WHERE epoch <> 1"), 0);
}

// Storage only joins the texts: these stand for events.
TableRow appended(TableRow t, std::int64_t version, const std::string& events) {
  t.version = version;
  t.snapshot = false;
  t.new_events = events;
  return t;
}

TEST_P(StorageContract, EventsAreAppendedAfterTheSnapshotAndLoadInVersionOrder) {
  auto s = open();
  TableRow t = table("00000000000000b1", 1, "playing", true, 10);
  t.events = R"({"e":1})";
  ASSERT_TRUE(s->save_table(t, -1));
  EXPECT_TRUE(s->save_table(appended(t, 2, R"({"e":2})"), 1));
  EXPECT_TRUE(s->save_table(appended(t, 3, R"({"e":3},{"e":4})"), 2));
  EXPECT_TRUE(s->save_table(appended(t, 4, ""), 3)) << "a change without events appends nothing";
  EXPECT_FALSE(s->save_table(appended(t, 5, R"({"e":9})"), 3)) << "a stale version";
  s->renew_leases("a", 2000);  // a node claims under its own live lease
  ASSERT_EQ(s->claim_table(t.id, "a", 1000), 1);
  EXPECT_FALSE(s->save_table(appended(t, 5, R"({"e":9})"), 4, 0)) << "a stale epoch";
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 2) << "refused commits append nothing";
  // Written out of order behind the storage's back: the load still goes by version.
  exec(
      "INSERT INTO table_events(table_id, version, events) VALUES('00000000000000b1', 6, "
      "'{\"e\":6}')");
  exec(
      "INSERT INTO table_events(table_id, version, events) VALUES('00000000000000b1', 5, "
      "'{\"e\":5}')");
  exec("UPDATE tables SET version = 6 WHERE id = '00000000000000b1'");
  ASSERT_TRUE(s->save_table(table("00000000000000b2", 1, "playing", true, 11), -1));
  auto check = [&](const TableRow& row) {
    EXPECT_EQ(row.version, 6);
    EXPECT_EQ(row.state, R"({"v":1})");
    EXPECT_EQ(row.events, R"({"e":1})");
    EXPECT_EQ(row.new_events, R"({"e":2},{"e":3},{"e":4},{"e":5},{"e":6})");
  };
  check(*s->find_table(t.id));
  std::vector<TableRow> live = s->live_tables();
  ASSERT_EQ(live.size(), 2u);
  check(live[0]);
  EXPECT_EQ(live[1].events + live[1].new_events, "") << "a table without events";

  TableRow snap = table(t.id, 7, "playing", true, 20);
  snap.events = R"({"e":1},{"e":2},{"e":3},{"e":4},{"e":5},{"e":6},{"e":7})";
  EXPECT_FALSE(s->save_table(snap, 5, 1)) << "a refused snapshot deletes nothing";
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 4);
  EXPECT_TRUE(s->save_table(snap, 6, 1));
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 0) << "the snapshot holds them all";
  EXPECT_TRUE(s->save_table(appended(snap, 8, R"({"e":8})"), 7, 1));
  auto row = s->find_table(t.id);
  EXPECT_EQ(row->events, snap.events);
  EXPECT_EQ(row->new_events, R"({"e":8})");

  TableRow end = table(t.id, 9, "finished", true, 30);
  end.events = snap.events + R"(,{"e":8},{"e":9})";
  MatchRow m = match(t.id, 0, 0, 1, false, 30);
  EXPECT_FALSE(s->finish_game(end, 7, m, 1)) << "a stale end of game";
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 1);
  EXPECT_TRUE(s->finish_game(end, 8, m, 1));
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 0) << "the end compacts";
  row = s->find_table(t.id);
  EXPECT_EQ(row->events, end.events);
  EXPECT_EQ(row->new_events, "");
}

// The table model over a real backend: every commit of a whole game (a snapshot when one is due,
// else only the new events) loads back as the same table, and a row of the form written before
// the events were apart (the whole record in the state) loads and is rewritten whole.
TEST_P(StorageContract, AGameStoredByAppendingLoadsBackAtEveryVersion) {
  auto s = open();
  Actor light{"g:l", 0, "light", 0}, dark{"g:d", 0, "dark", 0};  // guests: no users needed
  auto made = TableModel::create("00000000000000c1", {}, light, 1, nullptr);
  TableModel t = std::get<TableModel>(std::move(made));
  ASSERT_FALSE(t.join(dark, t.invite()));
  ASSERT_TRUE(s->save_table(t.to_row(1), -1));
  t.saved();
  Rng rng(11);
  UnitRandom dice = [&] { return static_cast<double>(rng.next() >> 11) * 0x1.0p-53; };
  int snapshots = 0, appends = 0;
  std::size_t longest_append = 0;
  while (t.status() == TableStatus::kPlaying) {
    std::int64_t before = t.version();
    const Actor& a = t.seat_to_act() == 1 ? light : dark;
    TableEvents events;
    Move m = t.game().awaiting_throw() ? Move{} : t.game().legal_moves()[0];
    // About a Finkel game's length, then a resignation ends it (the first legal move each time
    // makes for a long game).
    if (t.game().events().size() >= 150)
      ASSERT_FALSE(t.resign(a, events));
    else
      ASSERT_FALSE(t.game().awaiting_throw() ? t.roll(a, dice, events)
                                             : t.move(a, m.from, m.to, m.kind, events));
    TableRow row = t.to_row(2);
    if (row.snapshot) {
      ++snapshots;
    } else {
      ++appends;
      longest_append = std::max(longest_append, row.new_events.size());
    }
    MatchRow match = t.match_row(2);
    ASSERT_TRUE(t.status() == TableStatus::kPlaying ? s->save_table(row, before)
                                                    : s->finish_game(row, before, match));
    t.saved();
    auto back = TableModel::from_row(*s->find_table(t.id()));
    ASSERT_TRUE(std::holds_alternative<TableModel>(back)) << std::get<Error>(back).message;
    ASSERT_EQ(table_snapshot(std::get<TableModel>(back)), table_snapshot(t)) << "at " << before;
  }
  std::size_t n = t.game().events().size();
  // One every kSnapshotEvents events on the way (an action may add more than one), one at the end.
  EXPECT_GE(snapshots, static_cast<int>(n / kSnapshotEvents)) << n << " events";
  EXPECT_LE(snapshots, static_cast<int>(n / kSnapshotEvents) + 1) << n << " events";
  EXPECT_GT(appends, 100);
  EXPECT_LT(longest_append, 200u) << "an action appends its own events only";
  EXPECT_EQ(count("SELECT COUNT(*) FROM table_events"), 0) << "the end compacts";

  // The older form: the events inside the state, none apart (as migration 7 leaves a row).
  TableRow row = *s->find_table(t.id());
  json state = json::parse(row.state);
  state["events"] = json::parse("[" + row.events + "]");
  exec("UPDATE tables SET events = '', state = '" + state.dump() + "' WHERE id = '" + t.id() + "'");
  TableRow old = *s->find_table(t.id());
  ASSERT_EQ(old.events, "");
  auto loaded = TableModel::from_row(old);
  ASSERT_TRUE(std::holds_alternative<TableModel>(loaded)) << std::get<Error>(loaded).message;
  TableModel& again = std::get<TableModel>(loaded);
  EXPECT_EQ(table_snapshot(again), table_snapshot(t));
  TableEvents ev;
  ASSERT_FALSE(again.rematch(light, true, ev));
  TableRow rewritten = again.to_row(3);
  EXPECT_TRUE(rewritten.snapshot) << "an older row is rewritten whole at its next change";
  ASSERT_TRUE(s->save_table(rewritten, t.version()));
  TableRow now = *s->find_table(t.id());
  EXPECT_FALSE(json::parse(now.state).contains("events"));
  EXPECT_EQ(now.events, row.events);
  auto reloaded = TableModel::from_row(now);
  ASSERT_TRUE(std::holds_alternative<TableModel>(reloaded));
  EXPECT_EQ(table_snapshot(std::get<TableModel>(reloaded)), table_snapshot(again));
}

INSTANTIATE_TEST_SUITE_P(Backends, StorageContract, ::testing::ValuesIn(storage_backends()),
                         [](const auto& param_info) { return param_info.param; });

// PostgreSQL specifics: URLs in messages, and a connection that the server drops.
TEST(PgStorage, MessagesNeverShowThePassword) {
  EXPECT_EQ(redact_pg_url("postgresql://ur:s3cr3t@db.example:5433/ur?sslmode=require"),
            "postgresql://ur@db.example:5433/ur");
  EXPECT_EQ(redact_pg_url("postgres://localhost/ur"), "postgres://localhost/ur");
  EXPECT_EQ(redact_pg_url("postgresql://u@h"), "postgresql://u@h");
  // Port 1 on loopback refuses at once: the error names the server, not the password.
  for (const char* url : {"postgresql://ur:s3cr3t-pw@127.0.0.1:1/ur",
                          "postgres://ur@127.0.0.1:1/ur?password=s3cr3t-pw&connect_timeout=5"}) {
    OpenStorageResult r = open_storage(url);
    EXPECT_FALSE(r.storage);
    EXPECT_NE(r.error.find("ur@127.0.0.1:1/ur"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("s3cr3t"), std::string::npos) << r.error;
  }
}

TEST(PgStorage, ConnectionsGetNetworkTimeoutsTheOperatorDidNotSet) {
  const std::string all =
      "connect_timeout=10&keepalives=1&keepalives_idle=10&keepalives_interval=3&"
      "keepalives_count=3&tcp_user_timeout=20000";
  EXPECT_EQ(pg_url_with_timeouts("postgresql://ur@db/ur"), "postgresql://ur@db/ur?" + all);
  EXPECT_EQ(pg_url_with_timeouts("postgresql://ur@db/ur?sslmode=require&connect_timeout=3"),
            "postgresql://ur@db/ur?sslmode=require&connect_timeout=3&keepalives=1&"
            "keepalives_idle=10&keepalives_interval=3&keepalives_count=3&tcp_user_timeout=20000")
      << "the operator's own value stays";
  EXPECT_EQ(pg_url_with_timeouts("host=db dbname=ur keepalives_idle = 60 tcp_user_timeout=0"),
            "host=db dbname=ur keepalives_idle = 60 tcp_user_timeout=0 connect_timeout=10 "
            "keepalives=1 keepalives_interval=3 keepalives_count=3");
  EXPECT_EQ(pg_url_with_timeouts("postgresql://ur@db/xkeepalives=5"),
            "postgresql://ur@db/xkeepalives=5?" + all)
      << "a path is not a parameter";
}

TEST(PgStorage, ReconnectsWhenTheServerDropsTheConnection) {
  if (!TestPgDatabase::admin_url())
    GTEST_SKIP() << "UR_TEST_PG_URL is not set; ctest's server.postgresql entry runs this test "
                    "against a private PostgreSQL server (scripts/pg-test)";
  TestPgDatabase db;
  OpenStorageResult r = open_storage(db.url());
  ASSERT_TRUE(r.storage) << r.error;
  ASSERT_TRUE(r.storage->create_user("alice", "h", 0));
  auto drop = [&] {
    return std::stoi(
        db.exec("SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '" +
                db.name() + "'"));
  };
  ASSERT_EQ(drop(), 1) << "the storage holds one connection";
  EXPECT_TRUE(r.storage->find_user_by_name("alice")) << "a read after the drop";
  ASSERT_EQ(drop(), 1);
  EXPECT_TRUE(r.storage->create_user("bob", "h", 0)) << "a write after the drop";
  EXPECT_TRUE(r.storage->find_user_by_name("bob"));
}

// --db-connections: PostgreSQL's pool runs that many calls in the database at once, and the
// next one waits in the process for a free connection. Each call here reads the tables while the
// test holds a lock on them, so it waits in the database where pg_stat_activity shows it.
TEST(PgStorage, ItsPoolRunsAsManyCallsAtOnceAsItHasConnections) {
  if (!TestPgDatabase::admin_url())
    GTEST_SKIP() << "UR_TEST_PG_URL is not set; ctest's server.postgresql entry runs this test "
                    "against a private PostgreSQL server (scripts/pg-test)";
  constexpr int kConnections = 3;
  TestPgDatabase db;
  OpenStorageResult r = open_storage(db.url(), kConnections);
  ASSERT_TRUE(r.storage) << r.error;
  EXPECT_EQ(r.storage->connections(), kConnections);
  pqxx::connection holder(db.url());
  pqxx::work lock(holder);
  lock.exec("LOCK TABLE tables IN ACCESS EXCLUSIVE MODE");
  std::atomic<int> done{0};
  std::vector<std::thread> calls;
  for (int i = 0; i < kConnections + 1; ++i)
    calls.emplace_back([&] {
      EXPECT_FALSE(r.storage->find_table("0123456789abcdef"));
      ++done;
    });
  auto waiting = [&] {
    return std::stoi(db.exec("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '" + db.name() +
                             "' AND wait_event_type = 'Lock'"));
  };
  // Generous: the deadline only turns a pool that never fills into a failure, not a slow one.
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waiting() < kConnections && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(waiting(), kConnections) << "every connection of the pool in the database at once";
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  EXPECT_EQ(waiting(), kConnections) << "the call past the pool's size waits for a connection";
  EXPECT_EQ(done.load(), 0);
  lock.commit();
  for (auto& c : calls) c.join();
  EXPECT_EQ(done.load(), kConnections + 1);
}

// Two nodes that each see the other's lease run out (both slowed down by the database, say) sweep
// at once. Here node b's sweep is played by hand: it holds a share lock on a's row while a sweeps,
// then renews its own row. a's sweep must not hold a lock on b's row while it waits to renew its
// own: each would wait for the other, and PostgreSQL would fail one of them.
TEST(PgStorage, TwoNodesSweepingEachOtherDoNotDeadlock) {
  if (!TestPgDatabase::admin_url())
    GTEST_SKIP() << "UR_TEST_PG_URL is not set; ctest's server.postgresql entry runs this test "
                    "against a private PostgreSQL server (scripts/pg-test)";
  constexpr std::int64_t kNow = 1'700'000'000'000;
  TestPgDatabase db;
  OpenStorageResult r = open_storage(db.url());
  ASSERT_TRUE(r.storage) << r.error;
  r.storage->renew_leases("a", kNow - 1000);
  r.storage->renew_leases("b", kNow - 1000);  // both ran out a second ago
  pqxx::connection b(db.url());
  pqxx::work sweep(b);
  sweep.exec("SELECT node FROM nodes WHERE node = 'a' FOR SHARE");
  std::string error;
  std::thread a([&] {
    try {
      r.storage->take_expired_leases("a", kNow, kNow + 3000, 10);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  auto waiting = [&] {
    return std::stoi(db.exec("SELECT COUNT(*) FROM pg_stat_activity WHERE datname = '" + db.name() +
                             "' AND wait_event_type = 'Lock'"));
  };
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (waiting() < 1 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  ASSERT_EQ(waiting(), 1) << "a's sweep waits for b's lock on a's row";
  EXPECT_NO_THROW(sweep.exec("UPDATE nodes SET lease_until = " + std::to_string(kNow + 3000) +
                             " WHERE node = 'b'"))
      << "b renews its own row";
  sweep.commit();
  a.join();
  EXPECT_EQ(error, "") << "a's sweep";
  EXPECT_EQ(pg_query_value(db.url(), "SELECT lease_until FROM nodes WHERE node = 'a'"),
            std::to_string(kNow + 3000))
      << "a renewed its own row";
}

}  // namespace
}  // namespace ur::server
