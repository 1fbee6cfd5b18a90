// TableService: the WebSocket messages that act on live tables, the lobby, the matchmaking
// queues, the watchers of each table, the cache sweep and table expiry, and with several nodes
// what this node does when it gains or loses a table's lease.
//
// The live tables are kept in a TableRegistry (table_registry.h), loaded on demand from storage
// and restored at start (the database holds everything needed to rebuild a table, which is what
// lets another node take it over: docs/scaling.md). Each runs on its own strand of the table pool
// through the TableRunner (table_runner.h): its gate, its commits (stored before anything is
// published or answered), its idle clock and computer seat. Searches run on the bot pool, never
// on an I/O or table thread. Which thread runs what and which lock guards what:
// docs/architecture.md, "Threads and locks".
#pragma once

#include <boost/asio/awaitable.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <variant>

#include "ai/agent.h"
#include "server/cluster/lease_manager.h"
#include "server/cluster/pubsub.h"
#include "server/cluster/table_lease.h"
#include "server/protocol/ws_dispatch.h"
#include "server/server_context.h"
#include "server/tables/live_table.h"
#include "server/tables/table_matchmaking.h"
#include "server/tables/table_model.h"
#include "server/tables/table_registry.h"
#include "server/tables/table_runner.h"
#include "server/tables/table_watchers.h"

namespace ur::server {

// The lobby's page size: by default and at most.
inline constexpr int kLobbyPageDefault = 50;
inline constexpr int kLobbyPageMax = 100;

class TableService : private LeasedTables {
 public:
  using json = nlohmann::json;
  explicit TableService(ServerContext& ctx);
  ~TableService();
  TableService(const TableService&) = delete;
  TableService& operator=(const TableService&) = delete;

  void register_handlers(Dispatcher& dispatcher);
  // Loads every waiting or playing table from storage; their clocks restart in full. Returns
  // how many were restored; a corrupt row is logged and left untouched.
  std::size_t restore();
  // Starts the matchmaking ticks and the cache sweep, and with a bus the table leases, held
  // under `node_name` plus a random suffix.
  void start(const std::string& node_name = "node");
  // The tables this node holds that wait for a player or play, by rule set (GET /metrics).
  std::map<std::string, int> live_tables_by_rules();
  // This node's id (node_name plus its suffix), once started: /api/health reports it.
  const std::string& node() const { return leases_.node(); }
  // At the start of a graceful stop, with a bus: hands this node's leases back (one statement)
  // and stops its tables' timers, so that other nodes run them from their next sweep while this
  // one still serves its sockets (players' actions go on through the versioned commit).
  void hand_back() { leases_.hand_back(); }
  // Cancels the timers and searches. Call before the pools are joined.
  void shutdown();
  // A connection closed: drop its subscriptions and matchmaking tickets.
  void on_close(WsClient& client);
  // A banned or deleted account (table_moderation.cpp): its seats left and sockets closed on
  // every node; how many tables this node left.
  boost::asio::awaitable<int> close_account(std::int64_t user_id);

  // A page of the lobby, from storage (Storage::public_tables gives the order):
  // {tables, offset, limit, next_offset (null on the last page)}.
  nlohmann::json public_tables(int limit, int offset);
  // A table by id: the cache, else storage; null when there is none (or it is corrupt).
  boost::asio::awaitable<std::shared_ptr<LiveTable>> find(std::string id);
  std::size_t cached_tables();

  // Seats two connected players at a new private table whose game starts at once (a match of
  // the queue, a challenge to a bot): stores it (a blocking call on the calling thread: callers
  // run it on the worker or storage pool), subscribes both and
  // sends each `match_found` (with `re` when not null: the id of the request it answers).
  // A seat of another node (a shared queue's pair, docs/scaling.md) has no client: that node
  // (`node`) is told over the bus and seats its connection `connection`.
  struct PairSeat {
    std::shared_ptr<WsClient> client;
    Actor actor;
    json re;
    std::string node;
    std::uint64_t connection = 0;
  };
  Result<std::shared_ptr<LiveTable>> start_pair(const std::string& rules, bool rated,
                                                PairSeat light, PairSeat dark);
  // Lets another node's pair seat this connection (deliver_remote_match; friends.h: challenges).
  void keep_connection(WsClient& c) { watchers_.keep(c); }

