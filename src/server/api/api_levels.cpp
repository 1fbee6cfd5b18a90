// GET /api/levels: the computer's difficulty levels, weakest first, read from the one list in
// ai/registry (ai::levels), so that the web lobby offers exactly the levels a table accepts.
#include <nlohmann/json.hpp>

#include "ai/agent.h"
#include "server/api/api.h"

namespace ur::server {

nlohmann::json levels_json() {
  nlohmann::json list = nlohmann::json::array();
  for (const ai::Level& l : ai::levels())
    list.push_back({{"name", std::string(l.name)}, {"agent", std::string(l.agent)}});
  return nlohmann::json{{"levels", std::move(list)}};
}

}  // namespace ur::server
