// Accounts people manage and moderation (docs/server.md, "Your account" and "Moderation";
// migration 12): the AccountStore on every backend (SQLite always, PostgreSQL under
// scripts/pg-test), then the HTTP endpoints and `ur admin` against a running server.
#include <sqlite3.h>
#include <sys/wait.h>

#include <fstream>

#include "backend_fixture.h"
#include "harness.h"
#include "server/accounts/accounts.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

// A number or text straight from the database, past the Storage interface.
std::string db_value(const std::string& db, const std::string& sql) {
  if (db.rfind("postgres", 0) == 0) return pg_query_value(db, sql);
  std::string path = db.rfind("sqlite:", 0) == 0 ? db.substr(7) : db;
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(path.c_str(), &h), SQLITE_OK);
  sqlite3_busy_timeout(h, 5000);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sqlite3_errmsg(h);
  std::string out;
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
    out = reinterpret_cast<const char*>(sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(h);
  return out;
}

class AccountStorage : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (HasFatalFailure()) return;
    OpenStorageResult r = open_storage(url_);
    ASSERT_TRUE(r.storage) << r.error;
    s_ = std::move(r.storage);
  }
  void TearDown() override {
    s_.reset();
    BackendTest::TearDown();
  }

  SessionRecord session(const std::string& id, std::int64_t user, std::int64_t expires) {
    SessionRecord r{id, user, 0, expires};
    s_->create_session(r);
    return r;
  }

  std::unique_ptr<Storage> s_;
};

TEST_P(AccountStorage, MigrationTwelveIsApplied) {
  EXPECT_EQ(db_value(url_, "SELECT COUNT(*) FROM schema_version WHERE version = 12"), "1");
  EXPECT_EQ(db_value(url_, "SELECT COUNT(*) FROM admin_actions"), "0");
}

TEST_P(AccountStorage, PasswordChangeKeepsOnlyTheCurrentSession) {
  auto u = s_->create_user("alice", "old-hash", 0);
  ASSERT_TRUE(u);
  session("a", u->id, 1000);
  session("b", u->id, 1000);
  session("c", u->id, 1000);
  EXPECT_EQ(s_->accounts().change_password(u->id, "new-hash", "b"), 2);
  EXPECT_EQ(s_->find_user_by_id(u->id)->password_hash, "new-hash");
  EXPECT_FALSE(s_->accounts().find_session("a", 10));
  EXPECT_TRUE(s_->accounts().find_session("b", 10));
  EXPECT_EQ(s_->accounts().end_sessions(u->id, ""), 1);
  EXPECT_FALSE(s_->accounts().find_session("b", 10));
}

TEST_P(AccountStorage, SessionsExpireAndSlide) {
  auto u = s_->create_user("alice", "h", 0);
  session("a", u->id, 100);
  EXPECT_EQ(s_->accounts().find_session("a", 50)->expires_at, 100);
  EXPECT_FALSE(s_->accounts().find_session("a", 100)) << "expired at its expiry";
  s_->accounts().extend_session("a", 500);
  EXPECT_EQ(s_->accounts().find_session("a", 200)->expires_at, 500);
  s_->accounts().extend_session("a", 300);  // never shortened
  EXPECT_EQ(s_->accounts().find_session("a", 200)->expires_at, 500);
  EXPECT_FALSE(s_->accounts().find_session("a", 200)->admin);
  EXPECT_TRUE(s_->accounts().set_admin(u->id, true));
  EXPECT_TRUE(s_->accounts().find_session("a", 200)->admin);
  EXPECT_FALSE(s_->accounts().set_admin(u->id + 100, true)) << "no such account";
}

TEST_P(AccountStorage, BanEndsSessionsAndRevokesTheBotToken) {
  auto u = s_->create_user("mallory", "h", 0);
  session("a", u->id, 1000);
  s_->set_bot(u->id, true, "token-hash");
  ASSERT_TRUE(s_->user_for_bot_token("token-hash"));
  EXPECT_TRUE(s_->accounts().set_banned(u->id, true, 77, "spam"));
  AccountStatus st = s_->accounts().status(u->id);
  EXPECT_EQ(st.banned_at, 77);
  EXPECT_EQ(st.ban_reason, "spam");
  EXPECT_FALSE(s_->accounts().find_session("a", 10));
  EXPECT_FALSE(s_->user_for_bot_token("token-hash"));
  session("b", u->id, 1000);  // a session made while banned does not let it in
  EXPECT_FALSE(s_->accounts().find_session("b", 10));
  EXPECT_TRUE(s_->accounts().set_banned(u->id, false, 88, ""));
  EXPECT_EQ(s_->accounts().status(u->id).banned_at, 0);
  EXPECT_TRUE(s_->accounts().find_session("b", 10));
}