 private:
  // Message handlers (table_handlers.cpp; rematch, lobby and matchmaking in table_lobby.cpp).
  boost::asio::awaitable<void> on_create(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_open(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_join(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_unwatch(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_action(WsClient& c, const json& msg, TableAction action);
  boost::asio::awaitable<void> on_visibility(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_rematch(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_list(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_find_match(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_cancel_match(WsClient& c, const json& msg);
  boost::asio::awaitable<void> on_hint(WsClient& c, const json& msg);           // table_hints.cpp
  boost::asio::awaitable<void> on_quick_message(WsClient& c, const json& msg);  // table_chat.cpp
  boost::asio::awaitable<Actor> fresh_actor(WsClient& c);
  // find(), answering no_table to the client when there is none.
  boost::asio::awaitable<std::shared_ptr<LiveTable>> find_or_answer(WsClient& c, const json& msg,
                                                                    const std::string& id);
  // What every message about one table does once its fields are read (table_handlers.cpp): find
  // the table (answering no_table), make the message's table work for it and the sender (read
  // afresh from storage when `fresh`: its rating may have changed), run that through the table's
  // gate (run_gated), and answer the error it ends with, naming the table.
  using TableWork = std::function<boost::asio::awaitable<std::optional<Error>>(
      std::shared_ptr<LiveTable>, Actor)>;
  boost::asio::awaitable<void> on_table_message(WsClient& c, const json& msg, const std::string& id,
                                                TableWork work, bool fresh = false);

  // The table work of a message (table_handlers.cpp): coroutines run by run_gated.
  struct ActionArgs {
    Actor actor;
    TableAction action = TableAction::kRoll;
    std::string action_id;
    std::int64_t version = 0, from = 0, to = 0;
    MoveKind kind = MoveKind::kMove;
  };
  using Outcome = TableRunner::Outcome;
  Outcome open_table(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, Actor actor);
  Outcome join_table(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, Actor actor,
                     std::string invite);
  Outcome act(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, ActionArgs a);
  // The model's operation for the action (the one switch over TableAction).
  static std::optional<Error> apply_action(TableModel& next, const ActionArgs& a,
                                           TableEvents& events);
  Outcome set_visibility(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, Actor actor,
                         bool value);
  Outcome answer_rematch(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, Actor actor,
                         bool accept);  // table_lobby.cpp
  // The hint `answer` (its move) for the table at `version`: counted for `seat`, then sent.
  Outcome give_hint(std::shared_ptr<LiveTable> t, WsClient& c, Actor actor, std::int64_t version,
                    int seat, json answer);  // table_hints.cpp
  // `hide`: the accounts that block the sender, who are not shown the message.
  Outcome quick_message(std::shared_ptr<LiveTable> t, WsClient& c, const json& msg, Actor actor,
                        std::string code, std::vector<std::int64_t> hide);  // table_chat.cpp

  // Keeps a table just created or loaded (or the one kept already) and, with several nodes,
  // claims its lease.
  std::shared_ptr<LiveTable> add_table(TableModel model);
  // The bus may have missed messages of `topic` (PubSub::Resync): a Redis reconnect (`lost`:
  // reload and broadcast the table) or a first subscription (reload; broadcast if newer),
  // inside the table's gate (resync_table).
  void resync(const std::string& topic, bool lost);
  Outcome resync_table(std::shared_ptr<LiveTable> t, bool lost);

  // Leases (table_leases.cpp): what the lease manager (leases_) asks of the tables
  // (LeasedTables), and what a table does inside its gate when this node claims or keeps its
  // lease. Without a bus this node runs every table's timers.
  boost::asio::awaitable<void> take_over(TableLease lease) override;
  void drop_lease(const std::string& table_id) override;
  void stop_all_timers() override;
  // Inside the gate: tries to take the lease of a table this node just created or loaded.
  Outcome claim_lease(std::shared_ptr<LiveTable> t);
  // Inside the gate: this node holds the lease at `epoch`: reload, re-arm, resync the watchers.
  Outcome keep_lease(std::shared_ptr<LiveTable> t, std::int64_t epoch, bool publish_state);
  // Inside the gate, on the holder: another node broadcast the table at `version` (`clock`: with
  // a clock running); reloads the row when that is news here.
  Outcome on_peer_commit(std::shared_ptr<LiveTable> t, std::int64_t version, bool clock);

  json joined_message(const LiveTable& t, const Actor& a) const;
  // Sends `joined_message` to the client, as the answer to `msg`.
  void send_joined(WsClient& c, const LiveTable& t, const Actor& a, const json& msg) const;

  // Matchmaking (table_match.cpp): what a pair of the queue (matchmaking_) becomes.
  using Where = TableMatchmaking::Where;
  void start_matchmaking();
  // Stores the pair's table off the service strand (seat_pair's comment); `requeue` runs when
  // it could not be stored, or apart when one of the two blocks the other.
  void seat_pair(const MatchTicket& a, const Where& wa, const MatchTicket& b, const Where& wb,
                 TableMatchmaking::Requeue requeue);
  boost::asio::awaitable<void> deliver_remote_match(Payload payload);
  void sweep_cache();
  // Table expiry (table_expiry.cpp), from the sweep: closes the live tables whose players have
  // all been gone for abandon_after and the idle clock cannot end.
  void expire_tables();
  std::chrono::milliseconds sweep_period() const;
  Outcome leave_account(std::shared_ptr<LiveTable> t, std::int64_t user_id);  // inside the gate
  void account_closed(const Payload& message);  // {"user": id} on the bus: seats, sockets here

  ServerContext& ctx_;
  // The bus is shared with other nodes: a cached table may be behind the database.
  const bool clustered_ = !ctx_.config.bus.empty();
  std::atomic<bool> stopping_{false};

  TableRegistry tables_;
  TableWatchers watchers_;

  std::mutex create_mutex_;  // a table's cap check and its insert, together

  LiveTable::Strand service_strand_;
  boost::asio::steady_timer sweep_timer_;
  LeaseManager leases_;
  TableRunner runner_;            // after leases_: both read this node's id there
  TableMatchmaking matchmaking_;  // after watchers_ and the service strand: it uses both
  Subscription accounts_sub_;     // "accounts": accounts closed on any node
};

}  // namespace ur::server
