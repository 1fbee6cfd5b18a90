// `ur bot`: connects an engine program that speaks UEP (docs/engine_protocol.md) to the platform
// as a bot account (docs/server.md, "Bot accounts"; docs/protocol.md, "Bots").
//
// It opens the WebSocket with the account's bot token, checks that the engine accepts every rule
// set offered (one handshake each, so that a refusal shows at start and not in a game), offers
// them with `bot_ready`, and then plays the games it is challenged to, one at a time: a fresh
// engine process per game (ai::ExternalAgent), `open_table` on `match_found`, a `roll` or the
// engine's move whenever the bot is to act.
//
// The engine is never trusted: a crash, a time-out, garbage or an illegal move (all caught by
// ExternalAgent before anything is sent) is reported on stderr and the bot stops acting in that
// game, which then ends on the server's idle clock as it would for any player who walks away;
// the server checks every action anyway. The next challenge gets a new engine process.
#include <CLI/CLI.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>

#include "ai/agent.h"
#include "ai/external_agent.h"
#include "cli/commands.h"
#include "cli/ws_client.h"
#include "engine/notation.h"
#include "server/tables/table_model.h"

namespace ur::cli {
namespace {

using json = nlohmann::json;

struct BotOptions {
  std::string server;
  std::string token;
  std::string engine;  // "PATH ARGS"
  std::vector<std::string> rules{"finkel"};
  int engine_timeout_ms = ai::kDefaultEngineTimeoutMs;
  int games = 0;  // stop after this many games (0: play on until stopped)
};

// One game the bot is seated at.
struct BotGame {
  std::string id;
  int seat = 0;
  std::shared_ptr<const Engine> engine;
  std::unique_ptr<ai::Agent> agent;  // null once the engine failed: the bot no longer acts
  std::int64_t acted_version = -1;   // the version the last action was based on
};

class BotClient {
 public:
  BotClient(net::io_context& ioc, const BotOptions& o) : opt_(o), ws_(ioc) {}

  // The exit status: 0 after --games games, 1 when the server or the engine cannot be used.
  net::awaitable<int> run(ServerAddress server) {
    // Named, not a temporary inside co_await (GCC 12 miscompiles initializer lists there).
    std::vector<std::pair<std::string, std::string>> headers;
    headers.emplace_back("Authorization", "Bearer " + opt_.token);
    WsConnect c = co_await ws_connect(ws_, server, headers);
    if (c.error) {
      if (c.status == 401)
        std::cerr << "ur bot: the server refused the bot token (unknown or revoked)\n";
      else
        std::cerr << "ur bot: cannot connect to " << server.host << ":" << server.port << ": "
                  << (c.status ? "HTTP " + std::to_string(c.status) : c.error.message()) << "\n";
      co_return 1;
    }
    json ready{{"v", 1}, {"type", "bot_ready"}, {"rules", opt_.rules}};
    co_await ws_send(ws_, ready);
    for (;;) {
      json msg;
      if (auto ec = co_await ws_read(ws_, msg)) {
        std::cerr << "ur bot: connection lost: " << ec.message() << "\n";
        co_return 1;
      }
      if (auto status = co_await handle(msg)) co_return *status;
    }
  }

 private:
  // A status when the bot must stop.
  net::awaitable<std::optional<int>> handle(const json& msg) {
    std::string type = msg.is_object() ? msg.value("type", "") : "";
    if (type == "bot_ready") {
      std::cerr << "ur bot: online, offering " << msg["rules"].dump() << " (bot rating "
                << msg.value("rating", 0) << ")\n";
    } else if (type == "error") {
      std::cerr << "ur bot: server: " << msg.value("code", "?") << ": " << msg.value("message", "")
                << "\n";
      if (!ready_seen_) co_return 1;  // bot_ready refused: nothing to offer
      if (msg.value("code", "") == "rate_limited" && !game_.id.empty()) {
        // The action was dropped, not refused: wait for the allowance and act again.
        net::steady_timer pause(co_await net::this_coro::executor, std::chrono::seconds(1));
        co_await pause.async_wait(kNoThrow);
        game_.acted_version = -1;
        json last = last_table_;
        co_await act(last);
      }
    } else if (type == "match_found" && msg.contains("table") && msg["table"].is_object()) {
      start_game(msg);
      json open{{"v", 1}, {"type", "open_table"}, {"table", game_.id}};
      co_await ws_send(ws_, open);
    } else if ((type == "joined" || type == "table") && !game_.id.empty() &&
               msg.contains("table") && msg["table"].is_object() &&
               msg["table"].value("id", "") == game_.id) {
      const json& t = msg["table"];
      last_table_ = t;
      std::string status = t.value("status", "");
      if (status == "finished" || status == "closed") {
        report_end(t);
        if (opt_.games > 0 && ++finished_ >= opt_.games) co_return 0;
      } else {
        co_await act(t);
      }
    }
    if (type == "bot_ready") ready_seen_ = true;
    co_return std::nullopt;
  }

  void start_game(const json& msg) {
    game_ = BotGame{};
    game_.id = msg["table"].value("id", "");
    game_.seat = msg.value("you", 0);
    std::string rules_text = msg["table"].value("rules", "");
    auto parsed = parse_rule_set(rules_text);
    if (auto* e = std::get_if<Error>(&parsed)) {
      std::cerr << "ur bot: game " << game_.id << ": rules the bot cannot read: " << e->reason
                << "\n";
      return;
    }
    const RuleSet& rules = std::get<RuleSet>(parsed);
    game_.engine = std::make_shared<const Engine>(rules);
    auto made = ai::make_agent(engine_spec(), rules, 0);
    if (auto* e = std::get_if<Error>(&made)) {
      std::cerr << "ur bot: game " << game_.id << ": the engine did not start (" << e->message
                << "); the game is left to the idle clock\n";
      return;
    }
    game_.agent = std::move(std::get<std::unique_ptr<ai::Agent>>(made));
    std::cerr << "ur bot: game " << game_.id << " (" << rules_text << ") as seat " << game_.seat
              << "\n";
  }

