// The solver within a memory limit (solve_memory.h): a solve that keeps only the layers it still
// reads, writes each layer to the table file as it finishes and spills its successor streams
// to disk writes the very same table, byte for byte, as a solve that holds everything.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>

#include "../test_util.h"
#include "solver/state_index.h"
#include "solver/table_file.h"
#include "solver/value_iteration.h"

// A namespace of its own: the unity build may batch this file with the other solver tests.
namespace ur::solver::memory_test {
namespace {

namespace fs = std::filesystem;

std::string bytes_of(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

class SolveMemoryTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("ur_solve_memory_" + std::to_string(::getpid()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  fs::path dir_;
};

// One thread, so that both solves update the states in the same order.
TEST_P(SolveMemoryTest, WritesTheSameTableAsASolveThatHoldsEverything) {
  const Engine engine(rule_set_or_throw(GetParam()));
  const StateIndex index = std::get<StateIndex>(StateIndex::create(engine));
  SolveOptions whole;
  whole.threads = 1;
  ValueIteration all(index, whole);
  all.solve({});
  for (const ValueType type : {ValueType::kU16, ValueType::kF32}) {
    const fs::path held = dir_ / "held.urt", lean = dir_ / "lean.urt";
    ASSERT_EQ(write_table(held.string(), all.values(), type, GetParam(), index.encoding_id(),
                          all.max_residual()),
              "");
    SolveOptions opt;
    opt.threads = 1;
    opt.keep_values = false;
    opt.memory_limit = 1;  // below anything: every stream block goes to the spill file
    opt.spill_dir = (dir_ / "spill").string();
    TableWriter writer(lean.string(), type, index.size());
    std::uint64_t next = 0;
    opt.on_layer = [&](const Layer& l, std::span<const float> v) {
      EXPECT_EQ(l.begin, next) << "layers come in index order";
      next = l.end;
      writer.append(v);
    };
    ValueIteration vi(index, opt);
    vi.solve({});
    EXPECT_EQ(next, index.size());
    ASSERT_EQ(writer.finish(GetParam(), index.encoding_id(), vi.max_residual()), "");
    for (const LayerReport& r : vi.reports()) {
      EXPECT_GT(r.stream_bytes, 0u);
      EXPECT_EQ(r.spilled_bytes, r.stream_bytes) << "every block spilled";
    }
    EXPECT_EQ(vi.max_residual(), all.max_residual());
    const std::string a = bytes_of(held), b = bytes_of(lean);
    ASSERT_EQ(a.size(), b.size());
    EXPECT_TRUE(a == b) << GetParam() << ": the tables differ";
    EXPECT_TRUE(fs::is_empty(dir_ / "spill")) << "the spill file is gone with the solve";
    auto opened = Table::open(lean.string(), GetParam(), index.encoding_id());
    ASSERT_TRUE(std::holds_alternative<std::shared_ptr<const Table>>(opened))
        << std::get<Error>(opened).message;
  }
}

// The dense encoding, and the multiset one with its decisions inside a turn.
INSTANTIATE_TEST_SUITE_P(RuleSets, SolveMemoryTest,
                         ::testing::Values("finkel(pieces=3)", "masters(pieces=2)",
                                           "boxed(pieces=2)", "murray(pieces=2)"),
                         [](const auto& param) { return std::to_string(param.index); });

TEST(SolveMemory, ReleasesTheLayersNoLaterLayerReads) {
  const Engine engine(rule_set_or_throw("finkel(pieces=3)"));
  const StateIndex index = std::get<StateIndex>(StateIndex::create(engine));
  const std::vector<Layer>& layers = index.layers();
  // A layer reads itself and the layers one piece more borne off: (1,2) and (2,2) for (0,2)...
  for (std::size_t li = 0; li < layers.size(); ++li) {
    const std::uint64_t first = ValueIteration::first_read(index, li);
    for (const Layer& l : layers) {
      if (l.a + l.b > layers[li].a + layers[li].b + 1)
        EXPECT_LE(l.end, first);
      else
        EXPECT_GE(l.begin, first);
    }
  }
  SolveOptions opt;
  opt.keep_values = false;
  ValueIteration vi(index, opt);
  vi.solve({});
  // ...and after the last layer (0,0) only (0,0) and (0,1) stay: what came before reads as 0.
  const std::uint64_t kept = ValueIteration::first_read(index, layers.size() - 1);
  EXPECT_GT(kept, 0u);
  EXPECT_EQ(vi.values()[0], 0.0f);
  EXPECT_GT(vi.values()[index.size() - 1], 0.0f);
}

TEST(SolveMemory, SaysWhatASolveNeedsWithAndWithoutItsStreams) {
  const Engine engine(rule_set_or_throw("finkel(pieces=4)"));
  const StateIndex index = std::get<StateIndex>(StateIndex::create(engine));
  const std::uint64_t need = ValueIteration::memory_needed(index);
  const std::uint64_t least = ValueIteration::memory_needed(index, true);
  EXPECT_LT(least, need);
  // The least is the values held at the largest layer's, plus the buffers and the program.
  std::uint64_t values = 0;
  for (std::size_t li = 0; li < index.layers().size(); ++li)
    values = std::max(values, index.layers()[li].end - ValueIteration::first_read(index, li));
  EXPECT_EQ(least, values * 4 + kSolveOverhead + 2 * kThreadBuffers);
  EXPECT_LT(values, index.size()) << "never every layer at once";
}

}  // namespace
}  // namespace ur::solver::memory_test
