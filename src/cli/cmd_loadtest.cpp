// `ur loadtest`: a load benchmark of the online server (a benchmark, not a test). It starts a
// server in this process (or targets one with --port), opens --clients WebSocket clients on
// loopback in pairs, and each pair plays complete games as guests: one creates a table, the other
// joins through its invite, then the player to act throws or makes a random legal move after a
// think time; a finished game is followed by a new one until --duration ends. It reports games/s,
// actions/s, the action→broadcast latency (from sending an action to receiving the table update
// with its version) as p50/p90/p99/max, and every error. Clients run on one thread of their own.
#include <sys/resource.h>

#include <boost/asio/as_tuple.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <memory>
#include <thread>
#include <vector>

#include "cli/commands.h"
#include "cli/loadtest_puzzles.h"
#include "cli/ws_client.h"
#include "engine/random.h"
#include "server/server.h"

namespace ur::cli {
namespace {

namespace websocket = beast::websocket;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct LoadOptions {
  int clients = 4000;
  int games = 2000;
  double duration = 60;
  int think_ms = 1000;
  int port = 0;  // 0: start a server in this process
  std::string rules = "finkel";
  int connect_per_sec = 1000;
  bool json_out = false;
  int puzzles = 0;  // > 0: the puzzle mode (loadtest_puzzles.h)
  std::string db;   // the puzzle mode's database ("": a fresh SQLite file)
};

struct LoadStats {
  Clock::time_point measure_from;
  std::vector<double> latency_ms;  // actions sent after measure_from
  long actions = 0, games_started = 0, games_finished = 0, errors = 0, connect_failures = 0;
  int connected = 0;
  std::vector<std::string> first_errors;
  void error(const std::string& what) {
    ++errors;
    if (first_errors.size() < 5) first_errors.push_back(what);
  }
};

class Bot : public std::enable_shared_from_this<Bot> {
 public:
  Bot(net::io_context& ioc, const LoadOptions& o, LoadStats& s, int index)
      : ioc_(ioc), opt_(o), stats_(s), ws_(ioc), think_(ioc), rng_(0x10ad + index) {}

  void pair_with(std::shared_ptr<Bot> guest) { partner_ = std::move(guest); }
  void stop() { stopping_ = true; }

  net::awaitable<void> run(std::uint16_t port, Clock::time_point deadline) {
    auto self = shared_from_this();
    const ServerAddress server{"127.0.0.1", port};
    const std::vector<std::pair<std::string, std::string>> no_headers;
    WsConnect c = co_await ws_connect(ws_, server, no_headers);
    if (c.error) {
      ++stats_.connect_failures;
      co_return;
    }
    ++stats_.connected;
    open_ = true;
    if (partner_) co_await create_table();
    while (!stopping_ && Clock::now() < deadline) {
      json msg;
      if (auto ec = co_await ws_read(ws_, msg)) {
        if (!stopping_) stats_.error("read: " + ec.message());
        break;
      }
      co_await handle(msg);
    }
    open_ = false;
    co_await ws_.async_close(websocket::close_code::normal, kNoThrow);
  }

  // The host hands its invite over; the guest joins.
  net::awaitable<void> join(std::string table, std::string invite, std::shared_ptr<Bot> self) {
    (void)self;
    if (!open_ || stopping_) co_return;
    // Named, not a temporary inside co_await (GCC 12 miscompiles initializer lists there).
    json msg{{"v", 1}, {"type", "join_table"}, {"table", table}, {"invite", invite}};
    co_await send(msg);
  }

 private:
  net::awaitable<void> send(const json& j) {
    auto ec = co_await ws_send(ws_, j);
    if (ec && !stopping_) stats_.error("write: " + ec.message());
  }

  net::awaitable<void> create_table() {
    if (stopping_) co_return;
    ++stats_.games_started;
    json msg{{"v", 1}, {"type", "create_table"}, {"rules", opt_.rules}};
    co_await send(msg);
  }

