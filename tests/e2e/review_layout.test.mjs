// The review beside the board (issue 25): at 1366×768 the board, the win-chance graph (with its
// axes and legend in words) and the move list of a review are on screen together without
// scrolling; on a phone held upright the board stays on screen while the review scrolls, so the
// squares a key move marks are in view with the key move's words.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });
let gameId = null;

/** Whether a finished game's review names a key decision that moves a piece (marks squares). */
async function hasKeyMove(id) {
  const res = await fetch(`${env.server.url}api/games/${id}/analysis`);
  assert.equal(res.status, 200, `the review of ${id}`);
  const a = await res.json();
  return a.key_moves.decisions.some((m) => m.from !== undefined && m.to !== undefined);
}

/**
 * A short game against the computer, resigned after a few turns, whose review names a key decision
 * that moves a piece. The dice decide whether a short game has one (a game of forced or perfect
 * moves has none), so the player takes the least advanced piece, which is often a mistake, and
 * plays another game until the review names one.
 */
async function playedGame() {
  if (gameId) return gameId;
  for (let attempt = 0; attempt < 8 && !gameId; attempt++) {
    const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
    await P.page.goto(env.server.url);
    await P.page.click('button[data-action=play-now]');
    await L.waitTable(P.page, (d) => d.status === 'playing');
    for (let i = 0; i < 16 + 8 * attempt; i++) {
      const st = await L.myTurn(P.page);
      if (st.status === 'finished') break;
      if (!st.canRoll && st.legal > 1) {
        await P.page.locator('.piece.legal').first().click();
        await L.waitTable(P.page, (d, v) => Number(d.version) > Number(v), st.version);
      } else await L.clickTurn(P.page, st);
    }
    const id = await P.page.$eval('.table-page', (el) => el.dataset.table);
    if ((await L.tableState(P.page)).status !== 'finished') {
      await P.page.click('button[data-action=resign]');
      await P.page.click('button[data-action=resign]');
      await P.page.waitForSelector('.banner');
    }
    await P.context.close();
    if (await hasKeyMove(id)) gameId = id;
  }
  assert.ok(gameId, 'a game whose review names a key decision, within 8 games');
  return gameId;
}

/** Each selector's box, and whether it lies wholly in the viewport. */
function boxes(page, sels) {
  return page.evaluate((list) => {
    const out = {};
    for (const s of list) {
      const r = document.querySelector(s)?.getBoundingClientRect();
      out[s] = r && {
        inside:
          r.width > 0 &&
          r.top >= 0 &&
          r.left >= 0 &&
          r.bottom <= innerHeight + 0.5 &&
          r.right <= innerWidth + 0.5,
        box: [r.left, r.top, r.right, r.bottom].map(Math.round),
      };
    }
    return out;
  }, sels);
}

test('at 1366×768 the board, the graph and the move list together', async () => {
  const id = await playedGame();
  const P = await L.newPlayer(env.browser, { viewport: { width: 1366, height: 768 } });
  const page = P.page;
  await page.goto(`${env.server.url}#/replay/${id}`);
  await page.waitForSelector('.replay-host.reviewed .win-graph polyline');
  await page.waitForSelector('.replay-list li');
  const b = await boxes(page, ['.replay-host .board', '.win-graph', '.replay-list']);
  for (const [sel, r] of Object.entries(b))
    assert.ok(r?.inside, `${sel} on screen: ${JSON.stringify(r)}`);
  const list = b['.replay-list'].box;
  assert.ok(list[3] - list[1] >= 80, `the move list shows some moves: ${list}`);
  assert.equal(await page.evaluate(() => window.scrollY), 0);
  // The graph says what it shows without a hover: axes and legend in words.
  assert.match(await page.textContent('.g-yaxis'), /100%.*50%.*0%/);
  assert.match(await page.textContent('.g-xaxis'), /start.*end/);
  assert.match(await page.textContent('.g-legend'), /mistake.*blunder.*lucky throw/);
  assert.match(await page.textContent('.win-graph-box .g-title'), /chance to win/);
  await L.screenshot(page, 'review-laptop');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test('on a phone the board and a key move’s squares stay in view', async () => {
  const id = await playedGame();
  const P = await L.newPlayer(env.browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
  });
  const page = P.page;
  await page.goto(`${env.server.url}#/replay/${id}`);
  await page.waitForSelector('.replay-host.reviewed .win-graph polyline');
  await page.tap('button[data-action=key-start]');
  await page.waitForSelector('.key-text:not(:empty)');
  // Step to a key decision (a throw marks no squares).
  for (let i = 0; i < 20 && !(await page.$('.mv-played')); i++) {
    if (await page.isDisabled('button[data-action=key-next]')) break;
    await page.tap('button[data-action=key-next]');
  }
  assert.ok(await page.$('.mv-played'), 'a key decision marks its squares');
  const b = await boxes(page, ['.replay-host .board', '.key-text']);
  assert.ok(b['.replay-host .board'].inside, `board: ${JSON.stringify(b)}`);
  assert.ok(b['.key-text'].inside, `key move words: ${JSON.stringify(b)}`);
  const marks = await page.$$eval('.mv-played', (els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return r.top >= 0 && r.bottom <= innerHeight && r.width > 0;
    }),
  );
  assert.ok(marks.length && marks.every(Boolean), `the marked squares in view: ${marks}`);
  await L.screenshot(page, 'review-phone-key-move');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
