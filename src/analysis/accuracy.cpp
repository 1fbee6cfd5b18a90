#include "analysis/accuracy.h"

#include <cmath>

namespace ur::analysis {

Grade grade_of(double loss, int legal) {
  if (legal < 2) return Grade::kForced;
  if (loss < kBestBelow) return Grade::kBest;
  if (loss < kGoodBelow) return Grade::kGood;
  if (loss < kInaccuracyBelow) return Grade::kInaccuracy;
  if (loss < kMistakeBelow) return Grade::kMistake;
  return Grade::kBlunder;
}

std::string_view grade_name(Grade g) {
  switch (g) {
    case Grade::kForced:
      return "forced";
    case Grade::kBest:
      return "best";
    case Grade::kGood:
      return "good";
    case Grade::kInaccuracy:
      return "inaccuracy";
    case Grade::kMistake:
      return "mistake";
    case Grade::kBlunder:
      return "blunder";
  }
  return "?";
}

double accuracy(std::span<const double> losses) {
  if (losses.empty()) return 100.0;
  double sum = 0;
  // A loss below the "best" threshold is the table's rounding, not a mistake: a perfect
  // player scores exactly 100.
  for (double l : losses) sum += l < kBestBelow ? 0.0 : l;
  const double mean_points = 100.0 * sum / static_cast<double>(losses.size());
  return 100.0 * std::exp(-kAccuracyRate * mean_points);
}

}  // namespace ur::analysis