  net::awaitable<void> handle(const json& msg) {
    std::string type = msg.value("type", "");
    if (type == "error") {
      stats_.error(msg.value("code", "?") + ": " + msg.value("message", ""));
      co_return;
    }
    if (type == "joined") {
      seat_ = msg.value("you", 0);
      table_ = msg["table"];
      if (msg.contains("invite") && partner_)
        net::co_spawn(ioc_, partner_->join(table_["id"], msg["invite"], partner_), net::detached);
      co_await maybe_act();
      co_return;
    }
    if (type != "table") co_return;
    const json& t = msg["table"];
    if (!table_.is_object() || t["id"] != table_["id"]) co_return;
    std::int64_t v = t["version"];
    if (pending_version_ && v >= pending_version_) {
      if (pending_sent_ >= stats_.measure_from)
        stats_.latency_ms.push_back(
            std::chrono::duration<double, std::milli>(Clock::now() - pending_sent_).count());
      pending_version_ = 0;
    }
    table_ = t;
    if (t["status"] == "finished") {
      if (partner_) {
        ++stats_.games_finished;
        co_await create_table();
      }
      co_return;
    }
    co_await maybe_act();
  }

  net::awaitable<void> maybe_act() {
    if (stopping_ || table_["status"] != "playing" || table_["game"]["to_act"] != seat_ ||
        pending_version_)
      co_return;
    std::int64_t version = table_["version"];
    double jitter = 0.5 + static_cast<double>(rng_.below(1000)) / 1000.0;
    think_.expires_after(std::chrono::milliseconds(static_cast<int>(opt_.think_ms * jitter)));
    co_await think_.async_wait(kNoThrow);
    if (stopping_ || table_["version"] != version) co_return;
    json a{{"v", 1},
           {"table", table_["id"]},
           {"version", version},
           {"action_id", std::to_string(++action_id_)}};
    const json& moves = table_["game"]["legal_moves"];
    if (moves.empty()) {
      a["type"] = "roll";
    } else {
      const json& m = moves[rng_.below(static_cast<std::uint32_t>(moves.size()))];
      a["type"] = "move";
      a["from"] = m["from"];
      a["to"] = m["to"];
      a["kind"] = m["kind"];
    }
    pending_version_ = version + 1;
    pending_sent_ = Clock::now();
    ++stats_.actions;
    co_await send(a);
  }

