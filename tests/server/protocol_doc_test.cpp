// docs/protocol.md against the server: this test reads the documented client messages and error
// codes out of the document itself, provokes each one against a real server, and fails when the
// document lists something the test did not see or the server answered with something the
// document does not list. So the two can only drift apart in a failing build.
#include <sqlite3.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "bot_ws.h"
#include "rules/error.h"
#include "server/api/http_status.h"
#include "server/server_errc.h"
#include "server/tables/table_events.h"
#include "table_fixture.h"

namespace ur::server {
namespace {

using namespace ur::server::test;

std::string read_doc() {
  std::ifstream in(std::string(UR_SOURCE_DIR) + "/docs/protocol.md");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The backticked words of the first column of the table that follows `heading` in the doc.
std::set<std::string> first_column(const std::string& doc, const std::string& heading) {
  std::set<std::string> out;
  std::size_t at = doc.find(heading);
  if (at == std::string::npos) return out;
  std::istringstream lines(doc.substr(at));
  std::string line;
  bool in_table = false;
  static const std::regex kTick("`([a-z_]+)`");
  while (std::getline(lines, line)) {
    bool row = line.rfind("|", 0) == 0;
    if (in_table && !row) break;
    if (!row) continue;
    in_table = true;
    std::string first = line.substr(1, line.find('|', 1) - 1);
    for (auto it = std::sregex_iterator(first.begin(), first.end(), kTick);
         it != std::sregex_iterator(); ++it)
      out.insert((*it)[1]);
  }
  return out;
}

// The rows of the table that follows `heading`: the first column's name, and the backticked
// names of the second column outside parentheses (the fields, not the words about them).
std::map<std::string, std::set<std::string>> rows_of(const std::string& doc,
                                                     const std::string& heading) {
  std::map<std::string, std::set<std::string>> out;
  std::istringstream lines(doc.substr(doc.find(heading)));
  std::string line;
  bool in_table = false;
  static const std::regex kTick("`([a-z_]+)`");
  while (std::getline(lines, line)) {
    bool row = line.rfind("|", 0) == 0;
    if (in_table && !row) break;
    if (!row) continue;
    in_table = true;
    std::size_t second = line.find('|', 1);
    std::string first = line.substr(1, second - 1), rest = line.substr(second + 1);
    std::smatch name;
    if (!std::regex_search(first, name, kTick)) continue;
    std::string outside;
    int depth = 0;
    for (char ch : rest) {
      depth += ch == '(' ? 1 : ch == ')' ? -1 : 0;
      if (depth == 0 && ch != ')') outside += ch;
    }
    auto& fields = out[name[1]];
    for (auto it = std::sregex_iterator(outside.begin(), outside.end(), kTick);
         it != std::sregex_iterator(); ++it)
      fields.insert((*it)[1]);
  }
  return out;
}

// The wire form of every table event (table_events.cpp) is docs/protocol.md's "Table events":
// the same kinds, and no field the document does not name.
TEST(ProtocolDoc, TheTableEventsAreTheDocumentsTableOfEvents) {
  const auto documented = rows_of(read_doc(), "### Table events");
  const TableEvents every{RollEvent{1, 2, 4, 2, false},
                          MoveEvent{},
                          JoinedEvent{2, "bob"},
                          LeftEvent{1},
                          ResignEvent{1},
                          TimeoutEvent{2},
                          VisibilityEvent{true},
                          HintEvent{1, 3},
                          GameOverEvent{1, EndReason::kBoreOff},
                          AbortedEvent{1},
                          ClosedEvent{true},
                          UndoEvent{1, 2},
                          RematchOfferEvent{1},
                          RematchDeclineEvent{2},
                          RematchEvent{"0123456789abcdef"}};
  std::set<std::size_t> alternatives;
  for (const TableEvent& e : every) alternatives.insert(e.index());
  ASSERT_EQ(alternatives.size(), std::variant_size_v<TableEvent>) << "one event of each kind";
  ASSERT_EQ(documented.size(), every.size()) << "the document's table of events was read";
  for (const TableEvent& e : every) {
    const json j = event_json(e);
    const std::string kind(event_kind(e));
    EXPECT_EQ(j["kind"], kind);
    ASSERT_TRUE(documented.count(kind)) << kind << " is not in protocol.md";
    for (const auto& item : j.items()) {
      if (item.key() == "kind") continue;
      EXPECT_TRUE(documented.at(kind).count(item.key()))
          << kind << "." << item.key() << " is not documented";
    }
  }
  const json closed{{"kind", "closed"}};
  EXPECT_EQ(event_json(ClosedEvent{}), closed) << "closed has a reason only when abandoned";
}

// The document's table of every error code is the program's vocabulary, row by row: each code of
// every floor's domain (server_errc.h: error_domains()) with its floor and the HTTP status
// api/http_status.cpp gives it, and nothing else.
TEST(ProtocolDoc, EveryErrorCodeIsInTheDocumentsTableWithItsFloorAndStatus) {
  const std::string doc = read_doc();
  const std::size_t at = doc.find("| code | floor | HTTP status |");
  ASSERT_NE(at, std::string::npos) << "the table of every error code is not in protocol.md";
  std::map<std::string, std::string> documented;
  std::istringstream lines(doc.substr(at));
  static const std::regex kRow(R"(\| `([a-z_]+)` \| ([a-z]+) \| ([0-9]{3}) \|)");
  std::string line;
  std::getline(lines, line);  // the heading
  std::getline(lines, line);  // the rule under it
  while (std::getline(lines, line) && line.rfind("|", 0) == 0) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(line, m, kRow)) << "not a row of code, floor, status: " << line;
    EXPECT_TRUE(documented.emplace(m[1], std::string(m[2]) + " " + std::string(m[3])).second)
        << m[1] << " is listed twice";
  }
  std::map<std::string, std::string> actual;
  for (const ErrorDomain* domain : error_domains())
    for (int i = 0; i < static_cast<int>(domain->codes.size()); ++i) {
      const ErrorCode code(*domain, i);
      actual.emplace(std::string(code.name()),
                     std::string(domain->name) + " " +
                         std::to_string(static_cast<unsigned>(http_status(code))));
    }
  EXPECT_EQ(documented, actual);
}

class ProtocolDocTest : public TableFixture {
 protected:
  // Sends `msg` and records the type of message and the error code it was answered with.
  json ask(Client& c, json msg) {
    sent_.insert(msg.value("type", ""));
    json answer = c->request(std::move(msg));
    if (answer["type"] == "error") codes_.insert(answer.value("code", ""));
    return answer;
  }
  json action(Client& c, const std::string& type, const json& table, json extra = {}) {
    json msg{{"type", type},
             {"table", table["id"]},
             {"version", table["version"]},
             {"action_id", "d" + std::to_string(++actions_)}};
    if (extra.is_object()) msg.update(extra);
    return ask(c, msg);
  }
  // Breaks the storage behind the server's back: the table's row moves on (as if another node
  // had changed it), or the tables table disappears (the database fails).
  void sql(const std::string& statement) {
    if (pg_) {
      pg_query_value(db_, statement);
      return;
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(db_.c_str(), &db), SQLITE_OK);
    sqlite3_busy_timeout(db, 5000);
    EXPECT_EQ(sqlite3_exec(db, statement.c_str(), nullptr, nullptr, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    sqlite3_close(db);
  }

  std::set<std::string> sent_, codes_;
  int actions_ = 0;
};

TEST_F(ProtocolDocTest, EveryDocumentedMessageAndErrorIsAnsweredAsDocumented) {
  const std::string doc = read_doc();
  std::set<std::string> types = first_column(doc, "## Client → server");
  std::set<std::string> codes = first_column(doc, "| code | when |");
  ASSERT_GE(types.size(), 16u) << "the message table was not found in docs/protocol.md";
  ASSERT_GE(codes.size(), 29u) << "the error table was not found in docs/protocol.md";
  // The doc's codes are the floors' (server_errc.h: error_domains()): none is spelled only in
  // the doc, and every code the server's own floor adds is in it.
  for (const std::string& code : codes)
    EXPECT_TRUE(code_from_name(code).has_value()) << code << " is in no error domain";

  ServerConfig cfg = config();
  cfg.max_open_tables = 2;
  ServerFixture::start_server(cfg);
  Client alice = user("alice"), bob = user("bob"), carol = user("carol"), g = guest();

  // The envelope.
  EXPECT_EQ(ask(g, {{"type", "hello"}})["type"], "welcome");
  json pong = ask(g, {{"type", "ping"}, {"t", 42}});
  EXPECT_EQ(pong["type"], "pong");
  EXPECT_EQ(pong["t"], 42);
  g->send(std::string("not json"));
  codes_.insert(g->next("error")["code"]);
  g->send(json{{"type", "ping"}});
  codes_.insert(g->next("error")["code"]);
  g->send(json{{"v", 2}, {"type", "ping"}});
  codes_.insert(g->next("error")["code"]);
  ask(g, {{"type", "no_such_type"}});
  g->send(json{{"v", 1}, {"type", "ping"}}.dump(), true);
  codes_.insert(g->next("error")["code"]);
  g->send(json{{"v", 1}, {"type", "ping"}, {"pad", std::string(2000, 'x')}});
  codes_.insert(g->next("error")["code"]);
  EXPECT_TRUE(codes_.count("message_too_large"));

  // Creating, joining, watching.
  EXPECT_EQ(ask(g, {{"type", "create_table"}, {"rated", true}})["code"], "login_required");
  EXPECT_EQ(ask(g, {{"type", "create_table"}, {"rules", "nonsense"}})["code"], "bad_rules");
  EXPECT_EQ(ask(g, {{"type", "create_table"}, {"public", "yes"}})["code"], "bad_request");
  json made = ask(alice, {{"type", "create_table"}, {"public", true}});
  ASSERT_EQ(made["type"], "joined");
  ASSERT_TRUE(made.contains("invite"));
  std::string id = made["table"]["id"];
  EXPECT_EQ(action(alice, "roll", made["table"])["code"], "not_started");
  EXPECT_EQ(ask(bob, {{"type", "join_table"}, {"table", id}, {"invite", "00"}})["code"],
            "bad_invite");
  EXPECT_EQ(ask(alice, {{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}})["code"],
            "already_seated");
  EXPECT_EQ(ask(bob, {{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}})["type"],
            "joined");
  EXPECT_EQ(ask(carol, {{"type", "join_table"}, {"table", id}, {"invite", made["invite"]}})["code"],
            "table_full");
  EXPECT_EQ(ask(g, {{"type", "open_table"}, {"table", "00000000000000ff"}})["code"], "no_table");
  EXPECT_EQ(ask(g, {{"type", "open_table"}, {"table", id}})["role"], "spectator");
  EXPECT_EQ(ask(g, {{"type", "unwatch"}, {"table", id}})["type"], "ok");
  EXPECT_EQ(ask(carol, {{"type", "set_visibility"}, {"table", id}, {"public", false}})["code"],
            "not_owner");
  EXPECT_EQ(ask(alice, {{"type", "set_visibility"}, {"table", id}, {"public", false}})["type"],
            "ok");
  EXPECT_EQ(ask(g, {{"type", "open_table"}, {"table", id}})["code"], "private_table");
  EXPECT_EQ(ask(g, {{"type", "list_tables"}})["type"], "tables");

  // The actions, at each state of the game.
  json t = snapshot(alice, id);
  Client& mover = t["game"]["to_act"] == 1 ? alice : bob;
  Client& other = t["game"]["to_act"] == 1 ? bob : alice;
  EXPECT_EQ(action(other, "roll", t)["code"], "not_your_turn");
  EXPECT_EQ(action(carol, "roll", t)["code"], "not_seated");
  EXPECT_EQ(ask(mover, {{"type", "hint"}, {"table", id}})["code"], "hints_unavailable");
  // Quick messages reach the other player; one per seat every two seconds.
  json said = ask(mover, {{"type", "quick_message"}, {"table", id}, {"code", "good_luck"}});
  EXPECT_EQ(said["type"], "ok") << said;
  json heard = other->next("quick_message");
  EXPECT_EQ(heard["code"], "good_luck");
  EXPECT_EQ(heard["seat"], t["game"]["to_act"]);
  EXPECT_EQ(ask(mover, {{"type", "quick_message"}, {"table", id}, {"code", "oops"}})["code"],
            "rate_limited");
  EXPECT_EQ(ask(carol, {{"type", "quick_message"}, {"table", id}, {"code", "oops"}})["code"],
            "not_seated");
  EXPECT_EQ(ask(other, {{"type", "quick_message"}, {"table", id}, {"code", "hello"}})["code"],
            "bad_request");
  EXPECT_EQ(action(mover, "move", t, {{"from", 0}, {"to", 1}})["code"], "roll_expected");
  json stale = t;
  stale["version"] = t["version"].get<std::int64_t>() - 1;
  json refused = action(mover, "roll", stale);
  EXPECT_EQ(refused["code"], "stale_version");
  EXPECT_TRUE(refused.contains("snapshot"));
  // Throw until a throw leaves a move to make.
  for (int i = 0; i < 50; ++i) {
    t = snapshot(alice, id);
    Client& who = t["game"]["to_act"] == 1 ? alice : bob;
    if (!t["game"]["legal_moves"].empty()) {
      EXPECT_EQ(action(who, "roll", t)["code"], "move_expected");
      EXPECT_EQ(action(who, "move", t, {{"from", 60}, {"to", 61}})["code"], "illegal_move");
      const json& m = t["game"]["legal_moves"][0];
      EXPECT_EQ(action(who, "move", t, {{"from", m["from"]}, {"to", m["to"]}})["type"],
                "action_ok");
      break;
    }
    EXPECT_EQ(action(who, "roll", t)["type"], "action_ok");
  }
  // Another node changed the table meanwhile: this node's commit is refused.
  t = snapshot(alice, id);
  sql("UPDATE tables SET version = version + 1 WHERE id = '" + id + "'");
  EXPECT_EQ(action(t["game"]["to_act"] == 1 ? alice : bob, "resign", t)["code"], "conflict");
  sql("UPDATE tables SET version = version - 1 WHERE id = '" + id + "'");
  EXPECT_EQ(action(bob, "leave", t)["type"], "action_ok");
  t = snapshot(alice, id);
  EXPECT_EQ(action(bob, "roll", t)["code"], "left_table");
  EXPECT_EQ(action(alice, "resign", t)["code"], "game_over");

  // A table left before anyone joined closes.
  json lone = ask(alice, {{"type", "create_table"}});
  EXPECT_EQ(action(alice, "leave", lone["table"])["type"], "action_ok");
  EXPECT_EQ(
      ask(alice,
          {{"type", "set_visibility"}, {"table", lone["table"]["id"]}, {"public", true}})["code"],
      "table_closed");
  // The cap on open tables (2 here).
  ask(carol, {{"type", "create_table"}});
  ask(carol, {{"type", "create_table"}});
  EXPECT_EQ(ask(carol, {{"type", "create_table"}})["code"], "too_many_tables");

  // Matchmaking.
  EXPECT_EQ(ask(alice, {{"type", "find_match"}})["type"], "queued");
  json cancelled = ask(alice, {{"type", "cancel_match"}});
  EXPECT_EQ(cancelled["cancelled"], true);
  EXPECT_EQ(ask(alice, {{"type", "find_match"}})["type"], "queued");
  EXPECT_EQ(ask(bob, {{"type", "find_match"}})["type"], "queued");
  json found = alice->next("match_found");
  EXPECT_EQ(found["you"].is_number(), true);
  EXPECT_EQ(bob->next("match_found")["type"], "match_found");

  // Bots: a bot account's connection offers games, players list and challenge it.
  std::string dave_cookie = register_user("dave");
  std::string token = body_json(post("/api/bot", {{"bot", true}}, dave_cookie))["token"];
  BotWs dave(port_);
  ASSERT_EQ(dave.connect(token), 0u);
  EXPECT_EQ(ask(carol, {{"type", "bot_ready"}, {"rules", {"finkel"}}})["code"], "not_bot");
  sent_.insert("bot_ready");
  EXPECT_EQ(dave.request({{"type", "bot_ready"}, {"rules", {"finkel"}}})["type"], "bot_ready");
  EXPECT_EQ(ask(g, {{"type", "list_bots"}})["bots"][0]["name"], "dave");
  EXPECT_EQ(ask(g, {{"type", "challenge_bot"}, {"bot", "nobody"}})["code"], "no_bot");
  EXPECT_EQ(ask(g, {{"type", "challenge_bot"}, {"bot", "dave"}, {"rules", "masters"}})["code"],
            "bot_refuses");
  EXPECT_EQ(ask(g, {{"type", "challenge_bot"}, {"bot", "dave"}})["type"], "match_found");
  EXPECT_EQ(dave.next("match_found")["you"].is_number(), true);
  EXPECT_EQ(ask(carol, {{"type", "challenge_bot"}, {"bot", "dave"}})["code"], "bot_busy");
  // Challenges between players (docs/protocol.md, "Challenges").
  EXPECT_EQ(ask(g, {{"type", "challenge_player"}, {"to", "bob"}})["code"], "login_required");
  EXPECT_EQ(ask(carol, {{"type", "challenge_player"}, {"to", "dave"}})["code"], "bad_request");
  EXPECT_EQ(ask(carol, {{"type", "challenge_player"}, {"to", "nobody"}})["code"], "not_found");
  json challenge = ask(carol, {{"type", "challenge_player"}, {"to", "bob"}});
  ASSERT_EQ(challenge["type"], "challenge_sent") << challenge;
  json challenge_id = challenge["challenge"]["id"];
  EXPECT_EQ(bob->next("challenged")["challenge"]["id"], challenge_id);
  EXPECT_EQ(
      ask(bob,
          {{"type", "challenge_answer"}, {"challenge", challenge_id}, {"accept", false}})["type"],
      "ok");
  EXPECT_EQ(carol->next("challenge_ended")["reason"], "declined");
  EXPECT_EQ(ask(carol, {{"type", "challenge_cancel"}, {"challenge", challenge_id}})["code"],
            "not_found");
  // A player who blocks the challenger refuses the challenge (docs/server.md, "Blocking").
  ASSERT_EQ(post("/api/blocks", {{"username", "carol"}, {"block", true}}, bob.cookie).result_int(),
            200);
  EXPECT_EQ(ask(carol, {{"type", "challenge_player"}, {"to", "bob"}})["code"], "refused");
  // A rematch: refused before the end, offered and accepted after it.
  std::string matched = found["table"]["id"];
  EXPECT_EQ(ask(alice, {{"type", "rematch"}, {"table", matched}})["code"], "no_rematch");
  EXPECT_EQ(action(alice, "resign", snapshot(alice, matched))["type"], "action_ok");
  EXPECT_EQ(ask(alice, {{"type", "rematch"}, {"table", matched}})["type"], "ok");
  EXPECT_TRUE(
      ask(bob, {{"type", "rematch"}, {"table", matched}, {"accept", true}})["rematch"]["table"]
          .is_string());

  // Pass and play: undo, and what it refuses.
  json local = ask(g, {{"type", "create_table"}, {"local", true}});
  ASSERT_EQ(local["type"], "joined");
  EXPECT_EQ(action(g, "undo", local["table"])["code"], "nothing_to_undo");
  EXPECT_EQ(
      ask(g,
          {{"type", "set_visibility"}, {"table", local["table"]["id"]}, {"public", true}})["code"],
      "local_table");
  EXPECT_EQ(action(alice, "undo", snapshot(alice, id))["code"], "not_local");
  for (int i = 0; i < 50; ++i) {
    json lt = snapshot(g, local["table"]["id"]);
    if (!lt["game"]["legal_moves"].empty()) {
      const json& m = lt["game"]["legal_moves"][0];
      EXPECT_EQ(action(g, "move", lt, {{"from", m["from"]}, {"to", m["to"]}})["type"], "action_ok");
      EXPECT_EQ(action(g, "undo", snapshot(g, local["table"]["id"]))["type"], "action_ok");
      break;
    }
    EXPECT_EQ(action(g, "roll", lt)["type"], "action_ok");
  }

  // The database fails: the action is refused, nothing is half done.
  json vs = ask(alice, {{"type", "create_table"}, {"level", "easy"}});
  sql("ALTER TABLE tables RENAME TO tables_gone");
  EXPECT_EQ(action(alice, "resign", snapshot(alice, vs["table"]["id"]))["code"], "internal");
  sql("ALTER TABLE tables_gone RENAME TO tables");

  // Too fast: a server with a small allowance.
  stop_server();
  ServerConfig slow = base_config();
  slow.ws_burst = 2;
  slow.ws_refill_per_sec = 0.001;
  ServerFixture::start_server(slow);
  Client s = guest();
  for (int i = 0; i < 4; ++i) ask(s, {{"type", "ping"}});

  for (const std::string& type : types) EXPECT_TRUE(sent_.count(type)) << "not tested: " << type;
  for (const std::string& code : codes) EXPECT_TRUE(codes_.count(code)) << "not provoked: " << code;
  for (const std::string& code : codes_)
    EXPECT_TRUE(codes.count(code)) << "answered but not documented: " << code;
}

}  // namespace
}  // namespace ur::server
