// ExternalAgent: another program that speaks UEP (docs/engine_protocol.md) seated as an Agent,
// so that `ur play` and `ur tournament` can pit any engine against ours.
//
// Spec: "engine:PATH ARGS" or "engine(timeout_ms=T):PATH ARGS" (make_agent in registry.cpp).
// T (default 10 s) bounds each answer; the handshake may take the longer of T and 10 s.
// The program is started when the agent is made (one process per agent, so per game in a
// tournament), and must pass the handshake: `uep` answered by `uepok`, the rule set accepted
// through its `Rules` option when it offers one, `isready` answered by `readyok`. Then each
// choose() sends `position` and `go` and reads up to `bestmove`.
//
// A program that exits, crashes, does not answer within the time limit (it is then killed) or
// answers a malformed or illegal move has forfeited: failure() says why, and choose() returns
// the first legal move only so that the caller gets a legal Move; the caller must end the game
// as a loss for this seat (tournament.cpp, cmd_play.cpp). The child is always reaped (see
// child_process.h); an agent object is used by one thread at a time, like every agent.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <variant>

#include "ai/agent.h"
#include "rules/rule_set.h"

namespace ur::ai {

inline constexpr int kDefaultEngineTimeoutMs = 10'000;

// Parses "engine:PATH ARGS" / "engine(timeout_ms=T):PATH ARGS", starts the program and checks
// its handshake for `rules`; the agent, or why not.
AgentResult make_external_agent(std::string_view spec, const RuleSet& rules);

// Whether `spec` names an external engine ("engine:..." or "engine(...):...").
bool is_external_spec(std::string_view spec);

// `spec` with its time limit set to `timeout_ms` (a --engine-timeout option) when it names an
// external engine without one; any other spec is returned as it is.
std::string with_engine_timeout(std::string spec, int timeout_ms);

}  // namespace ur::ai
