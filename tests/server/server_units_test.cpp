// Unit tests of the server's pure parts: account rules, the static-file path guard, cookies, the
// Origin rule, the rate limiter, and the SQLite storage (migrations, persistence, sessions).
#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "server/accounts/accounts.h"
#include "server/accounts/rate_limiter.h"
#include "server/api/http_status.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"
#include "server/storage/sql_database.h"
#include "server/storage/sqlite_storage.h"
#include "solver/table_errc.h"

namespace ur::server {
namespace {

namespace fs = std::filesystem;

fs::path make_temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "ur_server_test_XXXXXX").string();
  char* made = mkdtemp(tmpl.data());
  EXPECT_NE(made, nullptr);
  return fs::canonical(tmpl);
}

TEST(Accounts, UsernameRules) {
  EXPECT_FALSE(check_username("abc"));
  EXPECT_FALSE(check_username("Aa_-09zZ"));
  EXPECT_FALSE(check_username(std::string(20, 'x')));
  EXPECT_TRUE(check_username("ab"));
  EXPECT_TRUE(check_username(std::string(21, 'x')));
  EXPECT_TRUE(check_username("bad name"));
  EXPECT_TRUE(check_username("caf\xc3\xa9"));
  EXPECT_TRUE(check_username("<script>"));
  EXPECT_TRUE(check_username(""));
}

TEST(Accounts, PasswordRulesCountCharactersNotBytes) {
  EXPECT_TRUE(check_password("1234567"));
  EXPECT_FALSE(check_password("12345678"));
  EXPECT_FALSE(check_password(std::string(128, 'p')));
  EXPECT_TRUE(check_password(std::string(129, 'p')));
  std::string seven_e_acute;
  for (int i = 0; i < 7; ++i) seven_e_acute += "\xc3\xa9";  // 14 bytes, 7 characters
  EXPECT_TRUE(check_password(seven_e_acute));
  EXPECT_FALSE(check_password(seven_e_acute + "\xc3\xa9"));
  EXPECT_TRUE(check_password(std::string("abcd\0efgh", 9)));
}

TEST(Accounts, HashIsArgon2idAndVerifies) {
  ASSERT_TRUE(init_crypto());
  PasswordCost cheap{1, 8 * 1024};
  std::string h = hash_password("correct horse", cheap);
  EXPECT_EQ(h.rfind("$argon2id$", 0), 0u) << h;
  EXPECT_TRUE(verify_password(h, "correct horse"));
  EXPECT_FALSE(verify_password(h, "correct horsE"));
  EXPECT_FALSE(verify_password("", "x"));
  EXPECT_NE(hash_password("correct horse", cheap), h);  // salted
}

TEST(Accounts, TokensAre128BitHex) {
  std::string a = random_token_hex(), b = random_token_hex();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_TRUE(is_token_hex(a));
  EXPECT_NE(a, b);
  EXPECT_FALSE(is_token_hex("xyz"));
  EXPECT_FALSE(is_token_hex(std::string(32, 'G')));
}

// Every error code of every domain (server_errc.h: error_domains()) answers with an HTTP error
// status (api/http_status.cpp), the client's or the server's fault as its meaning says: a domain
// the status table does not know fails here.
TEST(HttpStatus, EveryCodeHasAnErrorStatus) {
  for (const ErrorDomain* domain : error_domains())
    for (int i = 0; i < static_cast<int>(domain->codes.size()); ++i) {
      const ErrorCode code(*domain, i);
      const auto status = http_status_of(code);
      ASSERT_TRUE(status.has_value()) << domain->name << " has no HTTP status table";
      EXPECT_GE(static_cast<unsigned>(*status), 400u) << code.name();
      EXPECT_LE(static_cast<unsigned>(*status), 599u) << code.name();
    }
  EXPECT_EQ(http_status(ServerErrc::kNotFound), boost::beast::http::status::not_found);
  EXPECT_EQ(http_status(Errc::kBadRecord), boost::beast::http::status::unprocessable_entity);
  EXPECT_EQ(http_status(ServerErrc::kUsernameTaken), boost::beast::http::status::conflict);
  EXPECT_EQ(http_status(ServerErrc::kBadToken), boost::beast::http::status::unauthorized);
  EXPECT_EQ(http_status(Errc::kInternal), boost::beast::http::status::internal_server_error);
}

