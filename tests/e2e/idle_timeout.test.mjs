// The idle clock: with `--idle-timeout 2` a player who does not act loses on time. The countdown
// and the tab title warn ("Your move — 2 s"), and the post-game banner says why.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 2, botDelay: 50 });

test('a player who does not act is warned, then forfeits on time', { timeout: 90000 }, async () => {
  // Two guests paired by Find Match; the one to act does nothing. (Against the computer no clock
  // runs at all.)
  const players = [];
  for (let i = 0; i < 2; i++) {
    const P = await L.newPlayer(env.browser);
    await P.page.goto(env.server.url);
    await L.playAsGuest(P.page);
    await P.page.waitForSelector('.lobby');
    // Record, inside the page, every countdown text and tab title shown (so a slow test driver
    // cannot miss the 2 s window).
    await P.page.evaluate(() => {
      window.__countdowns = [];
      window.__titles = [];
      new MutationObserver(() => {
        const el = document.querySelector('.countdown');
        if (el && el.style.visibility === 'visible' && el.textContent)
          window.__countdowns.push(el.textContent);
        if (window.__titles.at(-1) !== document.title) window.__titles.push(document.title);
      }).observe(document, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    await L.moreOptions(P.page);
    players.push(P);
  }
  await players[0].page.click('button[data-action=find-match]');
  await players[0].page.waitForFunction(() =>
    /Searching/.test(document.querySelector('.match-status')?.textContent ?? ''),
  );
  await players[1].page.click('button[data-action=find-match]');
  for (const P of players) await L.waitTable(P.page, (d) => d.you === '1' || d.you === '2');
  const states = await Promise.all(players.map((P) => L.tableState(P.page)));
  const idleAt = states.findIndex((st) => st.toAct === st.you);
  assert.ok(idleAt >= 0, 'one of them is to act');
  const idle = players[idleAt];
  const idleSeat = states[idleAt].you;
  const other = players[1 - idleAt];
  // Nobody acts: the game ends by timeout.
  for (const P of players) await P.page.waitForSelector('.banner', { timeout: 30000 });
  const st = await L.tableState(idle.page);
  assert.equal(st.status, 'finished');
  const [shown, titles] = await idle.page.evaluate(() => [window.__countdowns, window.__titles]);
  const idleLost = (await idle.page.textContent('.banner-title')) === 'You lose';
  assert.ok(idleLost, `the idle seat ${idleSeat} lost`);
  assert.match(await idle.page.textContent('.banner-reason'), /on time: the idle clock ran out/);
  assert.match(await idle.page.textContent('.log'), /ran out of time/);
  assert.equal(await other.page.textContent('.banner-title'), 'You win!');
  // The warning: the visible countdown and the tab title, before the forfeit.
  assert.ok(
    shown.some((t) => /^You have [0-2] s to act$/.test(t)),
    `countdown texts: ${JSON.stringify(shown.slice(0, 5))}`,
  );
  assert.ok(
    titles.some((t) => /^Your move — [0-2] s$/.test(t)),
    `titles: ${JSON.stringify(titles.slice(0, 6))}`,
  );
  await L.screenshot(idle.page, 'idle-timeout');
  for (const P of players) assert.deepEqual(P.errors, [], 'a clean console');
  for (const P of players) await P.context.close();
});

test('Find Match pairs two waiting players at one table', { timeout: 60000 }, async () => {
  const A = await L.newPlayer(env.browser);
  const B = await L.newPlayer(env.browser);
  for (const P of [A, B]) {
    await P.page.goto(env.server.url);
    await L.playAsGuest(P.page);
    await P.page.waitForSelector('.lobby');
  }
  await L.moreOptions(A.page);
  await L.moreOptions(B.page);
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
