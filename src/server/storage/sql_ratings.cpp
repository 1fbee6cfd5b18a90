// Ratings in the SQL storage: the Elo of a finished rated game, written in finish_game's
// transaction — the overall rating (or the bot pool's) and the rating at the game's rule set —
// and the ratings per rule set of a user. Both players' user rows are read FOR UPDATE first
// (where the database has it), which also serialises two games of the same player finishing on
// different nodes for their rule_ratings rows.
#include "server/storage/elo.h"
#include "server/storage/sql_rows.h"

namespace ur::server::sql {

namespace {

RuleRating to_rule_rating(const SqlRow& r) {
  return RuleRating{r.text(0), r.real(1), static_cast<int>(r.integer(2)),
                    static_cast<int>(r.integer(3))};
}

// Both players' rating at the match's rule set, after the overall one was computed.
void rate_rule_set(SqlSession& s, const MatchRow& m) {
  RuleRating r[2];
  for (int seat = 0; seat < 2; ++seat) {
    r[seat].rules = m.rules;
    auto found = first(s,
                       "SELECT rules, rating, games, wins FROM rule_ratings "
                       "WHERE user_id = $1 AND rules = $2",
                       {m.user_ids[seat], m.rules}, to_rule_rating);
    if (found) r[seat] = *found;
  }
  int w = m.winner - 1, l = 1 - w;
  EloResult e = elo_update(r[w].rating, r[w].games, r[l].rating, r[l].games);
  for (int seat = 0; seat < 2; ++seat)
    s.run(
        "INSERT INTO rule_ratings(user_id, rules, rating, games, wins) VALUES($1, $2, $3, 1, $4) "
        "ON CONFLICT (user_id, rules) DO UPDATE SET rating = excluded.rating, "
        "games = rule_ratings.games + 1, wins = rule_ratings.wins + excluded.wins",
        {m.user_ids[seat], m.rules, seat == w ? e.winner_after : e.loser_after, seat == w ? 1 : 0});
}

}  // namespace

void rate_match(SqlSession& s, MatchRow& m, const std::string& users_sql,
                const std::string& pool_sql) {
  // A bot in either seat: both sides are rated in the bot pool (bot_* columns).
  bool pool = first(s, "SELECT 1 FROM users WHERE id IN ($1, $2) AND is_bot",
                    {m.user_ids[0], m.user_ids[1]}, [](const SqlRow&) { return true; })
                  .has_value();
  std::optional<User> u[2];
  s.run(pool ? pool_sql : users_sql, {m.user_ids[0], m.user_ids[1]}, [&](const SqlRow& r) {
    User user = to_user(r);
    for (int seat = 0; seat < 2; ++seat)
      if (m.user_ids[seat] == user.id) u[seat] = user;
  });
  if (!u[0] || !u[1]) throw StorageError("rated game with a missing user");
  int w = m.winner - 1, l = 1 - w;
  EloResult r = elo_update(u[w]->rating, u[w]->games, u[l]->rating, u[l]->games);
  m.rating_before = {u[0]->rating, u[1]->rating};
  m.rating_after[w] = r.winner_after;
  m.rating_after[l] = r.loser_after;
  for (int seat = 0; seat < 2; ++seat) {
    s.run(pool ? "UPDATE users SET bot_rating = $1, bot_games = bot_games + 1, "
                 "bot_wins = bot_wins + $2 WHERE id = $3"
               : "UPDATE users SET rating = $1, games = games + 1, wins = wins + $2 "
                 "WHERE id = $3",
          {m.rating_after[seat], seat == w ? 1 : 0, m.user_ids[seat]});
  }
  if (!pool) rate_rule_set(s, m);
}

std::vector<RuleRating> rule_ratings(SqlSession& s, std::int64_t user_id) {
  return all(s,
             "SELECT rules, rating, games, wins FROM rule_ratings WHERE user_id = $1 "
             "ORDER BY games DESC, rules",
             {user_id}, to_rule_rating);
}

}  // namespace ur::server::sql
