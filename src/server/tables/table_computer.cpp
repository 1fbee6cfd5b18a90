// The computer seat of a table (table_service.h): its name for a level, handed to TableModel so
// that the model never calls ai/, and its turns. A turn waits the natural delay on the table's
// strand, searches on the bot pool (never on an I/O or table thread) and is applied only if the
// table has not changed meanwhile; a throw needs no search.
#include <sodium.h>

#include <boost/asio/post.hpp>

#include "ai/net_agent.h"
#include "server/log.h"
#include "server/tables/table_runner.h"
#include "solver/table_store.h"

namespace ur::server {
namespace net = boost::asio;
using json = nlohmann::json;

std::optional<std::string> computer_name(const std::string& level, const RuleSet& rules,
                                         const solver::TableStore* tables) {
  if (!ai::is_level(level)) return std::nullopt;
  // The perfect level without a solved table plays the learned network of the data directory,
  // else as hard (ai::level_note): the name says which, and the snapshot's level_note too.
  if (ai::level_note(level, rules, tables).empty()) return computer_seat_name(level, "");
  if (level == "perfect")
    if (const solver::TableLookup found = solver::find_table(tables, rules, "");
        found.ready() && found.solved.endgame() > 0)
      return computer_seat_name(level, "endgame");
  if (ai::level_spec(level, rules, tables) == ai::kLearnedLevelSpec)
    return computer_seat_name(level, "learned");
  return computer_seat_name(level, "as_hard");
}

void TableRunner::schedule_bot(const std::shared_ptr<LiveTable>& t) {
  if (stopping_ || t->bot_busy || !t->model.bot_to_act() || !runs_timers(*t)) return;
  t->bot_busy = true;
  std::int64_t version = t->model.version();
  t->bot_timer.expires_after(d_.timing.bot_delay);
  t->bot_timer.async_wait(
      [this, weak = std::weak_ptr<LiveTable>(t), version](boost::system::error_code ec) {
        auto table = weak.lock();
        if (!table) return;
        table->bot_busy = false;
        if (ec || stopping_) return;
        if (table->model.version() != version) {
          schedule_bot(table);
          return;
        }
        bot_turn(table, version);
      });
}

void TableRunner::bot_turn(const std::shared_ptr<LiveTable>& t, std::int64_t version) {
  if (!t->model.bot_to_act()) return;
  if (t->model.game().awaiting_throw()) {
    apply_server_action(t, "computer throw", version,
                        [](TableModel& m, TableEvents& ev) { return m.bot_roll(secure_unit, ev); });
    return;
  }
  if (!t->bot) {
    const RuleSet& rules = t->model.game().rules();
    int seat = t->model.seat_to_act();
    const solver::TableStore* tables = d_.table_store;
    std::string spec = ai::level_spec(t->model.seats()[seat - 1].level, rules, tables);
    std::uint64_t seed;
    randombytes_buf(&seed, sizeof seed);
    auto made = ai::make_agent(spec, rules, seed, tables);
    if (auto* err = std::get_if<Error>(&made)) {
      log_line("table " + t->model.id() + ": no computer player: " + err->message);
      return;
    }
    t->bot = std::move(std::get<std::unique_ptr<ai::Agent>>(made));
  }
  t->bot_busy = true;
  auto engine = t->model.game().engine_ptr();
  Position pos = t->model.game().position();
  std::stop_token stop = t->bot_stop.get_token();
  net::post(d_.bot_pool, [this, t, engine, pos, stop, version] {
    Move m = t->bot->choose(*engine, pos, stop);
    net::post(t->strand, [this, t, m, version] {
      t->bot_busy = false;
      if (stopping_) return;
      if (t->model.version() != version) {
        schedule_bot(t);
        return;
      }
      apply_server_action(t, "computer move", version, [m](TableModel& model, TableEvents& ev) {
        return model.bot_move(m, ev);
      });
    });
  });
}

}  // namespace ur::server