// The wire names and their statuses are a contract with every client (docs/protocol.md,
// docs/server.md): whichever floor a code belongs to, the whole vocabulary is exactly this list,
// each name once. A new code adds its row; a row never changes.
TEST(ErrorCodes, TheWireVocabularyIsTheDocumentedOne) {
  using S = boost::beast::http::status;
  const std::map<std::string, S> expected{
      {"bad_rules", S::bad_request},
      {"bad_position", S::bad_request},
      {"bad_move", S::bad_request},
      {"bad_record", S::unprocessable_entity},
      {"bad_agent", S::bad_request},
      {"bad_table", S::bad_request},
      {"corrupt_table", S::internal_server_error},
      {"bad_request", S::bad_request},
      {"bad_json", S::bad_request},
      {"bad_envelope", S::bad_request},
      {"unsupported_version", S::bad_request},
      {"unknown_type", S::bad_request},
      {"binary_unsupported", S::bad_request},
      {"message_too_large", S::payload_too_large},
      {"rate_limited", S::too_many_requests},
      {"no_table", S::not_found},
      {"private_table", S::not_found},
      {"bad_invite", S::bad_request},
      {"table_full", S::conflict},
      {"already_seated", S::conflict},
      {"login_required", S::unauthorized},
      {"too_many_tables", S::too_many_requests},
      {"table_closed", S::conflict},
      {"not_seated", S::forbidden},
      {"left_table", S::forbidden},
      {"not_owner", S::forbidden},
      {"hints_unavailable", S::conflict},
      {"not_started", S::conflict},
      {"game_over", S::conflict},
      {"not_your_turn", S::conflict},
      {"roll_expected", S::conflict},
      {"move_expected", S::conflict},
      {"illegal_move", S::bad_request},
      {"stale_version", S::conflict},
      {"not_local", S::conflict},
      {"nothing_to_undo", S::conflict},
      {"local_table", S::conflict},
      {"no_rematch", S::conflict},
      {"conflict", S::conflict},
      {"not_playing", S::conflict},
      {"bad_token", S::unauthorized},
      {"not_bot", S::forbidden},
      {"no_bot", S::not_found},
      {"bot_refuses", S::conflict},
      {"bot_busy", S::conflict},
      {"refused", S::forbidden},
      {"not_found", S::not_found},
      {"method_not_allowed", S::method_not_allowed},
      {"not_json", S::unsupported_media_type},
      {"too_large", S::payload_too_large},
      {"bad_username", S::bad_request},
      {"reserved_username", S::bad_request},
      {"bad_password", S::bad_request},
      {"username_taken", S::conflict},
      {"bad_credentials", S::unauthorized},
      {"not_logged_in", S::unauthorized},
      {"banned", S::forbidden},
      {"not_admin", S::forbidden},
      {"bad_path", S::bad_request},
      {"bad_origin", S::forbidden},
      {"upgrade_required", S::upgrade_required},
      {"not_implemented", S::not_implemented},
      {"internal", S::internal_server_error},
  };
  std::map<std::string, S> actual;
  for (const ErrorDomain* domain : error_domains())
    for (int i = 0; i < static_cast<int>(domain->codes.size()); ++i) {
      const ErrorCode code(*domain, i);
      EXPECT_TRUE(actual.emplace(std::string(code.name()), http_status(code)).second)
          << code.name() << " is in two domains";
      EXPECT_EQ(code_from_name(code.name()), code) << code.name();
    }
  EXPECT_EQ(actual, expected);
  EXPECT_FALSE(code_from_name("no_such_code").has_value());
  EXPECT_EQ(code_from_name("not_your_turn"), ErrorCode(ServerErrc::kNotYourTurn));
  EXPECT_EQ(code_from_name("bad_table"), ErrorCode(solver::TableErrc::kBadTable));
}

TEST(HttpUtil, MimeTypes) {
  EXPECT_EQ(mime_type("/index.html"), "text/html; charset=utf-8");
  EXPECT_EQ(mime_type("/a/app.JS"), "text/javascript; charset=utf-8");
  EXPECT_EQ(mime_type("/s.css"), "text/css; charset=utf-8");
  EXPECT_EQ(mime_type("/i.svg"), "image/svg+xml");
  EXPECT_EQ(mime_type("/x.wasm"), "application/wasm");
  EXPECT_EQ(mime_type("/noext"), "application/octet-stream");
  EXPECT_EQ(mime_type("/dir.d/noext"), "application/octet-stream");
}

