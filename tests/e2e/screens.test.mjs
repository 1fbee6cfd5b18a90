// Every screen in the four sizes, checked by axe-core (no serious or critical violation) and kept
// as screenshots: the lobby, the table, the post-game banner, the replay and the how-to-play page
// (which exists for every preset). The board's squares have accessible names, and a game can be
// started and played with the keyboard alone.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

const SIZES = [
  { name: 'phone-portrait', viewport: { width: 390, height: 844 } },
  { name: 'phone-landscape', viewport: { width: 844, height: 390 } },
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
  { name: 'desktop', viewport: { width: 1920, height: 1080 } },
];

/** axe-core's serious and critical findings on the page as it is now. */
test(
  'keyboard alone: start a game, throw, move; then every screen in every size',
  {
    timeout: 240000,
  },
  async () => {
    const P = await L.newPlayer(env.browser, { viewport: SIZES[3].viewport });
    const page = P.page;
    const problems = [];
    await page.goto(env.server.url);
    await page.waitForSelector('button[data-action=play-now]');
    problems.push(...(await L.axeProblems(page, 'lobby')));

    // Tab to Play and press Enter; throw with R; move with a number key (or Enter on a piece).
    await page.focus('button[data-action=play-now]');
    await page.keyboard.press('Enter');
    await L.waitTable(page, (d) => d.status === 'playing' && d.you === '1');
    let moved = false;
    for (let guard = 0; guard < 30 && !moved; guard++) {
      const st = await L.myTurn(page);
      if (st.canRoll) await page.keyboard.press('r');
      else {
        await page.keyboard.press('1');
        moved = true;
      }
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
    }
    assert.ok(moved, 'a piece was moved with the keyboard');
    const names = await page.$$eval('.board .sq', (els) =>
      els.map((e) => e.getAttribute('aria-label')),
    );
    assert.ok(
      names.every((n) => /^[a-h][1-3](, rosette)?: /.test(n ?? '')),
      `square names: ${names.slice(0, 4).join(' | ')}`,
    );
    assert.ok(
      names.some((n) => /Light piece|Dark piece/.test(n)),
      'a square names its piece',
    );
    await L.myTurn(page);
    problems.push(...(await L.axeProblems(page, 'table')));
    // Settings: square names on the board, remembered across a reload.
    await page.click('button[data-action=settings]');
    await page.waitForSelector('.settings');
    problems.push(...(await L.axeProblems(page, 'settings')));
    await page.check('.settings input[name=coords]');
    await page.click('button[data-action=close-settings]');
    assert.equal(await page.isVisible('.board .coord'), true, 'square names shown');
    await page.reload();
    await L.waitTable(page, (d) => d.status === 'playing');
    assert.equal(await page.isVisible('.board .coord'), true, 'the setting is remembered');
    await L.screenshot(page, 'table-coords');
    const onEdge = async () =>
      page.evaluate(() => {
        const squares = [...document.querySelectorAll('.board .sq')].map((e) =>
          e.getBoundingClientRect(),
        );
        const labels = [...document.querySelectorAll('.board .coord')].map((e) => ({
          text: e.textContent,
          r: e.getBoundingClientRect(),
        }));
        const inside = (r, q) =>
          r.left >= q.left && r.right <= q.right && r.top >= q.top && r.bottom <= q.bottom;
        return {
          texts: labels.map((l) => l.text).join(''),
          onSquares: labels.filter((l) => squares.some((q) => inside(l.r, q))).length,
          visible: labels.filter((l) => l.r.width > 0).length,
        };
      });
    const tableUrl = page.url();
    const tableId = await page.$eval('.table-page', (el) => el.dataset.table);

    // Resign, so that the game has a banner and a replay.
    await page.click('button[data-action=resign]');
    await page.click('button[data-action=resign]');
    await page.waitForSelector('.banner');
    assert.equal(await page.isVisible('button[data-action=play-again]'), true);
    assert.equal(await page.isVisible('button[data-action=roll]'), false, 'no throw after the end');
    problems.push(...(await L.axeProblems(page, 'banner')));

    for (const size of SIZES) {
      await page.setViewportSize(size.viewport);
      await page.goto(`${env.server.url}#/lobby`);
      await page.waitForSelector('button[data-action=play-now]');
      await L.screenshot(page, `screen-lobby-${size.name}`);
      await page.goto(tableUrl);
      await page.waitForSelector('.banner');
      // The move log of the finished game, opened afresh: the moves played, then the result.
      await page.waitForFunction(() =>
        /Computer \(Easy\) wins — by resignation/.test(document.querySelector('.log')?.textContent),
      );
      const log = await page.$$eval('.log li', (lis) => lis.map((li) => li.textContent));
      assert.match(log.at(-1), /^You threw \d/, 'the first throw at the bottom');
      assert.ok(
        log.some((l) => /^You: \S+ → \S+/.test(l)),
        `a move of yours: ${log.join(' | ')}`,
      );
      assert.equal(log[1], 'You resigned');
      await L.screenshot(page, `screen-banner-${size.name}`);
      // The square names stand on the board's edge in every layout, and the board still fits.
      await page.click('button[data-action=close-banner]');
      const edge = await onEdge();
      assert.equal(edge.visible, 11, `8 files and 3 ranks at ${size.name}`);
      assert.equal(edge.onSquares, 0, `none on a square at ${size.name}`);
      assert.equal(edge.texts, 'hgfedcba123', 'files mirrored, then the ranks');
      const fit = await L.boardFits(page);
      assert.ok(
        fit.inside && !fit.scrolls,
        `fits with names at ${size.name}: ${JSON.stringify(fit)}`,
      );
      await L.screenshot(page, `screen-coords-${size.name}`);
      await page.goto(`${env.server.url}#/replay/${tableId}`);
      await page.waitForSelector('.replay-host .board');
      await page.waitForFunction(() => document.querySelector('.replay-counter')?.textContent);
      await L.screenshot(page, `screen-replay-${size.name}`);
      if (size.name === 'desktop' || size.name === 'phone-portrait')
        problems.push(...(await L.axeProblems(page, `replay ${size.name}`)));
      await page.goto(`${env.server.url}#/rules/finkel`);
      await page.waitForSelector('.howto-section');
      await L.screenshot(page, `screen-howto-${size.name}`);
      if (size.name === 'desktop' || size.name === 'phone-portrait')
        problems.push(...(await L.axeProblems(page, `how to play ${size.name}`)));
    }
    assert.deepEqual(problems, [], 'no serious or critical accessibility violation');
    assert.deepEqual(P.errors, [], 'a clean console');
    await P.context.close();
  },
);

test('a how-to-play page for every preset', { timeout: 60000 }, async () => {
  const P = await L.newPlayer(env.browser);
  const { presets } = await (await fetch(`${env.server.url}api/rules`)).json();
  for (const { id, name } of presets) {
    await P.page.goto(`${env.server.url}#/rules/${id}`);
    await P.page.waitForSelector('.howto-section');
    assert.equal(await P.page.textContent('h1'), `How to play — ${name}`);
    const squares = await P.page.$$eval('.howto-host .board .sq', (e) => e.length);
    const rules = await (await fetch(`${env.server.url}api/rules/${id}`)).json();
    assert.equal(squares, rules.board.squares.length, `${id}: the board`);
    assert.ok(await P.page.$('.board .sq.on-path'), `${id}: the path is drawn`);
  }
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
