// The first screen's words check (check-first-words.mjs): the entry's static imports are
// followed (not its dynamic or type-only ones), and a key or a key-making template of a later
// part is reported.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { entryModules, missing, partKeys } from './check-first-words.mjs';

test("the entry's modules are its static imports, not dynamic or type-only ones", () => {
  const files = {
    'main.ts': [
      "import { App } from './ui/app.ts';",
      "import type { Snapshot } from './logic/types.ts';",
      "export { x } from './logic/x.ts';",
      "const screens = () => import('./ui/screens.ts');",
    ].join('\n'),
    'ui/app.ts': "import { t } from '../logic/i18n.ts';",
    'logic/i18n.ts': '',
    'logic/x.ts': '',
    'logic/types.ts': '',
    'ui/screens.ts': '',
  };
  assert.deepEqual([...entryModules((m) => files[m])].sort(), [
    'logic/i18n.ts',
    'logic/x.ts',
    'main.ts',
    'ui/app.ts',
  ]);
});

test('a later key, or a template that can make one, is reported; first-screen keys pass', () => {
  const first = new Set(['lobby.play', 'error.network', 'error.timeout']);
  const all = new Set([...first, 'review.title', 'grade.best']);
  const ok = {
    'ui/lobby.ts': "t('lobby.play'); t(`error.${code}`); const s = 'not a key';",
  };
  assert.deepEqual(missing(ok, first, all), []);
  const bad = {
    'ui/lobby.ts': "t('review.title'); known(`grade.${g}`);",
    'logic/lang/en.ts': "const k = 'review.title';",
  };
  assert.deepEqual(missing(bad, first, all), [
    "ui/lobby.ts: 'review.title' is not among the first screen's words (en_first.ts)",
    'ui/lobby.ts: `grade.${…}` can make grade.best, not first-screen words',
  ]);
});

test("a part's keys are its object's quoted property names", () => {
  const text = "export const p = {\n  'a.b': 'A',\n  'a.c': { one: 'x', other: 'y' },\n};";
  assert.deepEqual(partKeys(text), ['a.b', 'a.c']);
});