TEST(HttpUtil, StaticPathsStayInsideTheRoot) {
  fs::path tmp = make_temp_dir();
  fs::create_directories(tmp / "web" / "sub");
  std::ofstream(tmp / "web" / "index.html") << "home";
  std::ofstream(tmp / "web" / "sub" / "index.html") << "sub";
  std::ofstream(tmp / "secret.txt") << "secret";
  fs::create_symlink(tmp / "secret.txt", tmp / "web" / "link.txt");
  fs::path root = tmp / "web";

  EXPECT_EQ(resolve_static_path(root, "/"), root / "index.html");
  EXPECT_EQ(resolve_static_path(root, "/index.html?x=1"), root / "index.html");
  EXPECT_EQ(resolve_static_path(root, "/sub/"), root / "sub" / "index.html");
  // The explorer's address is a screen of the one-page client.
  EXPECT_EQ(resolve_static_path(root, "/explore?rules=finkel&position=start"), root / "index.html");
  EXPECT_EQ(resolve_static_path(root, "/sub"), root / "sub" / "index.html");
  EXPECT_EQ(resolve_static_path(root, "/a%20b.txt"), root / "a b.txt");
  for (const char* bad :
       {"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt", "/sub/../../secret.txt",
        "/.%2E/secret.txt", "/%2e%2e%2fsecret.txt", "/..\\secret.txt", "/%5c..%5csecret.txt",
        "/./index.html", "secret.txt", "", "/%00", "/%zz", "/%2", "/link.txt"})
    EXPECT_FALSE(resolve_static_path(root, bad)) << bad;
  fs::remove_all(tmp);
}

TEST(HttpUtil, AcceptEncodingNamesTheCodingsAClientTakes) {
  EXPECT_TRUE(accepts_coding("gzip, deflate, br, zstd", "br"));
  EXPECT_TRUE(accepts_coding("gzip, deflate, br, zstd", "gzip"));
  EXPECT_FALSE(accepts_coding("gzip, deflate", "br"));
  EXPECT_FALSE(accepts_coding("", "gzip"));
  EXPECT_TRUE(accepts_coding("GZip;Q=0.5", "gzip"));
  EXPECT_FALSE(accepts_coding("gzip;q=0, br", "gzip"));
  EXPECT_FALSE(accepts_coding("gzip; q=0.000", "gzip"));
  EXPECT_TRUE(accepts_coding("gzip ; q=0.001", "gzip"));
  EXPECT_TRUE(accepts_coding("*", "br"));
  EXPECT_FALSE(accepts_coding("*;q=0", "br"));
  EXPECT_FALSE(accepts_coding("br;q=0, *", "br")) << "named beats the wildcard";
  EXPECT_TRUE(accepts_coding("gzip, *;q=0", "gzip"));
  EXPECT_FALSE(accepts_coding("gzip;q=x", "gzip")) << "an unreadable weight refuses";
  EXPECT_FALSE(accepts_coding("gzipx, xgzip", "gzip"));
  EXPECT_FALSE(accepts_coding(",,;q=1,", "gzip"));
}

TEST(HttpUtil, Cookies) {
  EXPECT_EQ(cookie_value("a=1; ur_session=abc; b=2", "ur_session"), "abc");
  EXPECT_EQ(cookie_value("ur_session=\"q\"", "ur_session"), "q");
  EXPECT_EQ(cookie_value("xur_session=1", "ur_session"), std::nullopt);
  EXPECT_EQ(cookie_value("", "ur_session"), std::nullopt);
}

TEST(HttpUtil, TheClientAddressComesFromXForwardedForOnlyThroughATrustedProxy) {
  const std::vector<std::string> trusted{"127.0.0.1", "::1"};
  // Through the balancer: the address it appended, the last of the list.
  EXPECT_EQ(client_address("127.0.0.1", "10.0.0.7", trusted), "10.0.0.7");
  EXPECT_EQ(client_address("127.0.0.1", "1.2.3.4, 10.0.0.7", trusted), "10.0.0.7");
  EXPECT_EQ(client_address("::1", "1.2.3.4,2001:db8::1", trusted), "2001:db8::1");
  // A client's own header to a node directly proves nothing.
  EXPECT_EQ(client_address("192.0.2.9", "10.0.0.7", trusted), "192.0.2.9");
  EXPECT_EQ(client_address("192.0.2.9", "10.0.0.7", {}), "192.0.2.9");
  // No header, or a last entry that is not an address: the peer.
  EXPECT_EQ(client_address("127.0.0.1", "", trusted), "127.0.0.1");
  EXPECT_EQ(client_address("127.0.0.1", "10.0.0.7, unknown", trusted), "127.0.0.1");
  EXPECT_EQ(client_address("127.0.0.1", "10.0.0.7,", trusted), "127.0.0.1");
}

