// What the server fuzz test sends: hostile WebSocket messages (wrong types, huge numbers, deep
// nesting, invalid UTF-8, unknown fields, every message type with random fields) and hostile
// HTTP requests (every endpoint and method with random targets, headers and bodies, and valid
// requests with random bytes flipped). Deterministic for a seed, so that a failure replays.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace ur::server::fuzz {

using json = nlohmann::json;

// Every error code docs/protocol.md lists: an error answer must carry one of them.
inline const std::set<std::string> kDocumentedCodes = {
    "bad_json",        "bad_envelope",       "unsupported_version",
    "unknown_type",    "binary_unsupported", "message_too_large",
    "rate_limited",    "bad_request",        "no_table",
    "private_table",   "bad_invite",         "table_full",
    "already_seated",  "login_required",     "bad_rules",
    "not_seated",      "left_table",         "not_owner",
    "not_started",     "game_over",          "not_your_turn",
    "roll_expected",   "move_expected",      "illegal_move",
    "stale_version",   "conflict",           "internal",
    "table_closed",    "too_many_tables",    "not_local",
    "nothing_to_undo", "local_table",        "no_rematch"};

inline const std::vector<std::string> kMessageTypes = {
    "hello",      "ping",         "create_table", "join_table", "open_table",     "unwatch",
    "roll",       "move",         "resign",       "leave",      "set_visibility", "list_tables",
    "find_match", "cancel_match", "no_such_type", "",           "undo",           "rematch"};

class Inputs {
 public:
  explicit Inputs(std::uint64_t seed) : rng_(seed) {}

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool coin() { return below(2) == 0; }
  std::mt19937_64& rng() { return rng_; }

  // A JSON value of any kind, some of them hostile.
  json value(int depth = 0) {
    switch (below(depth > 2 ? 9 : 12)) {
      case 0:
        return nullptr;
      case 1:
        return coin();
      case 2:
        return below(200) - 100;
      case 3:
        return std::int64_t{INT64_MIN} + below(3);
      case 4:
        return std::uint64_t{UINT64_MAX} - static_cast<unsigned>(below(3));
      case 5:
        return (coin() ? 1 : -1) * 1e308 * (below(10) + 1) / 10.0;
      case 6:
        return 0.5 + below(10);
      case 7:
        return text();
      case 8:
        return std::string(static_cast<std::size_t>(below(3000)), 'x');
      case 9:
        return nested(below(300));
      case 10: {
        json a = json::array();
        for (int i = below(5); i > 0; --i) a.push_back(value(depth + 1));
        return a;
      }
      default: {
        json o = json::object();
        for (int i = below(5); i > 0; --i) o[text()] = value(depth + 1);
        return o;
      }
    }
  }

  // A short string: a field name, an id, a table id or some noise.
  std::string text() {
    static const char* kWords[] = {
        "finkel",       "masters", "boxed",     "finkel(pieces=3)", "perfect",
        "easy",         "move",    "award_yes", "0123456789abcdef", "table",
        "zq\xc3\xa9zq", "",        " ",         "\"quoted\"",       "<b>x</b>"};
    if (below(4) == 0) {
      std::string s;
      for (int i = below(20); i > 0; --i) s.push_back(static_cast<char>(32 + below(95)));
      return s;
    }
    return kWords[below(static_cast<int>(std::size(kWords)))];
  }

  static json nested(int depth) {
    json j = json::array();
    for (int i = 0; i < depth; ++i) j = json::array({std::move(j)});
    return j;
  }

  // One WebSocket text frame: mostly JSON shaped like a message, sometimes not JSON at all.
  std::string ws_text(const std::vector<std::string>& table_ids) {
    switch (below(10)) {
      case 0:
        return raw_bytes(below(200));
      case 1:
        return "[" + std::string(static_cast<std::size_t>(below(2000)), '[');
      case 2:
        return R"({"v":1,"type":"ping","t":1e400})";
      default:
        break;
    }
    json m = json::object();
    if (below(10)) m["v"] = below(10) ? json(1) : value();
    if (below(12))
      m["type"] =
          below(8) ? json(kMessageTypes[below(static_cast<int>(kMessageTypes.size()))]) : value();
    if (coin()) m["id"] = below(3) ? json(below(1000)) : value();
    static const char* kFields[] = {"table", "version", "action_id", "from",  "to",     "kind",
                                    "rules", "public",  "rated",     "seat",  "level",  "invite",
                                    "limit", "offset",  "t",         "local", "accept", "names"};
    for (const char* f : kFields)
      if (below(3) == 0) m[f] = field_value(f, table_ids);
    if (below(5) == 0) m[text()] = value();  // an unknown field
    return m.dump(-1, ' ', false, json::error_handler_t::replace);
  }

  // A value for a known field: usually of the right type, sometimes not.
  json field_value(const std::string& f, const std::vector<std::string>& table_ids) {
    if (below(4) == 0) return value();
    if (f == "table" && !table_ids.empty() && below(3))
      return table_ids[below(static_cast<int>(table_ids.size()))];
    if (f == "version" || f == "from" || f == "to" || f == "seat" || f == "limit" || f == "offset")
      return below(5) ? json(below(40) - 2) : json(INT64_MAX);
    if (f == "public" || f == "rated" || f == "local" || f == "accept") return coin();
    if (f == "names") return json::array({text(), text()});
    if (f == "action_id") return "f" + std::to_string(below(50));
    if (f == "kind") return coin() ? "move" : text();
    return text();
  }

  std::string raw_bytes(int n) {
    std::string s;
    for (int i = 0; i < n; ++i) s.push_back(static_cast<char>(below(256)));
    return s;
  }

  // Flips, inserts or deletes a few bytes.
  std::string mutate(std::string s) {
    for (int i = 1 + below(4); i > 0 && !s.empty(); --i) {
      std::size_t at = static_cast<std::size_t>(below(static_cast<int>(s.size())));
      switch (below(3)) {
        case 0:
          s[at] = static_cast<char>(below(256));
          break;
        case 1:
          s.insert(at, 1, static_cast<char>(below(256)));
          break;
        default:
          s.erase(at, 1);
      }
    }
    return s;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace ur::server::fuzz
