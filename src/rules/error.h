// One error vocabulary for the whole program: every floor, from the rule-set parser to the HTTP
// answers, reports a failure as an `Error` — a stable code and words for a person — and returns
// `Result<T>`. The code is what programs rely on (the WebSocket protocol's and the HTTP API's
// `error` field); the words may change.
//
// A code belongs to the floor that raises it: each floor with codes of its own declares an enum and
// an `ErrorDomain` naming them on the wire (as std::error_category does for std::error_code). This
// file holds the mechanism and the rules' own codes; the solver's are in solver/table_errc.h, the
// computer players' in ai/agent_errc.h, the server's in server/server_errc.h. An enum converts to
// an `ErrorCode` only through its floor's `error_domain`, so a floor can raise only the codes of the
// floors it may include: a server code cannot be spelled below src/server. What HTTP status a code
// answers with is the server's to say (server/api/http_status.cpp).
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

namespace ur {

// The codes of one floor: a name for people ("rules", "server") and the wire name of each code,
// indexed by the code's value. One object per domain, for the life of the program: a code is
// told from another by the address of its domain and its value.
struct ErrorDomain {
  std::string_view name;
  std::span<const std::string_view> codes;
};

// An enum whose values are error codes: `error_domain(E)`, found by argument-dependent lookup in
// the enum's namespace, gives its domain.
template <class E>
concept ErrorEnum = std::is_enum_v<E> && requires(E e) {
  { error_domain(e) } -> std::same_as<const ErrorDomain&>;
};

// A code of any floor: a domain and a value in it. Made from an ErrorEnum, compared with one
// (`err.code == Errc::kBadRules`); `as<E>()` gives the enum back, to switch on, when the code is
// of E's domain.
class ErrorCode {
 public:
  template <ErrorEnum E>
  ErrorCode(E e)  // NOLINT(google-explicit-constructor): an enum value is a code
      : domain_(&error_domain(e)), value_(static_cast<int>(e)) {}
  // The code of a value in `domain`, for reading a wire name back (server/server_errc.h).
  ErrorCode(const ErrorDomain& domain, int value) : domain_(&domain), value_(value) {}

  const ErrorDomain& domain() const { return *domain_; }
  int value() const { return value_; }
  // The stable name sent on the wire ("bad_rules", "not_your_turn", ...).
  std::string_view name() const { return domain_->codes[static_cast<std::size_t>(value_)]; }

  template <ErrorEnum E>
  std::optional<E> as() const {
    if (domain_ != &error_domain(E{})) return std::nullopt;
    return static_cast<E>(value_);
  }

  friend bool operator==(const ErrorCode&, const ErrorCode&) = default;

 private:
  const ErrorDomain* domain_;
  int value_;
};

// The rules' own codes, and the two any floor may raise (bad_request, internal). The wire names
// are in error.cpp, in this order.
enum class Errc : std::uint8_t {
  kBadRules,     // a rule set that does not parse or is not one the program plays
  kBadPosition,  // a position that does not parse or cannot arise under the rules
  kBadMove,      // a move's text that does not parse
  kBadRecord,    // a game record that does not parse or does not replay
  kIllegalMove,  // a move the rules do not allow in that position
  kBadRequest,   // any floor: an argument missing, of the wrong type or out of range
  kInternal,     // any floor: a failure that is not the caller's
};
const ErrorDomain& error_domain(Errc);

struct Error {
  Error() = default;
  Error(ErrorCode c, std::string words, std::string remote = {})
      : code(c), message(std::move(words)), reason(std::move(remote)) {}

  ErrorCode code = Errc::kInternal;
  // Words for the person who gave the input; may quote it (a command line, a local file).
  std::string message;
  // Words for someone else (a server's client): name the constraint only, never quote the input.
  // Empty when `message` quotes nothing and can be sent as it is.
  std::string reason;

  std::string_view name() const { return code.name(); }
  const std::string& remote_message() const { return reason.empty() ? message : reason; }
};

// A value or the reason there is none. A variant, so callers test it with std::get_if /
// std::holds_alternative as any other.
template <class T>
using Result = std::variant<T, Error>;

}  // namespace ur
