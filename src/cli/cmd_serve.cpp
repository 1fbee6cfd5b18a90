// `ur serve`: runs the online server (HTTP + WebSocket, accounts, storage) until SIGINT/SIGTERM.
// Every flag can also come from the environment (UR_PORT, UR_BIND, UR_DB, UR_DATA_DIR, ...), so a
// container or a service unit configures it without a wrapper script.
#include <filesystem>
#include <iostream>

#include "cli/commands.h"
#include "server/log.h"
#include "server/server.h"
#include "server/storage/pg_storage.h"
#include "server/tables/table_solver.h"

namespace ur::cli {

namespace {

// The flags as parsed, turned into the server's configuration by run_serve.
struct ServeFlags {
  server::ServerConfig cfg;
  std::string db;
  bool quiet = false;
  std::string log_format = "text";
  double idle_seconds = 30, bot_delay_ms = 700, abandon_seconds = 600;
  double challenge_seconds = 60;
  int lease_ms = 3000, lease_renew_ms = 1000;
  double abort_seconds = 60;
  bool no_solve = false;
  bool no_puzzles = false;
  double solve_memory_gib = static_cast<double>(server::default_solve_memory()) / (1 << 30);
};

// Where the server listens, what it stores and how its nodes share the tables.
void add_place_options(CLI::App* cmd, ServeFlags& f) {
  server::ServerConfig& cfg = f.cfg;
  cmd->add_option("--port,-p", cfg.port, "TCP port (0 = any free port)")
      ->envname("UR_PORT")
      ->capture_default_str();
  cmd->add_option("--bind", cfg.bind, "address to listen on (0.0.0.0 for every interface)")
      ->envname("UR_BIND")
      ->capture_default_str();
  cmd->add_option("--data-dir", cfg.data_dir,
                  "directory for server data: the SQLite database ur.db and the solved tables "
                  "under tables/ (created if missing)")
      ->envname("UR_DATA_DIR")
      ->capture_default_str();
  cmd->add_option("--db", f.db,
                  "database: an SQLite path, sqlite:PATH or postgresql://USER@HOST:PORT/DB "
                  "(default: DATA_DIR/ur.db)")
      ->envname("UR_DB");
  cmd->add_option("--db-connections", cfg.db_connections,
                  "PostgreSQL connections of this node: as many table writes run at once "
                  "(SQLite keeps one)")
      ->envname("UR_DB_CONNECTIONS")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--bus", cfg.bus,
                  "event bus between nodes: redis://HOST:PORT (several nodes over one "
                  "PostgreSQL database); default: in-process (one node)")
      ->envname("UR_BUS");
  cmd->add_option("--lease-ms", f.lease_ms,
                  "with --bus: milliseconds a node's lease lasts (the other nodes take its tables "
                  "when it expires)")
      ->envname("UR_LEASE_MS")
      ->check(CLI::Range(100, 600000))
      ->capture_default_str();
  cmd->add_option("--lease-renew-ms", f.lease_renew_ms,
                  "with --bus: milliseconds between renewals of a node's lease (and sweeps for "
                  "expired ones); less than --lease-ms")
      ->envname("UR_LEASE_RENEW_MS")
      ->check(CLI::Range(50, 600000))
      ->capture_default_str();
  cmd->add_option("--node-name", cfg.leases.node_name,
                  "with --bus: this node's name in the table leases (default BIND:PORT)")
      ->envname("UR_NODE_NAME");
  cmd->add_option("--web-root", cfg.web_root, "directory of static files served at /")
      ->envname("UR_WEB_ROOT")
      ->capture_default_str();
  cmd->add_option("--public-origin", cfg.public_origins,
                  "origin the server is published at, e.g. https://ur.example.org: the pages "
                  "allowed to open WebSockets (repeatable; default: its own addresses, as "
                  "--bind/--port serve them)")
      ->envname("UR_PUBLIC_ORIGIN");
  cmd->add_option("--allowed-origin,--allow-origin", cfg.allow_origins,
                  "extra Origin allowed to open WebSockets, e.g. http://localhost:5173 "
                  "(repeatable)")
      ->envname("UR_ALLOW_ORIGIN");
  cmd->add_option("--trusted-proxy", cfg.trusted_proxies,
                  "address of a load balancer in front of this node: its X-Forwarded-For names "
                  "the client, whose address the per-address limits count (repeatable)")
      ->envname("UR_TRUSTED_PROXY");
  cmd->add_option("--threads", cfg.threads, "I/O threads")
      ->envname("UR_THREADS")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
}

// How play goes: the clocks, the computer seats, the limits per player, background solving.
void add_play_options(CLI::App* cmd, ServeFlags& f) {
  server::ServerConfig& cfg = f.cfg;
  cmd->add_option("--idle-timeout", f.idle_seconds,
                  "seconds the player to act may idle before losing the game (0 = never)")
      ->envname("UR_IDLE_TIMEOUT")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--first-move-abort", f.abort_seconds,
                  "seconds after which a game whose first player never opened the table is "
                  "aborted, unrated (0 = never)")
      ->envname("UR_FIRST_MOVE_ABORT")
      ->check(CLI::Range(0.0, 86400.0))
      ->capture_default_str();
  cmd->add_option("--abandon-after", f.abandon_seconds,
                  "seconds after its players have all gone that a table the idle clock cannot "
                  "end (waiting, against the computer, pass and play) closes (0 = never)")
      ->envname("UR_ABANDON_AFTER")
      ->check(CLI::Range(0.0, 30.0 * 86400.0))
      ->capture_default_str();
  cmd->add_option("--challenge-expiry", f.challenge_seconds,
                  "seconds a challenge between players waits for its answer")
      ->envname("UR_CHALLENGE_EXPIRY")
      ->check(CLI::Range(1.0, 3600.0))
      ->capture_default_str();
  cmd->add_option("--bot-delay", f.bot_delay_ms, "milliseconds a computer seat waits before acting")
      ->envname("UR_BOT_DELAY")
      ->check(CLI::Range(0.0, 60000.0))
      ->capture_default_str();
  cmd->add_option("--max-ws-per-ip", cfg.max_ws_per_ip, "open WebSockets allowed per address")
      ->envname("UR_MAX_WS_PER_IP")
      ->check(CLI::Range(1, 1000000))
      ->capture_default_str();
  cmd->add_option("--max-open-tables", cfg.max_open_tables,
                  "tables waiting for a player that one account may hold open")
      ->envname("UR_MAX_OPEN_TABLES")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_option("--max-open-tables-per-address", cfg.max_open_tables_per_address,
                  "tables waiting for a player that the guests of one address may hold open")
      ->envname("UR_MAX_OPEN_TABLES_PER_ADDRESS")
      ->check(CLI::Range(1, 100000))
      ->capture_default_str();
  cmd->add_flag("--no-solve", f.no_solve,
                "do not solve the missing tables of the lobby's rule sets in the background")
      ->envname("UR_NO_SOLVE");
  cmd->add_flag("--no-puzzles", f.no_puzzles,
                "do not generate the puzzles of the solved rule sets in the background")
      ->envname("UR_NO_PUZZLES");
  cmd->add_option("--solve-memory", f.solve_memory_gib,
                  "GiB a background solve may use; bigger ones are skipped (default: half of the "
                  "machine's memory)")
      ->envname("UR_SOLVE_MEMORY")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  cmd->add_flag("--secure-cookies", cfg.secure_cookies,
                "mark the session cookie Secure (when served behind HTTPS)")
      ->envname("UR_SECURE_COOKIES");
  cmd->add_flag("--quiet,-q", f.quiet, "no access log")->envname("UR_QUIET");
  cmd->add_option("--log-format", f.log_format,
                  "the log's lines: text, or json (one object a line)")
      ->envname("UR_LOG_FORMAT")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->add_option("--metrics-token", f.cfg.metrics_token,
                  "serve GET /metrics (Prometheus) to requests with Authorization: Bearer TOKEN; "
                  "without it /metrics is off")
      ->envname("UR_METRICS_TOKEN");
}

