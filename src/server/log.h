// One line per event on stderr, with a UTC timestamp; whole lines even from several threads.
#pragma once

#include <string_view>

namespace ur::server {

void log_line(std::string_view message);

}  // namespace ur::server
