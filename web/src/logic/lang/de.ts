// German: the English catalog's keys (lang/en.ts), translated; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';

export const catalog: Catalog = {
  'settings.title': 'Einstellungen',
  'settings.sound': 'Ton',
  'settings.coords': 'Feldnamen auf dem Brett (a1…)',
  'settings.autoMove': 'Erzwungene Züge von selbst spielen',
  'settings.contrast': 'Kontrastreiche Farben',
  'settings.colours': 'Farben',
  'settings.colours.system': 'Wie das System',
  'settings.colours.light': 'Hell',
  'settings.colours.dark': 'Dunkel',
  'settings.animations': 'Animationen',
  'settings.animations.label': 'Animationsgeschwindigkeit',
  'settings.animations.normal': 'Normal',
  'settings.animations.fast': 'Schnell',
  'settings.animations.off': 'Keine',
  'settings.language': 'Sprache',
  'settings.done': 'Fertig',
};
