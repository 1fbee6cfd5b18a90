// Cross-check against an independent engine: every line of tests/reference/royalur-*.jsonl
// (legal moves produced by RoyalUr-Java, see tests/reference/README.md) must give exactly the
// same set of (from, to) moves from Engine::moves_for_throw, and apply_throw must pass exactly
// when that set is empty. Each file must match 100%; mismatches are reported by line number.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "../test_util.h"

namespace ur {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::vector<std::string> reference_files() {
  std::vector<std::string> out;
  const fs::path dir = test::data_path("reference");
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("royalur-", 0) == 0 && entry.path().extension() == ".jsonl") out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string format_moves(const test::MoveSet& moves) {
  std::string s = "[";
  for (const auto& [from, to] : moves)
    s += (s.size() > 1 ? " " : "") + std::to_string(from) + "->" + std::to_string(to);
  return s + "]";
}

std::vector<int> int_list(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_array()) throw std::runtime_error(std::string("no ") + key);
  return j[key].get<std::vector<int>>();
}

// Checks one line; returns "" when it matches, else what differs.
std::string check_line(const std::string& text,
                       std::map<std::string, std::unique_ptr<Engine>>& engines) {
  const json j = json::parse(text);
  const std::string rules = j.at("rules").get<std::string>();
  auto& engine = engines[rules];
  if (!engine) engine = std::make_unique<Engine>(rule_set_or_throw(rules));
  const Engine& e = *engine;
  const std::string turn = j.at("turn").get<std::string>();
  if (turn != "light" && turn != "dark") return "turn '" + turn + "' is neither light nor dark";
  const Player pl = turn == "light" ? Player::kLight : Player::kDark;
  const int k = j.at("roll").get<int>();
  const Position p = test::pieces(e, pl, int_list(j, "light"), int_list(j, "dark"));
  test::MoveSet expected;
  std::size_t listed = 0;
  for (const json& m : j.at("moves")) {
    expected.emplace(m.at("from").get<int>(), m.at("to").get<int>());
    ++listed;
  }
  if (listed != expected.size()) return "the reference lists a move twice";
  MoveList got_list;
  e.moves_for_throw(p, k, got_list);
  const test::MoveSet got = test::move_set(got_list);
  std::string why;
  if (static_cast<std::size_t>(got_list.size) != got.size())
    why += "engine lists a move twice " + format_moves(got) + "; ";
  if (got != expected)
    why += "roll " + std::to_string(k) + ": expected " + format_moves(expected) + ", got " +
           format_moves(got) + " in " + test::describe(e, p) + "; ";
  Position q = p;
  MoveList after;
  const bool decides = e.apply_throw(q, k, after);
  if (decides == expected.empty())
    why += std::string("apply_throw ") + (decides ? "asks for a move" : "passes") +
           " where the reference has " + std::to_string(expected.size()) + " moves; ";
  if (decides && test::move_set(after) != got) why += "apply_throw lists other moves; ";
  return why;
}

class ReferenceFile : public ::testing::TestWithParam<std::string> {};

TEST_P(ReferenceFile, EngineMatchesEveryLine) {
  const std::string path = test::data_path("reference/" + GetParam());
  std::ifstream in(path);
  ASSERT_TRUE(in) << "cannot open " << path;
  std::map<std::string, std::unique_ptr<Engine>> engines;
  std::string line;
  int number = 0, checked = 0, mismatches = 0;
  std::ostringstream report;
  while (std::getline(in, line)) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::string why;
    try {
      why = check_line(line, engines);
    } catch (const std::exception& ex) {
      why = std::string("unreadable line: ") + ex.what();
    }
    ++checked;
    if (why.empty()) continue;
    if (++mismatches <= 20) report << "  line " << number << ": " << why << "\n";
  }
  EXPECT_GT(checked, 100) << path << " holds too few positions to mean anything";
  EXPECT_EQ(mismatches, 0) << GetParam() << ": " << mismatches << " of " << checked
                           << " lines differ" << (mismatches > 20 ? " (first 20 shown)" : "")
                           << "\n"
                           << report.str();
  RecordProperty("lines", checked);
}

// "royalur-finkel.jsonl" -> "royalur_finkel".
std::string file_test_name(const ::testing::TestParamInfo<std::string>& param) {
  return test::test_name(param.param.substr(0, param.param.rfind('.')));
}

INSTANTIATE_TEST_SUITE_P(RoyalUr, ReferenceFile, ::testing::ValuesIn(reference_files()),
                         file_test_name);

TEST(ReferenceData, EveryExpectedFileIsPresent) {
  const std::vector<std::string> files = reference_files();
  for (const char* id : {"finkel", "finkel6", "british-museum", "conventional", "masters", "blitz",
                         "aseb", "murray-royalur"}) {
    const std::string name = std::string("royalur-") + id + ".jsonl";
    EXPECT_TRUE(std::find(files.begin(), files.end(), name) != files.end()) << name;
  }
}

}  // namespace
}  // namespace ur
