#include "server/protocol/http_util.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <system_error>

#include <boost/asio/ip/address.hpp>

#include "rules/text.h"

namespace ur::server {
namespace fs = std::filesystem;

namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string_view mime_type(std::string_view path) {
  auto dot = path.rfind('.');
  auto slash = path.rfind('/');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash))
    return "application/octet-stream";
  std::string ext = ascii_lower(path.substr(dot + 1));
  struct Entry {
    std::string_view ext, type;
  };
  static constexpr Entry kTypes[] = {
      {"html", "text/html; charset=utf-8"},
      {"htm", "text/html; charset=utf-8"},
      {"css", "text/css; charset=utf-8"},
      {"js", "text/javascript; charset=utf-8"},
      {"mjs", "text/javascript; charset=utf-8"},
      {"json", "application/json"},
      {"map", "application/json"},
      {"txt", "text/plain; charset=utf-8"},
      {"md", "text/markdown; charset=utf-8"},
      {"svg", "image/svg+xml"},
      {"png", "image/png"},
      {"jpg", "image/jpeg"},
      {"jpeg", "image/jpeg"},
      {"gif", "image/gif"},
      {"webp", "image/webp"},
      {"ico", "image/vnd.microsoft.icon"},
      {"wasm", "application/wasm"},
      {"woff", "font/woff"},
      {"woff2", "font/woff2"},
      {"webmanifest", "application/manifest+json"},
  };
  for (const Entry& e : kTypes)
    if (e.ext == ext) return e.type;
  return "application/octet-stream";
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '%') {
      if (i + 2 >= s.size()) return std::nullopt;
      int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
      if (hi < 0 || lo < 0) return std::nullopt;
      c = static_cast<char>(hi * 16 + lo);
      i += 2;
    }
    if (c == '\0') return std::nullopt;
    out.push_back(c);
  }
  return out;
}

std::optional<fs::path> resolve_static_path(const fs::path& root, std::string_view target) {
  std::string_view path = target.substr(0, target.find_first_of("?#"));
  if (path.empty() || path.front() != '/') return std::nullopt;
  auto decoded = percent_decode(path);
  if (!decoded) return std::nullopt;
  std::string rel = *decoded;
  if (rel.find('\\') != std::string::npos) return std::nullopt;
  // Refuse "." and ".." segments outright instead of normalising them away.
  std::size_t start = 1;
  while (start <= rel.size()) {
    std::size_t end = rel.find('/', start);
    if (end == std::string::npos) end = rel.size();
    std::string_view seg(rel.data() + start, end - start);
    if (seg == "." || seg == "..") return std::nullopt;
    start = end + 1;
  }
  if (rel.back() == '/') rel += "index.html";
  // The explorer's address (/explore?rules=…&position=…) is a screen of the one-page client.
  if (rel == "/explore") rel = "/index.html";
  fs::path full = root / fs::path(rel.substr(1));
  std::error_code ec;
  if (fs::is_directory(full, ec)) full /= "index.html";
  return inside_root(root, full);
}

std::optional<fs::path> inside_root(const fs::path& root, const fs::path& path) {
  // Symlinks inside the root must not lead outside it.
  std::error_code ec;
  fs::path canon = fs::weakly_canonical(path, ec);
  if (ec) return std::nullopt;
  auto [r, c] = std::mismatch(root.begin(), root.end(), canon.begin(), canon.end());
  if (r != root.end()) return std::nullopt;
  return canon;
}

bool accepts_coding(std::string_view header, std::string_view coding) {
  std::optional<bool> named, any;
  while (!header.empty()) {
    std::size_t comma = header.find(',');
    std::string_view item = header.substr(0, comma);
    header = comma == std::string_view::npos ? std::string_view{} : header.substr(comma + 1);
    std::size_t semi = item.find(';');
    std::string name = ascii_lower(trim_blanks(item.substr(0, semi)));
    if (name.empty()) continue;
    bool acceptable = true;
    while (semi != std::string_view::npos) {  // parameters: only q counts
      std::string_view rest = item.substr(semi + 1);
      semi = rest.find(';');
      std::string_view param = trim_blanks(rest.substr(0, semi));
      if (param.size() < 2 || (param[0] != 'q' && param[0] != 'Q') || param[1] != '=') continue;
      std::string_view q = trim_blanks(param.substr(2));
      // A weight is 0 to 1 with at most three decimals: anything but zeros after "0" accepts.
      acceptable =
          !q.empty() &&
          (q[0] == '1' || (q[0] == '0' && q.find_first_not_of("0.") != std::string_view::npos));
    }
    if (name == coding) named = acceptable;
    if (name == "*") any = acceptable;
  }
  return named ? *named : any.value_or(false);
}

std::optional<std::string> cookie_value(std::string_view header, std::string_view name) {
  while (!header.empty()) {
    std::size_t semi = header.find(';');
    std::string_view part = trim_blanks(header.substr(0, semi));
    std::size_t eq = part.find('=');
    if (eq != std::string_view::npos && trim_blanks(part.substr(0, eq)) == name) {
      std::string_view v = trim_blanks(part.substr(eq + 1));
      if (v.size() >= 2 && v.front() == '"' && v.back() == '"') v = v.substr(1, v.size() - 2);
      return std::string(v);
    }
    if (semi == std::string_view::npos) break;
    header.remove_prefix(semi + 1);
  }
  return std::nullopt;
}

