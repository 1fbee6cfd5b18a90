// English, the lobby's main card (the one Play, the daily puzzle, how to play in four lines) and
// the rule sets' names and plain sentences, which the lobby and several screens show.
import type { Entry } from '../entry.ts';

export const home = {
  'home.title': 'The Royal Game of Ur',
  'home.tagline':
    'A 4,500-year-old race for two: throw the dice, run your pieces round the board and off it first.',
  'home.play': 'Play',
  'home.playHint': 'Against the computer, on the usual (Finkel) rules.',
  'home.guest': 'You play as a guest. {link} to keep your games and get a rating.',
  'home.noAccount':
    'No account needed: you play as a guest. {link} to keep your games and get a rating.',
  'home.register': 'Register',
  'home.presetsFailed': 'Could not load the rule sets: {why}',
  'home.howto': 'How to play',
  'home.fullRules': '(full rules)',
  'home.howto1':
    'Bring all your pieces from the Home pile onto the board, along your path (your row, the shared middle row, back to your row) and off the far end. The first to bear off every piece wins.',
  'home.howto2':
    'Press Throw the dice: the marked tips show how many squares you move. Then tap a glowing piece or its marked landing square (or press its number key).',
  'home.howto3':
    'Landing on a rosette ✸ gives another throw, and a piece there is safe. Landing on a lone opponent piece in the shared row sends it home.',
  'home.howto4':
    'A throw with no legal move passes the turn. Against a person, the clock under the dice shows how long you have left to act.',
  'daily.title': 'Daily puzzle',
  'daily.line': '{rules} · rating {rating}: find the best move, proven by a solved table.',
  'daily.solve': 'Solve it',
  'daily.more': 'More puzzles',
  'ruleset.finkel': 'Finkel',
  'ruleset.finkel6': 'Finkel, 6 stones',
  'ruleset.conventional': 'Conventional (Regency)',
  'ruleset.murray': 'Murray (Regency)',
  'ruleset.murray-royalur': 'Murray (RoyalUr path)',
  'ruleset.british-museum': 'British Museum (Regency)',
  'ruleset.bell': 'RC Bell (Regency)',
  'ruleset.boxed': 'Boxed game (awards, forfeits, scoring)',
  'ruleset.masters': 'Masters',
  'ruleset.blitz': 'Blitz',
  'ruleset.aseb': 'Aseb',
  'plain.finkel':
    'The usual rules today: 7 pieces each, four dice, rosettes are safe and give another throw.',
  'plain.finkel6': 'The usual rules with 6 pieces each; the light side always starts.',
  'plain.conventional': 'An older reading: three dice, where a throw with no marks moves 4.',
  'plain.murray': 'A longer race: pieces loop round the whole board before leaving it.',
  'plain.murray-royalur': 'The long looping race, where the way back crosses the opponent’s row.',
  'plain.british-museum':
    'The rules printed by the British Museum, with their own way to enter pieces.',
  'plain.bell': 'R. C. Bell’s rules: some throws let you throw again.',
  'plain.boxed':
    'A boxed edition with awards, penalties and scoring: for those who know the basics.',
  'plain.masters': 'A longer path where rosettes give another throw but do not protect a piece.',
  'plain.blitz': 'A quick game: 5 pieces each, and a capture also gives another throw.',
  'plain.aseb': 'The Egyptian board: a long middle row of twelve squares, 5 pieces each.',
} satisfies Record<string, Entry>;
