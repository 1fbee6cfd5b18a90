// Fitted evaluation models: linear models over Evaluator::features(), one per rule set.
//
// A model is a weight per feature, in log-odds of a win for the owner of the chain under way;
// it is fitted by `ur fit-eval` (eval_fit.h) from self-play games and committed as constants in
// eval_model.cpp, with the command that produced them, so the agents stay deterministic and
// need no file at run time. A model belongs to one canonical rule-set string (RuleSet::
// to_string()): a variant with other dice or paths has different features' meanings and falls
// back to the hand-weighted evaluation.
#pragma once

#include <span>

#include "rules/rule_set.h"

namespace ur::ai {

// The fitted model for `rules`, or an empty span when there is none.
std::span<const double> fitted_model(const RuleSet& rules);

}  // namespace ur::ai
