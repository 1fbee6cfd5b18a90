#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/websocket.hpp>
#include <nlohmann/json.hpp>

#include <deque>

#include "server/protocol/ws_dispatch.h"
#include "server/server_errc.h"
#include "server/transport/server_impl.h"

namespace ur::server {
namespace {

namespace websocket = beast::websocket;
using net::awaitable;
using json = nlohmann::json;

class WsSession final : public Connection,
                        public WsClient,
                        public std::enable_shared_from_this<WsSession> {
 public:
  WsSession(Server::Impl& server, beast::tcp_stream&& stream, std::string ip, std::uint64_t id)
      : server_(server),
        ctx_(*server.ctx),
        strand_(stream.get_executor()),
        ws_(std::move(stream)),
        ip_(std::move(ip)),
        id_(id),
        limiter_(ctx_.config.ws_burst, ctx_.config.ws_refill_per_sec) {}
  // The HTTP session counted this connection against its IP (ServerContext::try_add_ws).
  ~WsSession() override { ctx_.remove_ws(ip_); }

  std::uint64_t connection_id() const override { return id_; }
  const Identity& identity() const override { return identity_; }
  std::weak_ptr<WsClient> weak_client() override {
    return std::static_pointer_cast<WsClient>(shared_from_this());
  }

  void send(std::shared_ptr<const std::string> text) override {
    net::post(strand_, [self = shared_from_this(), text = std::move(text)]() mutable {
      self->enqueue(std::move(text));
    });
  }
  using WsClient::send;

  void force_close() override {
    closed_ = true;
    beast::get_lowest_layer(ws_).close();
  }

  void disconnect() override { shutdown(); }

  void shutdown() override {
    net::post(strand_, [self = shared_from_this()] {
      if (self->closing_) return;
      self->closing_ = true;
      net::co_spawn(self->strand_, self->close_going_away(self), net::detached);
    });
  }

  awaitable<void> run(Request req) {
    auto self = shared_from_this();
    const ServerConfig& cfg = ctx_.config;
    const Server::Impl::Registration registration(server_, id_, weak_from_this());

    identity_ = co_await identify(ctx_, req, ip_);
    if (closing_) co_return;  // the server began to stop meanwhile
    if (identity_.bad_bot_token) {
      // Refused before the upgrade, so that a bot program gets a plain 401 with the reason.
      auto& stream = beast::get_lowest_layer(ws_);
      stream.expires_after(cfg.http_timeout);
      co_await beast::async_write(
          stream,
          error_response(req.version(), false, http::status::unauthorized, ServerErrc::kBadToken,
                         "bot token unknown or revoked"),
          kNoThrow);
      boost::system::error_code ignored;
      stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
      co_return;
    }
    beast::get_lowest_layer(ws_).expires_never();  // the websocket timeouts take over
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = cfg.http_timeout;
    timeouts.idle_timeout = cfg.ws_idle_timeout;
    timeouts.keep_alive_pings = true;  // a ping at half the idle time; silence = dead socket
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& res) {
      res.set(beast::http::field::server, "ur/" UR_VERSION);
    }));
    // Messages over the soft limit are answered with an error; over the hard limit Beast closes
    // the connection with 1009 (message too big) before buffering them.
    ws_.read_message_max(cfg.max_ws_message_bytes * 4);
    auto [ec] = co_await ws_.async_accept(req, kNoThrow);
    if (ec) co_return;
    if (ctx_.config.access_log)
      log_line(ip_ + " ws open #" + std::to_string(id_) + " as " +
               (identity_.user ? identity_.user->username : identity_.guest_id));
    ctx_.dispatcher->on_open(*this);

    beast::flat_buffer buffer;
    for (;;) {
      auto [rec, n] = co_await ws_.async_read(buffer, kNoThrow);
      if (rec) break;
      if (!ws_.got_text()) {
        WsClient::send(error_envelope(ServerErrc::kBinaryUnsupported, "send text frames of JSON"));
      } else if (n > cfg.max_ws_message_bytes) {
        WsClient::send(error_envelope(
            ServerErrc::kMessageTooLarge,
            "message exceeds " + std::to_string(cfg.max_ws_message_bytes) + " bytes"));
      } else if (!limiter_.allow("") || !ctx_.ws_ip_limiter.allow(ip_)) {
        // Answered (with "re", so that a client waiting for the answer is not left hanging)
        // but not handled.
        json dropped = json::parse(beast::buffers_to_string(buffer.data()), nullptr, false);
        json err = error_envelope(ServerErrc::kRateLimited, "too many messages; slow down");
        if (dropped.is_object())
          if (auto id = dropped.find("id");
              id != dropped.end() &&
              (id->is_number_integer() ||
               (id->is_string() && id->get_ref<const std::string&>().size() <= 64)))
            err["re"] = *id;
        WsClient::send(err);
      } else {
        std::string text = beast::buffers_to_string(buffer.data());
        buffer.consume(buffer.size());
        co_await ctx_.dispatcher->on_message(*this, text);
      }
      buffer.consume(buffer.size());
    }
    ctx_.dispatcher->on_close(*this);
    if (ctx_.config.access_log) log_line(ip_ + " ws close #" + std::to_string(id_));
    closed_ = true;
    queue_.clear();
  }

 private:
  awaitable<void> close_going_away(std::shared_ptr<WsSession> self) {
    co_await ws_.async_close(websocket::close_code::going_away, kNoThrow);
    (void)self;
  }

  void enqueue(std::shared_ptr<const std::string> text) {
    if (closed_) return;
    if (queue_.size() >= ctx_.config.max_ws_queue) {
      // A client that cannot keep up would grow memory without bound: drop it.
      log_line(ip_ + " ws #" + std::to_string(id_) + " dropped: outbound queue full");
      closed_ = true;
      queue_.clear();
      beast::get_lowest_layer(ws_).close();
      return;
    }
    queue_.push_back(std::move(text));
    if (!writing_) {
      writing_ = true;
      net::co_spawn(strand_, write_loop(shared_from_this()), net::detached);
    }
  }

  // The only writer of data frames: one write in flight, in queue order.
  awaitable<void> write_loop(std::shared_ptr<WsSession> self) {
    while (!queue_.empty() && !closed_) {
      std::shared_ptr<const std::string> next = queue_.front();
      ws_.text(true);
      auto [ec, n] = co_await ws_.async_write(net::buffer(*next), kNoThrow);
      if (ec) {
        closed_ = true;
        queue_.clear();
        break;
      }
      queue_.pop_front();
    }
    writing_ = false;
    (void)self;
  }

  Server::Impl& server_;
  ServerContext& ctx_;
  net::any_io_executor strand_;
  websocket::stream<beast::tcp_stream> ws_;
  std::string ip_;
  std::uint64_t id_;
  Identity identity_;
  RateLimiter limiter_;
  std::deque<std::shared_ptr<const std::string>> queue_;
  bool writing_ = false;
  bool closing_ = false;
  bool closed_ = false;
};

}  // namespace

void start_ws_session(Server::Impl& server, beast::tcp_stream stream, std::string remote_ip,
                      Request upgrade) {
  auto executor = stream.get_executor();
  auto session = std::make_shared<WsSession>(server, std::move(stream), std::move(remote_ip),
                                             server.ctx->next_connection_id++);
  net::co_spawn(executor, session->run(std::move(upgrade)), net::detached);
}

}  // namespace ur::server