MatchRow game(const std::string& id, std::int64_t light, std::int64_t dark) {
  MatchRow m;
  m.id = id;
  m.rules = "finkel";
  m.rated = true;
  m.user_ids = {light, dark};
  m.names = {"alice", "bob"};
  m.winner = 1;
  m.reason = "bore-off";
  m.summary = R"({"seats":[{"seat":1,"name":"alice"},{"seat":2,"name":"bob"}]})";
  m.record = "{}";
  m.started_at = 1;
  m.finished_at = 2;
  return m;
}

TableRow finished_table(const std::string& id, std::int64_t light, std::int64_t dark) {
  TableRow t;
  t.id = id;
  t.rules = "finkel";
  t.status = "finished";
  t.version = 3;
  t.state = json{{"seats",
                  {{{"user_id", light}, {"name", "alice"}}, {{"user_id", dark}, {"name", "bob"}}}}}
                .dump();
  return t;
}

TEST_P(AccountStorage, DeletionAnonymisesTheAccountAndKeepsItsGamesAndTheirRatings) {
  auto alice = s_->create_user("alice", "h", 0), bob = s_->create_user("bob", "h", 0);
  ASSERT_TRUE(s_->save_table(finished_table("00000000000000c1", alice->id, bob->id), -1));
  MatchRow m = game("00000000000000c1", alice->id, bob->id);
  TableRow t = finished_table("00000000000000c1", alice->id, bob->id);
  t.version = 4;
  ASSERT_TRUE(s_->finish_game(t, 3, m));
  const double bob_rating = s_->find_user_by_id(bob->id)->rating;
  session("a", alice->id, 1000);
  s_->accounts().note_address(alice->id, "192.0.2.7", 5);

  auto name = s_->accounts().delete_account(alice->id, 99);
  ASSERT_TRUE(name);
  EXPECT_EQ(*name, "deleted-" + std::to_string(alice->id));
  EXPECT_FALSE(s_->find_user_by_name("alice")) << "the old name is free";
  auto gone = s_->find_user_by_id(alice->id);
  EXPECT_EQ(gone->username, *name);
  EXPECT_EQ(gone->password_hash, "");
  EXPECT_EQ(gone->games, 1) << "its games stay";
  EXPECT_EQ(s_->find_user_by_id(bob->id)->rating, bob_rating) << "the opponent's rating stays";
  EXPECT_EQ(s_->accounts().status(alice->id).deleted_at, 99);
  EXPECT_FALSE(s_->accounts().find_session("a", 10));
  EXPECT_TRUE(s_->accounts().addresses(alice->id, 10).empty());
  auto match = s_->find_match("00000000000000c1");
  EXPECT_EQ(match->names[0], *name);
  EXPECT_EQ(match->names[1], "bob");
  EXPECT_EQ(match->summary.find("alice"), std::string::npos) << match->summary;
  EXPECT_EQ(s_->find_table("00000000000000c1")->state.find("alice"), std::string::npos);
  for (const User& u : s_->leaderboard(10)) EXPECT_NE(u.id, alice->id);
  EXPECT_FALSE(s_->accounts().delete_account(alice->id, 100)) << "deleted once";
  EXPECT_TRUE(s_->create_user("alice", "h2", 100)) << "someone else may take the name";
}

