// The explorer (docs/analysis.md): /explore?rules=…&position=… shows every throw and every legal
// move of the position with its winning chance (estimated on a test server, which has no tables,
// and labelled so); a throw and a move on the board play on, Back goes back through the positions
// visited, and a position string that does not parse is shown in words. axe-core finds no serious
// or critical problem, and the console stays clean (but for the browser's own line about the
// server's 400 answer to the bad position, which the page asked for on purpose).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60 });

/** One throw of the list: "Throw 2 (37.5% likely): ~57.3% to win for Light", in LANG. */
const throwLine = new RegExp(
  [
    L.tRe('explore.throwN', { n: /\d/ }).source,
    L.tRe('explore.likely', { pct: L.PCT }).source,
    L.PCT.source,
    L.tRe('explore.forSide').source,
  ].join('\\s*'),
  'u',
);
const movesList = `ul[aria-label="${L.t('explore.moves')}"]`;

const hashPosition = (page) =>
  page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('position'));
/** Waits until the address names `position`. */
const atPosition = (page, position) =>
  page.waitForFunction(
    (p) => new URLSearchParams(location.hash.split('?')[1]).get('position') === p,
    position,
  );

test('the explorer: throws, moves, play on, back, and a bad position in words', async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  await page.goto(new URL('/explore?rules=finkel&position=start', env.server.url).href);
  await page.waitForSelector('.explore-throws li');
  assert.match(page.url(), /#\/explore\?/, 'the address moved into the hash route');

  // The start: every throw with its probability and the thrower's chance, estimated here.
  const throws = await page.$$eval('.explore-throw', (li) => li.map((x) => x.textContent));
  assert.equal(throws.length, 5, throws.join('\n'));
  for (const t of throws) assert.match(L.plain(t), throwLine);
  assert.match(await L.text(page, '.explore-value'), L.tRe('explore.toThrow', { pct: L.PCT }));
  assert.equal(await L.text(page, '.review-estimate'), L.t('explore.estimate'));
  const start = await hashPosition(page);
  assert.ok(start && start !== 'start', `the address names the position (${start})`);

  // A throw of 2: its legal moves, the best marked, each playable from the list or the board.
  await page.click(`.explore-throw > button:text-is("${L.t('explore.throwN', { n: 2 })}")`);
  await page.waitForSelector(`${movesList} .explore-move`);
  const afterThrow = await hashPosition(page);
  assert.notEqual(afterThrow, start);
  assert.match(await L.text(page, '.explore-value'), L.tRe('explore.toMove', { pct: L.PCT }));
  assert.equal(await page.locator('.explore-move.explore-best').count(), 1);
  assert.ok((await page.locator('.board .piece.legal, .pile .piece.legal').count()) > 0);
  await L.screenshot(page, 'explore-moves');
  await page.locator('.piece.legal').first().click();
  await page.waitForFunction((p) => !location.hash.includes(encodeURIComponent(p)), afterThrow);
  await page.waitForSelector('.explore-throws li');
  const afterMove = await hashPosition(page);
  assert.notEqual(afterMove, afterThrow);

  // Back, twice: the moves after the throw, then the start.
  await page.click('button[data-action=explore-back]');
  await page.waitForSelector(`${movesList} .explore-move`);
  assert.equal(await hashPosition(page), afterThrow);
  await page.click('button[data-action=explore-back]');
  await page.waitForSelector('.explore-throws li');
  assert.equal(await hashPosition(page), start);
  assert.ok(await page.isDisabled('button[data-action=explore-back]'));

  const { violations } = await new AxeBuilder({ page }).analyze();
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`);
  assert.deepEqual(serious, [], 'axe: no serious or critical problem on the explorer');
  assert.deepEqual(P.errors, [], 'no console errors');

  // A position string that does not parse: the error in words, and Back still works.
  await page.fill('.explore-form input', 'L9/zz/zz');
  await page.click('.explore-form button[type=submit]');
  await page.waitForFunction(() => document.querySelector('.explore-error').textContent !== '');
  // Said from the error's code (docs/languages.md, "Errors"), not in the server's English words.
  assert.equal(
    await L.text(page, '.explore-error'),
    L.t('explore.cannot', { why: L.t('error.bad_position') }),
  );
  assert.equal(await page.locator('.explore-move, .explore-throw').count(), 0);
  await page.click('button[data-action=explore-back]');
  await page.waitForSelector('.explore-throws li');
  assert.equal(await page.textContent('.explore-error'), '');
  assert.deepEqual(
    P.errors.filter((e) => !/status of 400/.test(e)),
    [],
    'only the browser’s line about the refused position',
  );
  await P.context.close();
});

test('the analysis board: throw buttons, tap a piece, back and forward, set up, share', async () => {
  const P = await L.newPlayer(env.browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    reducedMotion: 'reduce',
  });
  const page = P.page;
  await page.addInitScript(() => {
    window.__shared = [];
    navigator.share = async (data) => void window.__shared.push(data);
  });
  await page.goto(`${env.server.url}#/explore?rules=finkel&position=start`);
  await page.waitForSelector('.explore-throw-row button[data-outcome="3"]');
  const start = await hashPosition(page);
  // A throw by its button under the board, then a move by tapping a glowing piece.
  await page.tap('.explore-throw-row button[data-outcome="3"]');
  await page.waitForSelector('.piece.legal');
  const thrown = await hashPosition(page);
  assert.match(thrown, /^L3\//);
  await page.locator('.piece.legal').first().tap();
  await page.waitForFunction((p) => !location.hash.includes(encodeURIComponent(p)), thrown);
  await page.waitForSelector('.explore-throw-row button');
  const moved = await hashPosition(page);
  assert.match(moved, /^Dr\//, 'dark throws after light’s move');
  // Back twice, then Forward twice: the same positions again.
  await page.tap('button[data-action=explore-back]');
  await atPosition(page, thrown);
  await page.tap('button[data-action=explore-back]');
  await atPosition(page, start);
  await page.tap('button[data-action=explore-forward]');
  await atPosition(page, thrown);
  await page.tap('button[data-action=explore-forward]');
  await atPosition(page, moved);
  assert.ok(await page.isDisabled('button[data-action=explore-forward]'));

  // Set up: a light piece on c2 (tapped once), a dark one on e2 (tapped twice), one light piece
  // borne off, dark to throw; the server analyses it.
  await page.tap('button[data-action=setup]');
  await page.tap('button[data-action=setup-clear]');
  await page.tap('.board [data-cell=c2]');
  await page.tap('.board [data-cell=e2]');
  await page.tap('.board [data-cell=e2]');
  await page.tap('button[data-action=off-more-1]');
  await page.selectOption('select[name=setup-actor]', '2');
  assert.match(await L.text(page, '.setup-summary'), /^Dr\/000007f\/0000009 /);
  await L.screenshot(page, 'analysis-setup');
  await page.tap('button[data-action=setup-analyse]');
  await atPosition(page, 'Dr/000007f/0000009');
  await page.waitForSelector('.explore-throw-row button');
  assert.match(
    await L.text(page, '.explore-value'),
    L.tRe('explore.toThrow', { side: L.t('seat.dark'), pct: L.PCT }, { whole: true }),
  );
  const onBoard = await page.$$eval('.board [data-cell] .piece', (els) =>
    els.map(
      (e) => `${e.closest('[data-cell]').dataset.cell}:${e.classList.contains('s1') ? 'L' : 'D'}`,
    ),
  );
  assert.deepEqual(onBoard.sort(), ['c2:L', 'e2:D']);
  // Share: the address with the position.
  await page.tap('button[data-action=explore-share]');
  const shared = await page.evaluate(() => window.__shared);
  assert.equal(shared.length, 1);
  assert.match(shared[0].url, /#\/explore\?rules=finkel&position=Dr%2F000007f%2F0000009$/);
  await L.screenshot(page, 'analysis-board-phone');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
