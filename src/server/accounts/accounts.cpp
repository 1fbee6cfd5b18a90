#include "server/accounts/accounts.h"

#include <sodium.h>

#include <vector>

namespace ur::server {

bool init_crypto() {
  static const bool ok = sodium_init() >= 0;
  return ok;
}

std::optional<std::string> check_username(std::string_view username) {
  if (username.size() < 3 || username.size() > 20)
    return "username must be 3 to 20 characters long";
  for (char c : username) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-';
    if (!ok) return "username may contain only letters, digits, '_' and '-'";
  }
  return std::nullopt;
}

namespace {

std::string lower_ascii(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// A lower-case name as offensive words are looked for in it: separators dropped, the digits
// people write for letters read as letters.
std::string fold_username(std::string_view lower) {
  std::string out;
  for (char c : lower) {
    switch (c) {
      case '-':
      case '_':
        continue;
      case '0':
        c = 'o';
        break;
      case '1':
        c = 'i';
        break;
      case '3':
        c = 'e';
        break;
      case '4':
        c = 'a';
        break;
      case '5':
        c = 's';
        break;
      case '7':
        c = 't';
        break;
      case '8':
        c = 'b';
        break;
      default:
        break;
    }
    out.push_back(c);
  }
  return out;
}

}  // namespace

std::optional<std::string> check_reserved_username(std::string_view username) {
  const std::string name = lower_ascii(username);
  const std::string_view n = name;
  bool guest_like = n == "guest" || (n.starts_with("guest") && n.size() > 5 &&
                                     (n[5] == '-' || n[5] == '_' || (n[5] >= '0' && n[5] <= '9')));
  if (guest_like) return "names like \"guest-...\" are the server's guest names";
  if (n.starts_with("computer")) return "names starting with \"computer\" are the computer's";
  if (n.starts_with("deleted-")) return "names like \"deleted-...\" are deleted accounts' names";
  for (std::string_view reserved : kReservedNames)
    if (n == reserved) return "that name is reserved";
  const std::string folded = fold_username(n);
  for (std::string_view word : kOffensiveWords)
    if (folded.find(word) != std::string::npos) return "that name is not allowed";
  return std::nullopt;
}

std::optional<std::string> check_password(std::string_view password) {
  std::size_t code_points = 0;
  for (char c : password) {
    if (c == '\0') return "password must not contain NUL characters";
    // Count every byte that does not continue a UTF-8 sequence (10xxxxxx).
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++code_points;
  }
  if (code_points < 8) return "password must be at least 8 characters long";
  if (code_points > 128) return "password must be at most 128 characters long";
  return std::nullopt;
}

std::string hash_password(std::string_view password, PasswordCost cost) {
  init_crypto();
  char out[crypto_pwhash_STRBYTES];
  if (crypto_pwhash_str_alg(out, password.data(), password.size(), cost.opslimit, cost.memlimit,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    return {};
  return out;
}

bool verify_password(const std::string& hash, std::string_view password) {
  init_crypto();
  if (hash.empty() || hash.size() >= crypto_pwhash_STRBYTES) return false;
  return crypto_pwhash_str_verify(hash.c_str(), password.data(), password.size()) == 0;
}

std::string random_token_hex(std::size_t bytes) {
  init_crypto();
  std::vector<unsigned char> raw(bytes);
  randombytes_buf(raw.data(), raw.size());
  std::string hex(bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), raw.data(), raw.size());
  hex.pop_back();
  return hex;
}

namespace {
// BLAKE2b of the token under a fixed, purpose-specific prefix, as hex.
std::string tagged_hash(std::string_view tag, std::string_view token, std::size_t bytes) {
  std::string input = std::string(tag) + ":" + std::string(token);
  std::vector<unsigned char> out(bytes);
  crypto_generichash(out.data(), out.size(), reinterpret_cast<const unsigned char*>(input.data()),
                     input.size(), nullptr, 0);
  std::string hex(bytes * 2 + 1, '\0');
  sodium_bin2hex(hex.data(), hex.size(), out.data(), out.size());
  hex.pop_back();
  return hex;
}
}  // namespace

std::string guest_key(std::string_view token) {
  return tagged_hash("ur-guest-key", token, 16);
}

std::string guest_name(std::string_view token) {
  return "guest-" + tagged_hash("ur-guest-name", token, 4);
}

std::string bot_token_hash(std::string_view token) {
  return tagged_hash("ur-bot-token", token, 32);
}

std::string session_key(std::string_view token) {
  return tagged_hash("ur-session", token, 32);
}

bool is_token_hex(std::string_view s) {
  if (s.size() != 32) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

}  // namespace ur::server
