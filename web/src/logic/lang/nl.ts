// Dutch: the English catalog's keys (lang/en.ts), translated; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';

export const catalog: Catalog = {
  'settings.title': 'Instellingen',
  'settings.sound': 'Geluid',
  'settings.coords': 'Veldnamen op het bord (a1…)',
  'settings.autoMove': 'Gedwongen zetten vanzelf spelen',
  'settings.contrast': 'Kleuren met hoog contrast',
  'settings.colours': 'Kleuren',
  'settings.colours.system': 'Zoals het systeem',
  'settings.colours.light': 'Licht',
  'settings.colours.dark': 'Donker',
  'settings.animations': 'Animaties',
  'settings.animations.label': 'Animatiesnelheid',
  'settings.animations.normal': 'Normaal',
  'settings.animations.fast': 'Snel',
  'settings.animations.off': 'Geen',
  'settings.language': 'Taal',
  'settings.done': 'Klaar',
};
