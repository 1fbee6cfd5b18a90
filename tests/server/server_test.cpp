// Integration tests of `ur serve`: a real Server on an ephemeral loopback port, driven by a real
// HTTP client and a real WebSocket client written with Beast. Every network wait has a generous
// deadline so that a loaded machine slows the tests down instead of failing them.
#include <set>

#include "harness.h"
#include "server/accounts/accounts.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

class ServerTest : public ServerFixture {};

TEST_F(ServerTest, HealthReportsStorage) {
  start_server();
  Response res = get("/api/health");
  EXPECT_EQ(res.result_int(), 200);
  EXPECT_EQ(res[http::field::content_type], "application/json");
  json j = body_json(res);
  EXPECT_EQ(j["status"], "ok");
  EXPECT_EQ(j["storage"], expected_backend());
  EXPECT_EQ(j["schema_version"], server_->context().storage->latest_schema_version());
  EXPECT_EQ(j["protocol"], 1);
  EXPECT_EQ(j["bus"]["kind"], "in-process");
  // The answering node: --node-name (by default where it listens) and a suffix of this start.
  std::string node = j["node"];
  EXPECT_NE(node.find(":" + std::to_string(port_) + "/"), std::string::npos) << node;
}

TEST_F(ServerTest, RegisterMeLogoutLogin) {
  start_server();
  Response reg = post("/api/register", {{"username", "Alice"}, {"password", "password123"}});
  ASSERT_EQ(reg.result_int(), 201) << reg.body();
  EXPECT_EQ(body_json(reg)["user"]["username"], "Alice");
  EXPECT_EQ(body_json(reg)["user"]["rating"], 1200);
  std::string set_cookie(reg[http::field::set_cookie]);
  EXPECT_NE(set_cookie.find("HttpOnly"), std::string::npos);
  EXPECT_NE(set_cookie.find("SameSite=Lax"), std::string::npos);
  EXPECT_NE(set_cookie.find("Path=/"), std::string::npos);
  std::string cookie = session_cookie(reg);
  EXPECT_EQ(cookie.size(), std::string("ur_session=").size() + 32);

  // The database holds only a hash of the token: a copy of it logs nobody in.
  std::string token = cookie.substr(std::string("ur_session=").size());
  Storage& storage = *server_->context().storage;
  EXPECT_FALSE(storage.user_for_session(token, unix_now()));
  ASSERT_TRUE(storage.user_for_session(session_key(token), unix_now()));
  EXPECT_EQ(storage.user_for_session(session_key(token), unix_now())->username, "Alice");

  Response me = get("/api/me", cookie);
  EXPECT_EQ(me.result_int(), 200);
  EXPECT_EQ(body_json(me)["user"]["username"], "Alice");
  EXPECT_EQ(get("/api/me").result_int(), 401);
  EXPECT_EQ(get("/api/me", "ur_session=" + std::string(32, '0')).result_int(), 401);
  EXPECT_EQ(get("/api/me", "ur_session=junk").result_int(), 401);

  Response out = post("/api/logout", json::object(), cookie);
  EXPECT_EQ(out.result_int(), 200);
  EXPECT_NE(std::string(out[http::field::set_cookie]).find("Max-Age=0"), std::string::npos);
  EXPECT_EQ(get("/api/me", cookie).result_int(), 401) << "logout invalidates the session";

  Response wrong = post("/api/login", {{"username", "alice"}, {"password", "password124"}});
  EXPECT_EQ(wrong.result_int(), 401);
  EXPECT_EQ(body_json(wrong)["error"], "bad_credentials");
  Response nobody = post("/api/login", {{"username", "nobody"}, {"password", "password123"}});
  EXPECT_EQ(nobody.result_int(), 401);
  EXPECT_EQ(nobody.body(), wrong.body()) << "no hint whether the user exists";

  Response login = post("/api/login", {{"username", "ALICE"}, {"password", "password123"}});
  ASSERT_EQ(login.result_int(), 200) << login.body();
  EXPECT_EQ(body_json(login)["user"]["username"], "Alice");
  EXPECT_EQ(get("/api/me", session_cookie(login)).result_int(), 200);

  auto stored = server_->context().storage->find_user_by_name("alice");
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->password_hash.rfind("$argon2id$", 0), 0u);
}

TEST_F(ServerTest, DuplicateUsernameIgnoringCaseIs409) {
  start_server();
  register_user("bob_the-2nd");
  Response dup = post("/api/register", {{"username", "BOB_THE-2ND"}, {"password", "otherpass1"}});
  EXPECT_EQ(dup.result_int(), 409);
  EXPECT_EQ(body_json(dup)["error"], "username_taken");
}

