// The fields a game record names (docs/notation.md), shared by its writer (game_record_text.cpp)
// and its reader (game_record.cpp) so the two cannot drift apart.
#pragma once

#include <array>

#include "engine/game.h"

namespace ur::record_fields {

inline const std::array<const char*, 2> kPlayerKeys = {"light", "dark"};

// The statistics a record carries, in the order they are written.
struct StatField {
  const char* key;
  int PlayerStats::*field;
};
inline const std::array<StatField, 8> kStatFields = {{{"throws", &PlayerStats::throws},
                                                      {"moves", &PlayerStats::moves},
                                                      {"passes", &PlayerStats::passes},
                                                      {"captures", &PlayerStats::captures},
                                                      {"rosettes", &PlayerStats::rosettes},
                                                      {"borne_off", &PlayerStats::borne_off},
                                                      {"bounces", &PlayerStats::bounces},
                                                      {"forfeits", &PlayerStats::forfeits}}};

}  // namespace ur::record_fields
