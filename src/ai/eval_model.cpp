#include "ai/eval_model.h"

#include <array>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace ur::ai {
namespace {

// Boxed (RULES.md §5.8). Produced by:
//   (not fitted yet)
constexpr std::array<double, 0> kBoxed{};

}  // namespace

std::span<const double> fitted_model(const RuleSet& rules) {
  // TEMPORARY exploration hook (remove before commit).
  static const std::vector<double> env_model = [] {
    std::vector<double> w;
    if (const char* f = std::getenv("UR_EVAL_MODEL")) {
      std::ifstream in(f);
      std::string tok;
      while (in >> tok) {
        if (tok.rfind("//", 0) == 0) { std::getline(in, tok); continue; }
        if (!tok.empty() && tok.back() == ',') tok.pop_back();
        w.push_back(std::stod(tok));
      }
    }
    return w;
  }();
  if (!env_model.empty() && rules.preset == "boxed") return env_model;
  if (kBoxed.size() > 0 && rules.to_string() == "boxed") return kBoxed;
  return {};
}

}  // namespace ur::ai
