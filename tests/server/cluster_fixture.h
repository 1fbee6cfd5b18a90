// The cluster tests' fixture: three real `ur serve` nodes over one PostgreSQL database with a
// Redis event bus, and HAProxy in front, as `scripts/cluster test` starts them (UR_TEST_CLUSTER_*
// says where); its tests skip without that environment. Used by cluster_test.cpp and
// netfault_test.cpp (the same cluster in a network namespace of scripts/netfault).
#pragma once

#include <signal.h>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <iterator>
#include <set>
#include <sstream>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <random>

#include "harness.h"
#include "server/cluster/redis_commands.h"
#include "server/cluster/redis_pubsub.h"
#include "server/cluster/table_lease.h"
#include "server/storage/storage.h"

namespace ur::server::test {

inline std::vector<std::uint16_t> cluster_nodes() {
  std::vector<std::uint16_t> ports;
  const char* env = std::getenv("UR_TEST_CLUSTER_NODES");
  if (!env) return ports;
  std::stringstream in(env);
  std::string p;
  while (std::getline(in, p, ',')) ports.push_back(static_cast<std::uint16_t>(std::stoi(p)));
  return ports;
}

// One POST from the loopback address `source`, which the node sees as the client's address: the
// account endpoints' limit, shared by the nodes, counts each address apart (a test registering
// from 127.0.0.1 alone would share one bucket with every other test of the cluster).
inline Response post_from(const std::string& source, std::uint16_t port, const std::string& target,
                          const std::string& body) {
  namespace net = boost::asio;
  net::io_context ioc;
  net::ip::tcp::socket socket(ioc);
  socket.open(net::ip::tcp::v4());
  socket.bind({net::ip::make_address(source), 0});
  socket.connect({net::ip::make_address("127.0.0.1"), port});
  http::request<http::string_body> req{http::verb::post, target, 11};
  req.set(http::field::host, "127.0.0.1");
  req.set(http::field::content_type, "application/json");
  req.body() = body;
  req.prepare_payload();
  http::write(socket, req);
  beast::flat_buffer buffer;
  Response res;
  http::read(socket, buffer, res);
  return res;
}

// A loopback address of its own for each caller (127.0.0.0/8 is all local).
inline std::string some_loopback_address() {
  static std::mt19937 rng(std::random_device{}());
  return "127." + std::to_string(1 + rng() % 250) + "." + std::to_string(rng() % 250) + "." +
         std::to_string(2 + rng() % 250);
}

class ClusterTest : public ::testing::Test {
 protected:
  void SetUp() override {
    nodes_ = cluster_nodes();
    const char* lb = std::getenv("UR_TEST_CLUSTER_BALANCER");
    if (nodes_.size() < 3 || !lb) GTEST_SKIP() << "no cluster (scripts/cluster test runs these)";
    balancer_ = static_cast<std::uint16_t>(std::stoi(lb));
  }

  struct Client {
    std::string cookie;
    std::unique_ptr<TestWs> ws;
    TestWs* operator->() { return ws.get(); }
  };

