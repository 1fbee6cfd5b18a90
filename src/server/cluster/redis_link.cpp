#include "server/cluster/redis_link.h"

#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/post.hpp>

namespace ur::server {
namespace net = boost::asio;
using net::posix::descriptor_base;

// The socket watch of one hiredis context. Shared by the waits in flight, which may still run
// (cancelled) after hiredis freed the context: `ac` is null from then on.
struct RedisLink::Watch {
  Watch(net::io_context& ioc, int fd, redisAsyncContext* context) : sd(ioc, fd), ac(context) {}
  net::posix::stream_descriptor sd;
  redisAsyncContext* ac;
  bool want_read = false, want_write = false;
  bool reading = false, writing = false;  // an async_wait is in flight
};

namespace {

using WatchPtr = std::shared_ptr<RedisLink::Watch>;

WatchPtr& watch_of(void* privdata) {
  return *static_cast<WatchPtr*>(privdata);
}

void arm(const WatchPtr& w, bool read) {
  bool& in_flight = read ? w->reading : w->writing;
  if (in_flight || !w->ac || !(read ? w->want_read : w->want_write)) return;
  in_flight = true;
  auto kind = read ? descriptor_base::wait_read : descriptor_base::wait_write;
  w->sd.async_wait(kind, [w, read](boost::system::error_code ec) {
    (read ? w->reading : w->writing) = false;
    // Cancelled: hiredis cleaned up (or the hook was withdrawn and will be armed again).
    if (ec == net::error::operation_aborted || !w->ac) return;
    if (!(read ? w->want_read : w->want_write)) return;
    // Any other error is hiredis's to find: its read or write fails and it disconnects.
    if (read)
      redisAsyncHandleRead(w->ac);
    else
      redisAsyncHandleWrite(w->ac);
    arm(w, read);  // a no-op once hiredis freed the context
  });
}

void add_read(void* p) {
  watch_of(p)->want_read = true;
  arm(watch_of(p), true);
}
void del_read(void* p) {
  watch_of(p)->want_read = false;
}
void add_write(void* p) {
  watch_of(p)->want_write = true;
  arm(watch_of(p), false);
}
void del_write(void* p) {
  watch_of(p)->want_write = false;
}
void cleanup(void* p) {
  WatchPtr* holder = static_cast<WatchPtr*>(p);
  WatchPtr w = *holder;
  w->ac = nullptr;
  w->want_read = w->want_write = false;
  // The socket is hiredis's: it closes it. Release cancels the waits in flight.
  w->sd.release();
  delete holder;
}

}  // namespace

RedisLink::RedisLink(net::io_context& ioc, std::string host, int port, Event connected, Event lost)
    : ioc_(ioc),
      host_(std::move(host)),
      port_(port),
      connected_event_(std::move(connected)),
      lost_event_(std::move(lost)) {}

RedisLink::~RedisLink() {
  if (!ac_) return;
  ac_->data = nullptr;  // the callbacks that redisAsyncFree runs must not reach this link
  redisAsyncFree(ac_);
  ac_ = nullptr;
}

bool RedisLink::start() {
  if (ac_) return true;
  connected_ = false;
  redisAsyncContext* ac = redisAsyncConnect(host_.c_str(), port_);
  if (!ac) {
    error_ = "out of memory";
    return false;
  }
  if (ac->err) {
    error_ = ac->errstr;
    redisAsyncFree(ac);
    return false;
  }
  ac->data = this;
  auto* holder = new WatchPtr(std::make_shared<Watch>(ioc_, ac->c.fd, ac));
  ac->ev.data = holder;
  ac->ev.addRead = add_read;
  ac->ev.delRead = del_read;
  ac->ev.addWrite = add_write;
  ac->ev.delWrite = del_write;
  ac->ev.cleanup = cleanup;
  ac_ = ac;
  // Also asks for the first write event, which is how hiredis learns that the connect finished.
  redisAsyncSetConnectCallback(ac, on_connect);
  redisAsyncSetDisconnectCallback(ac, on_disconnect);
  return true;
}

bool RedisLink::command(redisCallbackFn* callback, void* privdata,
                        const std::vector<std::string_view>& args) {
  if (!ready()) return false;
  std::vector<const char*> argv;
  std::vector<std::size_t> lens;
  for (std::string_view a : args) {
    argv.push_back(a.data());
    lens.push_back(a.size());
  }
  return redisAsyncCommandArgv(ac_, callback, privdata, static_cast<int>(argv.size()), argv.data(),
                               lens.data()) == REDIS_OK;
}

void RedisLink::on_connect(const redisAsyncContext* ac, int status) {
  auto* link = static_cast<RedisLink*>(ac->data);
  if (!link) return;
  if (status != REDIS_OK) {
    link->ac_ = nullptr;  // hiredis frees the context when this returns
    link->report_lost(ac->errstr ? ac->errstr : "cannot connect");
    return;
  }
  link->connected_ = true;
  net::post(link->ioc_, [link] { link->connected_event_(*link); });
}

void RedisLink::on_disconnect(const redisAsyncContext* ac, int status) {
  auto* link = static_cast<RedisLink*>(ac->data);
  if (!link) return;
  link->ac_ = nullptr;
  link->connected_ = false;
  link->report_lost(status == REDIS_OK ? "closed" : (ac->errstr ? ac->errstr : "connection lost"));
}

void RedisLink::report_lost(const std::string& why) {
  error_ = why;
  connected_ = false;
  net::post(ioc_, [this] { lost_event_(*this); });
}

}  // namespace ur::server
