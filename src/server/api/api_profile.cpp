// GET /api/users/<name>/profile: a player's page in one answer (docs/server.md, "Profiles"): the
// account, its rating at each rule set it played rated, the overall rating after each of its
// recent rated games (the graph), what its recent games add up to (games, wins, best win,
// average accuracy) and the last few as the history lists them.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <tuple>
#include <unordered_map>

#include "server/accounts/accounts.h"
#include "server/api/api.h"
#include "server/server_errc.h"
#include "server/storage/elo.h"
#include "server/tables/game_review.h"

namespace ur::server {
namespace {

using json = nlohmann::json;

// The games a profile looks at: the graph, the best win and the average accuracy cover the
// newest kProfileGames; the cards show the newest kProfileCards.
constexpr int kProfileGames = 100;
constexpr std::size_t kProfileCards = 6;

json ratings_json(const std::vector<RuleRating>& ratings) {
  json out = json::array();
  for (const RuleRating& r : ratings)
    out.push_back({{"rules", r.rules},
                   {"rules_name", rules_name(r.rules)},
                   {"rating", std::lround(r.rating)},
                   {"games", r.games},
                   {"wins", r.wins},
                   {"provisional", r.games < kProvisionalGames}});
  return out;
}

struct Totals {
  int games = 0, wins = 0, reviewed = 0;
  double accuracy = 0;
  json best_win = nullptr;
  double best = -1;
};

// What the recent games add up to, and the graph (oldest first), for the user at `seat` of each.
json summary_json(const std::vector<MatchRow>& rows,
                  const std::unordered_map<std::string, ReviewRow>& reviews, std::int64_t user,
                  json& graph) {
  Totals t;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it) {
    const MatchRow& m = *it;
    int s = m.user_ids[0] == user ? 0 : 1;
    ++t.games;
    bool won = m.winner == s + 1;
    if (won) ++t.wins;
    if (m.rated) {
      graph.push_back(
          {{"at", m.finished_at}, {"rating", std::lround(m.rating_after[s])}, {"rules", m.rules}});
      if (won && m.rating_before[1 - s] > t.best) {
        t.best = m.rating_before[1 - s];
        t.best_win = {{"id", m.id},
                      {"opponent", m.names[1 - s]},
                      {"rating", std::lround(t.best)},
                      {"rules", m.rules},
                      {"rules_name", rules_name(m.rules)},
                      {"finished_at", m.finished_at}};
      }
    }
    auto r = reviews.find(m.id);
    if (r != reviews.end() && r->second.accuracy[s] >= 0) {
      ++t.reviewed;
      t.accuracy += r->second.accuracy[s];
    }
  }
  json acc = t.reviewed ? json(std::round(t.accuracy / t.reviewed * 10) / 10) : json(nullptr);
  return json{{"games", t.games},
              {"wins", t.wins},
              {"best_win", t.best_win},
              {"accuracy", acc},
              {"accuracy_games", t.reviewed}};
}

}  // namespace

boost::asio::awaitable<Response> user_profile(ServerContext& ctx, const Request& req,
                                              std::string name) {
  auto missing = [&] {
    return json_reply(req, http::status::not_found,
                      error_body(ServerErrc::kNotFound, "no such user"));
  };
  if (check_username(name)) co_return missing();
  auto load = [&ctx, name] {
    std::optional<User> u = ctx.storage->find_user_by_name(name);
    std::vector<MatchRow> rows;
    std::vector<RuleRating> ratings;
    if (u) {
      rows = ctx.storage->user_matches(u->id, kProfileGames, 0);
      ratings = ctx.storage->rule_ratings(u->id);
    }
    return std::tuple{u, rows, ratings, review_summaries(*ctx.storage, rows)};
  };
  auto [user, rows, ratings, reviews] = co_await offload(ctx, std::move(load));
  if (!user) co_return missing();
  json graph = json::array();
  json recent_games = summary_json(rows, reviews, user->id, graph);
  json cards = json::array();
  for (std::size_t i = 0; i < rows.size() && i < kProfileCards; ++i) {
    json card = match_json(rows[i], user->id);
    auto r = reviews.find(rows[i].id);
    card["accuracy"] = nullptr;
    if (r != reviews.end()) {
      card["accuracy"] = json::array();
      for (double a : r->second.accuracy) card["accuracy"].push_back(a < 0 ? json() : json(a));
    }
    cards.push_back(std::move(card));
  }
  json u{{"username", user->username},     {"rating", std::lround(user->rating)},
         {"games", user->games},           {"wins", user->wins},
         {"created_at", user->created_at}, {"provisional", user->games < kProvisionalGames}};
  co_return json_reply(req, http::status::ok,
                       json{{"user", std::move(u)},
                            {"ratings", ratings_json(ratings)},
                            {"graph", std::move(graph)},
                            {"recent", std::move(recent_games)},
                            {"games", std::move(cards)}});
}

}  // namespace ur::server
