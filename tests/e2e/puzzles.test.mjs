// Puzzles (docs/puzzles.md): the test solves Bell's table into the server's data directory and
// generates 40 puzzles from it with `ur puzzles generate` (fixed seed) before the server starts
// with --no-puzzles, so the puzzles are known and nothing changes under the test; their answers
// come from the generator's file. A newcomer reaches the puzzles from the first screen in one tap
// (the header's link, an icon on a phone), solves one and misses one on a phone held upright
// (390×844, touch) and on a laptop (1366×768): every move is then listed with its exact chance
// and the best move marked on the board; a streak runs until the first miss; the lobby shows the
// daily puzzle; an account sees its puzzle rating and history; and a player who made a mistake
// in a game against the computer (the move the explorer, exact from the table, values 5 points
// or more below the best) learns from it in the review and the match history. axe-core finds no
// serious problem, and nothing scrolls sideways at 360×640.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as L from './lib.mjs';

const env = { server: null, browser: null, dir: null, answers: new Map() };

before(async () => {
  const made = L.bellWithPuzzles('ur-e2e-puzzles-');
  env.dir = made.dir;
  for (const p of made.puzzles) env.answers.set(p.id, p);
  env.server = await L.startServer({
    dataDir: env.dir,
    idleTimeout: 120,
    botDelay: 20,
    extraArgs: ['--no-puzzles'],
  });
  env.browser = await L.launchBrowser();
});

after(async () => {
  await env.browser?.close();
  await env.server?.stop();
  if (env.dir) rmSync(env.dir, { recursive: true, force: true });
});

const fitsWidth = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

/**
 * Waits for the `n`th question of the screen `scope` (a guest may meet a puzzle again, so the
 * count, not the id, says a new one is shown); returns its generated answer.
 */
async function question(page, n = 1, scope = '.puzzles') {
  await page.waitForSelector(
    `${scope} .puzzle-solver[data-state=question][data-count="${n}"] .piece.legal`,
  );
  const id = await page.getAttribute('.puzzle-solver', 'data-puzzle');
  const p = env.answers.get(id);
  assert.ok(p, `puzzle ${id} is one of the generated ones`);
  return p;
}

/** Taps the piece of `move` ("FROM->TO"), as a player does. */
async function tapMove(page, move) {
  const [from, to] = move.split('->');
  await page.locator(`.piece.legal[data-from="${from}"][data-to="${to}"]`).click();
}

const wrongMove = (p) => p.moves.find((m) => m.move !== p.best).move;

/** Answers the puzzle on show, right or wrong; checks the answer; returns the puzzle. */
async function answer(page, right, n = 1) {
  const p = await question(page, n);
  await tapMove(page, right ? p.best : wrongMove(p));
  await page.waitForSelector(`.puzzle-solver[data-state=${right ? 'right' : 'wrong'}]`);
  // Every move with its exact chance, the best first and marked, and on the board.
  const items = await page.$$eval('.puzzle-moves li', (li) =>
    li.map((x) => ({ move: x.dataset.move, text: x.textContent })),
  );
  assert.equal(items.length, p.moves.length);
  assert.equal(items[0].move, p.best);
  for (const m of p.moves) {
    const item = items.find((i) => i.move === m.move);
    assert.ok(item.text.includes(`${(100 * m.value).toFixed(1)}% to win`), item.text);
  }
  assert.match(items[0].text, /★ best/);
  assert.match(await page.textContent('.puzzle-reason'), /^The best move is .+: .+\.$/);
  assert.ok(await page.$('.board .dest, .pile.dest'), 'the best move is shown on the board');
  return p;
}

