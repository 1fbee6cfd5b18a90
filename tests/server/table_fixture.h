// The fixture of the table tests: a server with no per-connection message limit, clients for
// users and guests, and helpers that start a game through an invite, read snapshots and play
// the first legal action until the game ends.
#pragma once

#include <memory>
#include <string>

#include "harness.h"

namespace ur::server::test {

class TableFixture : public ServerFixture {
 protected:
  // The tests play far faster than people: no per-connection message limit.
  ServerConfig config() {
    ServerConfig c = base_config();
    c.ws_burst = 1e9;
    c.ws_refill_per_sec = 1e9;
    c.ws_ip_burst = 1e9;
    c.ws_ip_refill_per_sec = 1e9;
    return c;
  }
  void start_server() { ServerFixture::start_server(config()); }

  struct Client {
    std::string cookie;
    std::unique_ptr<TestWs> ws;
    TestWs& operator*() { return *ws; }
    TestWs* operator->() { return ws.get(); }
  };

  Client user(const std::string& name) {
    Client c{register_user(name), std::make_unique<TestWs>(port_)};
    EXPECT_EQ(c->connect(c.cookie), 0u);
    ready(*c);
    return c;
  }
  // The server registers a socket (presence, the account's bus topic) before it reads the
  // socket's first message: once `hello` is answered, what others send this player reaches it.
  static void ready(TestWs& ws) { EXPECT_EQ(ws.request({{"type", "hello"}})["type"], "welcome"); }
  Client guest() {
    Client c{"", std::make_unique<TestWs>(port_)};
    EXPECT_EQ(c->connect(), 0u);
    return c;
  }

  // alice creates, bob joins by the invite: both "joined" answers; returns the table id.
  std::string start_game(Client& alice, Client& bob, json options = json::object()) {
    options["type"] = "create_table";
    json created = alice->request(options);
    EXPECT_EQ(created["type"], "joined") << created;
    EXPECT_EQ(created["you"], 1);
    EXPECT_EQ(created["table"]["status"], "waiting");
    std::string id = created["table"]["id"];
    json joined =
        bob->request({{"type", "join_table"}, {"table", id}, {"invite", created["invite"]}});
    EXPECT_EQ(joined["type"], "joined") << joined;
    EXPECT_EQ(joined["you"], 2);
    EXPECT_EQ(joined["table"]["status"], "playing");
    return id;
  }

  // The current snapshot as `c` sees it (open_table answers with it).
  json snapshot(Client& c, const std::string& id) {
    json j = c->request({{"type", "open_table"}, {"table", id}});
    EXPECT_EQ(j["type"], "joined") << j;
    return j["table"];
  }

  // One action by the player to act: a throw when one is due, else the first legal move.
  json act(Client& c, const json& table, const std::string& action_id) {
    return c->request(first_action(table, action_id));
  }

  // Plays to the end; returns the final snapshot (both players are subscribed to the table).
  json play_out(Client& light, Client& dark, json table, int max_actions = 5000) {
    int n = 0;
    while (table["status"] == "playing" && n < max_actions) {
      Client& c = table["game"]["to_act"] == 1 ? light : dark;
      json answer = act(c, table, "a" + std::to_string(++n));
      EXPECT_EQ(answer["type"], "action_ok") << answer;
      if (answer["type"] != "action_ok") break;
      std::int64_t v = answer["version"];
      table = c->next_if([&](const json& j) {
        return j["type"] == "table" && j["table"]["version"] == v;
      })["table"];
    }
    return table;
  }

  json me(const Client& c) { return body_json(get("/api/me", c.cookie))["user"]; }
};

}  // namespace ur::server::test
