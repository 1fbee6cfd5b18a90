// Small pure helpers of the HTTP layer, kept free of Beast so that they are cheap to compile and
// easy to test: Content-Type by file extension, mapping a request target onto a file under the web
// root without ever leaving it, reading a cookie or a query parameter, the WebSocket Origin rule, and the framing rules
// that keep a request's body from being read as a second request (request smuggling).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ur::server {

// "text/html; charset=utf-8" for "x.html", ...; "application/octet-stream" when unknown.
std::string_view mime_type(std::string_view path);

// Decodes %XX escapes; nullopt on a malformed escape or a decoded NUL.
std::optional<std::string> percent_decode(std::string_view s);

// The raw (still percent-encoded) value of query parameter `name` in a request target
// ("/api/x?a=1&b=2"); empty when absent.
std::string query_param(std::string_view target, std::string_view name);

// A non-negative integer query parameter clamped to [lo, hi]; `fallback` when absent or bad.
std::int64_t int_param(std::string_view target, std::string_view name, std::int64_t fallback,
                       std::int64_t lo, std::int64_t hi);

// The file a GET of `target` ("/a/b.css?x=1") names under `root` (an absolute, canonical path),
// with "/" and "/dir/" meaning index.html. nullopt when the target is refused: not absolute, an
// encoded or literal ".." or "." segment, a backslash, a NUL, or (after following symlinks) a
// location outside the root. The file itself may not exist.
std::optional<std::filesystem::path> resolve_static_path(const std::filesystem::path& root,
                                                         std::string_view target);

// Whether an Accept-Encoding header (RFC 9110 §12.5.3: "gzip, br;q=0.8, *;q=0") lets the answer
// be sent in content coding `coding` ("gzip", "br"): named with a weight above 0, or not named
// and "*" has one. Codings and q are case-insensitive; an unreadable weight counts as 0.
bool accepts_coding(std::string_view accept_encoding, std::string_view coding);

// `path` with its symlinks followed, if that stays under `root` (absolute, canonical).
std::optional<std::filesystem::path> inside_root(const std::filesystem::path& root,
                                                 const std::filesystem::path& path);

// The value of cookie `name` in a Cookie header ("a=1; b=2"), if present.
std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name);

// The client's address: the peer's, unless the peer is one of `trusted_proxies` (a load balancer
// in front of the nodes) and the request carries X-Forwarded-For; then the last address of that
// list, the one the balancer appended (earlier ones were written by the client and prove nothing).
// A last entry that is not an IP address leaves the peer's. Per-address limits count this address.
std::string client_address(std::string_view peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies);

// A WebSocket upgrade is accepted when it carries no Origin (not a browser), when the Origin is
// one of `public_origins` (the addresses the server is published at, --public-origin) or of
// `allowed` (extra origins such as a dev server, --allowed-origin): exact, case-insensitive. With
// no public origin configured, the server's own addresses are its origins: an Origin whose
// host[:port] equals the Host header and whose host is an IP address or `localhost`, as a
// browser reaches what --bind/--port serve. A name is never accepted by comparing it with Host:
// a DNS-rebound page sends the attacker's name as both (docs/security.md).
bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& public_origins,
                    const std::vector<std::string>& allowed);

// Request framing (RFC 9112 §5, §6.1, §6.3), checked before a request is parsed further: a
// server that reads a body differently from a proxy in front of it lets the rest of the bytes be
// taken for a second request. The answer to any of these is an error and a closed connection.
struct FramingError {
  int status;           // 400 or 501
  std::string message;  // names the rule, never the client's text
};

// `raw` is the header block as received: the request line and the header lines up to (not
// including) the empty line. Refuses obsolete line folding (a line starting with SP or HT) and
// whitespace between a field name and its colon.
std::optional<FramingError> check_header_block(std::string_view raw);

// The framing fields as parsed: every Transfer-Encoding and Content-Length value received.
// A Transfer-Encoding is accepted only as the single coding "chunked" and never together with a
// Content-Length; a Content-Length only once, as plain digits.
std::optional<FramingError> check_framing(const std::vector<std::string_view>& transfer_encodings,
                                          const std::vector<std::string_view>& content_lengths);

}  // namespace ur::server
