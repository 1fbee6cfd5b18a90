// The wire names of the computer players' codes (ai/agent_errc.h), in the enum's order.
#include "ai/agent_errc.h"

#include <array>

namespace ur::ai {
namespace {

constexpr std::array<std::string_view, 1> kNames{"bad_agent"};
static_assert(kNames.size() == static_cast<std::size_t>(AgentErrc::kBadAgent) + 1,
              "kNames must name every AgentErrc once, in the enum's order");

constexpr ErrorDomain kDomain{"ai", kNames};

}  // namespace

const ErrorDomain& error_domain(AgentErrc) {
  return kDomain;
}

}  // namespace ur::ai
