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
} satisfies Record<string, Entry>;
