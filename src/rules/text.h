// Small text helpers for input read at the boundaries (rule-set and agent specs, engine-protocol
// lines, HTTP headers): one copy on the lowest floor instead of one per parser.
#pragma once

#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>

namespace ur {

// `s` without leading and trailing spaces and tabs.
inline std::string_view trim_blanks(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// `s` in ASCII lower case.
inline std::string ascii_lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

}  // namespace ur
