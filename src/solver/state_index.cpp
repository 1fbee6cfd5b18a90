#include "solver/state_index.h"
#include "solver/table_errc.h"

namespace ur::solver {

StateIndexResult StateIndex::create(const Engine& engine, Encoding encoding, int endgame) {
  // An endgame table is a run of the multiset index's layers; the dense index has none such.
  if (encoding == Encoding::kDense && endgame > 0)
    return Error{Errc::kBadRules, engine.rules().to_string() +
                                      ": endgame tables are in the multiset encoding, not dense"};
  if (encoding != Encoding::kMultiset && endgame == 0) {
    DenseIndexResult dense = DenseIndex::create(engine);
    if (auto* d = std::get_if<DenseIndex>(&dense)) return StateIndex(std::move(*d));
    if (encoding == Encoding::kDense) return std::get<Error>(dense);
  }
  MultisetIndexResult multiset = MultisetIndex::create(engine, endgame);
  if (auto* m = std::get_if<MultisetIndex>(&multiset)) return StateIndex(std::move(*m));
  return std::get<Error>(multiset);
}

int StateIndex::endgame_of(const std::string& encoding_id) {
  const std::string tag = ":endgame";
  const auto at = encoding_id.rfind(tag);
  if (at == std::string::npos) return 0;
  int k = 0;
  for (std::size_t i = at + tag.size(); i < encoding_id.size(); ++i) {
    const char c = encoding_id[i];
    if (c < '0' || c > '9' || k > kMaxPieces) return -1;  // not an id this build writes
    k = k * 10 + (c - '0');
  }
  return k;
}

StateIndexResult StateIndex::for_table(const Engine& engine, const std::string& encoding_id) {
  const bool multiset = encoding_id.rfind("ur-multiset", 0) == 0;
  const int endgame = endgame_of(encoding_id);
  if (endgame < 0)
    return Error{TableErrc::kBadTable, "unknown state encoding '" + encoding_id + "'"};
  return create(engine, multiset ? Encoding::kMultiset : Encoding::kAuto, endgame);
}

std::uint64_t StateIndex::size() const {
  return std::visit([](const auto& i) { return i.size(); }, index_);
}

const std::vector<Layer>& StateIndex::layers() const {
  return std::visit([](const auto& i) -> const std::vector<Layer>& { return i.layers(); }, index_);
}

std::string StateIndex::encoding_id() const {
  return std::visit([](const auto& i) { return i.encoding_id(); }, index_);
}

Position StateIndex::unrank(std::uint64_t index) const {
  return std::visit([index](const auto& i) { return i.unrank(index); }, index_);
}

const Engine& StateIndex::engine() const {
  return std::visit([](const auto& i) -> const Engine& { return i.engine(); }, index_);
}

}  // namespace ur::solver
