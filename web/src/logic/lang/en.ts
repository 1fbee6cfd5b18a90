// English: the source catalog, in parts by screen (lang/catalog.ts). Every other language has
// exactly these keys (typed) and the same placeholders (checked by test/i18n.test.ts). A key
// starts with its screen's name: `settings.*` is the settings dialog. The page loads English in
// two pieces — the first screen's words with the entry script (en_first.ts), the others with
// the screens that use them (en_more.ts) — and this whole catalog is their union: the type
// every language is checked against, and what the tests read.
import { enFirst } from './en_first.ts';
import { enMore } from './en_more.ts';

export const en = { ...enFirst, ...enMore };
