// Reviews of finished games on the server (docs/analysis.md, "Stored reviews"). When a game
// ends its review (analysis::review) is computed on the server's review thread, never on an I/O
// thread or a table's strand, and stored with both accuracies (Storage::save_review); GET
// /api/games/<id>/analysis then answers from storage at once, and the match history shows the
// accuracies. A game finished before reviews were stored (or whose review was lost with a
// shutdown) is reviewed on its first request and stored then. An estimated review (no table for
// the rule set when it was made) is recomputed, exactly, on the first request after the rule
// set's table is ready, and stored again; the history shows the estimate until then.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <unordered_map>
#include <vector>

#include "rules/error.h"
#include "server/server_context.h"
#include "server/storage/storage.h"

namespace ur::server {

// The analysis JSON of a review, or why there is none (`bad_record` for a record that does not
// replay, whatever the review itself refuses); api/ maps the error to its HTTP status.
using ReviewAnswer = Result<nlohmann::json>;

// The review of a stored match, computed now: the analysis JSON (with the hints each seat used,
// from the game's summary). Exact where `tables` holds the rule set's table, else estimated.
ReviewAnswer compute_review(const solver::TableStore& tables, const MatchRow& m);

// The stored review, else (or when a table has come to `tables` since an estimate) computed and
// stored. May search: call it off the I/O threads. A storage failure is logged and the review
// still answered.
ReviewAnswer stored_review(Storage& storage, const solver::TableStore& tables, const MatchRow& m);

// A game has just ended: review and store it on ctx.review_pool (one thread, so that reviews
// never take more than one core from the tables and bots).
void review_in_background(ServerContext& ctx, MatchRow m);

// The stored reviews of these matches by id, without their JSON (for a page of the history).
std::unordered_map<std::string, ReviewRow> review_summaries(Storage& storage,
                                                            const std::vector<MatchRow>& rows);

}  // namespace ur::server