TEST(HttpUtil, OriginRule) {
  std::vector<std::string> none, allowed{"http://localhost:5173"};
  // No public origin: the server's own addresses, reached by IP address or localhost.
  EXPECT_TRUE(origin_allowed("", "example.org", none, allowed));
  EXPECT_TRUE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", none, allowed));
  EXPECT_TRUE(origin_allowed("http://LOCALHOST:8080", "localhost:8080", none, allowed));
  EXPECT_TRUE(origin_allowed("http://[::1]:8080", "[::1]:8080", none, allowed));
  EXPECT_TRUE(origin_allowed("http://192.0.2.7", "192.0.2.7", none, allowed));
  EXPECT_TRUE(origin_allowed("http://localhost:5173", "127.0.0.1:8080", none, allowed));
  // A DNS-rebound page: the attacker's name is both Host and Origin.
  EXPECT_FALSE(origin_allowed("http://example.org", "example.org", none, allowed));
  EXPECT_FALSE(origin_allowed("https://Example.org:8080", "example.org:8080", none, allowed));
  EXPECT_FALSE(origin_allowed("http://192.0.2.8:8080", "192.0.2.7:8080", none, allowed));
  EXPECT_FALSE(origin_allowed("http://evil.example", "127.0.0.1:8080", none, allowed));
  EXPECT_FALSE(origin_allowed("null", "127.0.0.1", none, allowed));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1/path", "127.0.0.1", none, allowed));
  // Published at a name: that origin only (and the extra ones), not the addresses any more.
  std::vector<std::string> published{"https://ur.example.org"};
  EXPECT_TRUE(origin_allowed("https://UR.example.org", "10.0.0.5:8080", published, allowed));
  EXPECT_TRUE(origin_allowed("http://localhost:5173", "10.0.0.5:8080", published, allowed));
  EXPECT_FALSE(origin_allowed("http://evil.example", "evil.example", published, allowed));
  EXPECT_FALSE(origin_allowed("http://ur.example.org", "ur.example.org", published, allowed));
  EXPECT_FALSE(origin_allowed("http://127.0.0.1:8080", "127.0.0.1:8080", published, allowed));
}

TEST(HttpUtil, HeaderBlocksWithFoldingOrSpaceBeforeTheColonAreRefused) {
  EXPECT_FALSE(check_header_block("GET / HTTP/1.1\r\nHost: a\r\nX-A: b"));
  EXPECT_FALSE(check_header_block("GET / HTTP/1.1"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\nX-A: b\r\n c"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\nX-A: b\r\n\tc"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\nHost : a"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\nHo st: a"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\n: a"));
  EXPECT_TRUE(check_header_block("GET / HTTP/1.1\r\nno colon"));
}

TEST(HttpUtil, OnlyASingleChunkedCodingOrOneContentLengthFramesABody) {
  using V = std::vector<std::string_view>;
  EXPECT_FALSE(check_framing({}, {}));
  EXPECT_FALSE(check_framing(V{"chunked"}, {}));
  EXPECT_FALSE(check_framing(V{" Chunked "}, {}));
  EXPECT_FALSE(check_framing({}, V{"12"}));
  for (auto te : {"gzip", "xchunked", "chunked, identity", "identity", "chunked,chunked"}) {
    auto e = check_framing(V{te}, {});
    ASSERT_TRUE(e) << te;
    EXPECT_EQ(e->status, 400) << te;
  }
  EXPECT_EQ(check_framing(V{"gzip, chunked"}, {})->status, 501);
  EXPECT_EQ(check_framing(V{"chunked", "chunked"}, {})->status, 400);
  EXPECT_EQ(check_framing(V{"chunked"}, V{"5"})->status, 400);
  EXPECT_EQ(check_framing({}, V{"5", "5"})->status, 400);
  EXPECT_EQ(check_framing({}, V{"5, 5"})->status, 400);
  EXPECT_EQ(check_framing({}, V{"+5"})->status, 400);
  EXPECT_EQ(check_framing({}, V{""})->status, 400);
}

TEST(RateLimiter, BucketEmptiesAndRefills) {
  RateLimiter rl(3, 1.0);  // 3 at once, one more per second
  auto t0 = RateLimiter::Clock::now();
  EXPECT_TRUE(rl.allow("a", t0));
  EXPECT_TRUE(rl.allow("a", t0));
  EXPECT_TRUE(rl.allow("a", t0));
  EXPECT_FALSE(rl.allow("a", t0));
  EXPECT_TRUE(rl.allow("b", t0));  // per key
  EXPECT_EQ(rl.retry_after_seconds("a", t0), 1);
  EXPECT_TRUE(rl.allow("a", t0 + std::chrono::milliseconds(1100)));
  EXPECT_FALSE(rl.allow("a", t0 + std::chrono::milliseconds(1200)));
}

int count_rows(const fs::path& db, const char* sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h, sql, -1, &st, nullptr), SQLITE_OK);
  int n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(h);
  return n;
}

