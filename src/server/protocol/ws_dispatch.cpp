#include "server/protocol/ws_dispatch.h"

#include <chrono>

#include "server/metrics.h"

#include <cmath>
#include <nlohmann/json.hpp>

#include "server/log.h"
#include "server/server_errc.h"

namespace ur::server {

using json = nlohmann::json;
using boost::asio::awaitable;

void WsClient::send(const json& message) {
  send(std::make_shared<const std::string>(
      message.dump(-1, ' ', false, json::error_handler_t::replace)));
}

json envelope(std::string_view type) {
  return json{{"v", kProtocolVersion}, {"type", type}};
}

json error_envelope(ErrorCode code, std::string_view message) {
  json j = envelope("error");
  j["code"] = code.name();
  j["message"] = message;
  return j;
}

namespace {

json identity_json(const Identity& id) {
  if (!id.user) return json{{"guest", true}, {"name", id.guest_id}, {"user", nullptr}};
  const User& u = *id.user;
  return json{{"guest", false},
              {"name", u.username},
              {"user",
               {{"id", u.id},
                {"username", u.username},
                {"rating", std::lround(u.rating)},
                {"games", u.games},
                {"wins", u.wins},
                {"language", u.language}}}};
}

json reply(std::string_view type, const json& request) {
  return reply_to(type, request);
}

}  // namespace

json reply_to(std::string_view type, const json& request) {
  json j = envelope(type);
  if (auto it = request.find("id"); it != request.end()) j["re"] = *it;
  return j;
}

json error_reply(const json& request, ErrorCode code, std::string_view message) {
  json j = error_envelope(code, message);
  if (auto it = request.find("id"); it != request.end()) j["re"] = *it;
  return j;
}

json error_reply(const json& request, const Error& e) {
  return error_reply(request, e.code, e.remote_message());
}

Dispatcher::Dispatcher() {
  add("hello", [](WsClient& client, const json& msg) -> awaitable<void> {
    json j = reply("welcome", msg);
    j["server"] = "ur/" UR_VERSION;
    j["protocol"] = kProtocolVersion;
    j["connection"] = client.connection_id();
    j.update(identity_json(client.identity()));
    client.send(j);
    co_return;
  });
  add("ping", [](WsClient& client, const json& msg) -> awaitable<void> {
    json j = reply("pong", msg);
    if (auto it = msg.find("t"); it != msg.end() && it->is_number()) j["t"] = *it;
    client.send(j);
    co_return;
  });
}

void Dispatcher::add(std::string type, Handler handler) {
  handlers_[std::move(type)] = std::move(handler);
}

void Dispatcher::on_open(WsClient& client) {
  for (const OpenHandler& h : open_handlers_) h(client);
  const Identity& id = client.identity();
  if (!id.user) return;
  std::lock_guard lock(accounts_mutex_);
  accounts_[client.connection_id()] = {id.user->id, client.weak_client()};
}

void Dispatcher::on_opened(OpenHandler handler) {
  open_handlers_.push_back(std::move(handler));
}

void Dispatcher::disconnect_user(std::int64_t user_id) {
  std::vector<std::shared_ptr<WsClient>> found;
  {
    std::lock_guard lock(accounts_mutex_);
    for (auto& [connection, entry] : accounts_)
      if (auto c = entry.second.lock(); c && entry.first == user_id) found.push_back(std::move(c));
  }
  for (auto& c : found) c->disconnect();
}

void Dispatcher::on_closed(CloseHandler handler) {
  close_handlers_.push_back(std::move(handler));
}

void Dispatcher::on_close(WsClient& client) {
  {
    std::lock_guard lock(accounts_mutex_);
    accounts_.erase(client.connection_id());
  }
  for (const CloseHandler& h : close_handlers_) h(client);
}

awaitable<void> Dispatcher::on_message(WsClient& client, std::string_view text) {
  json msg = json::parse(text, nullptr, false);
  if (msg.is_discarded() || !msg.is_object()) {
    client.send(error_envelope(ServerErrc::kBadJson, "a message must be one JSON object"));
    co_return;
  }
  json err;
  auto v = msg.find("v");
  auto type = msg.find("type");
  auto id = msg.find("id");
  if (v == msg.end() || !v->is_number_integer()) {
    err =
        error_envelope(ServerErrc::kBadEnvelope, "missing integer field \"v\" (protocol version)");
  } else if (v->get<long long>() != kProtocolVersion) {
    err = error_envelope(ServerErrc::kUnsupportedVersion, "this server speaks protocol version 1");
  } else if (type == msg.end() || !type->is_string()) {
    err = error_envelope(ServerErrc::kBadEnvelope, "missing string field \"type\"");
  } else if (id != msg.end() && !id->is_string() && !id->is_number_integer()) {
    err = error_envelope(ServerErrc::kBadEnvelope, "\"id\" must be a string or an integer");
  } else if (id != msg.end() && id->is_string() && id->get_ref<const std::string&>().size() > 64) {
    err = error_envelope(ServerErrc::kBadEnvelope, "\"id\" must be at most 64 characters");
  }
  if (!err.is_null()) {
    if (id != msg.end() && (id->is_number_integer() ||
                            (id->is_string() && id->get_ref<const std::string&>().size() <= 64)))
      err["re"] = *id;
    client.send(err);
    co_return;
  }
  auto handler = handlers_.find(type->get<std::string>());
  if (handler == handlers_.end()) {
    json e = error_envelope(ServerErrc::kUnknownType, "unknown message type");
    if (id != msg.end()) e["re"] = *id;
    client.send(e);
    co_return;
  }
  auto started = std::chrono::steady_clock::now();
  try {
    co_await handler->second(client, msg);
    if (metrics_) metrics_->ws_message(handler->first, std::chrono::steady_clock::now() - started);
  } catch (const std::exception& ex) {
    log_line(std::string("ws handler error: ") + ex.what());
    json e = error_envelope(Errc::kInternal, "internal server error");
    if (id != msg.end()) e["re"] = *id;
    client.send(e);
  }
}

}  // namespace ur::server
