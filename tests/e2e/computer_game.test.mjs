// A guest on a phone plays the computer to the end. Held upright the board stands (three columns,
// the long axis vertical) and fits; turned sideways the board fits as well. The first turns run with the
// animations on and use the keyboard as well as taps; then the server is restarted under the
// running game and the page must reconnect by itself and resume the same seat.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

const landscape = { width: 844, height: 390 };
const portrait = { width: 390, height: 844 };

test(
  'a phone player beats (or loses to) the computer, through a server restart',
  { timeout: 240000 },
  async () => {
    const P = await L.newPlayer(env.browser, {
      viewport: portrait,
      isMobile: true,
      hasTouch: true,
    });
    const page = P.page;
    await page.goto(env.server.url);
    await L.playAsGuest(page);
    await page.waitForSelector('.lobby');
    await L.moreOptions(page);
    await page.selectOption('select[name=level]', 'beginner');
    await page.click('button[data-action=play-computer]');
    await L.waitTable(page, (d) => d.status === 'playing' && d.you === '1');

    // Upright: the board stands, three squares wide, and fits without scrolling.
    const upright = await L.boardFits(page);
    assert.ok(upright.inside && !upright.scrolls, `portrait fits: ${JSON.stringify(upright)}`);
    const [bw, bh] = await page.$eval('.board', (b) => [b.offsetWidth, b.offsetHeight]);
    assert.ok(bh > bw, 'the board stands upright');
    await L.screenshot(page, 'phone-portrait');

    // Sideways: the board, the dice panel and both seats fit in the screen without scrolling.
    await page.setViewportSize(landscape);
    await page.waitForSelector('.board', { state: 'visible' });
    const fits = await page.evaluate(() => {
      const els = ['.board', '.panel', '.seat-box.s2', 'button[data-action=roll]'].map((s) =>
        document.querySelector(s).getBoundingClientRect(),
      );
      return (
        els.every(
          (r) =>
            r.left >= 0 &&
            r.right <= window.innerWidth + 0.5 &&
            r.bottom <= window.innerHeight + 0.5,
        ) && document.documentElement.scrollWidth <= window.innerWidth
      );
    });
    assert.equal(fits, true, 'the board and the panel fit a 844×390 landscape phone');

    // A few turns with the animations on: tap to roll, keyboard (R, a number key, Enter on a focused
    // glowing piece) as well as taps to move.
    let turns = 0;
    let keyboardMoves = 0;
    let shot = false;
    while (turns < 10 || (!shot && turns < 30)) {
      const st = await L.myTurn(page);
      if (st.status === 'finished') break;
      const before = st.version;
      if (st.canRoll) {
        if (turns % 2 === 0) await page.keyboard.press('r');
        else await page.tap('button[data-action=roll]');
      } else if (turns % 3 === 0) {
        await page.keyboard.press('1');
        keyboardMoves++;
      } else if (turns % 3 === 1) {
        await page.locator('.piece.legal').first().focus();
        await page.keyboard.press('Enter');
        keyboardMoves++;
      } else {
        await page.locator('.piece.legal').last().tap();
      }
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), before);
      turns++;
      const now = await L.myTurn(page);
      if (!shot && turns >= 6 && now.status === 'playing' && now.legal > 0) {
        shot = true;
        await L.screenshot(page, 'game-phone-landscape');
      }
    }
    assert.ok(keyboardMoves > 0, 'some moves were made with the keyboard');

    // The server goes away under the game and comes back: the page reconnects and resumes.
    const st0 = await L.myTurn(page);
    assert.equal(st0.status, 'playing', 'ten turns do not finish a game');
    {
      const port = env.server.port;
      const dataDir = env.server.dataDir;
      const before = P.errors.length;
      await env.server.stop();
      await page.waitForSelector('.conn-banner.shown', { timeout: 15000 });
      assert.match(await L.text(page, '.conn-banner'), L.tRe('app.reconnecting'));
      const restarted = await L.startServer({
        idleTimeout: 60,
        botDelay: 50,
        port,
        dataDir,
      });
      const cleanup = env.server.cleanup;
      env.server = { ...restarted, cleanup };
      await page.waitForSelector('.conn-banner:not(.shown)', {
        timeout: 30000,
      });
      await L.waitTable(
        page,
        (d, v) => d.you === '1' && Number(d.version) >= Number(v) && d.connection === 'open',
        st0.version,
      );
      const after = await L.look(page);
      assert.equal(after.sig, st0.sig, 'the board is the same after reconnecting');
      // While the server is down (and slow to start on a busy machine) the browser itself reports
      // each refused reconnection attempt; nothing else may be said meanwhile.
      const outage = P.errors.splice(before);
      assert.deepEqual(
        outage.filter(
          (e) => !/WebSocket connection to .* failed: .*ERR_CONNECTION_REFUSED/.test(e),
        ),
        [],
        'only refused reconnections while the server is down',
      );
    }

    // The rest of the game, quickly.
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (let guard = 0; guard < 2000; guard++) {
      const st = await L.myTurn(page);
      if (st.status === 'finished') break;
      await L.clickTurn(page, st);
    }
    await page.waitForSelector('.banner');
    const title = await L.text(page, '.banner-title');
    assert.ok(
      [L.t('log.win.you'), L.t('banner.youLose')].includes(title),
      `banner title: ${title}`,
    );
    assert.match(await L.text(page, '.banner-reason'), L.tRe('reason.boreOff'));
    assert.match(await L.text(page, '.banner-stats'), L.tRe('banner.unrated'));
    await L.screenshot(page, 'post-game-phone');
    assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
    await P.context.close();
  },
);

