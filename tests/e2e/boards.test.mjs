// Every rule set's board is drawn from GET /api/rules/<preset>: the right number of squares, the
// rosettes, the boxed game's award, forfeit and doubling squares and its start spaces S, and
// Aseb's twelve files. Screenshots of the Aseb and boxed boards are kept.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

test('every preset draws its board', { timeout: 120000 }, async () => {
  const P = await L.newGuest(env.browser, env.server.url, { reducedMotion: 'reduce' });
  const page = P.page;
  const { presets } = await (await fetch(`${env.server.url}api/rules`)).json();
  assert.ok(presets.length >= 2);
  // The test server's data directory has no solved tables: the perfect level says it plays as hard.
  assert.equal(
    await page.textContent('select[name=level] option[value=perfect]'),
    'Perfect (no table: plays as Hard)',
  );
  for (const { id } of presets) {
    const rules = await (await fetch(`${env.server.url}api/rules/${id}`)).json();
    await L.playComputer(page, env.server.url, id);
    const drawn = await page.evaluate(() => ({
      squares: document.querySelectorAll('.board .sq').length,
      rosettes: document.querySelectorAll('.board .sq.rosette').length,
      glyphs: [...document.querySelectorAll('.board .sq.rosette .glyph')].every(
        (g) => g.textContent === '✸',
      ),
      starts: document.querySelectorAll('.board .start').length,
      badges: [...document.querySelectorAll('.board .sq .badge')]
        .map((b) => b.textContent)
        .sort()
        .join(' '),
      // Less the track of the square names (shown by default) beyond the last file.
      columns:
        getComputedStyle(document.querySelector('.board')).gridTemplateColumns.split(' ').length -
        (document.body.classList.contains('coords') ? 1 : 0),
      home: document.querySelector('[data-pile="home:1"]').querySelectorAll('.piece').length,
      rulesName: document.querySelector('.rules-name').textContent,
    }));
    const squares = rules.board.squares;
    assert.equal(drawn.squares, squares.length, `${id}: squares`);
    assert.equal(drawn.rosettes, squares.filter((s) => s.rosette).length, `${id}: rosettes`);
    assert.ok(drawn.glyphs, `${id}: rosettes are marked ✸`);
    assert.equal(drawn.columns, rules.board.files, `${id}: files`);
    assert.equal(drawn.rulesName, rules.name);
    // Seat 1 waits with every piece in its Home pile (it may already have entered one if it
    // threw first; the opening throw is the player's, so nothing has moved yet).
    assert.equal(drawn.home, rules.pieces, `${id}: the Home pile holds every piece`);
    if (id === 'boxed') {
      assert.equal(drawn.starts, 2, 'boxed: a start space S per seat');
      const expected = squares
        .map((s) =>
          s.special === 'forfeit' ? '⇄4' : s.special === 'double' ? '×2' : s.award ? '+S' : null,
        )
        .filter(Boolean)
        .sort()
        .join(' ');
      assert.equal(drawn.badges, expected, 'boxed: award, forfeit and doubling squares');
      await L.screenshot(page, 'board-boxed');
    } else {
      assert.equal(drawn.starts, 0, `${id}: no start space`);
    }
    if (id === 'aseb') await L.screenshot(page, 'board-aseb');
  }
  assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
  await P.context.close();
});
