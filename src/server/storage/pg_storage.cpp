#include "server/storage/pg_storage.h"

#include <pqxx/pqxx>

#include <algorithm>
#include <cctype>
#include <condition_variable>
#include <mutex>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "server/storage/sql_database.h"

namespace ur::server {
namespace {

std::string percent_decode(const std::string& s) {
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) && hex(s[i + 2])) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The password of the URL, as written and decoded, from the user info and from a `password=`
// query parameter: every message is scrubbed of them (libpq does not quote them, but a message
// of a future version or of a malformed URL might).
std::vector<std::string> url_secrets(const std::string& url) {
  std::vector<std::string> secrets;
  auto add = [&](const std::string& s) {
    if (s.empty()) return;
    secrets.push_back(s);
    if (std::string d = percent_decode(s); d != s) secrets.push_back(d);
  };
  std::size_t start = url.find("://");
  start = start == std::string::npos ? 0 : start + 3;
  std::size_t end = url.find_first_of("/?", start);
  std::string authority = url.substr(start, end == std::string::npos ? end : end - start);
  if (std::size_t at = authority.rfind('@'); at != std::string::npos) {
    std::string userinfo = authority.substr(0, at);
    if (std::size_t colon = userinfo.find(':'); colon != std::string::npos)
      add(userinfo.substr(colon + 1));
  }
  if (std::size_t q = url.find('?'); q != std::string::npos) {
    for (std::size_t p = q + 1; p < url.size();) {
      std::size_t amp = url.find('&', p);
      std::string param = url.substr(p, amp == std::string::npos ? amp : amp - p);
      if (param.rfind("password=", 0) == 0) add(param.substr(9));
      p = amp == std::string::npos ? url.size() : amp + 1;
    }
  }
  return secrets;
}

class PgRow final : public SqlRow {
 public:
  explicit PgRow(const pqxx::row& row) : row_(row) {}
  int size() const override { return static_cast<int>(row_.size()); }
  std::int64_t integer(int c) const override { return row_[c].as<std::int64_t>(0); }
  double real(int c) const override { return row_[c].as<double>(0); }
  bool boolean(int c) const override { return row_[c].as<bool>(false); }
  std::string text(int c) const override {
    return row_[c].is_null() ? std::string() : std::string(row_[c].c_str(), row_[c].size());
  }

 private:
  const pqxx::row& row_;
};

// Statements in a libpqxx transaction (a write) or nontransaction (a read). libpqxx sends
// every parameter as text, as its own conversions write it. `prepared` names the statements
// already prepared on this connection (run_kept prepares a statement once per connection).
class PgSession final : public SqlSession {
 public:
  PgSession(pqxx::transaction_base& tx, std::unordered_set<std::string>& prepared)
      : tx_(tx), prepared_(prepared) {}

  std::int64_t run(std::string_view sql, std::initializer_list<SqlValue> params,
                   SqlRowFn row) override {
    return execute(sql, params, row, false);
  }

  // Prepared once per connection: the server plans it once, not at every call.
  std::int64_t run_kept(std::string_view sql, std::initializer_list<SqlValue> params,
                        SqlRowFn row) override {
    return execute(sql, params, row, true);
  }

  void script(const char* sql) override { tx_.exec(sql); }

 private:
  std::int64_t execute(std::string_view sql, std::initializer_list<SqlValue> params, SqlRowFn row,
                       bool keep) {
    std::vector<std::string> texts;
    texts.reserve(params.size());
    for (const SqlValue& v : params) texts.push_back(text(v));
    std::vector<const char*> values;  // nullptr: NULL
    values.reserve(params.size());
    std::size_t i = 0;
    for (const SqlValue& v : params) {
      values.push_back(v.kind == SqlValue::Kind::null ? nullptr : texts[i].c_str());
      ++i;
    }
    pqxx::result result;
    if (keep) {
      const std::string name = "kept" + std::to_string(std::hash<std::string_view>{}(sql)) + "_" +
                               std::to_string(sql.size());
      if (prepared_.insert(name).second) tx_.conn().prepare(name, std::string(sql));
      result = tx_.exec_prepared(name, pqxx::prepare::make_dynamic_params(values));
    } else {
      result = tx_.exec_params(std::string(sql), pqxx::prepare::make_dynamic_params(values));
    }
    if (row) {
      for (const pqxx::row& r : result) row(PgRow(r));
    }
    return static_cast<std::int64_t>(result.affected_rows());
  }