for (const size of L.SIZES)
  test(`a guest solves and misses a puzzle on a ${size.name}`, { timeout: 120000 }, async () => {
    const P = await L.newPlayer(env.browser, { ...size, reducedMotion: 'reduce' });
    const page = P.page;
    await page.goto(env.server.url);
    // One tap from the first screen: the header's link (an icon with its name on a phone).
    const link = page.getByRole('link', { name: 'Puzzles', exact: true });
    await link.click();
    await page.waitForSelector('.puzzles h1');
    await answer(page, true);
    assert.equal(await page.textContent('.puzzle-prompt'), 'Right: the best move.');
    assert.match(await page.textContent('.puzzle-me'), /guest/);
    await L.screenshot(page, `puzzles-right-${size.name}`);
    await page.click('button[data-action=next-puzzle]');
    await answer(page, false, 2);
    assert.equal(await page.textContent('.puzzle-prompt'), 'Not the best move.');
    await L.screenshot(page, `puzzles-wrong-${size.name}`);
    assert.ok(await fitsWidth(page), 'no sideways scrolling');
    assert.deepEqual(await L.axeProblems(page, `puzzles (${size.name})`), []);
    assert.deepEqual(P.errors, []);
    await P.context.close();
  });

test(
  'a streak runs until the first miss, with filters in the address',
  { timeout: 120000 },
  async () => {
    const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
    const page = P.page;
    await page.goto(`${env.server.url}#/puzzles/streak?rules=bell`);
    await page.waitForSelector('.puzzle-streak');
    assert.equal(await page.textContent('.puzzle-streak'), 'Streak: 0');
    await answer(page, true, 1);
    assert.equal(await page.textContent('.puzzle-streak'), 'Streak: 1');
    await page.click('button[data-action=next-puzzle]');
    await answer(page, true, 2);
    assert.equal(await page.textContent('.puzzle-streak'), 'Streak: 2');
    await page.click('button[data-action=next-puzzle]');
    await answer(page, false, 3);
    assert.match(await page.textContent('.puzzle-streak'), /^Streak over: 2 solved in a row/);
    assert.equal(await page.textContent('button[data-action=next-puzzle]'), 'Start a new streak');
    await L.screenshot(page, 'puzzles-streak-over');
    await page.click('button[data-action=next-puzzle]');
    await question(page, 4);
    assert.equal(await page.textContent('.puzzle-streak'), 'Streak: 0');
    // A theme filter: every puzzle served has it.
    await page.selectOption('select[data-action=puzzle-theme]', 'entering');
    const p = await question(page, 1, '.puzzles[data-theme=entering]');
    assert.ok(p.themes.includes('entering'), p.themes.join());
    assert.deepEqual(P.errors, []);
    await P.context.close();
  },
);

test(
  'the lobby shows the daily puzzle; an account keeps a rating and history',
  { timeout: 120000 },
  async () => {
    const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
    const page = P.page;
    await L.register(page, env.server.url, 'solver1');
    const daily = await (
      await page.request.get(`${env.server.url}api/puzzles/daily?rules=bell`)
    ).json();
    await page.waitForSelector('.daily-puzzle:not([hidden])');
    assert.match(await page.textContent('.daily-puzzle'), /RC Bell .*rating \d+/);
    await L.screenshot(page, 'puzzles-lobby-daily');
    await page.click('a[data-action=daily-puzzle]');
    const p = await question(page);
    assert.equal(p.id, daily.puzzle.id, 'the day’s puzzle');
    assert.equal(await page.textContent('.puzzle-caption'), `The puzzle of ${daily.date}`);
    await tapMove(page, p.best);
    await page.waitForSelector('.puzzle-solver[data-state=right]');
    await page.waitForSelector('.puzzle-change');
    assert.match(await page.textContent('.puzzle-change'), /^Rating \+\d+$/);
    await page.waitForFunction(() =>
      /1 of 1 solved/.test(document.querySelector('.puzzle-me').textContent),
    );
    assert.equal(await page.$$eval('.puzzle-history li.solved', (li) => li.length), 1);
    await page.setViewportSize({ width: 360, height: 640 });
    assert.ok(await fitsWidth(page), 'no sideways scrolling at 360×640');
    // The header keeps room for the player's name: Puzzles and My games are icons there too.
    const who = await page.$eval('header .who', (el) => el.getBoundingClientRect().width);
    assert.ok(who >= 80, `the player's name in the header is ${who} px wide`);
    for (const name of ['Puzzles', 'My games'])
      assert.ok(await page.$(`header a[aria-label="${name}"]`), `the ${name} link`);
    await L.screenshot(page, 'puzzles-account-360');
    assert.deepEqual(P.errors, []);
    await P.context.close();
  },
);

