#include "analysis/review_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <set>

namespace ur::analysis {
namespace {

constexpr int kLeft = 44, kRight = 12, kTop = 28, kBottom = 34;

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else if (c == '"')
      out += "&quot;";
    else
      out += c;
  }
  return out;
}

struct Frame {
  double x0, y0, w, h;
  int steps;
  double x(int i) const { return x0 + w * i / std::max(1, steps); }  // i = 0: the start
  double y(double light) const { return y0 + h * (1.0 - light); }
};

std::string axes(const Frame& f) {
  std::string out = fmt::format(
      "<rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"#fbfaf6\" "
      "stroke=\"#999\"/>\n",
      f.x0, f.y0, f.w, f.h);
  for (int pct : {0, 25, 50, 75, 100}) {
    const double y = f.y(pct / 100.0);
    out += fmt::format(
        "<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"{}\"{}/>\n"
        "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{}%</text>\n",
        f.x0, y, f.x0 + f.w, y, pct == 50 ? "#777" : "#ddd",
        pct == 50 ? " stroke-dasharray=\"4 3\"" : "", f.x0 - 4, y + 4, pct);
  }
  out += fmt::format(
      "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">steps of the game (throws and "
      "decisions); light's winning chance</text>\n",
      f.x0 + f.w / 2, f.y0 + f.h + 24);
  return out;
}

std::string marks(const Review& r, const Frame& f) {
  std::string out;
  for (int i = 0; i < static_cast<int>(r.steps.size()); ++i) {
    const Step& s = r.steps[i];
    if (s.kind != StepKind::kDecision || (s.grade != Grade::kMistake && s.grade != Grade::kBlunder))
      continue;
    out += fmt::format(
        "<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\"><title>event {}: {} {} "
        "(-{:.1f}%)</title></circle>\n",
        f.x(i + 1), f.y(s.light_after), s.grade == Grade::kBlunder ? "#d62728" : "#ff9f1c",
        s.event + 1, player_name(s.player), grade_name(s.grade), 100 * s.lost);
  }
  std::set<int> lucky(r.key_throws.begin(), r.key_throws.end());
  for (const PlayerReview& p : r.players)
    if (p.luckiest >= 0 && r.steps[p.luckiest].luck > 0) lucky.insert(p.luckiest);
  for (int i : lucky) {
    const Step& s = r.steps[i];
    const bool up = s.light_after >= s.light_before;
    const double x = f.x(i + 1), y = f.y(s.light_after) + (up ? -7 : 7);
    const double d = up ? 5 : -5;
    out += fmt::format(
        "<path d=\"M{:.1f} {:.1f}l{:.1f} {:.1f}h{:.1f}z\" fill=\"#2a9d8f\"><title>event {}: {} "
        "threw {} ({}{:.1f}% luck)</title></path>\n",
        x, y - d, -d * 0.8, 2 * d, 1.6 * d, s.event + 1, player_name(s.player), s.outcome,
        s.luck >= 0 ? "+" : "-", std::abs(100 * s.luck));
  }
  return out;
}

}  // namespace

std::string review_svg(const Review& r, const SvgOptions& o) {
  const Frame f{kLeft, kTop, static_cast<double>(o.width - kLeft - kRight),
                static_cast<double>(o.height - kTop - kBottom), static_cast<int>(r.steps.size())};
  std::string out = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} "
      "{1}\" font-family=\"sans-serif\" font-size=\"11\">\n",
      o.width, o.height);
  const std::string title =
      o.title.empty() ? std::string("Light's winning chance") : escape(o.title);
  out += fmt::format("<text x=\"{}\" y=\"17\" font-size=\"13\">{}{}</text>\n", kLeft, title,
                     r.estimate ? " (estimate)" : "");
  out += axes(f);
  // The line: light's chance at the start, then after every step (1 decimal of a pixel).
  std::string points = fmt::format("{:.1f},{:.1f}", f.x(0), f.y(r.start_value));
  for (int i = 0; i < static_cast<int>(r.steps.size()); ++i)
    points += fmt::format(" {:.1f},{:.1f}", f.x(i + 1), f.y(r.steps[i].light_after));
  out += "<polyline fill=\"none\" stroke=\"#264653\" stroke-width=\"1.5\" points=\"" + points +
         "\"/>\n";
  out += marks(r, f);
  // The legend, top right, beside the title.
  const int lx = o.width - 240;
  const double ly = 17;
  out += fmt::format(
      "<circle cx=\"{0}\" cy=\"{1:.1f}\" r=\"4\" fill=\"#ff9f1c\"/><text x=\"{2}\" y=\"{3:.1f}\">"
      "mistake</text><circle cx=\"{4}\" cy=\"{1:.1f}\" r=\"4\" fill=\"#d62728\"/><text x=\"{5}\" "
      "y=\"{3:.1f}\">blunder</text><path d=\"M{6} {7:.1f}l4 8h-8z\" fill=\"#2a9d8f\"/><text "
      "x=\"{8}\" y=\"{3:.1f}\">lucky throw</text>\n",
      lx + 4, ly - 4, lx + 12, ly, lx + 74, lx + 82, lx + 144, ly - 10, lx + 152);
  out += "</svg>\n";
  return out;
}

}  // namespace ur::analysis
