// The review of a finished game (docs/analysis.md): a guest plays the computer to the end (taking one
// hint, outlined on the board, which the review then counts), the banner
// gives each player's accuracy and luck with a link to the review, and the review shows the
// win-chance graph (a click jumps the replay), accuracy and luck of both players, the key-move
// mode with the played and the best move drawn on the board, the chances at a position, and
// "Explore from here" opening the explorer at the position on show.
// The test server has no tables, so the review is an estimate and must say so. axe-core finds
// no serious or critical problem on the review screen.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

test(
  'a finished game’s review: graph, accuracy and luck, key moves, explorer',
  { timeout: 240000 },
  async () => {
    const P = await L.newGuest(env.browser, env.server.url, { reducedMotion: 'reduce' });
    const page = P.page;
    await L.playComputer(page, env.server.url, 'finkel', 'beginner');
    let hinted = false;
    for (let guard = 0; guard < 3000; guard++) {
      let st = await L.myTurn(page);
      if (st.status === 'finished') break;
      if (!hinted && st.legal > 1) {
        // A hint (unrated, against the computer): the best move outlined, with its chance.
        await page.click('button[data-action=hint]');
        await page.waitForSelector('.hint-mark.mv-best-to');
        assert.match(await L.text(page, '.hint-note'), L.tRe('hint.note', { pct: L.PCT }));
        await L.screenshot(page, 'hint');
        hinted = true;
        st = await L.myTurn(page); // the hint moved the table's version on
      }
      await L.clickTurn(page, st);
    }
    assert.ok(hinted, 'the game offered a decision with a choice');

    // The banner: each player's accuracy and luck in one line, and the link to the review.
    await page.waitForSelector('.banner .banner-review a');
    const reviewLine = L.tRe('review.line', {
      accuracy: /~?\d+(?:[.,]\d+)?|–/,
      luck: /~?[+\u2212]?\d.*?/,
    });
    await L.waitText(page, '.banner-review', reviewLine);
    const line = await L.text(page, '.banner-review');
    const lines = line.match(new RegExp(reviewLine.source, 'gu')) ?? [];
    assert.equal(lines.length, 2, `each player's accuracy and luck: ${line}`);
    await L.screenshot(page, 'review-banner');
    await page.click('.banner-review a');

    // The review: estimated (no tables on a test server), both players' accuracy and luck.
    await page.waitForSelector('.review .win-graph polyline');
    assert.match(await L.text(page, '.review-estimate'), L.tRe('review.estimateHead'));
    const players = await page.$$eval('.review-players li', (li) => li.map((x) => x.textContent));
    assert.equal(players.length, 2);
    for (const p of players)
      assert.match(L.plain(p), L.tRe('review.player', { luck: /[~+\u2212\d].*?/ }));
    assert.match(
      L.plain(players.join('\n')),
      L.tRe('review.hints', { count: 1 }),
      'the review counts the hint',
    );
    const dice = new RegExp(
      `${L.tRe('review.diceMore').source}|${L.tRe('review.diceLess').source}`,
    );
    assert.match(
      await L.text(page, '.review-decomposition'),
      L.tRe('review.decomposition', {
        head: L.tRe('review.won'),
        dice,
        cost: L.tRe('review.cost'),
      }),
    );
    const points = await page.$eval(
      '.win-graph polyline',
      (l) => l.getAttribute('points').split(' ').length,
    );
    assert.ok(points > 10, `the graph has a point a step (${points})`);

    // A click on the graph's right end jumps the replay to (near) the end.
    const total = Number((await L.text(page, '.replay-counter')).split('/')[1]);
    const box = await page.$eval('.win-graph', (g) => {
      const r = g.getBoundingClientRect();
      return { x: r.right - 3, y: r.top + r.height / 2 };
    });
    await page.mouse.click(box.x, box.y);
    const step = Number(await page.getAttribute('.replay-host', 'data-step'));
    assert.ok(step > total - 3, `the click jumped to step ${step} of ${total}`);
    await L.screenshot(page, 'review');

    // Key moves: step until a decision whose best move differs, drawn on the board.
    await page.click('button[data-action=key-start]');
    let drawn = false;
    for (let i = 0; i < 12 && !drawn; i++) {
      drawn = (await page.$('.board .mv-best, .pile.mv-best')) !== null;
      if (drawn) break;
      if (await page.isDisabled('button[data-action=key-next]')) break;
      await page.click('button[data-action=key-next]');
    }
    assert.ok(drawn, 'a key decision draws the best move on the board');
    assert.ok(await page.$('.mv-played'), 'and the played move');
    assert.match(
      await L.text(page, '.key-text'),
      L.tRe('review.playedWorse', { played: L.tRe('review.played'), pct: L.PCT }),
    );
    // The whole page: the board with the two moves drawn and the review under it.
    const full = L.LANG === 'en' ? 'review-key-move' : `review-key-move-${L.LANG}`;
    await page.screenshot({ path: `${L.screenshotDir}/${full}.png`, fullPage: true });

    // The explorer lists the chances at the position on show.
    const chances = await page.textContent('.explore-list');
    assert.match(L.plain(chances), L.tRe('review.rowPlayed'));
    assert.match(L.plain(chances), L.tRe('review.rowBest'));
    assert.match(L.plain(chances), L.PCT);
    await page.click('.explore-best button');
    assert.ok(await page.$('.mv-best'));

    const { violations } = await new AxeBuilder({ page }).analyze();
    const serious = violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`);
    assert.deepEqual(serious, [], 'axe: no serious or critical problem on the review');
    assert.deepEqual(P.errors.filter(L.realError), [], 'no console errors');

    // "Explore from here": the explorer opens at the position on show.
    const here = await page.getAttribute('.replay-host', 'data-position');
    await page.click('.explore-link');
    await page.waitForSelector(
      `.explore-throws li, ul[aria-label="${L.t('explore.moves')}"] .explore-move`,
    );
    assert.equal(
      await page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('position')),
      here,
    );
    assert.deepEqual(P.errors.filter(L.realError), [], 'no console errors in the explorer');
    await P.context.close();
  },
);