void run_serve(ServeFlags& f) {
  server::ServerConfig& cfg = f.cfg;
  const std::string& db = f.db;
  cfg.db =
      db.empty() ? (cfg.data_dir.empty() ? std::string("ur.db") : cfg.data_dir + "/ur.db") : db;
  // The solved tables are DATA_DIR/tables/<rules>.urt: the server's table store lists them
  // from cfg.data_dir at start-up (server_context.h).
  cfg.access_log = !f.quiet;
  cfg.log_json = f.log_format == "json";
  server::set_log_json(cfg.log_json);
  cfg.idle_timeout = std::chrono::milliseconds(static_cast<long long>(f.idle_seconds * 1000));
  cfg.bot_delay = std::chrono::milliseconds(static_cast<long long>(f.bot_delay_ms));
  cfg.first_move_abort = std::chrono::milliseconds(static_cast<long long>(f.abort_seconds * 1000));
  cfg.abandon_after = std::chrono::milliseconds(static_cast<long long>(f.abandon_seconds * 1000));
  cfg.challenge_lifetime =
      std::chrono::milliseconds(static_cast<long long>(f.challenge_seconds * 1000));
  cfg.leases.duration = std::chrono::milliseconds(f.lease_ms);
  cfg.leases.renew = std::chrono::milliseconds(f.lease_renew_ms);
  cfg.solve_tables = !f.no_solve;
  cfg.seed_puzzles = !f.no_puzzles;
  cfg.solve_memory = static_cast<std::uint64_t>(f.solve_memory_gib * (1 << 30));
  std::error_code self_ec;
  cfg.solver_binary = std::filesystem::read_symlink("/proc/self/exe", self_ec).string();
  if (self_ec) cfg.solve_tables = false;
  server::Server srv(cfg);
  if (std::string err = srv.start(); !err.empty()) {
    server::log_line("ur serve: " + err);
    exit_status() = 1;
    return;
  }
  server::log_line(
      "ur serve: listening on http://" + cfg.bind + ":" + std::to_string(srv.port()) +
      "/ (database " +
      (cfg.db.find("://") != std::string::npos ? server::redact_pg_url(cfg.db) : cfg.db) +
      (cfg.bus.empty() ? "" : ", bus " + cfg.bus) + ", web root " + cfg.web_root +
      "); Ctrl-C to stop");
  srv.run();
  server::log_line("ur serve: stopped");
}

}  // namespace

void add_serve_command(CLI::App& app) {
  auto* cmd = app.add_subcommand("serve", "Run the online server: web client, accounts, play");
  static ServeFlags flags;  // CLI11 writes into them until the callback runs
  add_place_options(cmd, flags);
  add_play_options(cmd, flags);
  cmd->callback([] { run_serve(flags); });
}

}  // namespace ur::cli
