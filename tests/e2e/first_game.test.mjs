// A newcomer's first game, in the sizes people use: portrait phones (390×844 and the smallest,
// 360×640), a landscape phone, a laptop and a desktop. A visitor opens `/`, presses Play (no account, no form), throws and moves
// a piece: at most three taps or clicks besides throws that pass the turn, by touch events on the
// phones (no hover). The whole board lies inside the window without scrolling, every movable
// piece's landing square is marked without hovering, the prompt says what to do, and the console
// stays clean. Screenshots of the lobby and the table in each size land in build/screenshots/.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

export const SIZES = [
  { name: 'phone-portrait', viewport: { width: 390, height: 844 }, touch: true },
  // The smallest phone the layout promises to fit without scrolling.
  { name: 'small-phone-portrait', viewport: { width: 360, height: 640 }, touch: true },
  { name: 'phone-landscape', viewport: { width: 844, height: 390 }, touch: true },
  { name: 'laptop', viewport: { width: 1366, height: 768 }, touch: false },
  { name: 'desktop', viewport: { width: 1920, height: 1080 }, touch: false },
];

for (const size of SIZES) {
  test(`a visitor's first move in three taps at ${size.name}`, { timeout: 90000 }, async () => {
    const P = await L.newPlayer(env.browser, {
      viewport: size.viewport,
      hasTouch: size.touch,
      isMobile: size.touch,
    });
    const page = P.page;
    let taps = 0;
    const tap = async (locator) => {
      taps++;
      if (size.touch) await locator.tap();
      else await locator.click();
    };
    await page.goto(env.server.url);
    const play = page.locator('button[data-action=play-now]');
    await play.waitFor();
    assert.equal(await page.isVisible('.auth-form'), false, 'no login form before playing');
    await L.screenshot(page, `lobby-${size.name}`);

    await tap(play);
    await L.waitTable(page, (d) => d.status === 'playing' && d.you === '1');
    // A newcomer's first game draws their path (numbered squares), without asking.
    await page.waitForSelector('.board[data-path="1"]');
    assert.equal(await page.$$eval('.board .sq.on-path', (e) => e.length), 14, 'the path');
    const fit = await L.boardFits(page);
    assert.ok(fit.inside && !fit.scrolls, `the board fits: ${JSON.stringify(fit)}`);

    let passes = 0;
    for (let guard = 0; guard < 20; guard++) {
      const st = await L.myTurn(page);
      assert.equal(st.status, 'playing');
      if (st.canRoll) {
        assert.equal(await page.textContent('.status-main'), 'Throw the dice');
        await tap(page.locator('button[data-action=roll]'));
        await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
        const after = await L.myTurn(page);
        if (after.legal === 0) passes++; // a throw with no move: the turn passed
        continue;
      }
      // A throw to play: every movable piece glows and every landing square is marked, at once.
      assert.match(await page.textContent('.status-main'), /^Move a piece: \d squares?$/);
      const marks = await page.evaluate(() => ({
        legal: document.querySelectorAll('.piece.legal').length,
        land: document.querySelectorAll('.land').length,
      }));
      assert.ok(marks.land >= 1 && marks.land === marks.legal, JSON.stringify(marks));
      await L.screenshot(page, `table-${size.name}`);
      // The portrait phone taps the landing square, the others the piece itself.
      const target =
        size.name === 'phone-portrait'
          ? page.locator('.board .sq.land').first()
          : page.locator('.piece.legal').first();
      await tap(target);
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
      break;
    }
    assert.ok(taps - passes <= 3, `taps: ${taps}, passed throws: ${passes}`);
    const fitAfter = await L.boardFits(page);
    assert.ok(fitAfter.inside && !fitAfter.scrolls, `still fits: ${JSON.stringify(fitAfter)}`);
    assert.deepEqual(P.errors, [], 'a clean console');
    await P.context.close();
  });
}