  net::awaitable<void> act(const json& t) {
    json g = t.value("game", json::object());
    std::int64_t version = t.value("version", std::int64_t{0});
    if (!game_.agent || t.value("status", "") != "playing" || !g.is_object() ||
        !g["to_act"].is_number() || g["to_act"] != game_.seat || version <= game_.acted_version)
      co_return;
    json a{{"v", 1},
           {"table", game_.id},
           {"version", version},
           {"action_id", std::to_string(++action_id_)}};
    if (g.value("legal_moves", json::array()).empty()) {
      a["type"] = "roll";
    } else {
      std::optional<Move> m = engine_move(g.value("position", ""));
      if (!m) co_return;
      a["type"] = "move";
      a["from"] = m->from;
      a["to"] = m->to;
      a["kind"] = server::move_kind_name(m->kind);
    }
    game_.acted_version = version;
    co_await ws_send(ws_, a);
  }

  // The engine's move in the position, or nullopt (reported) when the engine failed.
  std::optional<Move> engine_move(const std::string& position) {
    PositionResult parsed = parse_position_string(*game_.engine, position);
    if (auto* e = std::get_if<Error>(&parsed)) {
      abandon("the server's position does not parse: " + e->message);
      return std::nullopt;
    }
    Move m = game_.agent->choose(*game_.engine, std::get<Position>(parsed), ai::StopToken{});
    if (std::string why = game_.agent->failure(); !why.empty()) {
      abandon("the engine failed: " + why);
      return std::nullopt;
    }
    return m;
  }

  void abandon(const std::string& why) {
    std::cerr << "ur bot: game " << game_.id << ": " << why
              << "; the bot stops acting and the game ends on the idle clock\n";
    game_.agent.reset();  // ends the engine process
  }

  void report_end(const json& t) {
    const json& s = t.contains("summary") && t["summary"].is_object() ? t["summary"] : json{};
    int winner = s.value("winner", 0);
    std::cerr << "ur bot: game " << game_.id << " over: "
              << (winner == game_.seat ? "won"
                  : winner             ? "lost"
                                       : "no result")
              << " (" << s.value("reason", std::string("closed")) << ")\n";
    game_ = BotGame{};
  }

  std::string engine_spec() const {
    return ai::with_engine_timeout("engine:" + opt_.engine, opt_.engine_timeout_ms);
  }

  const BotOptions& opt_;
  WsStream ws_;
  BotGame game_;
  json last_table_;  // the latest state of the game, to act again after a dropped action
  long action_id_ = 0;
  int finished_ = 0;
  bool ready_seen_ = false;
};

// The engine must pass its handshake with every offered rule set (parsed by run_bot).
std::string check_offer(const BotOptions& o, const std::vector<RuleSet>& offered) {
  for (std::size_t i = 0; i < offered.size(); ++i) {
    const std::string& r = o.rules[i];
    auto made = ai::make_agent(ai::with_engine_timeout("engine:" + o.engine, o.engine_timeout_ms),
                               offered[i], 0);
    if (auto* e = std::get_if<Error>(&made))
      return "the engine cannot play " + r + ": " + e->message;
  }
  return "";
}

int run_bot(BotOptions o) {
  if (o.token.empty())
    if (const char* env = std::getenv("UR_BOT_TOKEN")) o.token = env;
  auto server = parse_server_address(o.server);
  if (!server) {
    std::cerr << "ur bot: --server must be http://HOST:PORT (or ws://HOST:PORT)\n";
    return 2;
  }
  if (o.token.empty()) {
    std::cerr << "ur bot: no bot token: pass --token or set UR_BOT_TOKEN\n";
    return 2;
  }
  std::vector<RuleSet> offered;
  for (const std::string& r : o.rules) {
    std::optional<RuleSet> parsed = rules_option("bot", r);
    if (!parsed) return 2;
    offered.push_back(std::move(*parsed));
  }
  if (std::string why = check_offer(o, offered); !why.empty()) {
    std::cerr << "ur bot: " << why << "\n";
    return 1;
  }
  net::io_context ioc(1);
  BotClient client(ioc, o);
  int status = 1;
  net::co_spawn(ioc, client.run(*server), [&](std::exception_ptr e, int s) {
    status = e ? 1 : s;
    ioc.stop();
  });
  ioc.run();
  return status;
}

}  // namespace

void add_bot_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "bot",
      "Connect an engine program (UEP) to an ur server as a bot account that players "
      "challenge");
  static BotOptions o;
  cmd->add_option("--server", o.server, "the server, http://HOST:PORT")->required();
  cmd->add_option("--token", o.token,
                  "the account's bot token (POST /api/bot; or the environment's UR_BOT_TOKEN)");
  cmd->add_option("--engine", o.engine, "the engine program and its arguments, \"PATH [ARGS]\"")
      ->required();
  cmd->add_option("--rules", o.rules, "rule sets the bot accepts (repeat or list them)")
      ->capture_default_str();
  cmd->add_option("--engine-timeout", o.engine_timeout_ms, "ms the engine may take for a move")
      ->check(CLI::Range(1, 600000))
      ->capture_default_str();
  cmd->add_option("--games", o.games, "stop after this many games (0: play on)")
      ->check(CLI::Range(0, 1000000))
      ->capture_default_str();
  cmd->callback([] { exit_status() = run_bot(o); });
}

}  // namespace ur::cli
