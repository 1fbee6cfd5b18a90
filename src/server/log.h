// One line per event on stderr, with a UTC timestamp; whole lines even from several threads.
// Plain text, or one JSON object per line.
#pragma once

#include <string_view>

namespace ur::server {

void log_line(std::string_view message);

// From now on every line is one JSON object {"time": "...Z", "msg": "..."} (--log-format json),
// for a log collector; false: the plain "TIME message" lines.
void set_log_json(bool on);

}  // namespace ur::server
