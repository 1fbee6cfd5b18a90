// BotService: the bot accounts online on this server (docs/protocol.md, "Bots").
//
// A program connected with its account's bot token (Identity::bot; `ur bot` is such a program)
// declares the rule sets it accepts with `bot_ready`; players list the bots online (`list_bots`,
// GET /api/bots) and challenge one (`challenge_bot`) at a rule set it accepts. A challenge starts
// a private table at once with both seated (TableService::start_pair); the game is then an
// ordinary table game: the bot acts with the ordinary messages and is subject to the idle clock
// like anyone, so a bot whose program dies loses on time. A rated challenge is rated in the bot
// pool (Storage::bot_status), never in the players' ordinary ratings.
//
// A bot plays one game at a time: a challenge while its game is live is refused (`bot_busy`).
// The registry lives in memory on the node the bot is connected to (docs/scaling.md): it forgets
// a bot when its connection closes; a stored table needs no registry to go on.
#pragma once

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace ur::server {

struct ServerContext;
class Dispatcher;
class WsClient;
struct LiveTable;

// At most this many rule sets per bot (a lobby entry stays short).
inline constexpr std::size_t kMaxBotRuleSets = 16;

class BotService {
 public:
  explicit BotService(ServerContext& ctx) : ctx_(ctx) {}
  BotService(const BotService&) = delete;
  BotService& operator=(const BotService&) = delete;

  void register_handlers(Dispatcher& dispatcher);
  // A connection closed: a bot on it is no longer online.
  void on_close(WsClient& client);
  // The bots online, by name: [{name, rules: [...], rating, games, busy}].
  nlohmann::json online();

 private:
  using json = nlohmann::json;
  struct OnlineBot {
    std::weak_ptr<WsClient> client;
    std::uint64_t connection = 0;
    std::int64_t user_id = 0;
    std::string name;
    std::vector<std::string> rules;  // canonical rule-set strings, in the bot's order
    double rating = 1200;            // in the bot pool, as of its last bot_ready or challenge
    int games = 0;
    std::weak_ptr<LiveTable> game;  // the game it plays now, if any
    bool starting = false;          // a challenge is being seated
  };

  boost::asio::awaitable<void> on_ready(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_list(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_challenge(WsClient& c, const json& msg);
  static bool busy(const OnlineBot& b);
  // The challenge of this bot has been seated (its game) or has failed (null).
  void seated(std::int64_t user_id, std::shared_ptr<LiveTable> game);

  ServerContext& ctx_;
  std::mutex mutex_;
  std::map<std::string, OnlineBot> bots_;  // by lowercase name
};

}  // namespace ur::server
