// A Storage wrapper for the server tests that hold a call in storage (tests/server/
// commit_async_test.cpp): the calls a test names wait on a latch it opens, so that it can check
// what the server does meanwhile without depending on a timing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "server/storage/storage.h"

namespace ur::server::test {

// Every call goes to the real storage; a held call first waits for release(). hold() takes table
// ids (their save_table), "new" (the first save_table of any new table), "clock:ID"
// (start_clock), "read:ID" (find_table, before it reads) and "read-done:ID" (find_table, after
// it read: what it returns may be out of date when released). fail_new() makes the new tables' writes throw, as a
// database that went away does, until it is called with false.
class HoldingStorage final : public Storage {
 public:
  explicit HoldingStorage(std::unique_ptr<Storage> inner) : inner_(std::move(inner)) {}

  void hold(std::set<std::string> ids) {
    std::lock_guard lock(mutex_);
    held_ = std::move(ids);
  }
  // Waits until `n` writes are held (false after `deadline`: they never arrived).
  bool wait_held(std::size_t n, std::chrono::milliseconds deadline) {
    std::unique_lock lock(mutex_);
    return changed_.wait_for(lock, deadline, [&] { return waiting_ >= n; });
  }
  void release() {
    std::lock_guard lock(mutex_);
    held_.clear();
    changed_.notify_all();
  }

  void fail_new(bool on) {
    std::lock_guard lock(mutex_);
    fail_new_ = on;
  }
  int failed_new() {
    std::lock_guard lock(mutex_);
    return failed_new_;
  }

  bool save_table(const TableRow& t, std::int64_t expected, std::int64_t epoch) override {
    if (expected < 0) {
      {
        std::lock_guard lock(mutex_);
        if (fail_new_) {
          ++failed_new_;
          throw StorageError("the test's database is away");
        }
      }
      wait_if_held("new");
    }
    wait_if_held(t.id);
    return inner_->save_table(t, expected, epoch);
  }
  bool start_clock(std::string_view id, std::int64_t version, std::int64_t deadline) override {
    wait_if_held("clock:" + std::string(id));
    return inner_->start_clock(id, version, deadline);
  }
  // How many times find_table read `id` and went past its holds (a read counted as it began
  // might still be caught by a "read-done" hold set after the count).
  int reads(const std::string& id) {
    std::lock_guard lock(mutex_);
    return reads_[id];
  }
  std::optional<TableRow> find_table(std::string_view id) override {
    wait_if_held("read:" + std::string(id));
    auto row = inner_->find_table(id);
    wait_if_held("read-done:" + std::string(id));
    {
      std::lock_guard lock(mutex_);
      ++reads_[std::string(id)];
    }
    return row;
  }

  // Its holds wait before the real storage is called, so they run side by side like the calls
  // of a connection pool: the server sends it every write from the storage pool (on_storage), as
  // it would PostgreSQL's, whatever backend is under it.
  int connections() const override { return 4; }

