// Configuration of `ur serve`: every knob the server reads, with the defaults a local run wants.
// The command line (src/cli/cmd_serve.cpp) fills it; tests build one directly with small limits and
// port 0 (an ephemeral port). Plain data, validated by Server::start.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ur::server {

struct ServerConfig {
  std::string bind = "127.0.0.1";
  std::uint16_t port = 8080;        // 0 = let the kernel choose (tests)
  std::string db = "./data/ur.db";  // a path or "sqlite:PATH"
  // The event bus between nodes: "" = in-process (one node), "redis://HOST:PORT" = Redis
  // (several nodes over one PostgreSQL database; redis_pubsub.h).
  std::string bus;
  std::string data_dir = "./data";  // created if missing
  std::string web_root = "./web";   // static files; may be missing (then only the API)
  // The origins the server is published at, e.g. "https://ur.example.org": the pages allowed to
  // open WebSockets. Empty: its own addresses (http_util.h, origin_allowed).
  std::vector<std::string> public_origins;
  std::vector<std::string> allow_origins;  // extra WebSocket origins, e.g. "http://localhost:5173"
  // Load balancers whose X-Forwarded-For names the client (http_util.h: client_address).
  std::vector<std::string> trusted_proxies;
  int threads = 2;             // I/O threads
  int worker_threads = 2;      // password hashing and database work
  bool handle_signals = true;  // stop gracefully on SIGINT/SIGTERM
  bool access_log = true;      // one line per HTTP request on stderr
  bool log_json = false;       // the log as one JSON object per line (log.h)
  // GET /metrics answers only with `Authorization: Bearer <metrics_token>`; empty = off.
  std::string metrics_token;
  bool secure_cookies = false;  // add `Secure` to the session cookie (behind HTTPS)

  // Limits. A request body over max_body_bytes gets 413; a WebSocket message over
  // max_ws_message_bytes gets an error message, one over 4x that closes the socket (1009).
  std::size_t max_body_bytes = 16 * 1024;
  std::size_t max_header_bytes = 8 * 1024;
  std::size_t max_ws_message_bytes = 16 * 1024;
  std::size_t max_ws_queue = 1024;  // outbound messages queued before a slow client is dropped

  std::chrono::milliseconds http_timeout{30'000};     // read of a request, keep-alive idle
  std::chrono::milliseconds ws_idle_timeout{60'000};  // no traffic for this long = dead socket
  std::chrono::milliseconds shutdown_grace{5'000};    // then remaining connections are cut

  std::chrono::seconds session_ttl{30 * 24 * 3600};

  // Per-IP token bucket on /api/login and /api/register.
  double auth_burst = 10;            // requests allowed at once
  double auth_refill_per_sec = 0.2;  // one more every 5 s

  // Token buckets on /api/puzzles/ (docs/puzzles.md): one per address and one per account.
  double puzzle_ip_burst = 300;
  double puzzle_ip_refill_per_sec = 50;
  double puzzle_user_burst = 60;
  double puzzle_user_refill_per_sec = 2;

  // Per-WebSocket-connection token bucket on incoming messages; over it, messages are answered
  // with a rate_limited error and dropped.
  double ws_burst = 60;
  double ws_refill_per_sec = 20;

  // Per-IP limits on WebSockets: open connections, and a token bucket shared by all of an IP's
  // connections (on top of the per-connection one).
  int max_ws_per_ip = 256;
  double ws_ip_burst = 600;
  double ws_ip_refill_per_sec = 300;

  // Tables. The player to act who does nothing for idle_timeout loses the game; a computer seat
  // waits bot_delay before each throw and move so that people can follow it.
  std::chrono::milliseconds idle_timeout{30'000};
  // A game whose first player to act has not opened the table this long after it started is
  // aborted, unrated (table_abort.cpp); 0 = never.
  std::chrono::milliseconds first_move_abort{60'000};
  std::chrono::milliseconds bot_delay{700};
  // A live table whose seated players have all been gone (no page of theirs has it open on the
  // node that runs its timers) this long, with no change meanwhile, closes when the idle clock
  // cannot end it: waiting, pass and play, against the computer (TableModel::abandon). 0: never.
  std::chrono::milliseconds abandon_after{10 * 60'000};
  // How long a challenge between players waits for its answer (friends.h).
  std::chrono::milliseconds challenge_lifetime{60'000};
  int table_threads = 2;  // run table actions (PostgreSQL writes run on the storage pool)
  // PostgreSQL connections of this node, and as many threads that run the tables' database
  // writes (SQLite keeps one connection and is written inline on the table's strand: on_storage).
  int db_connections = 4;
  int bot_threads = 1;  // computer players' searches
  // Lobby flooding: tables waiting for a second player that one account may hold open at once,
  // and that all the guests of one address may (a new one is refused with too_many_tables).
  int max_open_tables = 5;
  int max_open_tables_per_address = 10;
  // Matchmaking window: base + per_second * seconds waited (matchmaker.h); pairing every tick.
  double match_window = 100;
  double match_window_per_sec = 25;
  std::chrono::milliseconds match_tick{1'000};
  // Finished tables nobody watches leave the memory cache after this long (they stay stored).
  std::chrono::milliseconds table_cache_ttl{10 * 60'000};

  // Table leases, used only with a bus (several nodes; docs/scaling.md, "Table leases"): the
  // node holding a live table runs its timers while its own lease runs. A node's lease lasts
  // `duration`; every `renew` a node extends it (one row) and takes its share of the tables of
  // expired nodes (up to sweep_limit at once), so a dead node's tables are taken within
  // duration + renew. The node's id is `node_name` (default BIND:PORT) with a random suffix, new
  // at every start.
  struct Leases {
    std::chrono::milliseconds duration{3'000};
    std::chrono::milliseconds renew{1'000};
    int sweep_limit = 500;
    std::string node_name;
  } leases;

  // Perfect play on a fresh start (table_solver.h): solve the missing tables of the lobby's rule
  // sets in the background with `solver_binary` (`ur`), skipping those that would need more than
  // solve_memory bytes. Off unless asked for: `ur serve` turns it on (--no-solve turns it off).
  bool solve_tables = false;
  // Puzzles out of the box (tables/puzzle_seeder.h): generate the puzzles of every solved rule
  // set up to its target in the background. `ur serve` turns it on (--no-puzzles turns it off).
  bool seed_puzzles = false;
  std::string solver_binary;
  std::uint64_t solve_memory = 0;

  // argon2id cost (libsodium's "interactive" level by default: 2 passes, 64 MiB).
  unsigned long long pwhash_opslimit = 2;
  std::size_t pwhash_memlimit = 64u * 1024 * 1024;
};

}  // namespace ur::server
