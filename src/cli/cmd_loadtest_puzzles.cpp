// The puzzle mode of `ur loadtest` (loadtest_puzzles.h): a server in this process whose database
// holds --puzzles puzzles, and --clients accounts that each, on one keep-alive HTTP connection,
// ask for their next puzzle, answer it with one of its moves after a think time, and start
// again. The puzzles are made up (a fixed position, two moves, ratings spread over 800-2,500,
// three themes in turn): choosing the next one costs the same whatever they hold, and a
// table is not needed. Only the choice of the next puzzle and the rated attempts are measured.
#include <unistd.h>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <random>
#include <thread>

#include "cli/commands.h"
#include "cli/loadtest_puzzles.h"
#include "server/server.h"
#include "server/storage/storage.h"

namespace ur::cli {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

struct Stats {
  Clock::time_point measure_from, deadline;
  std::vector<double> next_ms, attempt_ms;
  long errors = 0;
  int ready = 0;
  std::string name_prefix = "solver";  // + the solver's index: its account's name
  std::vector<std::string> first_errors;
  void error(const std::string& what) {
    if (++errors <= 5) first_errors.push_back(what);
  }
};

// Stores `count` made-up puzzles (the same ids every run: a named database keeps them once, and
// one that holds as many Finkel puzzles already is left as it is); an error message when the
// database does not open.
std::string store_puzzles_for_load(const std::string& db, int count) {
  server::OpenStorageResult opened = server::open_storage(db);
  if (!opened.storage) return opened.error;
  auto& storage = opened.storage;
  // A named database filled by an earlier run holds them already: the same ids, stored once.
  if (storage->count_puzzles("finkel") >= count) return "";
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> rating(800, 2500);
  const char* themes[] = {",capture,", ",escape,safety,", ",race,bear-off,"};
  std::vector<server::PuzzleRow> rows;
  for (int i = 0; i < count; ++i) {
    server::PuzzleRow p;
    char id[17];
    std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(rng()));
    p.id = id;
    p.rules = "finkel";
    p.position = "L4/0000006/0000005";
    p.throw_k = 4;
    p.moves = R"([{"move":"0->4","value":0.45},{"move":"6->10","value":0.52}])";
    p.best = "6->10";
    p.themes = themes[i % 3];
    p.rating = rating(rng);
    rows.push_back(std::move(p));
  }
  storage->add_puzzles(rows, 1);
  return "";
}

// One request on the solver's connection; its status and JSON body (discarded on failure).
net::awaitable<std::pair<unsigned, json>> call(beast::tcp_stream& s, http::verb verb,
                                               const std::string& target, const json& body,
                                               const std::string& cookie, std::string* set_cookie) {
  http::request<http::string_body> req{verb, target, 11};
  req.set(http::field::host, "127.0.0.1");
  if (!cookie.empty()) req.set(http::field::cookie, cookie);
  if (verb == http::verb::post) {
    req.set(http::field::content_type, "application/json");
    req.body() = body.dump();
    req.prepare_payload();
  }
  co_await http::async_write(s, req, net::use_awaitable);
  beast::flat_buffer buf;
  http::response<http::string_body> res;
  co_await http::async_read(s, buf, res, net::use_awaitable);
  if (set_cookie) *set_cookie = std::string(res[http::field::set_cookie]);
  co_return std::pair{res.result_int(), json::parse(res.body(), nullptr, false)};
}

double ms_since(Clock::time_point t) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t).count();
}