  static std::string unique(const std::string& stem) {
    return stem + std::to_string(std::random_device{}() % 1'000'000'000);
  }
  // Registers a user through node `port` and opens a socket to `ws_port` with its cookie.
  Client user(std::uint16_t port, std::uint16_t ws_port, const std::string& name) {
    Response res = post_from(some_loopback_address(), port, "/api/register",
                             json{{"username", name}, {"password", "password123"}}.dump());
    EXPECT_EQ(res.result_int(), 201) << res.body();
    Client c{session_cookie(res), std::make_unique<TestWs>(ws_port)};
    EXPECT_EQ(c->connect(c.cookie), 0u);
    return c;
  }
  static json get_json(std::uint16_t port, const std::string& target,
                       const std::string& cookie = "") {
    Request r;
    r.target = target;
    r.cookie = cookie;
    return body_json(send_http(port, r));
  }

  std::string start_game(Client& light, Client& dark) {
    json created = light->request({{"type", "create_table"}, {"rated", true}, {"public", true}});
    EXPECT_EQ(created["type"], "joined") << created;
    std::string id = created["table"]["id"];
    json joined =
        dark->request({{"type", "join_table"}, {"table", id}, {"invite", created["invite"]}});
    EXPECT_EQ(joined["type"], "joined") << joined;
    // The creator hears of the join through the bus (the join was committed on dark's node).
    light->next_if([&](const json& j) {
      return j["type"] == "table" && j["table"]["version"] == joined["table"]["version"];
    });
    return id;
  }

  // A request sent again (same action id) while the node's per-connection message limit
  // refuses it: these players act far faster than people.
  static json paced(Client& c, const json& msg) {
    for (;;) {
      json answer = c->request(msg);
      if (answer.value("code", "") != "rate_limited") return answer;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }

  static json action(const json& table, const std::string& action_id) {
    return first_action(table, action_id);
  }

  // One action by the player to act (a throw, else the first legal move); then waits until
  // both players have the new version: the other one hears of it from another node.
  json step(Client& light, Client& dark, const json& table, int n) {
    Client& c = table["game"]["to_act"] == 1 ? light : dark;
    Client& other = table["game"]["to_act"] == 1 ? dark : light;
    json answer = paced(c, action(table, "a" + std::to_string(n)));
    EXPECT_EQ(answer["type"], "action_ok") << answer;
    if (answer["type"] != "action_ok") return nullptr;
    std::int64_t v = answer["version"];
    auto at_v = [&](const json& j) { return j["type"] == "table" && j["table"]["version"] == v; };
    c->next_if(at_v);
    return other->next_if(at_v)["table"];
  }

  // Both players have version `v`; the table as the second one sees it.
  static json step_wait(Client& light, Client& dark, std::int64_t v) {
    auto at_v = [&](const json& j) { return j["type"] == "table" && j["table"]["version"] == v; };
    light->next_if(at_v);
    return dark->next_if(at_v)["table"];
  }

  json play_out(Client& light, Client& dark, json table, int& n) {
    while (table.is_object() && table["status"] == "playing" && n < 5000)
      table = step(light, dark, table, ++n);
    return table;
  }

  // Every "table" broadcast a watcher received, until (and with) `final_version`.
  static std::vector<std::int64_t> versions_until(Client& c, std::int64_t final_version) {
    std::vector<std::int64_t> seen;
    for (;;) {
      json j = c->next("table");
      seen.push_back(j["table"]["version"]);
      if (seen.back() >= final_version) return seen;
    }
  }

  // Table leases (docs/scaling.md): the stored row, the node holding it and that node's process.
  TableRow row(const std::string& id) {
    if (!db_) {
      const char* url = std::getenv("UR_TEST_CLUSTER_PG");
      OpenStorageResult r = open_storage(url ? url : "");
      if (!r.storage) throw std::runtime_error("cluster database: " + r.error);
      db_ = std::move(r.storage);
    }
    auto found = db_->find_table(id);
    if (!found) throw std::runtime_error("no table " + id);
    return *found;
  }
  // The index in nodes_ of the node holding the lease (owner_node is "127.0.0.1:PORT/suffix"),
  // waiting for a first holder; -1 when none appears.
  int owner_index(const std::string& id) {
    for (int i = 0; i < 200; ++i) {
      std::string owner = row(id).owner_node;
      for (std::size_t k = 0; k < nodes_.size(); ++k)
        if (owner.rfind("127.0.0.1:" + std::to_string(nodes_[k]) + "/", 0) == 0)
          return static_cast<int>(k);
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }
  // The ports of every node but the k-th (where the players go when node k is to be stopped).
  std::vector<std::uint16_t> nodes_but(int k) const {
    std::vector<std::uint16_t> others;
    for (std::size_t i = 0; i < nodes_.size(); ++i)
      if (static_cast<int>(i) != k) others.push_back(nodes_[i]);
    return others;
  }
  static std::string cluster_file(const std::string& name) {
    return std::string(std::getenv("UR_TEST_CLUSTER_DIR")) + "/" + name;
  }
  static pid_t node_pid(int index) {
    std::ifstream in(cluster_file("node" + std::to_string(index + 1) + "/pid"));
    pid_t pid = 0;
    in >> pid;
    return pid;
  }
  static int restart_node(int index) {
    std::string cmd = std::string("bash ") + std::getenv("UR_TEST_CLUSTER_SCRIPT") +
                      " restart-node " + std::to_string(index + 1) + " >&2";
    return std::system(cmd.c_str());
  }
  // Waits until another node holds the table at a newer epoch than `before`: the takeover time.
  std::optional<std::chrono::milliseconds> takeover(const std::string& id, const TableRow& before,
                                                    std::chrono::steady_clock::time_point since) {
    for (int i = 0; i < 400; ++i) {
      TableRow now = row(id);
      if (now.epoch > before.epoch && now.owner_node != before.owner_node)
        return std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - since);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return std::nullopt;
  }
  // A new socket on `port` for the same player, at the table again; the table as it answers.
  json reconnect(Client& c, std::uint16_t port, const std::string& id) {
    c.ws = std::make_unique<TestWs>(port);
    EXPECT_EQ(c->connect(c.cookie), 0u);
    json opened = c->request({{"type", "open_table"}, {"table", id}});
    EXPECT_EQ(opened["type"], "joined") << opened;
    return opened["table"];
  }

  std::vector<std::uint16_t> nodes_;
  std::uint16_t balancer_ = 0;
  std::unique_ptr<Storage> db_;
};

}  // namespace ur::server::test