  static std::string text(const SqlValue& v) {
    switch (v.kind) {
      case SqlValue::Kind::null:
        return {};
      case SqlValue::Kind::boolean:
        return pqxx::to_string(v.integer != 0);
      case SqlValue::Kind::integer:
        return pqxx::to_string(v.integer);
      case SqlValue::Kind::real:
        return pqxx::to_string(v.real);
      case SqlValue::Kind::text:
        return std::string(v.text);
    }
    return {};
  }

  pqxx::transaction_base& tx_;
  std::unordered_set<std::string>& prepared_;
};

class PgDatabase final : public SqlDatabase {
 public:
  PgDatabase(const std::string& url, int connections)
      : url_(pg_url_with_timeouts(url)),
        target_(redact_pg_url(url)),
        secrets_(url_secrets(url)),
        slots_(static_cast<std::size_t>(std::max(1, connections))) {
    for (std::size_t i = 0; i < slots_.size(); ++i) free_.push_back(i);
    // One connection at once, so that a wrong URL or a server that is down fails the start;
    // the others open on first use.
    Lease lease(*this);
    with_connection(lease.slot(), "connection", [](pqxx::connection&) {});
  }

  // One statement or a read-only sequence: autocommit.
  void read(const char* what, FunctionRef<void(SqlSession&)> body) override {
    Lease lease(*this);
    with_connection(lease.slot(), what, [&](pqxx::connection& c) {
      pqxx::nontransaction tx(c);
      PgSession s(tx, lease.slot().prepared);
      body(s);
    });
  }

  int connections() const override { return static_cast<int>(slots_.size()); }

  // One transaction: all of `body` or nothing.
  void write(const char* what, FunctionRef<void(SqlSession&)> body) override {
    Lease lease(*this);
    with_connection(lease.slot(), what, [&](pqxx::connection& c) {
      pqxx::work tx(c);
      PgSession s(tx, lease.slot().prepared);
      body(s);
      tx.commit();
    });
  }

 private:
  // A connection of the pool (opened on first use) and the statements prepared on it.
  struct Slot {
    std::unique_ptr<pqxx::connection> conn;
    std::unordered_set<std::string> prepared;
  };

  // A connection of the pool for the length of one call: waits while every one is in use, so
  // that at most `connections` statements run at once and the rest queue in this process.
  class Lease {
   public:
    explicit Lease(PgDatabase& db) : db_(db) {
      std::unique_lock lock(db_.mutex_);
      db_.freed_.wait(lock, [&] { return !db_.free_.empty(); });
      index_ = db_.free_.back();
      db_.free_.pop_back();
    }
    ~Lease() {
      {
        std::lock_guard lock(db_.mutex_);
        db_.free_.push_back(index_);
      }
      db_.freed_.notify_one();
    }
    Lease(const Lease&) = delete;
    Lease& operator=(const Lease&) = delete;
    Slot& slot() { return db_.slots_[index_]; }

   private:
    PgDatabase& db_;
    std::size_t index_ = 0;
  };

  // Runs `body` on the leased connection (opening it if needed). A broken connection is replaced
  // and the body run once more: a transaction cut off before its COMMIT was rolled back by the
  // server, so nothing is applied twice; a COMMIT cut off is in_doubt_error and not retried.
  template <class F>
  void with_connection(Slot& slot, const char* what, F&& body) {
    std::unique_ptr<pqxx::connection>& conn = slot.conn;
    for (int attempt = 0;; ++attempt) {
      try {
        if (!conn) {
          slot.prepared.clear();
          conn = std::make_unique<pqxx::connection>(url_);
          // No NOTICEs on stderr (CREATE ... IF NOT EXISTS reports an existing table).
          pqxx::nontransaction(*conn).exec("SET client_min_messages TO warning");
        }
        body(*conn);
        return;
      } catch (const StorageError&) {
        throw;
      } catch (const pqxx::broken_connection& e) {
        conn.reset();
        if (attempt > 0) throw error(what, e, true);
      } catch (const pqxx::in_doubt_error& e) {
        conn.reset();
        throw error(what, e, true);
      } catch (const std::exception& e) {
        throw error(what, e, false);
      }
    }
  }

