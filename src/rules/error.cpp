// The wire names of the rules' codes (rules/error.h), in the enum's order. docs/protocol.md and
// docs/server.md list the names that reach a client; tests/server/protocol_doc_test.cpp checks the
// two against each other.
#include "rules/error.h"

#include <array>

namespace ur {
namespace {

constexpr std::array<std::string_view, 7> kNames{
    "bad_rules",    "bad_position", "bad_move", "bad_record",
    "illegal_move", "bad_request",  "internal",
};
static_assert(kNames.size() == static_cast<std::size_t>(Errc::kInternal) + 1,
              "kNames must name every Errc once, in the enum's order");

constexpr ErrorDomain kDomain{"rules", kNames};

}  // namespace

const ErrorDomain& error_domain(Errc) {
  return kDomain;
}

}  // namespace ur
