// A newcomer's first game, in the sizes people use: portrait phones (390×844 and the smallest,
// 360×640), a landscape phone, a laptop and a desktop. A visitor opens `/`, presses Play (no account, no form), throws and moves
// a piece: at most three taps or clicks besides throws that pass the turn, by touch events on the
// phones (no hover). The whole board lies inside the window without scrolling, every movable
// piece's landing square is marked without hovering, the prompt says what to do, and the console
// stays clean. Screenshots of the lobby and the table in each size land in build/screenshots/.
// Then a bot account online (`ur bot` with the example engine) shows in the lobby's Bots card
// with its Challenge button, which seats the visitor against it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
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
        assert.equal(await L.text(page, '.status-main'), L.t('table.prompt.throw'));
        await tap(page.locator('button[data-action=roll]'));
        await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
        const after = await L.myTurn(page);
        if (after.legal === 0) passes++; // a throw with no move: the turn passed
        continue;
      }
      // A throw to play: every movable piece glows and every landing square is marked, at once;
      // the prompt says what to do and no disabled "Throw the dice" says otherwise.
      assert.match(
        await L.text(page, '.status-main'),
        L.tRe('table.prompt.move', {}, { whole: true }),
      );
      assert.equal(await page.isVisible('button[data-action=roll]'), false, 'no Throw button');
      const marks = await page.evaluate(() => ({
        legal: document.querySelectorAll('.piece.legal').length,
        land: document.querySelectorAll('.land').length,
      }));
      assert.ok(marks.land >= 1 && marks.land === marks.legal, JSON.stringify(marks));
      await L.screenshot(page, `table-${size.name}`);
      // A large screen is used: the board takes most of the width, the move log a good part of
      // the height under it, and the page still does not scroll.
      if (size.name === 'desktop') {
        const used = await page.evaluate(() => ({
          board: document.querySelector('.board').getBoundingClientRect().width / innerWidth,
          log: document.querySelector('.board-wrap > .log').getBoundingClientRect().height,
          bottom: document.querySelector('.play-area').getBoundingClientRect().bottom / innerHeight,
        }));
        assert.ok(used.board >= 0.6 && used.log >= 180 && used.bottom >= 0.7, JSON.stringify(used));
      }
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

/** Registers `name` over HTTP and makes it a bot account: its token (docs/server.md). */
async function botToken(base, name) {
  const reg = await fetch(`${base}api/register`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: name, password: 'correct horse 42' }),
  });
  assert.equal(reg.status, 201, await reg.text());
  const cookie = reg.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const bot = await fetch(`${base}api/bot`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Cookie: cookie },
    body: JSON.stringify({ bot: true }),
  });
  const body = await bot.text();
  assert.equal(bot.status, 200, body);
  return JSON.parse(body).token;
}

test('a bot online shows in the lobby with its Challenge button', { timeout: 60000 }, async () => {
  const base = env.server.url;
  const token = await botToken(base, 'randombot');
  const engine = `python3 ${join(L.repoRoot, 'examples/uep_random.py')}`;
  const bot = spawn(process.env.UR_BINARY, ['bot', '--server', base, '--engine', engine], {
    env: { ...process.env, UR_BOT_TOKEN: token },
    stdio: 'ignore',
  });
  const P = await L.newPlayer(env.browser);
  try {
    // Ready once the server lists it (the engine's handshake first): then the lobby shows it.
    for (let i = 0; i < 300; i++) {
      const { bots } = await (await fetch(`${base}api/bots`)).json();
      if (bots.some((b) => b.name === 'randombot')) break;
      await L.sleep(100);
    }
    await P.page.goto(base);
    const row = P.page.locator('.bots-card li', { hasText: 'randombot' });
    await row.waitFor({ timeout: 30000 });
    const challenge = row.getByRole('button', { name: L.t('bots.challenge') });
    assert.equal(await challenge.isEnabled(), true);
    assert.equal(await row.locator('select option').first().textContent(), 'finkel');
    await challenge.click();
    await L.waitTable(P.page, (d) => d.status === 'playing' && d.you !== '');
    assert.match(await P.page.textContent('.panel'), /randombot/);
    assert.deepEqual(P.errors, [], 'a clean console');
  } finally {
    bot.kill('SIGTERM');
    await P.context.close();
  }
});