TEST_F(ServerTest, BadInputIsRejectedClearly) {
  start_server();
  for (std::string name : {std::string("ab"), std::string(21, 'x'), std::string("bad name"),
                           std::string("<script>alert(1)</script>"), std::string("caf\xc3\xa9")}) {
    Response r = post("/api/register", {{"username", name}, {"password", "password123"}});
    EXPECT_EQ(r.result_int(), 400) << name;
    EXPECT_EQ(body_json(r)["error"], "bad_username");
    EXPECT_EQ(r.body().find("<script>"), std::string::npos) << "user text is never echoed";
  }
  for (std::string pw : {std::string("short"), std::string(129, 'p')}) {
    Response r = post("/api/register", {{"username", "carol"}, {"password", pw}});
    EXPECT_EQ(r.result_int(), 400);
    EXPECT_EQ(body_json(r)["error"], "bad_password");
  }
  EXPECT_EQ(post("/api/register", {{"username", "carol"}, {"password", std::string(128, 'p')}})
                .result_int(),
            201);
  EXPECT_EQ(post("/api/register", {{"username", "dave"}}).result_int(), 400);
  EXPECT_EQ(post("/api/register", {{"username", 5}, {"password", "password123"}}).result_int(),
            400);
  EXPECT_EQ(post("/api/register", json::array()).result_int(), 400);

  Request bad_json;
  bad_json.method = http::verb::post;
  bad_json.target = "/api/login";
  bad_json.body = "{\"username\": ";
  Response r = send_http(port_, bad_json);
  EXPECT_EQ(r.result_int(), 400);
  EXPECT_EQ(body_json(r)["error"], "bad_json");

  Request form = bad_json;
  form.body = "username=a&password=b";
  form.content_type = "application/x-www-form-urlencoded";
  EXPECT_EQ(send_http(port_, form).result_int(), 415);

  Response wrong_method = get("/api/register");
  EXPECT_EQ(wrong_method.result_int(), 405);
  EXPECT_EQ(wrong_method[http::field::allow], "POST");
  EXPECT_EQ(post("/api/me", json::object()).result_int(), 405);
  Response missing = get("/api/nope");
  EXPECT_EQ(missing.result_int(), 404);
  EXPECT_EQ(body_json(missing)["error"], "not_found");
  EXPECT_EQ(get("/ws").result_int(), 426);
}

