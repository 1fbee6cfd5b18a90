// Account rules and the cryptography behind them: what a valid username and password are, argon2id
// password hashes (libsodium's crypto_pwhash_str, whose output carries its own salt and cost, so a
// later change of cost still verifies old hashes), and 128-bit random tokens for sessions and
// invites. Hashing is deliberately slow (tens of milliseconds, 64 MiB): callers run it off the I/O
// threads.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ur::server {

// libsodium must be initialised once before any other call here; safe to call repeatedly.
bool init_crypto();

// nullopt if valid, else a message for the user. Usernames: 3–20 of [A-Za-z0-9_-].
std::optional<std::string> check_username(std::string_view username);
// nullopt if a new account may take the name, else a message for the user: names another player
// could mistake for someone else are reserved (docs/server.md, "Reserved names"), ignoring case:
// "guest" and "guest" followed by '-', '_' or a digit (the server's guest names), every name
// starting with "computer" (its computer seats), every name starting with "deleted-" (deleted
// accounts), kReservedNames, and every name containing one of kOffensiveWords once folded
// (lower case, '-' and '_' dropped, the digits people write for letters read as those letters:
// 0 o, 1 i, 3 e, 4 a, 5 s, 7 t, 8 b). Checked at registration and by an administrator's rename:
// an account that has such a name already keeps it until an administrator renames it.
std::optional<std::string> check_reserved_username(std::string_view username);
inline constexpr std::string_view kReservedNames[] = {
    "admin",     "administrator", "anonymous", "bot",   "dark",   "light",   "moderator",
    "mod",       "nobody",        "null",      "root",  "server", "support", "system",
    "undefined", "you",           "staff",     "owner", "player"};
// Words no username may contain (docs/server.md, "Reserved names"): chosen so that few ordinary
// names contain them (no "ass" of "class", "dick" of "dickens", "rapist" of "therapist", "nazi"
// of "Nazir", "wank" of "swanky"); a substring match still refuses a few ("Scunthorpe").
inline constexpr std::string_view kOffensiveWords[] = {
    "fuck", "shit",  "cunt",    "nigger", "nigga",  "faggot", "whore",
    "slut", "bitch", "asshole", "retard", "hitler", "twat"};
// Passwords: 8–128 characters (UTF-8 code points), no NUL.
std::optional<std::string> check_password(std::string_view password);

struct PasswordCost {
  unsigned long long opslimit = 2;
  std::size_t memlimit = 64u * 1024 * 1024;
};

// An "$argon2id$..." string; empty only if the system is out of memory.
std::string hash_password(std::string_view password, PasswordCost cost);
bool verify_password(const std::string& hash, std::string_view password);

// `bytes` random bytes from the OS CSPRNG as lowercase hex (16 bytes = 128 bits = 32 digits).
std::string random_token_hex(std::size_t bytes = 16);
// Whether `s` looks like a token of random_token_hex(16): cheap rejection of junk cookies.
bool is_token_hex(std::string_view s);

// A guest cookie's stable key (a keyed hash: the token itself is never stored) and its public
// display name "guest-" + 8 hex digits (a different hash, so the name reveals nothing).
std::string guest_key(std::string_view token);
std::string guest_name(std::string_view token);

// What is stored of a bot account's token (docs/server.md): a hash under its own tag, so that a
// stolen database does not hand out working tokens, and a lookup by hash finds the account.
// The token is 128 random bits, so a fast hash is enough (nothing to guess or brute-force).
std::string bot_token_hash(std::string_view token);

// What is stored of a session cookie's token, for the same reason: a copy of the database (a
// backup, a replica) must not let its reader log in as every user.
std::string session_key(std::string_view token);

}  // namespace ur::server
