// French: the English catalog's keys (lang/en.ts), translated; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';

export const catalog: Catalog = {
  'settings.title': 'Réglages',
  'settings.sound': 'Son',
  'settings.coords': 'Noms des cases sur le plateau (a1…)',
  'settings.autoMove': 'Jouer seuls les coups forcés',
  'settings.contrast': 'Couleurs à contraste élevé',
  'settings.colours': 'Couleurs',
  'settings.colours.system': 'Comme le système',
  'settings.colours.light': 'Clair',
  'settings.colours.dark': 'Sombre',
  'settings.animations': 'Animations',
  'settings.animations.label': 'Vitesse des animations',
  'settings.animations.normal': 'Normale',
  'settings.animations.fast': 'Rapide',
  'settings.animations.off': 'Aucune',
  'settings.language': 'Langue',
  'settings.done': 'Terminé',
};