  net::io_context& ioc_;
  const LoadOptions& opt_;
  LoadStats& stats_;
  WsStream ws_;
  net::steady_timer think_;
  Rng rng_;
  std::shared_ptr<Bot> partner_;  // set on the host of a pair
  json table_;
  int seat_ = 0;
  std::int64_t pending_version_ = 0;
  Clock::time_point pending_sent_;
  long action_id_ = 0;
  bool open_ = false;
  bool stopping_ = false;
};

// Connects the bots at `per_sec` a second: each pair's guest first, so that it is there when the
// host's invite comes. (A plain coroutine: GCC 12 mishandles capturing coroutine lambdas.)
net::awaitable<void> connect_all(net::io_context& ioc, std::vector<std::shared_ptr<Bot>>& bots,
                                 std::uint16_t port, Clock::time_point deadline, int per_sec) {
  net::steady_timer pace(ioc);
  for (std::size_t i = 0; i + 1 < bots.size(); i += 2) {
    net::co_spawn(ioc, bots[i + 1]->run(port, deadline), net::detached);
    net::co_spawn(ioc, bots[i]->run(port, deadline), net::detached);
    pace.expires_after(std::chrono::microseconds(2'000'000 / std::max(1, per_sec)));
    co_await pace.async_wait(net::use_awaitable);
  }
}

void raise_fd_limit() {
  rlimit r{};
  if (getrlimit(RLIMIT_NOFILE, &r) == 0 && r.rlim_cur < r.rlim_max) {
    r.rlim_cur = r.rlim_max;
    setrlimit(RLIMIT_NOFILE, &r);
  }
}

// The server a loadtest starts for itself when no --port is given: its data in `dir`, no limits
// that a crowd of bots on one address would hit.
server::ServerConfig own_server_config(const LoadOptions& o, const std::filesystem::path& dir) {
  server::ServerConfig c;
  c.port = 0;
  c.data_dir = dir.string();
  c.db = (dir / "ur.db").string();
  c.web_root = "";
  c.handle_signals = false;
  c.access_log = false;
  c.max_ws_per_ip = o.clients + 16;
  c.ws_ip_burst = 1e9;
  c.ws_ip_refill_per_sec = 1e9;
  // Every bot is a guest at 127.0.0.1: the per-address caps are for a real crowd, not this one.
  c.max_open_tables_per_address = o.clients;
  return c;
}

// The figures of a run (the --json answer): `measured` seconds after the ramp-up, `total` in all.
json make_report(const LoadOptions& o, const LoadStats& stats, int pairs, double measured,
                 Clock::duration total) {
  long measured_actions = static_cast<long>(stats.latency_ms.size());
  std::vector<double> lat = stats.latency_ms;
  return json{{"clients", pairs * 2},
              {"concurrent_games", pairs},
              {"duration_s", measured},
              {"think_ms", o.think_ms},
              {"rules", o.rules},
              {"connected", stats.connected},
              {"connect_failures", stats.connect_failures},
              {"games_finished", stats.games_finished},
              {"games_per_s", static_cast<double>(stats.games_finished) /
                                  std::chrono::duration<double>(total).count()},
              {"actions_per_s", static_cast<double>(measured_actions) / measured},
              {"latency_ms",
               {{"p50", percentile(lat, 0.5)},
                {"p90", percentile(lat, 0.9)},
                {"p99", percentile(lat, 0.99)},
                {"max", lat.empty() ? 0.0 : *std::max_element(lat.begin(), lat.end())}}},
              {"errors", stats.errors},
              {"first_errors", stats.first_errors}};
}

void print_report(const LoadOptions& o, const LoadStats& stats, const json& report) {
  std::fprintf(stderr, "\n");
  std::printf(
      "%d clients, %d concurrent games (%s, think %d ms), measured %.0f s after ramp-up\n"
      "games finished %ld (%.2f games/s), actions %.0f/s\n"
      "action -> broadcast latency: p50 %.2f ms, p90 %.2f ms, p99 %.2f ms, max %.2f ms\n"
      "connected %d, connect failures %ld, errors %ld\n",
      report["clients"].get<int>(), report["concurrent_games"].get<int>(), o.rules.c_str(),
      o.think_ms, report["duration_s"].get<double>(), stats.games_finished,
      report["games_per_s"].get<double>(), report["actions_per_s"].get<double>(),
      report["latency_ms"]["p50"].get<double>(), report["latency_ms"]["p90"].get<double>(),
      report["latency_ms"]["p99"].get<double>(), report["latency_ms"]["max"].get<double>(),
      stats.connected, stats.connect_failures, stats.errors);
  for (const std::string& e : stats.first_errors) std::printf("  error: %s\n", e.c_str());
}

int run_loadtest(const LoadOptions& o) {
  raise_fd_limit();
  std::unique_ptr<server::Server> srv;
  std::thread server_thread;
  std::filesystem::path dir;
  std::uint16_t port = static_cast<std::uint16_t>(o.port);
  if (!o.port) {
    dir = std::filesystem::temp_directory_path() / ("ur-loadtest-" + std::to_string(getpid()));
    srv = std::make_unique<server::Server>(own_server_config(o, dir));
    if (std::string err = srv->start(); !err.empty()) {
      std::cerr << "ur loadtest: " << err << "\n";
      return 1;
    }
    port = srv->port();
    server_thread = std::thread([&] { srv->run(); });
  }
  int pairs = std::min(o.games, o.clients / 2);
  net::io_context ioc(1);
  LoadStats stats;
  auto start = Clock::now();
  double ramp = static_cast<double>(pairs * 2) / std::max(1, o.connect_per_sec);
  stats.measure_from = start + std::chrono::milliseconds(static_cast<int>(ramp * 1000) + 2000);
  auto deadline =
      stats.measure_from + std::chrono::milliseconds(static_cast<int>(o.duration * 1000));
  std::vector<std::shared_ptr<Bot>> bots;
  for (int i = 0; i < pairs * 2; ++i) bots.push_back(std::make_shared<Bot>(ioc, o, stats, i));
  for (int i = 0; i < pairs; ++i) bots[2 * i]->pair_with(bots[2 * i + 1]);
  net::co_spawn(ioc, connect_all(ioc, bots, port, deadline, o.connect_per_sec), net::detached);
  net::steady_timer progress(ioc);
  std::function<void()> tick = [&] {
    progress.expires_after(std::chrono::seconds(5));
    progress.async_wait([&](boost::system::error_code ec) {
      if (ec) return;
      if (!o.json_out)
        std::fprintf(stderr, "\r%5.0f s  connected %d  games %ld/%ld  actions %ld  errors %ld   ",
                     std::chrono::duration<double>(Clock::now() - start).count(), stats.connected,
                     stats.games_finished, stats.games_started, stats.actions, stats.errors);
      if (Clock::now() < deadline)
        tick();
      else
        for (auto& b : bots) b->stop();
    });
  };
  tick();
  ioc.run_until(deadline + std::chrono::seconds(3));
  for (auto& b : bots) b->stop();
  ioc.stop();
  double measured = std::chrono::duration<double>(deadline - stats.measure_from).count();
  json report = make_report(o, stats, pairs, measured, deadline - start);
  if (srv) {
    srv->stop();
    server_thread.join();
    srv.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
  if (o.json_out)
    std::cout << report.dump(2) << "\n";
  else
    print_report(o, stats, report);
  return stats.errors == 0 && stats.connect_failures == 0 ? 0 : 1;
}

}  // namespace

void add_loadtest_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "loadtest", "Load benchmark of the online server: bot clients play complete games");
  static LoadOptions o;
  cmd->add_option("--clients", o.clients, "WebSocket clients (two per game)")
      ->check(CLI::Range(2, 100000))
      ->capture_default_str();
  cmd->add_option("--games", o.games, "concurrent games")
      ->check(CLI::Range(1, 50000))
      ->capture_default_str();
  cmd->add_option("--duration", o.duration, "seconds measured after the ramp-up")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--think-ms", o.think_ms, "mean think time of a bot before each action")
      ->check(CLI::Range(0, 60000))
      ->capture_default_str();
  cmd->add_option("--rules", o.rules, "rule set of the games")->capture_default_str();
  cmd->add_option("--port", o.port,
                  "use the server already listening on 127.0.0.1:PORT (start it with "
                  "--max-open-tables-per-address at least the number of clients)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--connect-rate", o.connect_per_sec, "new connections per second")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_flag("--json", o.json_out, "print the report as JSON");
  cmd->add_option("--puzzles", o.puzzles,
                  "puzzle mode: store this many puzzles, and --clients accounts solve them")
      ->check(CLI::Range(0, 10'000'000));
  cmd->add_option("--db", o.db,
                  "puzzle mode: the database, as ur serve --db names it (postgresql://...); "
                  "default a fresh SQLite file");
  cmd->callback([] {
    if (!rules_option("loadtest", o.rules)) return;
    exit_status() =
        o.puzzles > 0
            ? run_puzzle_loadtest({o.puzzles, o.clients, o.duration, o.think_ms, o.json_out, o.db})
            : run_loadtest(o);
  });
}

}  // namespace ur::cli