TEST_P(AccountStorage, RenameChangesTheNameInGamesAndRefusesATakenName) {
  auto alice = s_->create_user("alice", "h", 0), bob = s_->create_user("bob", "h", 0);
  MatchRow m = game("00000000000000d1", alice->id, bob->id);
  ASSERT_TRUE(s_->save_table(finished_table("00000000000000d1", alice->id, bob->id), -1));
  TableRow t = finished_table("00000000000000d1", alice->id, bob->id);
  t.version = 4;
  ASSERT_TRUE(s_->finish_game(t, 3, m));
  EXPECT_FALSE(s_->accounts().rename(alice->id, "BOB")) << "taken, ignoring case";
  EXPECT_TRUE(s_->accounts().rename(alice->id, "Alicia"));
  EXPECT_TRUE(s_->accounts().rename(alice->id, "alicia")) << "its own name in another case";
  EXPECT_EQ(s_->find_user_by_name("ALICIA")->id, alice->id);
  EXPECT_EQ(s_->find_match("00000000000000d1")->names[0], "alicia");
}

TEST_P(AccountStorage, AddressesNewestFirstAndForgottenAfterTheRetention) {
  auto u = s_->create_user("alice", "h", 0);
  s_->accounts().note_address(u->id, "192.0.2.1", 10);
  s_->accounts().note_address(u->id, "192.0.2.2", 20);
  s_->accounts().note_address(u->id, "192.0.2.1", 30);
  auto a = s_->accounts().addresses(u->id, 10);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].address, "192.0.2.1");
  EXPECT_EQ(a[0].first_seen, 10);
  EXPECT_EQ(a[0].last_seen, 30);
  s_->accounts().note_address(u->id, "192.0.2.3", 25 + kAddressRetentionSeconds);
  a = s_->accounts().addresses(u->id, 10);
  ASSERT_EQ(a.size(), 2u) << "192.0.2.2 was last used more than the retention ago";
  EXPECT_EQ(a[1].address, "192.0.2.1");
}

TEST_P(AccountStorage, TheAuditListPagesNewestFirst) {
  for (int i = 0; i < 5; ++i) {
    AdminAction a{0, 100 + i, 1, "root-admin", "ban", 2, "target" + std::to_string(i), "why"};
    s_->accounts().log_action(a);
    EXPECT_GT(a.id, 0);
  }
  auto page = s_->accounts().admin_actions(3, 0);
  ASSERT_EQ(page.size(), 3u);
  EXPECT_EQ(page[0].target_name, "target4");
  EXPECT_EQ(page[0].admin_name, "root-admin");
  auto rest = s_->accounts().admin_actions(3, page.back().id);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[1].target_name, "target0");
}

INSTANTIATE_TEST_SUITE_P(Backends, AccountStorage, ::testing::ValuesIn(storage_backends()),
                         [](const auto& param_info) { return param_info.param; });

TEST(AccountNames, OffensiveAndDeletedNamesAreRefused) {
  // A substring match, so a few innocent names go too (docs/server.md says which kind).
  for (const char* name :
       {"deleted-12", "fuckface", "Sh1tHead", "x_b1tch_x", "b-i-t-c-h", "Scunthorpe", "Shitake"})
    EXPECT_TRUE(check_reserved_username(name)) << name;
  for (const char* name : {"classy", "dickens", "therapist", "Nazir", "swanky", "grape", "alice"})
    EXPECT_FALSE(check_reserved_username(name)) << name;
}

class AccountsTest : public ServerFixture {
 protected:
  Response post_as(const std::string& target, const json& body, const std::string& cookie) {
    return post(target, body, cookie);
  }
  std::string login(const std::string& name, const std::string& pw = "password123") {
    Response res = post("/api/login", {{"username", name}, {"password", pw}});
    EXPECT_EQ(res.result_int(), 200) << res.body();
    return session_cookie(res);
  }
  unsigned me(const std::string& cookie) { return get("/api/me", cookie).result_int(); }
  // Runs `ur ARGS` (the binary under test); its exit status, its output in `out`.
  int ur(const std::string& args, std::string* out = nullptr) {
    std::string log = (dir_ / "ur.out").string();
    int rc = std::system((std::string(UR_BINARY) + " " + args + " >" + log + " 2>&1").c_str());
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (out) *out = text;
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  }
};

