// English in two pieces (logic/i18n.ts): the first screen's words are there from the start, the
// other screens' come with wordsReady — which the screens' scripts wait for (main.ts) — and a
// key whose words are not loaded yet shows as the key, never as a blank or an error.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { currentLang, hasWords, t, wordsReady } from '../src/logic/i18n.ts';

test("English starts with the first screen's words; the others come with wordsReady", async () => {
  assert.equal(currentLang(), 'en');
  assert.equal(t('lobby.rated'), 'Rated');
  assert.equal(hasWords('replay.title'), false);
  assert.equal(t('replay.title'), 'replay.title');
  await wordsReady();
  assert.equal(hasWords('replay.title'), true);
  assert.equal(t('replay.title'), 'Replay');
  assert.equal(t('replay.titleOf', { light: 'ann', dark: 'bob' }), 'Replay — ann vs bob');
  assert.equal(t('lobby.rated'), 'Rated');
});
