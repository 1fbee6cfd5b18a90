// The language an account keeps for the web client (docs/server.md, "Your account"; migration
// 14): the AccountStore on every backend (SQLite always, PostgreSQL under scripts/pg-test), then
// POST /api/account/language and the `language` that login, GET /api/me and the socket's
// `welcome` carry, against a running server (which `server.postgresql` repeats on PostgreSQL).
#include "backend_fixture.h"
#include "harness.h"
#include "server/storage/storage.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class LanguageStorage : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (HasFatalFailure()) return;
    s_ = open();
  }
  void TearDown() override {
    s_.reset();
    BackendTest::TearDown();
  }
  std::unique_ptr<Storage> s_;
};

TEST_P(LanguageStorage, MigrationFourteenKeepsEachAccountsLanguage) {
  EXPECT_EQ(s_->schema_version(), s_->latest_schema_version());
  EXPECT_GE(s_->latest_schema_version(), 14);
  auto alice = s_->create_user("alice", "h", 0);
  auto bob = s_->create_user("bob", "h", 0);
  ASSERT_TRUE(alice && bob);
  EXPECT_EQ(alice->language, "") << "a new account has chosen none";
  EXPECT_TRUE(s_->accounts().set_language(alice->id, "ar"));
  EXPECT_EQ(s_->find_user_by_id(alice->id)->language, "ar");
  EXPECT_EQ(s_->find_user_by_name("ALICE")->language, "ar");
  EXPECT_EQ(s_->find_user_by_id(bob->id)->language, "") << "one account's choice only";
  s_->create_session({"sess", alice->id, 0, 100});
  EXPECT_EQ(s_->user_for_session("sess", 1)->language, "ar");
  EXPECT_TRUE(s_->accounts().set_language(alice->id, ""));
  EXPECT_EQ(s_->find_user_by_id(alice->id)->language, "") << "forgotten";
  EXPECT_FALSE(s_->accounts().set_language(bob->id + 1000, "de")) << "no such account";
  ASSERT_TRUE(s_->accounts().set_language(bob->id, "nl"));
  ASSERT_TRUE(s_->accounts().delete_account(bob->id, 5));
  EXPECT_EQ(s_->find_user_by_id(bob->id)->language, "") << "a deleted account keeps none";
  EXPECT_FALSE(s_->accounts().set_language(bob->id, "de")) << "nor takes one";
}

INSTANTIATE_TEST_SUITE_P(Backends, LanguageStorage, ::testing::ValuesIn(storage_backends()),
                         [](const auto& param_info) { return param_info.param; });

class LanguageTest : public ServerFixture {
 protected:
  Response set(const std::string& cookie, const json& body) {
    return post("/api/account/language", body, cookie);
  }
  json welcome_user(const std::string& cookie) {
    TestWs ws(port_);
    EXPECT_EQ(ws.connect(cookie), 0u);
    json w = ws.request({{"type", "hello"}});
    EXPECT_EQ(w["type"], "welcome") << w;
    return w["user"];
  }
};

TEST_F(LanguageTest, AnAccountSetsItsLanguageAndLoginMeAndWelcomeCarryIt) {
  start_server();
  std::string alice = register_user("alice");
  EXPECT_EQ(body_json(get("/api/me", alice))["user"]["language"], "");
  Response ok = set(alice, {{"language", "de"}});
  ASSERT_EQ(ok.result_int(), 200) << ok.body();
  EXPECT_EQ(body_json(ok), json({{"ok", true}, {"language", "de"}}));
  EXPECT_EQ(body_json(get("/api/me", alice))["user"]["language"], "de");
  EXPECT_EQ(welcome_user(alice)["language"], "de");
  Response login = post("/api/login", {{"username", "alice"}, {"password", "password123"}});
  ASSERT_EQ(login.result_int(), 200);
  EXPECT_EQ(body_json(login)["user"]["language"], "de") << "a new browser learns it at login";
  EXPECT_EQ(body_json(get("/api/account/export", alice))["account"]["language"], "de");
  ASSERT_EQ(set(alice, {{"language", ""}}).result_int(), 200);
  EXPECT_EQ(body_json(get("/api/me", alice))["user"]["language"], "") << "forgotten";
}

TEST_F(LanguageTest, BadLanguagesAndStrangersAreRefusedClearly) {
  start_server();
  std::string alice = register_user("alice");
  for (const json& bad : {json("DE"), json("deutsch"), json("d"), json("de-AT"), json("<b>"),
                          json(7), json(nullptr)}) {
    Response r = set(alice, {{"language", bad}});
    EXPECT_EQ(r.result_int(), 400) << bad;
    EXPECT_EQ(body_json(r)["error"], "bad_request") << bad;
    EXPECT_EQ(body_json(r)["message"].get<std::string>().find("deutsch"), std::string::npos)
        << "the input is never quoted";
  }
  EXPECT_EQ(body_json(set(alice, json::object()))["error"], "bad_request");
  EXPECT_EQ(body_json(get("/api/me", alice))["user"]["language"], "") << "nothing stored";
  Response guest = set("", {{"language", "de"}});
  EXPECT_EQ(guest.result_int(), 401);
  EXPECT_EQ(body_json(guest)["error"], "not_logged_in");
  EXPECT_EQ(get("/api/account/language", alice).result_int(), 405);
}

}  // namespace
}  // namespace ur::server