TEST_F(AccountsTest, ChangingThePasswordNeedsTheOldOneAndEndsTheOtherSessions) {
  start_server();
  std::string here = register_user("alice"), there = login("alice");
  Response wrong = post("/api/account/password",
                        {{"old_password", "not-the-one"}, {"new_password", "brand-new-pw"}}, here);
  EXPECT_EQ(wrong.result_int(), 401);
  EXPECT_EQ(body_json(wrong)["error"], "bad_credentials");
  Response weak = post("/api/account/password",
                       {{"old_password", "password123"}, {"new_password", "short"}}, here);
  EXPECT_EQ(body_json(weak)["error"], "bad_password");
  EXPECT_EQ(post("/api/account/password", {{"old_password", "password123"}}, here).result_int(),
            400);
  Response ok = post("/api/account/password",
                     {{"old_password", "password123"}, {"new_password", "brand-new-pw"}}, here);
  ASSERT_EQ(ok.result_int(), 200) << ok.body();
  EXPECT_EQ(body_json(ok)["sessions_ended"], 1);
  EXPECT_EQ(me(here), 200u) << "the session that changed it stays";
  EXPECT_EQ(me(there), 401u) << "every other session ended";
  EXPECT_EQ(post("/api/login", {{"username", "alice"}, {"password", "password123"}}).result_int(),
            401);
  login("alice", "brand-new-pw");
  EXPECT_EQ(
      post("/api/account/password", {{"old_password", "x"}, {"new_password", "y"}}).result_int(),
      401)
      << "not logged in";
}