test('a stale tab redraws from the snapshot the server attaches', { timeout: 90000 }, async () => {
  // Two tabs of one guest at one table; the second tab's table messages are held back (as if lost)
  // while the first one rolls, so the second acts on an old version and is told so.
  const A = await L.newPlayer(env.browser);
  await A.page.goto(env.server.url);
  await L.playAsGuest(A.page);
  await A.page.waitForSelector('.lobby');
  await L.moreOptions(A.page);
  await A.page.click('button[data-action=play-computer]');
  await L.waitTable(A.page, (d) => d.status === 'playing' && d.you === '1');
  const tableUrl = A.page.url();

  const B = await L.newPlayer(env.browser);
  await B.context.addCookies(await A.context.cookies());
  let holdBack = false;
  await B.page.routeWebSocket(/\/ws$/, (ws) => {
    const upstream = ws.connectToServer();
    ws.onMessage((m) => upstream.send(m));
    upstream.onMessage((m) => {
      if (!(holdBack && typeof m === 'string' && m.includes('"type":"table"'))) ws.send(m);
    });
  });
  // The same guest (cookie) who chose to play as guest (the flag the login screen leaves).
  await B.context.addInitScript(() => localStorage.setItem('ur.guest', '1'));
  await B.page.goto(tableUrl);
  await L.waitTable(B.page, (d) => d.status === 'playing' && d.you === '1');
  const start = await L.look(B.page);
  assert.equal(start.canRoll, true);

  holdBack = true;
  await A.page.click('button[data-action=roll]');
  await L.waitTable(A.page, (d, v) => Number(d.version) > Number(v), start.version);
  // Wait until nothing moves any more (after a throw of 0 the computer plays first).
  const now = await L.myTurn(A.page);
  assert.equal(
    (await L.tableState(B.page)).version,
    start.version,
    'the second tab missed the throw',
  );
  await B.page.click('button[data-action=roll]');
  await L.waitTable(B.page, (d, v) => Number(d.version) >= Number(v), now.version);
  assert.match(await L.text(B.page, '.log'), L.tRe('table.changed'));
  const redrawn = await L.look(B.page);
  assert.equal(redrawn.position, now.position, 'the stale tab shows the current position');
  assert.equal(redrawn.sig, now.sig);
  holdBack = false;

  // Resign (a second click confirms), then leave for the lobby.
  await A.page.click('button[data-action=resign]');
  assert.equal(await L.text(A.page, 'button[data-action=resign]'), L.t('table.confirmResign'));
  await A.page.click('button[data-action=resign]');
  await A.page.waitForSelector('.banner');
  assert.equal(await L.text(A.page, '.banner-title'), L.t('banner.youLose'));
  assert.match(await L.text(A.page, '.banner-reason'), L.tRe('reason.resign'));
  assert.equal(await L.text(A.page, 'button[data-action=leave]'), L.t('banner.lobby'));
  await A.page.click('button[data-action=leave]');
  await A.page.waitForSelector('.lobby');
  for (const P of [A, B]) assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
  await A.context.close();
  await B.context.close();
});
