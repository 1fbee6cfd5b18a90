// The computer players' codes (rules/error.h, "A code belongs to the floor that raises it").
#pragma once

#include <cstdint>

#include "rules/error.h"

namespace ur::ai {

enum class AgentErrc : std::uint8_t {
  kBadAgent,  // an agent spec that does not parse, or a player that cannot be started or obeyed
};
const ErrorDomain& error_domain(AgentErrc);

}  // namespace ur::ai
