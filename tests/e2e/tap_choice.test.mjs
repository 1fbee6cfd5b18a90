// A piece with two moves, on a touch screen: the first tap on it only selects it (nothing is sent)
// and leaves its two landing squares marked; the second tap, on one of them, makes that move. Such
// positions are rare in real play (a looping path, a stack), so the test gives the page one: a
// proxy between the page and the server adds a second, made-up landing square to the first legal
// move of the player's first decision. The test taps the real one, which the server accepts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

test(
  'a piece with two moves: select with a tap, move with a second tap',
  { timeout: 90000 },
  async () => {
    const P = await L.newPlayer(env.browser, {
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
      reducedMotion: 'reduce',
    });
    const page = P.page;
    const rules = await (await fetch(`${env.server.url}api/rules/finkel`)).json();
    const n = rules.path_length;
    const sent = [];
    let real = null;
    let fake = null;
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((m) => {
        if (typeof m === 'string') sent.push(JSON.parse(m));
        server.send(m);
      });
      server.onMessage((m) => {
        if (typeof m !== 'string') return ws.send(m);
        const j = JSON.parse(m);
        const g = j.table?.game;
        const moves = g?.legal_moves?.filter((x) => x.kind === 'move') ?? [];
        if (g && g.phase === 'awaiting_move' && g.to_act === 1 && moves.length > 0) {
          if (!real) {
            real = moves[0];
            const to = real.to + 1 <= n ? real.to + 1 : real.to - 1;
            fake = { ...real, to, capture: false, rosette: false, bear_off: to > n };
          }
          if (moves.some((x) => x.from === real.from && x.to === real.to))
            g.legal_moves = [...g.legal_moves, fake];
        }
        ws.send(JSON.stringify(j));
      });
    });
    await page.goto(env.server.url);
    await page.locator('button[data-action=play-now]').tap();
    await L.waitTable(page, (d) => d.status === 'playing' && d.you === '1');
    // Throw until there is a piece to move.
    for (let guard = 0; guard < 30; guard++) {
      const st = await L.myTurn(page);
      if (st.legal > 0) break;
      await page.locator('button[data-action=roll]').tap();
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
    }
    assert.ok(real, 'a decision came');
    const st = await L.look(page);
    const where = (to) =>
      to > n ? '[data-pile="off:1"]' : `.board [data-cell="${rules.paths.light[to - 1]}"]`;
    const piece = page.locator(`.piece.legal[data-from="${real.from}"]`).first();
    const landsBefore = await page.$$eval('.land', (els) => els.length);
    assert.ok(landsBefore >= 2, 'every landing square is marked, the made-up one too');

    // First tap: selected, nothing sent, only this piece's two landing squares marked.
    const movesSent = () => sent.filter((m) => m.type === 'move').length;
    await piece.tap();
    await L.sleep(300);
    assert.equal(movesSent(), 0, 'the first tap sends nothing');
    assert.equal((await L.tableState(page)).version, st.version);
    const lands = await page.$$eval('.land', (els) =>
      els.map((e) => e.dataset.cell ?? e.dataset.pile),
    );
    assert.equal(lands.length, 2, `two landing squares: ${lands}`);
    assert.ok(await page.$eval(where(real.to), (e) => e.classList.contains('land')));
    assert.ok(await page.$eval(where(fake.to), (e) => e.classList.contains('land')));
    await L.screenshot(page, 'two-moves-selected-phone-portrait');

    // Second tap, on the real landing square: that move is made.
    await page.locator(where(real.to)).tap();
    await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
    const move = sent.find((m) => m.type === 'move');
    assert.equal(move.from, real.from);
    assert.equal(move.to, real.to);
    assert.deepEqual(P.errors, [], 'a clean console');
    await P.context.close();
  },
);
