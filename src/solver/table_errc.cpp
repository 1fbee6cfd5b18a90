// The wire names of the stored tables' codes (solver/table_errc.h), in the enum's order.
#include "solver/table_errc.h"

#include <array>

namespace ur::solver {
namespace {

constexpr std::array<std::string_view, 2> kNames{"bad_table", "corrupt_table"};
static_assert(kNames.size() == static_cast<std::size_t>(TableErrc::kCorruptTable) + 1,
              "kNames must name every TableErrc once, in the enum's order");

constexpr ErrorDomain kDomain{"solver", kNames};

}  // namespace

const ErrorDomain& error_domain(TableErrc) {
  return kDomain;
}

}  // namespace ur::solver