TEST_F(AccountsTest, LoggingOutEverywhereEndsEverySession) {
  start_server();
  std::string a = register_user("alice"), b = login("alice");
  Response res = post("/api/account/logout-all", json::object(), a);
  ASSERT_EQ(res.result_int(), 200);
  EXPECT_EQ(body_json(res)["sessions_ended"], 2);
  EXPECT_NE(std::string(res[http::field::set_cookie]).find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(me(a), 401u);
  EXPECT_EQ(me(b), 401u);
}

TEST_F(AccountsTest, ASessionsLifetimeSlidesWithUse) {
  ServerConfig c = base_config();
  c.session_ttl = std::chrono::seconds(10 * 24 * 3600);
  start_server(c);
  std::string cookie = register_user("alice");
  // As if the session were nearly over: a use gives it a whole lifetime again.
  std::string sql = "UPDATE sessions SET expires_at = " + std::to_string(unix_now() + 60);
  db_value(db_, sql);
  Response res = get("/api/me", cookie);
  ASSERT_EQ(res.result_int(), 200);
  EXPECT_NE(std::string(res[http::field::set_cookie]).find("Max-Age=864000"), std::string::npos)
      << "the cookie follows the session";
  std::int64_t expires = std::stoll(db_value(db_, "SELECT MAX(expires_at) FROM sessions"));
  EXPECT_GE(expires, unix_now() + 10 * 24 * 3600 - 120);
  // An expired session is no session.
  db_value(db_, "UPDATE sessions SET expires_at = " + std::to_string(unix_now() - 1));
  EXPECT_EQ(me(cookie), 401u);
}

TEST_F(AccountsTest, DeletingTheAccountAnonymisesItAndFreesTheName) {
  start_server();
  std::string cookie = register_user("alice");
  EXPECT_EQ(post("/api/account/delete", {{"password", "wrong-password"}}, cookie).result_int(),
            401);
  Response res = post("/api/account/delete", {{"password", "password123"}}, cookie);
  ASSERT_EQ(res.result_int(), 200) << res.body();
  std::string name = body_json(res)["username"];
  EXPECT_EQ(name.rfind("deleted-", 0), 0u) << name;
  EXPECT_EQ(me(cookie), 401u);
  EXPECT_EQ(post("/api/login", {{"username", "alice"}, {"password", "password123"}}).result_int(),
            401);
  EXPECT_EQ(get("/api/users/" + name + "/profile").result_int(), 200) << "its games stay";
  register_user("alice");  // the name is free again
}

TEST_F(AccountsTest, TheDataDownloadHoldsTheAccountItsRatingsAndGames) {
  start_server();
  std::string cookie = register_user("alice");
  Response res = get("/api/account/export", cookie);
  ASSERT_EQ(res.result_int(), 200);
  EXPECT_NE(std::string(res[http::field::content_disposition]).find("ur-account-alice.json"),
            std::string::npos);
  json data = body_json(res);
  EXPECT_EQ(data["format"], "ur-account-data");
  EXPECT_EQ(data["account"]["username"], "alice");
  EXPECT_TRUE(data["ratings"].is_array());
  EXPECT_TRUE(data["games"].is_array());
  EXPECT_EQ(data["addresses"][0]["address"], "127.0.0.1");
  EXPECT_EQ(get("/api/account/export").result_int(), 401);
  EXPECT_EQ(post("/api/account/export", json::object(), cookie).result_int(), 405);
}

TEST_F(AccountsTest, AdministratorsBanUnbanRenameAndEveryActionIsAudited) {
  start_server();
  std::string root = register_user("rootie"), bob = register_user("bob");
  EXPECT_EQ(get("/api/admin/users/bob", root).result_int(), 403) << "not an administrator yet";
  EXPECT_EQ(get("/api/admin/users/bob").result_int(), 401);
  std::string out;
  ASSERT_EQ(ur("admin grant rootie --db '" + db_ + "'", &out), 0) << out;
  EXPECT_NE(ur("admin grant nobody-here --db '" + db_ + "'", &out), 0) << out;
  EXPECT_EQ(body_json(get("/api/me", root))["user"]["admin"], true);

  Response bot = post("/api/bot", {{"bot", true}}, bob);
  std::string token = body_json(bot)["token"];
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(bob), 0u);
  json created = ws.request({{"type", "create_table"}, {"public", true}});
  std::string table = created["table"]["id"];

  json view = body_json(get("/api/admin/users/bob", root));
  EXPECT_EQ(view["user"]["username"], "bob");
  EXPECT_EQ(view["addresses"][0]["address"], "127.0.0.1");
  EXPECT_TRUE(view["games"].is_array());

  Response ban = post("/api/admin/users/bob/ban", {{"reason", "abuse in chat"}}, root);
  ASSERT_EQ(ban.result_int(), 200) << ban.body();
  EXPECT_EQ(body_json(ban)["tables_left"], 1);
  EXPECT_EQ(me(bob), 401u) << "its sessions ended";
  Response refused = post("/api/login", {{"username", "bob"}, {"password", "password123"}});
  EXPECT_EQ(refused.result_int(), 403);
  EXPECT_EQ(body_json(refused)["error"], "banned");
  EXPECT_EQ(ws.read_until_closed(), websocket::error::closed) << "its socket was closed";
  TestWs as_bot(port_);
  EXPECT_EQ(as_bot.connect_bearer(token), 401u) << "its bot token was revoked";
  json lobby = body_json(get("/api/tables"));
  for (const json& t : lobby["tables"]) EXPECT_NE(t["id"], table) << "its table closed";
  EXPECT_EQ(post("/api/admin/users/rootie/ban", json::object(), root).result_int(), 400);

  ASSERT_EQ(post("/api/admin/users/bob/unban", json::object(), root).result_int(), 200);
  login("bob");
  EXPECT_EQ(
      body_json(post("/api/admin/users/bob/rename", {{"username", "Sh1tlord"}}, root))["error"],
      "reserved_username");
  EXPECT_EQ(post("/api/admin/users/bob/rename", {{"username", "rootie"}}, root).result_int(), 409);
  ASSERT_EQ(post("/api/admin/users/bob/rename", {{"username", "robert"}}, root).result_int(), 200);
  login("robert");

  json audit = body_json(get("/api/admin/log", root));
  std::vector<std::string> actions;
  for (const json& a : audit["actions"]) actions.push_back(a["action"]);
  EXPECT_EQ(actions, (std::vector<std::string>{"rename", "unban", "ban", "grant"}));
  EXPECT_EQ(audit["actions"][2]["admin"], "rootie");
  EXPECT_EQ(audit["actions"][2]["detail"], "abuse in chat");
  EXPECT_EQ(audit["actions"][0]["detail"], "bob -> robert");
  EXPECT_EQ(audit["actions"][3]["admin"].get<std::string>().rfind("console:", 0), 0u);
  ASSERT_EQ(ur("admin revoke rootie --db '" + db_ + "'", &out), 0) << out;
  EXPECT_EQ(get("/api/admin/log", root).result_int(), 403);
}

}  // namespace
}  // namespace ur::server
