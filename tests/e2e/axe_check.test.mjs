// The accessibility check every browser test relies on (L.axeProblems) finds what it must: the
// lobby as served has no serious finding, and the same page with a nameless button, an image
// without a text and grey-on-white text has all three. A check that could not fail would let
// every other test's "no serious axe-core finding" pass unseen.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({});

test('axe-core finds nothing on the lobby and each planted problem', async () => {
  const P = await L.newGuest(env.browser, env.server.url, {});
  assert.deepEqual(await L.axeProblems(P.page, 'lobby'), []);
  await P.page.evaluate(() => {
    const main = document.querySelector('main');
    main.append(document.createElement('button'));
    const img = document.createElement('img');
    img.src = 'planted.png';
    main.append(img);
    const faint = document.createElement('p');
    faint.textContent = 'hard to read';
    Object.assign(faint.style, { color: '#eeeeee', background: '#ffffff' });
    main.append(faint);
  });
  const found = (await L.axeProblems(P.page, 'planted')).map((p) => p.split(' ')[1]);
  assert.deepEqual(found.sort(), ['button-name', 'color-contrast', 'image-alt']);
  await P.context.close();
});
