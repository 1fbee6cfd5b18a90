// Backups (docs/operations.md): `ur backup` taken in the middle of a game while the server runs,
// `ur restore` into a fresh database, and a server started on it finishes that game from the
// position the backup holds. With SQLite the copy is SQLite's online backup; under
// scripts/pg-test (UR_TEST_PG_URL) the same test goes through pg_dump and pg_restore.
#include <sys/wait.h>

#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class BackupTest : public TableFixture {
 protected:
  // Runs `ur ARGS`, its output in `out`; its exit status.
  int ur(const std::string& args, std::string* out = nullptr) {
    std::string log = (dir_ / "ur.out").string();
    int rc = std::system((std::string(UR_BINARY) + " " + args + " >" + log + " 2>&1").c_str());
    std::ifstream in(log);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (out) *out = text;
    EXPECT_TRUE(WIFEXITED(rc)) << text;
    return WEXITSTATUS(rc);
  }

  // `n` actions of the game (fewer if it ends); the last snapshot.
  json play(Client& light, Client& dark, json table, int n, const std::string& tag) {
    for (int i = 0; i < n && table["status"] == "playing"; ++i) {
      Client& c = table["game"]["to_act"] == 1 ? light : dark;
      json answer = act(c, table, tag + std::to_string(i));
      EXPECT_EQ(answer["type"], "action_ok") << answer;
      std::int64_t v = answer["version"];
      table = c->next_if([&](const json& j) {
        return j["type"] == "table" && j["table"]["version"] == v;
      })["table"];
    }
    return table;
  }
};

TEST_F(BackupTest, ABackupTakenMidGameRestoresToAServerThatFinishesTheGame) {
  start_server();
  Client alice = user("alice"), bob = user("bob");
  std::string id = start_game(alice, bob, {{"rated", true}});
  json at_backup = play(alice, bob, snapshot(alice, id), 8, "before");
  ASSERT_EQ(at_backup["status"], "playing");

  const std::string file = (dir_ / "mid-game.backup").string();
  std::string out;
  ASSERT_EQ(ur("backup --db " + db_ + " --out " + file, &out), 0) << out;
  // The server goes on; these actions come after the backup and are not in it.
  json later = play(alice, bob, at_backup, 4, "after");
  EXPECT_GT(later["version"].get<std::int64_t>(), at_backup["version"].get<std::int64_t>());
  std::unique_ptr<TestPgDatabase> restored_pg;
  std::string restored = (dir_ / "restored.db").string();
  if (pg_) {
    restored_pg = std::make_unique<TestPgDatabase>();
    restored = restored_pg->url();
  } else {
    EXPECT_NE(ur("restore --db " + db_ + " --from " + file + " --force", &out), 0)
        << "the running server's database is not replaced: " << out;
    EXPECT_NE(out.find("stop the server"), std::string::npos) << out;
  }
  stop_server();
  ASSERT_EQ(ur("restore --db " + restored + " --from " + file, &out), 0) << out;

  ServerConfig c = config();
  c.db = restored;
  ServerFixture::start_server(c);
  // The sessions are in the backup: both players reconnect with their cookies.
  Client a2{alice.cookie, std::make_unique<TestWs>(port_)},
      b2{bob.cookie, std::make_unique<TestWs>(port_)};
  ASSERT_EQ(a2->connect(a2.cookie), 0u);
  ASSERT_EQ(b2->connect(b2.cookie), 0u);
  json table = snapshot(a2, id);
  EXPECT_EQ(table["version"], at_backup["version"]) << "the state of the backup, not later";
  EXPECT_EQ(table["game"]["position"], at_backup["game"]["position"]);
  snapshot(b2, id);
  json done = play_out(a2, b2, table);
  EXPECT_EQ(done["status"], "finished") << done;
  EXPECT_EQ(me(a2)["games"], 1);
  EXPECT_EQ(me(b2)["games"], 1);
  restored_pg.reset();
}

TEST_F(BackupTest, ARestoreRefusesWhatIsNotAnUrDatabase) {
  if (pg_) GTEST_SKIP() << "SQLite files only";
  const std::string junk = (dir_ / "junk.db").string();
  std::ofstream(junk) << "not a database at all";
  std::string out;
  EXPECT_NE(ur("restore --db " + (dir_ / "new.db").string() + " --from " + junk, &out), 0);
  EXPECT_NE(out.find("ur restore:"), std::string::npos) << out;
  EXPECT_FALSE(fs::exists(dir_ / "new.db")) << "nothing is created from a bad backup";
  EXPECT_NE(ur("backup --db " + (dir_ / "missing.db").string() + " --out x", &out), 0);
  EXPECT_NE(out.find("no database"), std::string::npos) << out;
}

}  // namespace
}  // namespace ur::server
