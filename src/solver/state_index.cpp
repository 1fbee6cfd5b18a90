#include "solver/state_index.h"

namespace ur::solver {

StateIndexResult StateIndex::create(const Engine& engine, Encoding encoding) {
  if (encoding != Encoding::kMultiset) {
    DenseIndexResult dense = DenseIndex::create(engine);
    if (auto* d = std::get_if<DenseIndex>(&dense)) return StateIndex(std::move(*d));
    if (encoding == Encoding::kDense) return std::get<Error>(dense);
  }
  MultisetIndexResult multiset = MultisetIndex::create(engine);
  if (auto* m = std::get_if<MultisetIndex>(&multiset)) return StateIndex(std::move(*m));
  return std::get<Error>(multiset);
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