  // The rest is the real storage's.
  std::string backend() const override { return inner_->backend(); }
  int schema_version() override {
    if (down()) throw StorageError("the test's database is down");
    return inner_->schema_version();
  }
  int latest_schema_version() const override { return inner_->latest_schema_version(); }
  bool healthy() override { return !down() && inner_->healthy(); }
  // The database is unreachable, as a stopped PostgreSQL is: the health check fails and the
  // reads it makes throw (the real storages turn a lost connection into StorageError).
  void set_down(bool on) {
    std::lock_guard lock(mutex_);
    down_ = on;
  }
  std::optional<User> create_user(std::string_view u, std::string_view h,
                                  std::int64_t now) override {
    return inner_->create_user(u, h, now);
  }
  std::optional<User> find_user_by_name(std::string_view u) override {
    return inner_->find_user_by_name(u);
  }
  std::optional<User> find_user_by_id(std::int64_t id) override {
    return inner_->find_user_by_id(id);
  }
  void create_session(const SessionRecord& s) override { inner_->create_session(s); }
  std::optional<User> user_for_session(std::string_view s, std::int64_t now) override {
    return inner_->user_for_session(s, now);
  }
  bool delete_session(std::string_view s) override { return inner_->delete_session(s); }
  int delete_expired_sessions(std::int64_t now) override {
    return inner_->delete_expired_sessions(now);
  }
  std::vector<TableRow> live_tables() override { return inner_->live_tables(); }
  std::vector<TableRow> public_tables(const LobbyQuery& q) override {
    return inner_->public_tables(q);
  }
  int open_tables_of(const TableRow& owner) override { return inner_->open_tables_of(owner); }
  bool finish_game(const TableRow& t, std::int64_t expected, MatchRow& m,
                   std::int64_t epoch) override {
    return inner_->finish_game(t, expected, m, epoch);
  }
  std::optional<MatchRow> find_match(std::string_view id) override {
    return inner_->find_match(id);
  }
  std::vector<MatchRow> user_matches(std::int64_t user, int limit, std::int64_t before,
                                     std::string_view before_id) override {
    return inner_->user_matches(user, limit, before, before_id);
  }
  std::vector<User> leaderboard(int limit) override { return inner_->leaderboard(limit); }
  std::vector<RuleRating> rule_ratings(std::int64_t user_id) override {
    return inner_->rule_ratings(user_id);
  }
  void save_review(const ReviewRow& r) override { inner_->save_review(r); }
  std::optional<ReviewRow> find_review(std::string_view id) override {
    return inner_->find_review(id);
  }
  std::vector<ReviewRow> review_summaries(const std::vector<std::string>& ids) override {
    return inner_->review_summaries(ids);
  }
  std::optional<std::int64_t> claim_table(std::string_view id, std::string_view node,
                                          std::int64_t now) override {
    return inner_->claim_table(id, node, now);
  }
  std::vector<TableLease> renew_leases(std::string_view node, std::int64_t until) override {
    return inner_->renew_leases(node, until);
  }
  std::vector<TableLease> take_expired_leases(std::string_view node, std::int64_t now,
                                              std::int64_t until, int limit) override {
    return inner_->take_expired_leases(node, now, until, limit);
  }
  BotStatus bot_status(std::int64_t id) override { return inner_->bot_status(id); }
  void set_bot(std::int64_t id, bool is_bot, std::string_view hash) override {
    inner_->set_bot(id, is_bot, hash);
  }
  std::optional<User> user_for_bot_token(std::string_view hash) override {
    return inner_->user_for_bot_token(hash);
  }
  AccountStore& accounts() override { return inner_->accounts(); }
  int add_puzzles(const std::vector<PuzzleRow>& puzzles, std::int64_t now) override {
    return inner_->add_puzzles(puzzles, now);
  }
  std::optional<PuzzleRow> find_puzzle(std::string_view id) override {
    return inner_->find_puzzle(id);
  }
  std::optional<PuzzleRow> next_puzzle(const PuzzleQuery& q) override {
    return inner_->next_puzzle(q);
  }
  std::optional<PuzzleRow> daily_puzzle(std::string_view rules, std::string_view key) override {
    return inner_->daily_puzzle(rules, key);
  }
  std::int64_t count_puzzles(std::string_view rules) override {
    return inner_->count_puzzles(rules);
  }
  bool has_puzzles(std::string_view rules) override { return inner_->has_puzzles(rules); }
  PuzzleRating puzzle_rating(std::int64_t id) override { return inner_->puzzle_rating(id); }
  std::vector<PuzzleAttemptRow> puzzle_history(std::int64_t id, int limit) override {
    return inner_->puzzle_history(id, limit);
  }
  std::optional<AttemptOutcome> record_attempt(std::int64_t user, std::string_view puzzle,
                                               std::string_view move, bool solved,
                                               std::int64_t now) override {
    return inner_->record_attempt(user, puzzle, move, solved, now);
  }

 private:
  void wait_if_held(const std::string& key) {
    std::unique_lock lock(mutex_);
    if (!held_.contains(key)) return;
    ++waiting_;
    changed_.notify_all();
    changed_.wait(lock, [&] { return !held_.contains(key); });
    --waiting_;
  }

  bool down() {
    std::lock_guard lock(mutex_);
    return down_;
  }

  std::unique_ptr<Storage> inner_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::set<std::string> held_;
  std::size_t waiting_ = 0;
  std::map<std::string, int> reads_;
  bool fail_new_ = false;
  int failed_new_ = 0;
  bool down_ = false;
};

}  // namespace ur::server::test
