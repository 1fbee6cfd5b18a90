// Simple bot: the computer seat of `ur play` until the AI library (src/ai/) exists.
//
// A greedy one-ply chooser: it applies each legal move to a copy of the position and scores
// the result by a few hand-set weights, in this order of importance: winning, bearing off,
// capturing, landing on a rosette, keeping pieces out of reach of the enemy (the chance of
// being hit next throw), and progress. It handles every decision the engine asks for: moves,
// the boxed game's award (always taken: a counter on S is worth more than one off the board)
// and forfeit responses (scored like moves, for the player making them). Ties are broken with
// the Rng, so a game is reproducible from the seeds. It is deliberately small and weak.
#pragma once

#include "engine/engine.h"
#include "engine/random.h"

namespace ur::cli {

// The index into `moves` (the non-empty legal moves of `pos`, which awaits a decision) of the
// move the bot plays.
int choose_simple_move(const Engine& engine, const Position& pos, const MoveList& moves, Rng& rng);

}  // namespace ur::cli