TEST(SqliteStorage, MigrationsAreIdempotentAndDataPersists) {
  fs::path tmp = make_temp_dir();
  fs::path db = tmp / "ur.db";
  {
    auto s = open_sqlite_storage(db.string());
    EXPECT_EQ(s->schema_version(), s->latest_schema_version());
    EXPECT_TRUE(s->healthy());
    auto u = s->create_user("Alice", "$argon2id$fake", 1000);
    ASSERT_TRUE(u);
    EXPECT_EQ(u->username, "Alice");
    EXPECT_EQ(u->rating, 1200);
    EXPECT_EQ(u->games, 0);
    EXPECT_FALSE(s->create_user("aLiCe", "h", 1001)) << "usernames are unique ignoring case";
  }
  for (int i = 0; i < 2; ++i) {
    auto s = open_sqlite_storage(db.string());
    EXPECT_EQ(s->schema_version(), s->latest_schema_version());
    auto u = s->find_user_by_name("ALICE");
    ASSERT_TRUE(u);
    EXPECT_EQ(u->username, "Alice");
    EXPECT_EQ(u->password_hash, "$argon2id$fake");
    EXPECT_EQ(s->find_user_by_id(u->id)->username, "Alice");
  }
  // Every step recorded once, the newest included (the numbers need not be consecutive: steps
  // added on parallel branches keep the number they were given).
  EXPECT_EQ(count_rows(db, "SELECT COUNT(*) FROM schema_version"),
            static_cast<long long>(sqlite_dialect().migrations.size()));
  EXPECT_EQ(count_rows(db, "SELECT MAX(version) FROM schema_version"),
            open_sqlite_storage(db.string())->latest_schema_version());
  EXPECT_EQ(count_rows(db, "SELECT COUNT(*) - COUNT(DISTINCT version) FROM schema_version"), 0);
  EXPECT_EQ(count_rows(db, "SELECT COUNT(*) FROM users"), 1);
  fs::remove_all(tmp);
}

TEST(SqliteStorage, WalModeAndForeignKeys) {
  fs::path tmp = make_temp_dir();
  fs::path db = tmp / "ur.db";
  auto s = open_sqlite_storage(db.string());
  sqlite3* h = nullptr;
  ASSERT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(h, "PRAGMA journal_mode", -1, &st, nullptr), SQLITE_OK);
  ASSERT_EQ(sqlite3_step(st), SQLITE_ROW);
  EXPECT_STREQ(reinterpret_cast<const char*>(sqlite3_column_text(st, 0)), "wal");
  sqlite3_finalize(st);
  sqlite3_close(h);
  // A session of a user that does not exist violates the foreign key.
  EXPECT_THROW(s->create_session({std::string(32, 'a'), 999, 1, 2}), StorageError);
  fs::remove_all(tmp);
}

TEST(SqliteStorage, SessionsExpireAndDelete) {
  fs::path tmp = make_temp_dir();
  auto s = open_sqlite_storage((tmp / "ur.db").string());
  auto u = s->create_user("bob", "h", 0);
  ASSERT_TRUE(u);
  std::string live = random_token_hex(), old = random_token_hex();
  s->create_session({live, u->id, 100, 200});
  s->create_session({old, u->id, 100, 150});
  EXPECT_EQ(s->user_for_session(live, 160)->username, "bob");
  EXPECT_FALSE(s->user_for_session(old, 160));
  EXPECT_FALSE(s->user_for_session(random_token_hex(), 160));
  EXPECT_EQ(s->delete_expired_sessions(160), 1);
  EXPECT_TRUE(s->delete_session(live));
  EXPECT_FALSE(s->delete_session(live));
  EXPECT_FALSE(s->user_for_session(live, 160));
  fs::remove_all(tmp);
}

}  // namespace
}  // namespace ur::server