net::awaitable<void> solver(std::uint16_t port, int index, const PuzzleLoadOptions& o,
                            Stats& stats) {
  auto ex = co_await net::this_coro::executor;
  beast::tcp_stream s(ex);
  std::mt19937_64 rng(static_cast<std::uint64_t>(index) + 1);
  std::exponential_distribution<double> think(1.0 / std::max(1, o.think_ms));
  net::steady_timer timer(ex);
  try {
    co_await s.async_connect({net::ip::make_address("127.0.0.1"), port}, net::use_awaitable);
    std::string set_cookie;
    const json who{{"username", stats.name_prefix + std::to_string(index)},
                   {"password", "load-test-pw"}};
    auto [status, body] = co_await call(s, http::verb::post, "/api/register", who, "", &set_cookie);
    if (status != 201) throw std::runtime_error("register: " + std::to_string(status));
    const std::string cookie = set_cookie.substr(0, set_cookie.find(';'));
    ++stats.ready;
    while (Clock::now() < stats.deadline) {
      timer.expires_after(std::chrono::milliseconds(static_cast<int>(think(rng))));
      co_await timer.async_wait(net::use_awaitable);
      auto t0 = Clock::now();
      const json none;
      auto [ns, next] =
          co_await call(s, http::verb::get, "/api/puzzles/next", none, cookie, nullptr);
      const double next_ms = ms_since(t0);
      if (ns != 200) throw std::runtime_error("next: " + std::to_string(ns));
      const json& p = next["puzzle"];
      const std::string move = p["moves"][rng() % p["moves"].size()];
      const json attempt{{"move", move}};
      const std::string target = "/api/puzzles/" + p["id"].get<std::string>() + "/attempt";
      t0 = Clock::now();
      auto [as, answer] = co_await call(s, http::verb::post, target, attempt, cookie, nullptr);
      if (as != 200) throw std::runtime_error("attempt: " + std::to_string(as));
      if (t0 >= stats.measure_from) {
        stats.next_ms.push_back(next_ms);
        stats.attempt_ms.push_back(ms_since(t0));
      }
    }
  } catch (const std::exception& e) {
    stats.error(e.what());
  }
}

server::ServerConfig own_config(const PuzzleLoadOptions& o, const std::filesystem::path& dir) {
  server::ServerConfig c;
  c.port = 0;
  c.data_dir = dir.string();
  c.db = o.db.empty() ? (dir / "ur.db").string() : o.db;
  c.web_root = "";
  c.handle_signals = false;
  c.access_log = false;
  // Every solver is at 127.0.0.1 and registers at once: limits for a real crowd, not this one.
  c.auth_burst = c.puzzle_ip_burst = c.puzzle_user_burst = 1e9;
  c.auth_refill_per_sec = c.puzzle_ip_refill_per_sec = c.puzzle_user_refill_per_sec = 1e9;
  c.max_ws_per_ip = o.solvers + 16;
  c.pwhash_opslimit = 1;  // the cheapest argon2id: registering is not what is measured
  c.pwhash_memlimit = 8192;
  return c;
}

json quantiles(std::vector<double> v) {
  return json{{"p50", percentile(v, 0.5)},
              {"p90", percentile(v, 0.9)},
              {"p99", percentile(v, 0.99)},
              {"max", v.empty() ? 0.0 : *std::max_element(v.begin(), v.end())},
              {"count", v.size()}};
}

}  // namespace

int run_puzzle_loadtest(const PuzzleLoadOptions& o) {
  const auto dir =
      std::filesystem::temp_directory_path() / ("ur-loadtest-puzzles-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string db = o.db.empty() ? (dir / "ur.db").string() : o.db;
  if (std::string err = store_puzzles_for_load(db, o.puzzles); !err.empty()) {
    std::cerr << "ur loadtest: " << err << "\n";
    return 1;
  }
  auto srv = std::make_unique<server::Server>(own_config(o, dir));
  if (std::string err = srv->start(); !err.empty()) {
    std::cerr << "ur loadtest: " << err << "\n";
    return 1;
  }
  std::thread server_thread([&] { srv->run(); });
  net::io_context ioc(1);
  Stats stats;
  // A named database keeps the accounts of earlier runs: this run's names are new ("l" and the
  // start time in seconds within a day, then "x" and the index: at most 20 characters).
  if (!o.db.empty()) stats.name_prefix = "l" + std::to_string(std::time(nullptr) % 86400) + "x";
  // Registering takes a while; the measurement starts once it is surely over.
  stats.measure_from = Clock::now() + std::chrono::seconds(5 + o.solvers / 100);
  stats.deadline =
      stats.measure_from + std::chrono::milliseconds(static_cast<int>(o.duration * 1000));
  for (int i = 0; i < o.solvers; ++i)
    net::co_spawn(ioc, solver(srv->port(), i, o, stats), net::detached);
  ioc.run();
  srv->stop();
  server_thread.join();
  srv.reset();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  const json report{{"puzzles", o.puzzles},
                    {"solvers", o.solvers},
                    {"registered", stats.ready},
                    {"duration_s", o.duration},
                    {"think_ms", o.think_ms},
                    {"next_ms", quantiles(stats.next_ms)},
                    {"attempt_ms", quantiles(stats.attempt_ms)},
                    {"errors", stats.errors},
                    {"first_errors", stats.first_errors}};
  if (o.json_out)
    std::cout << report.dump(2) << "\n";
  else
    std::cout << report.dump(1) << "\n";
  return stats.errors == 0 ? 0 : 1;
}

}  // namespace ur::cli
