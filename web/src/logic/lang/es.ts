// Spanish: the English catalog's keys (lang/en.ts), translated; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';

export const catalog: Catalog = {
  'settings.title': 'Ajustes',
  'settings.sound': 'Sonido',
  'settings.coords': 'Nombres de las casillas en el tablero (a1…)',
  'settings.autoMove': 'Jugar solos los movimientos forzados',
  'settings.contrast': 'Colores de alto contraste',
  'settings.colours': 'Colores',
  'settings.colours.system': 'Como el sistema',
  'settings.colours.light': 'Claro',
  'settings.colours.dark': 'Oscuro',
  'settings.animations': 'Animaciones',
  'settings.animations.label': 'Velocidad de las animaciones',
  'settings.animations.normal': 'Normal',
  'settings.animations.fast': 'Rápida',
  'settings.animations.off': 'Ninguna',
  'settings.language': 'Idioma',
  'settings.done': 'Listo',
};