/**
 * Plays Bell against the computer, always the move the explorer (exact, from the table) values
 * lowest, until one loses at least 5 points of winning chance (a mistake: docs/analysis.md), then
 * resigns: the game has exactly one mistake of light's. Bell offers few choices, so a game may
 * end before one such move: then another game is played (the dice decide how many, not time).
 */
async function playOneMistake(page) {
  for (let game = 0; game < 12; game++) {
    await L.playComputer(page, env.server.url, 'bell', 'beginner');
    for (;;) {
      const st = await L.myTurn(page);
      if (st.status === 'finished') break;
      if (st.legal < 2) {
        await L.clickTurn(page, st);
        continue;
      }
      const position = (await L.tableState(page)).position;
      const url = `${env.server.url}api/explore?rules=bell&position=${encodeURIComponent(position)}`;
      const a = await (await page.request.get(url)).json();
      assert.equal(a.estimate, false, 'exact from the table');
      const sorted = [...a.moves].sort((x, y) => y.value - x.value);
      const worst = sorted[sorted.length - 1];
      await page.locator(`.piece.legal[data-from="${worst.from}"][data-to="${worst.to}"]`).click();
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
      if (sorted[0].value - worst.value < 0.0501) continue;
      // The computer may have won at once; else resign (the button asks for a confirming click).
      if ((await L.myTurn(page)).status !== 'finished') {
        await page.click('button[data-action=resign]');
        await page.click('button[data-action=resign]');
      }
      await L.waitTable(page, (d) => d.status === 'finished');
      return /#\/table\/([0-9a-f]{16})/.exec(page.url())[1];
    }
  }
  assert.fail('twelve games of Bell without a move that loses 5 points');
}

test('learn from your mistakes, from the review and the history', { timeout: 300000 }, async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  await L.register(page, env.server.url, 'learner1');
  const id = await playOneMistake(page);
  await page.goto(`${env.server.url}#/replay/${id}`);
  const learn = page.locator('a[data-action=learn-mistakes][data-seat="1"]');
  await learn.waitFor();
  assert.match(await learn.textContent(), /learner1: learn from 1 mistake/);
  await learn.click();
  await page.waitForSelector('.mistakes .puzzle-solver[data-state=question] .piece.legal');
  assert.match(
    await page.textContent('.puzzle-caption'),
    /^You played .+ \(a (mistake|blunder)\): find better\.$/,
  );
  assert.equal(await page.textContent('.puzzle-status'), 'Mistake 1 of 1');
  await L.screenshot(page, 'mistakes-question');
  // The best move, from the explorer: the one the answer then names.
  const position = await page.evaluate(async (gid) => {
    const r = await fetch(`/api/games/${gid}/mistakes?seat=1`);
    return (await r.json()).mistakes[0].position;
  }, id);
  const url = `${env.server.url}api/explore?rules=bell&position=${encodeURIComponent(position)}`;
  const best = (await (await page.request.get(url)).json()).moves.find((m) => m.best);
  await page.locator(`.piece.legal[data-from="${best.from}"][data-to="${best.to}"]`).click();
  await page.waitForSelector('.mistakes .puzzle-solver[data-state=right]');
  assert.ok(await page.$('.puzzle-move.best'));
  await L.screenshot(page, 'mistakes-right');
  assert.deepEqual(await L.axeProblems(page, 'mistakes'), []);
  await page.click('button[data-action=next-puzzle]');
  await page.waitForSelector('.mistakes .puzzle-empty a[data-action=to-review]');
  assert.match(await page.textContent('.mistakes .puzzle-empty'), /Done: 1 of 1 found/);
  // The same from the match history.
  await page.goto(`${env.server.url}#/history/learner1`);
  await page.click(`tr[data-game="${id}"] a[data-action=learn-mistakes]`);
  await page.waitForSelector('.mistakes .puzzle-solver[data-state=question] .piece.legal');
  assert.deepEqual(P.errors, []);
  await P.context.close();
});
