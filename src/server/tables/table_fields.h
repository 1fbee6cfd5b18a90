// The field readers of the table messages (table_handlers.cpp, table_lobby.cpp): each reads one
// field of a client message and, when it is malformed (or missing and required), answers the
// client once with `bad_request` naming the field, so a handler checks `failed` and stops.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

#include "server/protocol/ws_dispatch.h"
#include "server/tables/table_model.h"

namespace ur::server {

// Field readers: nullopt + an error sent when the field is present but malformed (or missing
// and required).
struct Fields {
  WsClient& client;
  const json& msg;
  bool failed = false;

  void fail(const std::string& message) {
    if (!failed) client.send(error_reply(msg, Errc::kBadRequest, message));
    failed = true;
  }
  std::optional<std::string> string(const char* name, bool required, std::size_t max_len = 64) {
    auto it = msg.find(name);
    if (it == msg.end()) {
      if (required) fail(std::string("missing string field \"") + name + "\"");
      return std::nullopt;
    }
    if (!it->is_string() || it->get_ref<const std::string&>().size() > max_len) {
      fail(std::string("field \"") + name + "\" must be a string of at most " +
           std::to_string(max_len) + " characters");
      return std::nullopt;
    }
    return it->get<std::string>();
  }
  std::optional<std::int64_t> integer(const char* name, bool required) {
    auto it = msg.find(name);
    if (it == msg.end()) {
      if (required) fail(std::string("missing integer field \"") + name + "\"");
      return std::nullopt;
    }
    if (!it->is_number_integer()) {
      fail(std::string("field \"") + name + "\" must be an integer");
      return std::nullopt;
    }
    return it->get<std::int64_t>();
  }
  std::optional<bool> boolean(const char* name) {
    auto it = msg.find(name);
    if (it == msg.end()) return std::nullopt;
    if (!it->is_boolean()) {
      fail(std::string("field \"") + name + "\" must be true or false");
      return std::nullopt;
    }
    return it->get<bool>();
  }
  // A table id: 16 lowercase hex digits.
  std::optional<std::string> table() {
    auto id = string("table", true);
    if (!id) return std::nullopt;
    if (!is_table_id(*id)) {
      fail("field \"table\" is not a table id");
      return std::nullopt;
    }
    return id;
  }
};

inline void send_table_error(WsClient& c, const json& msg, const Error& e,
                             const std::string& table_id) {
  json j = error_reply(msg, e);
  j["table"] = table_id;
  c.send(j);
}

}  // namespace ur::server