TEST_F(ServerTest, OversizedBodyIs413) {
  start_server();
  Request big;
  big.method = http::verb::post;
  big.target = "/api/register";
  big.body = json{{"username", "erin"}, {"password", std::string(10'000, 'x')}}.dump();
  Response r = send_http(port_, big);
  EXPECT_EQ(r.result_int(), 413);
  EXPECT_EQ(body_json(r)["error"], "too_large");
  EXPECT_EQ(get("/api/health").result_int(), 200) << "the server carries on";
}

TEST_F(ServerTest, LoginIsRateLimitedPerIp) {
  ServerConfig c = base_config();
  c.auth_burst = 3;
  c.auth_refill_per_sec = 0.01;
  start_server(c);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(post("/api/login", {{"username", "frank"}, {"password", "password123"}}).result_int(),
              401);
  Response limited = post("/api/login", {{"username", "frank"}, {"password", "password123"}});
  EXPECT_EQ(limited.result_int(), 429);
  EXPECT_EQ(body_json(limited)["error"], "rate_limited");
  EXPECT_GE(std::stoi(std::string(limited[http::field::retry_after])), 1);
  EXPECT_EQ(
      post("/api/register", {{"username", "frank"}, {"password", "password123"}}).result_int(),
      429);
  EXPECT_EQ(get("/api/health").result_int(), 200) << "only the account endpoints are limited";
}

TEST_F(ServerTest, BehindATrustedProxyEachForwardedClientHasItsOwnLoginBucket) {
  ServerConfig c = base_config();
  c.auth_burst = 2;
  c.auth_refill_per_sec = 0.01;
  c.trusted_proxies = {"127.0.0.1"};  // the test connects from here, as a balancer would
  start_server(c);
  auto login_from = [&](const std::string& forwarded_for) {
    Request r;
    r.method = http::verb::post;
    r.target = "/api/login";
    r.body = json{{"username", "frank"}, {"password", "password123"}}.dump();
    if (!forwarded_for.empty()) r.headers.emplace_back("X-Forwarded-For", forwarded_for);
    return send_http(port_, r).result_int();
  };
  EXPECT_EQ(login_from("10.0.0.1"), 401u);
  EXPECT_EQ(login_from("10.0.0.1"), 401u);
  EXPECT_EQ(login_from("10.0.0.1"), 429u) << "10.0.0.1 spent its bucket";
  EXPECT_EQ(login_from("10.0.0.2"), 401u) << "another client behind the proxy has its own";
  // The balancer appends the peer it saw: what a client wrote before it does not count.
  EXPECT_EQ(login_from("10.0.0.2, 10.0.0.1"), 429u);
  EXPECT_EQ(login_from(""), 401u) << "the proxy itself, without the header";
}

TEST_F(ServerTest, StaticFilesWithTypesAndCaching) {
  start_server();
  Response index = get("/");
  EXPECT_EQ(index.result_int(), 200);
  EXPECT_EQ(index[http::field::content_type], "text/html; charset=utf-8");
  EXPECT_EQ(index[http::field::cache_control], "no-cache");
  EXPECT_NE(index.body().find("home page"), std::string::npos);
  EXPECT_EQ(index["X-Content-Type-Options"], "nosniff");

  Response js = get("/assets/app.js?v=3");
  EXPECT_EQ(js.result_int(), 200);
  EXPECT_EQ(js[http::field::content_type], "text/javascript; charset=utf-8");
  EXPECT_EQ(js[http::field::cache_control], "public, max-age=3600");
  EXPECT_EQ(js.body(), "console.log('ur');");
  EXPECT_EQ(get("/assets/style.css")[http::field::content_type], "text/css; charset=utf-8");

  std::string etag(js[http::field::etag]);
  ASSERT_FALSE(etag.empty());
  Request cached;
  cached.target = "/assets/app.js";
  cached.headers = {{"If-None-Match", etag}};
  Response not_modified = send_http(port_, cached);
  EXPECT_EQ(not_modified.result_int(), 304);
  EXPECT_TRUE(not_modified.body().empty());

  Request head;
  head.method = http::verb::head;
  head.target = "/assets/app.js";
  Response h = send_http(port_, head);
  EXPECT_EQ(h.result_int(), 200);
  EXPECT_EQ(h[http::field::content_length], "18");

  EXPECT_EQ(get("/missing.txt").result_int(), 404);
  Request post_static;
  post_static.method = http::verb::post;
  post_static.target = "/index.html";
  EXPECT_EQ(send_http(port_, post_static).result_int(), 405);
}

// The build writes x.br and x.gz beside a text file; each client gets the copy it accepts (the
// bytes as stored: the server never compresses), with a tag of its own and Vary.
TEST_F(ServerTest, StaticFilesSendTheCompressedCopyTheClientAccepts) {
  const fs::path assets = dir_ / "web" / "assets";
  std::ofstream(assets / "app.js.gz") << "GZIP-BYTES";
  std::ofstream(assets / "app.js.br") << "BROTLI-BYTES";
  std::ofstream(assets / "style.css.gz") << "CSS-GZIP";
  std::ofstream(dir_ / "outside.gz") << "TOP-SECRET";
  fs::create_symlink(dir_ / "outside.gz", dir_ / "web" / "index.html.gz");
  start_server();
  auto fetch = [&](const std::string& target, const std::string& accept,
                   http::verb method = http::verb::get) {
    Request r;
    r.method = method;
    r.target = target;
    if (!accept.empty()) r.headers = {{"Accept-Encoding", accept}};
    return send_http(port_, r);
  };
  Response plain = fetch("/assets/app.js", "");
  EXPECT_EQ(plain.body(), "console.log('ur');");
  EXPECT_EQ(plain[http::field::content_encoding], "");
  EXPECT_EQ(plain[http::field::vary], "Accept-Encoding");
  Response br = fetch("/assets/app.js", "gzip, deflate, br");
  EXPECT_EQ(br.body(), "BROTLI-BYTES");
  EXPECT_EQ(br[http::field::content_encoding], "br");
  EXPECT_EQ(br[http::field::content_type], "text/javascript; charset=utf-8");
  EXPECT_EQ(br[http::field::vary], "Accept-Encoding");
  Response gz = fetch("/assets/app.js", "gzip, deflate");
  EXPECT_EQ(gz.body(), "GZIP-BYTES");
  EXPECT_EQ(gz[http::field::content_encoding], "gzip");
  EXPECT_EQ(fetch("/assets/app.js", "br;q=0, gzip").body(), "GZIP-BYTES");
  EXPECT_EQ(fetch("/assets/app.js", "*;q=0").body(), "console.log('ur');");
  EXPECT_EQ(fetch("/assets/style.css", "br, gzip").body(), "CSS-GZIP") << "only a .gz copy";

  // Three representations, three tags; each revalidates only itself.
  std::set<std::string> tags{std::string(plain[http::field::etag]),
                             std::string(br[http::field::etag]),
                             std::string(gz[http::field::etag])};
  EXPECT_EQ(tags.size(), 3u);
  Request again;
  again.target = "/assets/app.js";
  again.headers = {{"Accept-Encoding", "gzip"},
                   {"If-None-Match", std::string(gz[http::field::etag])}};
  Response not_modified = send_http(port_, again);
  EXPECT_EQ(not_modified.result_int(), 304);
  EXPECT_EQ(not_modified[http::field::content_encoding], "gzip");
  EXPECT_EQ(not_modified[http::field::vary], "Accept-Encoding");
  again.headers = {{"If-None-Match", std::string(gz[http::field::etag])}};
  EXPECT_EQ(send_http(port_, again).result_int(), 200) << "the gzip tag is not the plain file's";

  Response head = fetch("/assets/app.js", "br", http::verb::head);
  EXPECT_EQ(head[http::field::content_length], "12");
  EXPECT_EQ(head[http::field::content_encoding], "br");

  // A copy that leads out of the root is not one; a file without copies has no Vary.
  Response index = fetch("/", "gzip");
  EXPECT_NE(index.body().find("home page"), std::string::npos);
  EXPECT_EQ(index[http::field::content_encoding], "");
  EXPECT_EQ(index[http::field::vary], "");
}

TEST_F(ServerTest, PathTraversalIsRefused) {
  fs::create_symlink(dir_ / "secret.txt", dir_ / "web" / "link.txt");
  start_server();
  for (const char* target : {"/../secret.txt", "/%2e%2e/secret.txt", "/..%2fsecret.txt",
                             "/assets/../../secret.txt", "/%2E%2E%2Fsecret.txt", "/..%5csecret.txt",
                             "/link.txt", "/assets/%2e%2e/%2e%2e/secret.txt"}) {
    Response r = get(target);
    EXPECT_NE(r.result_int(), 200) << target;
    EXPECT_EQ(r.body().find("TOP-SECRET"), std::string::npos) << target;
  }
}

TEST_F(ServerTest, RestartKeepsUsers) {
  start_server();
  register_user("grace", "persistent1");
  stop_server();
  start_server();
  Response login = post("/api/login", {{"username", "grace"}, {"password", "persistent1"}});
  EXPECT_EQ(login.result_int(), 200) << login.body();
  EXPECT_EQ(server_->context().storage->schema_version(),
            server_->context().storage->latest_schema_version());
}

TEST_F(ServerTest, WebSocketHelloAsGuestAndAsUser) {
  start_server();
  TestWs guest(port_);
  ASSERT_EQ(guest.connect(), 0u);
  guest.send(json{{"v", 1}, {"type", "hello"}, {"id", 7}});
  json w = guest.read();
  EXPECT_EQ(w["v"], 1);
  EXPECT_EQ(w["type"], "welcome");
  EXPECT_EQ(w["re"], 7);
  EXPECT_EQ(w["guest"], true);
  EXPECT_TRUE(w["user"].is_null());
  EXPECT_EQ(w["name"].get<std::string>().rfind("guest-", 0), 0u);
  EXPECT_EQ(w["server"], "ur/" UR_VERSION);
  EXPECT_EQ(w["protocol"], 1);

  std::string cookie = register_user("heidi");
  TestWs user(port_);
  ASSERT_EQ(user.connect(cookie, "http://127.0.0.1:" + std::to_string(port_)), 0u);
  user.send(json{{"v", 1}, {"type", "hello"}});
  json u = user.read();
  EXPECT_EQ(u["type"], "welcome");
  EXPECT_EQ(u["guest"], false);
  EXPECT_EQ(u["user"]["username"], "heidi");
  EXPECT_EQ(u["user"]["rating"], 1200);
  EXPECT_FALSE(u.contains("re"));
}

TEST_F(ServerTest, WebSocketPingPong) {
  start_server();
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  for (int i = 0; i < 20; ++i)
    ws.send(json{{"v", 1}, {"type", "ping"}, {"id", "p" + std::to_string(i)}, {"t", i}});
  for (int i = 0; i < 20; ++i) {
    json p = ws.read();
    EXPECT_EQ(p["type"], "pong");
    EXPECT_EQ(p["re"], "p" + std::to_string(i)) << "answers keep the order of the messages";
    EXPECT_EQ(p["t"], i);
  }
}

TEST_F(ServerTest, WebSocketMalformedMessagesGetErrorsNotAClose) {
  start_server();
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  struct Case {
    std::string text;
    const char* code;
  };
  for (const Case& c : std::vector<Case>{
           {"not json", "bad_json"},
           {"[1,2,3]", "bad_json"},
           {"{\"type\":\"hello\"}", "bad_envelope"},
           {"{\"v\":\"1\",\"type\":\"hello\"}", "bad_envelope"},
           {"{\"v\":2,\"type\":\"hello\"}", "unsupported_version"},
           {"{\"v\":1}", "bad_envelope"},
           {"{\"v\":1,\"type\":5}", "bad_envelope"},
           {"{\"v\":1,\"type\":\"hello\",\"id\":{}}", "bad_envelope"},
           {"{\"v\":1,\"type\":\"<b>nope</b>\",\"id\":3}", "unknown_type"},
       }) {
    ws.send(c.text);
    json e = ws.read();
    EXPECT_EQ(e["v"], 1) << c.text;
    EXPECT_EQ(e["type"], "error") << c.text;
    EXPECT_EQ(e["code"], c.code) << c.text;
    EXPECT_TRUE(e["message"].is_string());
    EXPECT_EQ(e.dump().find("<b>"), std::string::npos);
  }
  ws.send("{\"v\":1,\"type\":\"ping\"}", /*binary=*/true);
  EXPECT_EQ(ws.read()["code"], "binary_unsupported");
  ws.send(json{{"v", 1}, {"type", "ping"}, {"id", 99}});
  json p = ws.read();
  EXPECT_EQ(p["type"], "pong");
  EXPECT_EQ(p["re"], 99);
}

TEST_F(ServerTest, WebSocketOversizedMessages) {
  start_server();
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  std::string big = json{{"v", 1}, {"type", "ping"}, {"pad", std::string(2000, 'x')}}.dump();
  ws.send(big);
  json e = ws.read();
  EXPECT_EQ(e["type"], "error");
  EXPECT_EQ(e["code"], "message_too_large");
  ws.send(json{{"v", 1}, {"type", "ping"}});
  EXPECT_EQ(ws.read()["type"], "pong") << "still open after a soft-limit violation";

  ws.send(std::string(5000, ' '));  // over the hard limit (4 x 1024)
  beast::error_code ec = ws.read_until_closed();
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(ws.reason().code, websocket::close_code::too_big);
}

TEST_F(ServerTest, WebSocketMessagesAreRateLimitedWithAnAnswer) {
  ServerConfig c = base_config();
  c.ws_burst = 3;
  c.ws_refill_per_sec = 0.001;
  start_server(c);
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  int pongs = 0, limited = 0;
  for (int i = 0; i < 6; ++i) {
    json answer = ws.request({{"type", "ping"}});
    if (answer["type"] == "pong") ++pongs;
    if (answer["type"] == "error" && answer["code"] == "rate_limited") ++limited;
  }
  EXPECT_EQ(pongs, 3);
  EXPECT_EQ(limited, 3);
}

TEST_F(ServerTest, WebSocketOriginIsChecked) {
  start_server();
  TestWs evil(port_);
  EXPECT_EQ(evil.connect("", "http://evil.example"), 403u);
  TestWs same(port_);
  EXPECT_EQ(same.connect("", "http://127.0.0.1:" + std::to_string(port_)), 0u);
  TestWs configured(port_);
  EXPECT_EQ(configured.connect("", "http://localhost:5173"), 0u);
  TestWs wrong_path(port_);
  EXPECT_EQ(wrong_path.connect("", "", "/other"), 404u);
}

TEST_F(ServerTest, DeadSocketIsDetectedByHeartbeat) {
  ServerConfig c = base_config();
  c.ws_idle_timeout = std::chrono::milliseconds(600);
  start_server(c);
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  // Not reading means not answering the server's pings: after the idle timeout it drops us.
  std::this_thread::sleep_for(std::chrono::milliseconds(2000));
  beast::error_code ec = ws.read_until_closed();
  EXPECT_TRUE(ec) << "the server closed the connection";
}

TEST_F(ServerTest, GracefulShutdownClosesWebSocketsWithGoingAway) {
  start_server();
  TestWs ws(port_);
  ASSERT_EQ(ws.connect(), 0u);
  ws.send(json{{"v", 1}, {"type", "ping"}});
  EXPECT_EQ(ws.read()["type"], "pong");
  auto t0 = std::chrono::steady_clock::now();
  server_->stop();
  beast::error_code ec = ws.read_until_closed();
  EXPECT_EQ(ec, websocket::error::closed) << ec.message();
  EXPECT_EQ(ws.reason().code, websocket::close_code::going_away);
  thread_.join();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(4))
      << "shutdown did not wait for the grace period";
}

}  // namespace
}  // namespace ur::server
