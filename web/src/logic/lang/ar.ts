// Arabic: the English catalog's keys (lang/en.ts), translated; the game's terms as in
// docs/languages.md's glossary. The page runs right to left; the board keeps its geometry.
import type { Catalog } from './catalog.ts';

export const catalog: Catalog = {
  'settings.title': 'الإعدادات',
  'settings.sound': 'الصوت',
  'settings.coords': 'أسماء المربعات على اللوحة (\u2066a1…\u2069)',
  'settings.autoMove': 'لعب النقلات الإجبارية تلقائيًا',
  'settings.contrast': 'ألوان عالية التباين',
  'settings.colours': 'الألوان',
  'settings.colours.system': 'مثل النظام',
  'settings.colours.light': 'فاتح',
  'settings.colours.dark': 'داكن',
  'settings.animations': 'الرسوم المتحركة',
  'settings.animations.label': 'سرعة الرسوم المتحركة',
  'settings.animations.normal': 'عادية',
  'settings.animations.fast': 'سريعة',
  'settings.animations.off': 'بلا',
  'settings.language': 'اللغة',
  'settings.done': 'تم',
};