  StorageError error(const char* what, const std::exception& e, bool name_server) const {
    // libpq's messages span lines ("...failed: Connection refused\n\tIs the server running"):
    // one line reads better in a log.
    std::string msg;
    for (char c : std::string_view(e.what())) {
      bool space = c == '\n' || c == '\t' || c == ' ';
      if (!space || (!msg.empty() && msg.back() != ' ')) msg += space ? ' ' : c;
    }
    while (!msg.empty() && msg.back() == ' ') msg.pop_back();
    auto replace_all = [&](const std::string& from, const std::string& to) {
      for (std::size_t p = 0; (p = msg.find(from, p)) != std::string::npos; p += to.size())
        msg.replace(p, from.size(), to);
    };
    replace_all(url_, target_);
    for (const std::string& secret : secrets_) replace_all(secret, "***");
    std::string where = name_server ? " (" + target_ + ")" : "";
    return StorageError(std::string("postgresql ") + what + where + ": " + msg);
  }

  std::string url_;
  std::string target_;
  std::vector<std::string> secrets_;
  std::vector<Slot> slots_;  // a slot is touched only by the call that leased it
  std::mutex mutex_;         // guards free_
  std::condition_variable freed_;
  std::vector<std::size_t> free_;  // the slots no call holds
};

}  // namespace

std::string redact_pg_url(const std::string& url) {
  std::size_t scheme_end = url.find("://");
  if (scheme_end == std::string::npos) return "postgresql://?";
  std::size_t start = scheme_end + 3;
  std::size_t end = url.find_first_of("/?", start);
  std::string authority = url.substr(start, end == std::string::npos ? end : end - start);
  std::string user;
  if (std::size_t at = authority.rfind('@'); at != std::string::npos) {
    user = authority.substr(0, at);
    user = user.substr(0, user.find(':')) + "@";
    authority = authority.substr(at + 1);
  }
  std::string path;
  if (end != std::string::npos && url[end] == '/') {
    std::size_t q = url.find('?', end);
    path = url.substr(end, q == std::string::npos ? q : q - end);
  }
  return url.substr(0, start) + user + authority + path;
}

std::string pg_url_with_timeouts(const std::string& url) {
  static constexpr std::pair<const char*, const char*> kDefaults[] = {
      {"connect_timeout", "10"},    {"keepalives", "1"},       {"keepalives_idle", "10"},
      {"keepalives_interval", "3"}, {"keepalives_count", "3"}, {"tcp_user_timeout", "20000"},
  };
  bool is_url = url.find("://") != std::string::npos;
  std::string query = is_url && url.find('?') != std::string::npos ? url.substr(url.find('?')) : "";
  auto has = [&](const std::string& key) {
    if (is_url)  // "?key=" or "&key="
      return query.find("?" + key + "=") != std::string::npos ||
             query.find("&" + key + "=") != std::string::npos;
    for (std::size_t p = 0; (p = url.find(key, p)) != std::string::npos; p += key.size()) {
      bool starts = p == 0 || url[p - 1] == ' ';
      std::size_t after = url.find_first_not_of(' ', p + key.size());
      if (starts && after != std::string::npos && url[after] == '=') return true;
    }
    return false;
  };
  std::string out = url;
  for (const auto& [key, value] : kDefaults) {
    if (has(key)) continue;
    if (is_url)
      out += (out.find('?') == std::string::npos ? '?' : '&');
    else if (!out.empty())
      out += ' ';
    out += std::string(key) + "=" + value;
  }
  return out;
}

std::unique_ptr<Storage> open_pg_storage(const std::string& url, int connections) {
  return make_sql_storage(std::make_unique<PgDatabase>(url, connections), postgres_dialect());
}

}  // namespace ur::server
