// English: the source catalog. Every other language's catalog has exactly these keys (typed:
// a missing key fails the build) and the same placeholders (checked by test/i18n.test.ts).
// Keys are grouped by screen: `settings.*` is the settings dialog.

/** The forms of a counted text, by Intl.PluralRules category; `other` is always required. */
export interface Plural {
  zero?: string;
  one?: string;
  two?: string;
  few?: string;
  many?: string;
  other: string;
}
/** A text with named placeholders ("{name}"), or the forms of a counted one. */
export type Entry = string | Plural;

export const en = {
  'settings.title': 'Settings',
  'settings.sound': 'Sound',
  'settings.coords': 'Square names on the board (a1…)',
  'settings.autoMove': 'Play forced moves by themselves',
  'settings.contrast': 'High-contrast colours',
  'settings.colours': 'Colours',
  'settings.colours.system': 'As the system',
  'settings.colours.light': 'Light',
  'settings.colours.dark': 'Dark',
  'settings.animations': 'Animations',
  'settings.animations.label': 'Animation speed',
  'settings.animations.normal': 'Normal',
  'settings.animations.fast': 'Fast',
  'settings.animations.off': 'None',
  'settings.language': 'Language',
  'settings.done': 'Done',
  'seat.light': 'Light',
  'seat.dark': 'Dark',
  'table.status.waiting': 'Waiting for an opponent to sit down',
  'table.status.closed': 'The table is closed',
  'table.status.over': 'Game over',
  'table.status.youWin': 'Game over — you win!',
  'table.status.theyWin': 'Game over — {name} wins',
  'table.status.moving': '{name} is moving…',
  'table.status.turnOf': "{name}'s turn",
  'table.prompt.opening': 'Throw the dice (opening throw)',
  'table.prompt.throw': 'Throw the dice',
  'table.prompt.move': {
    one: 'Move a piece: {count} square',
    other: 'Move a piece: {count} squares',
  },
  'table.prompt.award': 'Rosette award: take it?',
  'table.prompt.forfeit': 'Forfeit: move a counter 4',
  'table.prompt.yourTurn': 'Your turn',
  'reason.boreOff': 'all pieces borne off',
  'reason.resign': 'by resignation',
  'reason.timeout': 'on time: the idle clock ran out',
  'reason.left': 'the opponent left the table',
  'tab.countdown': 'Your move — {secs} s',
  'tab.yourMove': 'Your move — {title}',
  'level.beginner': 'Beginner',
  'level.easy': 'Easy',
  'level.medium': 'Medium',
  'level.hard': 'Hard',
  'level.perfect': 'Perfect',
  'level.endgame': '{name} (exact in the endgame)',
  'level.learned': '{name} (strongest: learned, no exact table)',
  'level.solvingEta': '{name} ({pct} solved, about {eta}; Hard till then)',
  'level.solving': '{name} ({pct} solved; Hard till then)',
  'level.queued': '{name} (queued; Hard till then)',
  'level.noTable': '{name} (no table: plays as Hard)',
  'unit.seconds': '{n} s',
  'unit.minutes': '{n} min',
} satisfies Record<string, Entry>;