std::string client_address(std::string_view peer, std::string_view forwarded_for,
                           const std::vector<std::string>& trusted_proxies) {
  if (forwarded_for.empty() ||
      std::find(trusted_proxies.begin(), trusted_proxies.end(), peer) == trusted_proxies.end())
    return std::string(peer);
  std::string_view last = forwarded_for.substr(forwarded_for.rfind(',') + 1);
  last = trim_blanks(last);
  boost::system::error_code ec;
  const auto address = boost::asio::ip::make_address(std::string(last), ec);
  return ec ? std::string(peer) : address.to_string();
}

namespace {

// "127.0.0.1:8080" -> "127.0.0.1", "[::1]:8080" -> "::1", "localhost" -> "localhost".
std::string_view host_of(std::string_view authority) {
  if (authority.starts_with('[')) {
    std::size_t close = authority.find(']');
    return close == std::string_view::npos ? std::string_view() : authority.substr(1, close - 1);
  }
  return authority.substr(0, authority.find(':'));
}

bool is_address_or_localhost(std::string_view host) {
  if (host == "localhost") return true;
  boost::system::error_code ec;
  boost::asio::ip::make_address(std::string(host), ec);
  return !ec && !host.empty();
}

}  // namespace

bool origin_allowed(std::string_view origin, std::string_view host,
                    const std::vector<std::string>& public_origins,
                    const std::vector<std::string>& allowed) {
  if (origin.empty()) return true;
  std::string o = ascii_lower(origin);
  for (const auto* list : {&public_origins, &allowed})
    for (const std::string& a : *list)
      if (ascii_lower(a) == o) return true;
  if (!public_origins.empty()) return false;
  std::size_t scheme = o.find("://");
  if (scheme == std::string::npos) return false;
  std::string_view authority = std::string_view(o).substr(scheme + 3);
  if (authority.find('/') != std::string_view::npos) return false;
  return !host.empty() && authority == ascii_lower(host) &&
         is_address_or_localhost(host_of(authority));
}

std::optional<FramingError> check_header_block(std::string_view raw) {
  bool first = true;
  while (!raw.empty()) {
    std::size_t eol = raw.find("\r\n");
    std::string_view line = raw.substr(0, eol);
    raw = eol == std::string_view::npos ? std::string_view() : raw.substr(eol + 2);
    if (first) {
      first = false;
      continue;
    }
    if (line.empty()) continue;
    if (line.front() == ' ' || line.front() == '\t')
      return FramingError{400, "obsolete line folding in a header is not accepted"};
    std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) return FramingError{400, "a header line has no colon"};
    std::string_view name = line.substr(0, colon);
    if (name.empty() || name.find_first_of(" \t") != std::string_view::npos)
      return FramingError{400, "whitespace in or before a header name's colon is not accepted"};
  }
  return std::nullopt;
}

std::optional<FramingError> check_framing(const std::vector<std::string_view>& transfer_encodings,
                                          const std::vector<std::string_view>& content_lengths) {
  if (!transfer_encodings.empty() && !content_lengths.empty())
    return FramingError{400, "a request may not carry both Transfer-Encoding and Content-Length"};
  if (content_lengths.size() > 1) return FramingError{400, "Content-Length given more than once"};
  for (std::string_view v : content_lengths) {
    v = trim_blanks(v);
    if (v.empty() || v.find_first_not_of("0123456789") != std::string_view::npos)
      return FramingError{400, "Content-Length must be a decimal number"};
  }
  if (transfer_encodings.empty()) return std::nullopt;
  std::vector<std::string> codings;
  for (std::string_view v : transfer_encodings) {
    while (true) {
      std::size_t comma = v.find(',');
      std::string_view c = trim_blanks(v.substr(0, comma));
      codings.push_back(ascii_lower(c));
      if (comma == std::string_view::npos) break;
      v.remove_prefix(comma + 1);
    }
  }
  if (codings.size() == 1 && codings[0] == "chunked") return std::nullopt;
  if (codings.back() != "chunked")
    return FramingError{400, "the final transfer coding of a request must be chunked"};
  if (std::count(codings.begin(), codings.end(), "chunked") > 1)
    return FramingError{400, "the chunked transfer coding may be applied only once"};
  return FramingError{501, "only the chunked transfer coding is implemented"};
}

std::string query_param(std::string_view target, std::string_view name) {
  auto q = target.find('?');
  if (q == std::string_view::npos) return {};
  std::string_view rest = target.substr(q + 1);
  while (!rest.empty()) {
    auto amp = rest.find('&');
    std::string_view pair = rest.substr(0, amp);
    auto eq = pair.find('=');
    if (pair.substr(0, eq) == name && eq != std::string_view::npos)
      return std::string(pair.substr(eq + 1));
    if (amp == std::string_view::npos) break;
    rest = rest.substr(amp + 1);
  }
  return {};
}

std::int64_t int_param(std::string_view target, std::string_view name, std::int64_t fallback,
                       std::int64_t lo, std::int64_t hi) {
  std::string v = query_param(target, name);
  std::int64_t out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || p != v.data() + v.size()) return fallback;
  return std::clamp(out, lo, hi);
}

}  // namespace ur::server
