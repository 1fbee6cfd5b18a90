#include "ai/external_agent.h"

#include <fmt/format.h>

#include <charconv>

#include "ai/agent_errc.h"
#include "ai/child_process.h"
#include "ai/uep_engine.h"
#include "engine/notation.h"

namespace ur::ai {
namespace {

constexpr int kMaxTimeoutMs = 3'600'000;
// How often a wait for bestmove looks at the stop token.
constexpr auto kStopPoll = std::chrono::milliseconds(50);

class ExternalAgent final : public Agent {
 public:
  ExternalAgent(std::string spec, std::unique_ptr<ChildProcess> child, int timeout_ms)
      : spec_(std::move(spec)), child_(std::move(child)), timeout_(timeout_ms) {}

  std::string name() const override { return spec_; }
  std::string failure() const override { return failure_; }

  // The handshake; "" or why it failed.
  std::string handshake(const RuleSet& rules) {
    if (!child_->write_line("uep")) return lost("did not read its input");
    bool offers_rules = false;
    std::string line;
    for (;;) {
      if (std::string why = next_line(line, "uepok"); !why.empty()) return why;
      if (line == "uepok") break;
      const auto words = uep_words(line);
      if (words.size() >= 3 && words[0] == "option" && words[1] == "name" && words[2] == "Rules")
        offers_rules = true;
    }
    if (offers_rules) child_->write_line("setoption name Rules value " + rules.to_string());
    child_->write_line("isready");
    for (;;) {
      if (std::string why = next_line(line, "readyok"); !why.empty()) return why;
      if (line == "readyok") break;
      if (line.starts_with("info string error:"))
        return fail(fmt::format("refused the rule set {}: {}", rules.to_string(), line.substr(19)));
    }
    child_->write_line("newgame");
    return "";
  }

  Move choose(const Engine& engine, const Position& pos, const StopToken& stop) override {
    MoveList moves;
    engine.legal_moves(pos, moves);
    if (!failure_.empty()) return moves[0];
    const std::string where = to_position_string(engine, pos);
    // One write for both lines: a system call and a wake-up less per decision.
    if (!child_->write_line("position " + where + "\ngo")) {
      lost("did not read its input");
      return moves[0];
    }
    std::string line;
    bool stop_sent = false;
    const auto deadline = ChildProcess::Clock::now() + timeout_;
    for (;;) {
      // Short waits, so that a stop request is passed on while the engine thinks.
      const auto slice = std::min(deadline, ChildProcess::Clock::now() + kStopPoll);
      const ChildProcess::Read r = child_->read_line(line, slice);
      if (r == ChildProcess::Read::kClosed) {
        lost("stopped answering");
        return moves[0];
      }
      if (r == ChildProcess::Read::kTimeout) {
        if (ChildProcess::Clock::now() >= deadline) {
          timed_out("bestmove", timeout_);
          return moves[0];
        }
        if (stop.stop_requested() && !stop_sent) stop_sent = child_->write_line("stop");
        continue;
      }
      if (!line.starts_with("bestmove")) continue;  // info lines
      const auto words = uep_words(line);
      if (words.size() != 2 || words[0] != "bestmove") {
        fail(fmt::format("sent a malformed bestmove line '{}' in {}", line.substr(0, 80), where));
        return moves[0];
      }
      MoveResult m = parse_move_text(engine, pos, words[1]);
      if (auto* e = std::get_if<Error>(&m)) {
        fail(fmt::format("sent an illegal move in {}: {}", where, e->message));
        return moves[0];
      }
      return std::get<Move>(m);
    }
  }

 private:
  std::string fail(std::string why) {
    failure_ = std::move(why);
    child_->kill();
    return failure_;
  }
  // The program closed its output: it ended (how is in its exit status).
  std::string lost(const char* what) {
    return fail(fmt::format("{}: it {}", what, child_->exit_description()));
  }
  std::string timed_out(const char* waiting_for, std::chrono::milliseconds limit) {
    return fail(fmt::format("sent no {} within {} ms (killed)", waiting_for, limit.count()));
  }
  // The next line of the handshake; "" or why there is none. Starting may take longer than a
  // move (an interpreter, a table to open): it gets the default limit when the move's is less.
  std::string next_line(std::string& line, const char* waiting_for) {
    const auto limit = std::max(timeout_, std::chrono::milliseconds(kDefaultEngineTimeoutMs));
    switch (child_->read_line(line, ChildProcess::Clock::now() + limit)) {
      case ChildProcess::Read::kLine:
        return "";
      case ChildProcess::Read::kTimeout:
        return timed_out(waiting_for, limit);
      case ChildProcess::Read::kClosed:
        break;
    }
    return lost(fmt::format("ended before {}", waiting_for).c_str());
  }

  std::string spec_;
  std::unique_ptr<ChildProcess> child_;
  std::chrono::milliseconds timeout_;
  std::string failure_;
};

// "engine:CMD" or "engine(timeout_ms=T):CMD"; the time limit and the command, or why not.
Result<std::pair<int, std::string_view>> parse_spec(std::string_view spec) {
  if (!is_external_spec(spec))
    return Error{AgentErrc::kBadAgent, fmt::format("'{}' is not an engine spec", spec)};
  const std::size_t colon = spec.find(':');
  int timeout = kDefaultEngineTimeoutMs;
  if (spec[6] == '(') {
    const std::string_view inner = spec.substr(7, colon - 8);
    constexpr std::string_view kKey = "timeout_ms=";
    const std::string_view v = inner.substr(std::min(inner.size(), kKey.size()));
    const auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), timeout);
    if (!inner.starts_with(kKey) || v.empty() || ec != std::errc{} || ptr != v.data() + v.size() ||
        timeout < 1 || timeout > kMaxTimeoutMs)
      return Error{
          AgentErrc::kBadAgent,
          fmt::format("engine: expected engine(timeout_ms=T):PATH ARGS with T from 1 to {}",
                      kMaxTimeoutMs)};
  }
  return std::pair{timeout, spec.substr(colon + 1)};
}

}  // namespace

bool is_external_spec(std::string_view spec) {
  if (spec.starts_with("engine:")) return true;
  const std::size_t colon = spec.find(':');
  return spec.starts_with("engine(") && colon != std::string_view::npos && spec[colon - 1] == ')';
}

std::string with_engine_timeout(std::string spec, int timeout_ms) {
  if (!spec.starts_with("engine:")) return spec;
  return fmt::format("engine(timeout_ms={}):{}", timeout_ms, spec.substr(7));
}

AgentResult make_external_agent(std::string_view spec, const RuleSet& rules) {
  auto parsed = parse_spec(spec);
  if (auto* e = std::get_if<Error>(&parsed)) return *e;
  const auto [timeout, command] = std::get<std::pair<int, std::string_view>>(parsed);
  std::vector<std::string> argv;
  for (std::string_view w : uep_words(command)) argv.emplace_back(w);
  if (argv.empty())
    return Error{AgentErrc::kBadAgent, "engine: no program given (engine:PATH ARGS)"};
  auto started = ChildProcess::start(argv);
  if (auto* e = std::get_if<Error>(&started))
    return Error{e->code, fmt::format("{}: {}", spec, e->message)};
  auto agent = std::make_unique<ExternalAgent>(
      std::string(spec), std::get<std::unique_ptr<ChildProcess>>(std::move(started)), timeout);
  if (std::string why = agent->handshake(rules); !why.empty())
    return Error{AgentErrc::kBadAgent, fmt::format("{}: the handshake failed: it {}", spec, why)};
  return agent;
}

}  // namespace ur::ai
