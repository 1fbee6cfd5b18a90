// English, the how-to-play page of a rule set, its sentences built from the rule set's parameters
// (logic/howto.ts): each is a whole sentence with placeholders, never pieced together in code.
import type { Entry } from '../entry.ts';

export const howto = {
  'howto.title': 'How to play',
  'howto.titleOf': 'How to play — {name}',
  'howto.loading': 'Loading…',
  'howto.ruleSets': 'Rule sets',
  'howto.others': 'Other rule sets:',
  'howto.lightPath': 'Light’s path (rose)',
  'howto.darkPath': 'Dark’s path (sky)',
  'howto.play': 'Play',
  'howto.failed': 'Could not load these rules: {why}',
  'howto.goal': 'The goal',
  'howto.goalLine': {
    one: 'Each player has {count} piece waiting in a Home pile. Throw the dice, bring the pieces onto the board, run them along your path and bear them off the far end. The first to bear off every piece wins.',
    other:
      'Each player has {count} pieces waiting in a Home pile. Throw the dice, bring the pieces onto the board, run them along your path and bear them off the far end. The first to bear off every piece wins.',
  },
  'howto.turn':
    'On your turn: press “{throw}”, then tap a glowing piece or its marked landing square.',
  'howto.path': 'The path',
  'howto.pathLine':
    'Each side runs its own path of {count} squares: light (rose) from {lightFrom} to {lightTo}, dark (sky) from {darkFrom} to {darkTo}. “{show}” numbers it on the board.',
  'howto.shared': {
    one: 'The {count} square both paths share ({list}) is where pieces meet: landing on a lone opponent piece there sends it back to its Home pile.',
    other:
      'The {count} squares both paths share ({list}) are where pieces meet: landing on a lone opponent piece there sends it back to its Home pile.',
  },
  'howto.apart': 'The paths never meet.',
  'howto.bearOff': 'A piece bears off by moving exactly one square past the end of the path.',
  'howto.dice': 'The dice',
  'howto.diceLine': {
    one: '{count} four-sided die; it shows a marked (white) tip or not, and the marked tips count.',
    other:
      '{count} four-sided dice; each shows a marked (white) tip or not, and the marked tips count.',
  },
  'howto.tips': {
    one: '{count} marked tip: move {move}',
    other: '{count} marked tips: move {move}',
  },
  'howto.passes': '{row}, no move, the turn passes',
  'howto.again': '{row}, and throw again',
  'howto.noLegal': 'A throw with no legal move passes the turn.',
  'howto.rosettes': 'Rosettes',
  'howto.rosetteList': { one: 'The rosette ✸ is {list}.', other: 'The rosettes ✸ are {list}.' },
  'howto.rosetteAgain': 'Landing on a rosette gives another throw.',
  'howto.safeAll': 'A piece on a rosette is safe: it cannot be captured.',
  'howto.safeSome': 'A piece is safe on {list}; elsewhere it can be captured.',
  'howto.safeNone': 'Rosettes do not protect a piece: it can be captured there.',
  'howto.special': 'Special rules',
  'howto.staging': 'Counters first go onto a start space S, and enter the path from there.',
  'howto.stacking': 'Pieces of one side may stack on a square and move together.',
  'howto.double': '{cell} doubles the move that lands there.',
  'howto.forfeit': 'Landing on {cell} makes the opponent move a counter 4 squares.',
  'howto.award': 'Landing on {cell} may enter a counter onto S.',
  'howto.scored': 'The win is scored: the winner counts the loser’s pieces left.',
  'howto.stake': 'Each game is played for a stake of {n}.',
} satisfies Record<string, Entry>;
