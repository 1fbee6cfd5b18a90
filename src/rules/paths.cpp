#include "rules/paths.h"

#include <cassert>
#include <sstream>

namespace ur {
namespace {

std::vector<Cell> cells_of(const char* list) {
  std::vector<Cell> out;
  std::istringstream in(list);
  std::string name;
  while (in >> name) {
    auto c = parse_cell(name);
    assert(c);
    out.push_back(*c);
  }
  return out;
}

PathPair make(const char* id, const char* citation, BoardShape board, const char* p1,
              const char* p2, const char* start1, const char* end1, const char* start2,
              const char* end2) {
  PathPair p;
  p.id = id;
  p.citation = citation;
  p.board = board;
  p.cells = {cells_of(p1), cells_of(p2)};
  p.start = {*parse_cell(start1), *parse_cell(start2)};
  p.end = {*parse_cell(end1), *parse_cell(end2)};
  return p;
}

std::vector<PathPair> make_all() {
  using B = BoardShape;
  return {
      make("bell14", "docs/rules.md §2.2 bell14; RoyalUr-Java BellPathPair", B::kStandard,
           "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 h1 g1",  //
           "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 h3 g3", "e1", "f1", "e3", "f3"),
      make("masters16", "docs/rules.md §2.2 masters16; RoyalUr-Java MastersPathPair", B::kStandard,
           "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1",
           "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3", "e1", "f1", "e3", "f3"),
      make("murray27_own",
           "docs/rules.md §2.2 murray27_own (A-9: the return leg retraces the own row)",
           B::kStandard,
           "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 g2 f2 e2 d2 c2 b2 a2 a1 b1 c1 d1",
           "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3 g2 f2 e2 d2 c2 b2 a2 a3 b3 c3 d3", "e1",
           "e1", "e3", "e3"),
      make("murray27_royalur", "docs/rules.md §2.2 murray27_royalur; RoyalUr-Java MurrayPathPair",
           B::kStandard,
           "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 g3 h3 h2 h1 g1 g2 f2 e2 d2 c2 b2 a2 a3 b3 c3 d3",
           "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 g1 h1 h2 h3 g3 g2 f2 e2 d2 c2 b2 a2 a1 b1 c1 d1", "e1",
           "e3", "e3", "e1"),
      make("aseb16", "docs/rules.md §2.2 aseb16; RoyalUr-Java AsebPathPair", B::kAseb,
           "d1 c1 b1 a1 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2",
           "d3 c3 b3 a3 a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2", "e1", "l1", "e3", "l3"),
  };
}

}  // namespace

const std::vector<PathPair>& all_paths() {
  static const std::vector<PathPair> paths = make_all();
  return paths;
}

const PathPair* find_path(std::string_view id) {
  for (const PathPair& p : all_paths())
    if (p.id == id) return &p;
  return nullptr;
}

}  // namespace ur
