// The idle clock: with `--idle-timeout 2` a player who does not act loses on time. The countdown
// shows (the whole 2 s lie within the last 10 s) and the post-game banner says why.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 2, botDelay: 50 });

test('a player who does not act forfeits on time', { timeout: 90000 }, async () => {
  const P = await L.newPlayer(env.browser);
  const page = P.page;
  await page.goto(env.server.url);
  await L.playAsGuest(page);
  await page.waitForSelector('.lobby');
  // Record, inside the page, every countdown text that is shown (so a slow test driver cannot
  // miss the 2 s window).
  await page.evaluate(() => {
    window.__countdowns = [];
    new MutationObserver(() => {
      const el = document.querySelector('.countdown');
      if (el && el.style.visibility === 'visible' && el.textContent)
        window.__countdowns.push(el.textContent);
    }).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
      attributes: true,
    });
  });
  await page.click('button[data-action=play-computer]');
  // Nobody acts: the game ends by timeout.
  await page.waitForSelector('.banner', { timeout: 30000 });
  const shown = await page.evaluate(() => window.__countdowns);
  assert.equal(await page.textContent('.banner-title'), 'You lose');
  assert.match(await page.textContent('.banner-reason'), /on time: the idle clock ran out/);
  assert.match(await page.textContent('.log'), /ran out of time/);
  const st = await L.tableState(page);
  assert.equal(st.status, 'finished');
  // A 2 s clock is always inside the last 10 s, so the countdown showed from the start.
  assert.ok(
    shown.some((t) => /^You have [0-2] s to act$/.test(t)),
    `countdown texts: ${JSON.stringify(shown.slice(0, 5))}`,
  );
  await L.screenshot(page, 'idle-timeout');
  assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
  await P.context.close();
});

test('Find Match pairs two waiting players at one table', { timeout: 60000 }, async () => {
  const A = await L.newPlayer(env.browser);
  const B = await L.newPlayer(env.browser);
  for (const P of [A, B]) {
    await P.page.goto(env.server.url);
    await L.playAsGuest(P.page);
    await P.page.waitForSelector('.lobby');
  }
  await A.page.click('button[data-action=find-match]');
  await A.page.waitForFunction(() =>
    /Searching/.test(document.querySelector('.match-status')?.textContent ?? ''),
  );
  await B.page.click('button[data-action=find-match]');
  await L.waitTable(A.page, (d) => d.you === '1' || d.you === '2');
  await L.waitTable(B.page, (d) => d.you === '1' || d.you === '2');
  const [a, b] = [await L.tableState(A.page), await L.tableState(B.page)];
  assert.equal(a.table, b.table, 'both players are at the same table');
  assert.notEqual(a.you, b.you, 'in different seats');
  for (const P of [A, B]) assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
  await A.context.close();
  await B.context.close();
});
