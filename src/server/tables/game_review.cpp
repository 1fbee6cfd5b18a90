#include "server/tables/game_review.h"

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <boost/asio/post.hpp>

#include <filesystem>

#include "analysis/review.h"
#include "analysis/review_json.h"
#include "engine/game_record.h"
#include "rules/rule_set.h"
#include "server/log.h"
#include "solver/table_store.h"

namespace ur::server {
namespace {

using json = nlohmann::json;

// Why a review is estimated: a code for clients that say it in their own words (docs/protocol.md,
// the review's `note_code`) and the English words (`note`). The loader's own message may name a
// server path: it goes to the server's log, never into the answer.
struct EstimateNote {
  const char* code;
  const char* words;
};
constexpr EstimateNote kUnsolvable{
    "unsolvable", "no table can be solved for this rule set: the values are estimates from search"};
constexpr EstimateNote kMissing{
    "missing",
    "this server has not solved this rule set yet: the values are estimates from search"};
constexpr EstimateNote kRefused{"refused",
                                "this server's table for this rule set failed its checks and was "
                                "not used: the values are estimates from search"};
constexpr EstimateNote kEndgame{
    "endgame",
    "exact in the endgame (this server's endgame table), estimates from search before it"};
constexpr EstimateNote kNotes[] = {kUnsolvable, kMissing, kRefused, kEndgame};

void set_note(json& review, const EstimateNote& n) {
  review["note"] = n.words;
  review["note_code"] = n.code;
}

void set_estimate_note(json& review, analysis::TableState t) {
  switch (t) {
    case analysis::TableState::kReady:
      return;
    case analysis::TableState::kUnsolvable:
      return set_note(review, kUnsolvable);
    case analysis::TableState::kMissing:
      return set_note(review, kMissing);
    case analysis::TableState::kRefused:
      return set_note(review, kRefused);
  }
}

// A review stored before the note had its code gets it from the note's words.
void add_note_code(json& review) {
  if (review.contains("note_code") || !review.contains("note") || !review["note"].is_string())
    return;
  for (const EstimateNote& n : kNotes)
    if (review["note"] == n.words) review["note_code"] = n.code;
}

// The hints each seat used (the table counts them into the game's summary), on the players.
void add_hints(json& review, const MatchRow& m) {
  json summary = json::parse(m.summary, nullptr, false);
  for (json& p : review["players"]) {
    int hints = 0;
    const int seat = p.value("seat", 0);
    if (summary.is_object() && summary.contains("seats") && summary["seats"].is_array())
      for (const json& s : summary["seats"])
        if (s.is_object() && s.value("seat", 0) == seat) hints = s.value("hints", 0);
    p["hints"] = hints;
  }
}

ReviewRow row_of(const MatchRow& m, const json& review) {
  ReviewRow r;
  r.match_id = m.id;
  r.estimate = review.value("estimate", false);
  for (const json& p : review["players"]) {
    const int seat = p.value("seat", 0);
    // A seat without a single decision has no accuracy (null in the review): stored as -1,
    // which the history shows as null.
    if ((seat == 1 || seat == 2) && p.contains("accuracy") && p["accuracy"].is_number())
      r.accuracy[seat - 1] = p["accuracy"].get<double>();
    else if (seat == 1 || seat == 2)
      r.accuracy[seat - 1] = -1.0;
  }
  r.review = review.dump();
  r.created_at = unix_now();
  return r;
}

// An estimate is redone while the store has a table file for its rule set: exact once the
// table is ready (and stored so), or estimated again with the refusal's note while it fails its
// checks. With an endgame table (whose reviews stay partly estimated) it is redone once, when
// the stored review was not made from that table.
bool table_came_since(const solver::TableStore& tables, const MatchRow& m,
                      const ReviewRow& stored) {
  if (!stored.estimate) return false;
  auto rules = parse_rule_set(m.rules);
  if (!std::holds_alternative<RuleSet>(rules)) return false;
  const std::string name = std::get<RuleSet>(rules).to_string();
  if (tables.has_file(name)) return true;
  const int k = tables.endgame_on_disk(name);
  if (k == 0) return false;
  const json review = json::parse(stored.review, nullptr, false);
  const std::string made_from = review.is_object() ? review.value("source", "") : "";
  return made_from.rfind("endgame(k=" + std::to_string(k) + ")", 0) != 0;
}

// A review stored before a seat without a decision got a null accuracy says 100 there: served
// as the review computed today would say it.
json without_empty_accuracy(json review) {
  if (review.contains("players") && review["players"].is_array())
    for (json& p : review["players"])
      if (p.is_object() && p.value("decisions", 1) == 0) p["accuracy"] = nullptr;
  return review;
}

}  // namespace

ReviewAnswer compute_review(const solver::TableStore& tables, const MatchRow& m) {
  auto replayed = record_from_json(json::parse(m.record, nullptr, false));
  if (auto* e = std::get_if<Error>(&replayed))
    return Error(Errc::kBadRecord, "the game record does not replay: " + e->message);
  const Game& g = std::get<Game>(replayed);
  analysis::OpenedSource src = analysis::open_source(g.rules(), &tables);
  if (src.table == analysis::TableState::kRefused)
    log_line("analysis of " + m.id + ": table refused, estimating: " + src.why);
  analysis::ReviewResult rr = analysis::review(g, *src.source);
  if (auto* e = std::get_if<Error>(&rr)) return *e;
  json out = analysis::review_json(std::get<analysis::Review>(rr));
  out["id"] = m.id;
  out["rules"] = m.rules;
  if (src.table != analysis::TableState::kReady)
    set_estimate_note(out, src.table);
  else if (out.value("estimate", false))  // an endgame table: each step says which it is
    set_note(out, kEndgame);
  add_hints(out, m);
  return out;
}

ReviewAnswer stored_review(Storage& storage, const solver::TableStore& tables, const MatchRow& m) {
  try {
    if (std::optional<ReviewRow> stored = storage.find_review(m.id);
        stored && !table_came_since(tables, m, *stored)) {
      json review = json::parse(stored->review, nullptr, false);
      if (review.is_object()) {
        add_note_code(review);
        return without_empty_accuracy(std::move(review));
      }
      log_line("stored review of " + m.id + " is not JSON; reviewing again");
    }
  } catch (const StorageError& e) {
    log_line(std::string("reading the review of ") + m.id + " failed: " + e.what());
  }
  ReviewAnswer answer = compute_review(tables, m);
  const json* review = std::get_if<json>(&answer);
  if (!review) return answer;
  try {
    storage.save_review(row_of(m, *review));
  } catch (const StorageError& e) {
    log_line(std::string("storing the review of ") + m.id + " failed: " + e.what());
  }
  return answer;
}

void review_in_background(ServerContext& ctx, MatchRow m) {
  boost::asio::post(ctx.review_pool, [&ctx, m = std::move(m)] {
    // The review thread yields to the I/O and table threads (Linux: a thread's own nice value),
    // as the background table solve does: a review may wait, a move should not.
    static thread_local const bool lowered =
        ::setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), 10) == 0;
    (void)lowered;
    try {
      stored_review(*ctx.storage, *ctx.table_store, m);
    } catch (const std::exception& e) {
      log_line(std::string("reviewing ") + m.id + " failed: " + e.what());
    }
  });
}

std::unordered_map<std::string, ReviewRow> review_summaries(Storage& storage,
                                                            const std::vector<MatchRow>& rows) {
  std::vector<std::string> ids;
  for (const MatchRow& m : rows) ids.push_back(m.id);
  std::unordered_map<std::string, ReviewRow> out;
  for (ReviewRow& r : storage.review_summaries(ids)) out.emplace(r.match_id, std::move(r));
  return out;
}

}  // namespace ur::server
