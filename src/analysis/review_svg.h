// The win-chance graph of a review as a standalone SVG document.
//
// Light's winning chance (0-100%) after every step of the game, left to right from the start,
// over a 50% line; mistakes and blunders are marked on the decisions that made them (orange
// and red dots) and each player's luckiest throw and the key throws with a triangle pointing
// the way the throw moved light's chance. No script, no external reference, no font file: any
// browser or viewer shows it, and a 300-step game stays under 30 KB (docs/analysis.md). The
// server and the web client can draw the same points from the review's JSON ("graph").
#pragma once

#include <string>

#include "analysis/review.h"

namespace ur::analysis {

struct SvgOptions {
  int width = 720;
  int height = 260;
  std::string title;  // drawn above the graph when not empty (escaped)
};

std::string review_svg(const Review& review, const SvgOptions& options = {});

}  // namespace ur::analysis
