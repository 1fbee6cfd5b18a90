// `ur moves`: legal moves for positions read as JSON lines on stdin, one answer line each.
// Streams, so thousands of positions go through one process; engines are cached per rule set.
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/commands.h"
#include "engine/engine.h"
#include "engine/notation.h"

namespace ur::cli {
namespace {

using nlohmann::json;

std::vector<int> read_pieces(const json& j, const char* key) {
  if (!j.contains(key)) throw std::invalid_argument(std::string("missing \"") + key + "\"");
  const json& a = j.at(key);
  if (!a.is_array()) throw std::invalid_argument(std::string("\"") + key + "\" must be an array");
  std::vector<int> out;
  for (const json& x : a) {
    if (!x.is_number_integer())
      throw std::invalid_argument(std::string("\"") + key + "\" must hold whole numbers");
    // A number above 2^63 would wrap to a negative index: refuse it before converting.
    if (x.is_number_unsigned() && x.get<std::uint64_t>() > 1000)
      throw std::invalid_argument(std::string("\"") + key + "\": index out of range");
    long long v = x.get<long long>();
    if (v < -1000 || v > 1000)
      throw std::invalid_argument(std::string("\"") + key + "\": index out of range");
    out.push_back(static_cast<int>(v));
  }
  return out;
}

json answer(const std::string& line, std::map<std::string, std::shared_ptr<Engine>>& engines) {
  json in = json::parse(line);  // throws on malformed JSON
  if (!in.is_object()) throw std::invalid_argument("each line must be a JSON object");
  if (in.contains("rules") && !in["rules"].is_string())
    throw std::invalid_argument("\"rules\" must be a string such as \"finkel\"");
  std::string rules = in.value("rules", std::string("finkel"));
  auto it = engines.find(rules);
  if (it == engines.end()) {
    RuleSetResult r = parse_rule_set(rules);
    if (auto* e = std::get_if<Error>(&r)) throw std::invalid_argument(e->message);
    it = engines.emplace(rules, std::make_shared<Engine>(std::get<RuleSet>(r))).first;
  }
  const Engine& eng = *it->second;
  if (!in.contains("turn") || !in["turn"].is_string())
    throw std::invalid_argument("missing \"turn\" (\"light\" or \"dark\")");
  std::string turn = in["turn"];
  if (turn != "light" && turn != "dark")
    throw std::invalid_argument("\"turn\" must be \"light\" or \"dark\"");
  if (!in.contains("roll") || !in["roll"].is_number_integer())
    throw std::invalid_argument("missing \"roll\" (the raw throw k, a whole number)");
  const bool huge = in["roll"].is_number_unsigned() && in["roll"].get<std::uint64_t>() > 1000;
  long long k = huge ? 1001 : in["roll"].get<long long>();
  if (k < 0 || k > eng.rules().dice.dice)
    throw std::invalid_argument("roll " + std::to_string(k) + " is outside the dice (0.." +
                                std::to_string(eng.rules().dice.dice) + ")");
  PositionResult pr = position_from_pieces(eng, turn == "light" ? Player::kLight : Player::kDark,
                                           read_pieces(in, "light"), read_pieces(in, "dark"));
  if (auto* e = std::get_if<Error>(&pr)) throw std::invalid_argument(e->message);
  const Position& pos = std::get<Position>(pr);
  if (pos.is_over()) throw std::invalid_argument("the game is already over in this position");
  MoveList moves;
  eng.moves_for_throw(pos, static_cast<int>(k), moves);
  json out = json::object();
  out["moves"] = json::array();
  for (const Move& m : moves) {
    out["moves"].push_back({{"from", m.from},
                            {"to", m.to},
                            {"capture", (m.flags & move_flag::kCapture) != 0},
                            {"rosette", (m.flags & move_flag::kRosette) != 0},
                            {"scores", (m.flags & move_flag::kScores) != 0}});
  }
  return out;
}

}  // namespace

void add_moves_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "moves",
      "Read positions as JSON lines on stdin and answer each with its legal moves, e.g.\n"
      "  {\"rules\":\"finkel\",\"turn\":\"light\",\"roll\":2,\"light\":[0,0,0,0,3,5,15],"
      "\"dark\":[0,0,0,0,0,0,0]}\n"
      "Pieces are path indices: 0 = not entered, 1..N on the path, N+1 = borne off (staging rule\n"
      "sets: -1 = not entered, 0 = on S). A bad line is answered with {\"error\":...} and the\n"
      "exit status is 1 at the end.");
  cmd->callback([] {
    std::ios::sync_with_stdio(false);
    std::map<std::string, std::shared_ptr<Engine>> engines;
    std::string line;
    long line_no = 0;
    bool failed = false;
    while (std::getline(std::cin, line)) {
      ++line_no;
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      json out;
      try {
        out = answer(line, engines);
      } catch (const std::exception& e) {
        std::string msg = e.what();
        if (auto* pe = dynamic_cast<const json::parse_error*>(&e)) {
          // nlohmann prefixes "[json.exception.parse_error.101] "; keep the words.
          msg = pe->what();
          if (auto close = msg.find("] "); close != std::string::npos) msg = msg.substr(close + 2);
          msg = "malformed JSON: " + msg;
        } else if (dynamic_cast<const json::exception*>(&e)) {
          msg = "bad value: " + msg;
        }
        out = {{"error", "line " + std::to_string(line_no) + ": " + msg}};
        failed = true;
      }
      std::cout << out.dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
      // Answer at once when the writer is waiting for us; batch when input is queued.
      if (std::cin.rdbuf()->in_avail() <= 0) std::cout.flush();
    }
    std::cout.flush();
    if (failed) exit_status() = 1;
  });
}

}  // namespace ur::cli
