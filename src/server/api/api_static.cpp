// Static files of the web client (api.h: serve_static). Paths are resolved under the web root
// by resolve_static_path, which refuses anything that would leave it; a client that accepts
// Brotli or gzip gets the build's compressed copy of a file where there is one.
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/file_body.hpp>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <system_error>

#include "server/api/api.h"
#include "server/protocol/http_util.h"
#include "server/server_errc.h"

namespace ur::server {
namespace {

namespace fs = std::filesystem;

Response status_of(unsigned& status, Response res) {
  status = res.result_int();
  return res;
}

// Each representation (the file as it is, or its .br or .gz copy) has a tag of its own: a cache
// holding the gzip bytes must never revalidate them for a client that asked for plain ones.
std::string etag_for(const fs::path& p, std::uintmax_t size, std::string_view coding) {
  std::error_code ec;
  auto mtime = fs::last_write_time(p, ec).time_since_epoch().count();
  char buf[80];
  std::snprintf(buf, sizeof buf, "\"%jx-%llx%s%.*s\"", size, static_cast<unsigned long long>(mtime),
                coding.empty() ? "" : "-", static_cast<int>(coding.size()), coding.data());
  return buf;
}

// The build (web/vite.config.ts) writes x.js.br and x.js.gz beside x.js for the text files worth
// compressing. A copy counts only as a regular file that stays inside the root, as the file itself.
struct Compressed {
  bool any = false;    // some copy exists: the answer depends on Accept-Encoding
  std::string coding;  // the one sent ("br", "gzip"), empty for the file itself
  fs::path path;
};

Compressed compressed_copy(const fs::path& root, const fs::path& file,
                           std::string_view accept_encoding) {
  Compressed out;
  for (std::string_view coding : {"br", "gzip"}) {
    fs::path copy = file;
    copy += coding == "br" ? ".br" : ".gz";
    std::optional<fs::path> canon = inside_root(root, copy);
    std::error_code ec;
    if (!canon || !fs::is_regular_file(*canon, ec)) continue;
    out.any = true;
    if (out.coding.empty() && accepts_coding(accept_encoding, coding)) {
      out.coding = coding;
      out.path = *canon;
    }
  }
  return out;
}

}  // namespace

http::message_generator serve_static(ServerContext& ctx, const Request& req, unsigned& status) {
  status = 200;
  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    Response res =
        error_json(req, ServerErrc::kMethodNotAllowed, "static files answer GET and HEAD only");
    res.set(http::field::allow, "GET, HEAD");
    status = res.result_int();
    return res;
  }
  if (ctx.web_root.empty())
    return status_of(status, error_json(req, ServerErrc::kNotFound, "no web root configured"));
  auto path = resolve_static_path(ctx.web_root, req.target());
  if (!path) return status_of(status, error_json(req, ServerErrc::kBadPath, "path refused"));
  std::error_code ec;
  if (!fs::is_regular_file(*path, ec))
    return status_of(status, error_json(req, ServerErrc::kNotFound, "no such file"));
  std::string_view type = mime_type(path->string());
  Compressed copy = compressed_copy(ctx.web_root, *path, req[http::field::accept_encoding]);
  const fs::path& sent = copy.coding.empty() ? *path : copy.path;
  http::file_body::value_type body;
  boost::beast::error_code bec;
  body.open(sent.string().c_str(), boost::beast::file_mode::scan, bec);
  if (bec) return status_of(status, error_json(req, ServerErrc::kNotFound, "no such file"));
  std::uintmax_t size = body.size();
  std::string etag = etag_for(sent, size, copy.coding);
  // HTML is revalidated on every load (so a deploy shows at once); assets may be cached an hour.
  std::string_view cache = type.substr(0, 9) == "text/html" ? "no-cache" : "public, max-age=3600";
  auto headers = [&](auto& res) {
    set_common_headers(res);
    res.set(http::field::content_type, type);
    res.set(http::field::cache_control, cache);
    res.set(http::field::etag, etag);
    if (!copy.coding.empty()) res.set(http::field::content_encoding, copy.coding);
    if (copy.any) res.set(http::field::vary, "Accept-Encoding");
    res.keep_alive(req.keep_alive());
  };
  if (req[http::field::if_none_match] == etag) {
    status = 304;
    http::response<http::empty_body> res{http::status::not_modified, req.version()};
    headers(res);
    return res;
  }
  if (req.method() == http::verb::head) {
    http::response<http::empty_body> res{http::status::ok, req.version()};
    headers(res);
    res.content_length(size);
    return res;
  }
  http::response<http::file_body> res{std::piecewise_construct, std::make_tuple(std::move(body)),
                                      std::make_tuple(http::status::ok, req.version())};
  headers(res);
  res.content_length(size);
  return res;
}

}  // namespace ur::server
