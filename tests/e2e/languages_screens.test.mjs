// Languages on the screens beyond the table (issue 30): the lobby's main card, a finished game's
// replay and review, the analysis board, the how-to-play page and the puzzles, visited in German
// and in Arabic (right to left) on a 360×640 phone, in Dutch and Spanish at 390×844 and in French
// at 1366×768. On each: the page speaks the language (none of the English texts those screens used
// to show is left in the page's main part), nothing scrolls sideways, axe-core finds nothing
// serious, and a screenshot is left in build/screenshots (language-<code>-<screen>-<size>.png). Bell's table is solved before the server starts, so
// the review is exact and the puzzles (40, generated with a fixed seed) are there.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as L from './lib.mjs';

const env = { server: null, browser: null, dir: null };

before(async () => {
  env.dir = L.bellWithPuzzles('ur-e2e-languages-').dir;
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

/** English texts these screens showed before they were translated: none may be left. */
const ENGLISH = [
  'The Royal Game of Ur',
  'How to play',
  'Daily puzzle',
  'Replay',
  'Review key moves',
  'Chances at this position',
  'to win',
  'step by step',
  'Explore from here',
  'Share or download',
  'Analysis board',
  'Set up a position',
  'Start position',
  'The goal',
  'The path',
  'The dice',
  'marked tip',
  'Rosettes',
  'Find the best move',
  'Any theme',
  'Every move',
  'The best move is',
  'Next puzzle',
  'accuracy',
  'luck',
  'Light',
  'Dark',
];

/** The checks every screen gets; returns the problems found. */
async function check(page, lang, size, screen) {
  await L.sleep(300);
  const problems = [];
  const html = await page.evaluate(() => document.documentElement.lang);
  if (html !== lang) problems.push(`${screen}: <html lang=${html}>`);
  const text = await page.$eval('main', (m) => m.innerText);
  for (const words of ENGLISH)
    if (text.includes(words)) problems.push(`${screen}: English left: "${words}"`);
  const wide = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  if (wide > 0) problems.push(`${screen}: ${wide} px wider than the screen`);
  problems.push(...(await L.axeProblems(page, `${lang} ${screen}`)));
  await L.screenshot(page, `language-${lang}-${screen}-${size}`);
  return problems;
}

/** A finished Bell game against the computer: a few turns, then resigned. Returns its id. */
async function finishedGame(page, base) {
  await L.playComputer(page, base, 'bell');
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  for (let i = 0; i < 16; i++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    await L.clickTurn(page, st);
  }
  if ((await L.tableState(page)).status !== 'finished') {
    await page.click('button[data-action=resign]');
    await page.click('button[data-action=resign]');
  }
  await page.waitForSelector('.banner');
  return id;
}

const PHONE = { hasTouch: true, isMobile: true };
const RUNS = [
  ['de', 'de-DE', { width: 360, height: 640 }, PHONE],
  ['ar', 'ar-EG', { width: 360, height: 640 }, PHONE],
  ['nl', 'nl-NL', { width: 390, height: 844 }, PHONE],
  ['es', 'es-ES', { width: 390, height: 844 }, PHONE],
  ['fr', 'fr-FR', { width: 1366, height: 768 }, {}],
];

for (const [lang, locale, viewport, device] of RUNS) {
  const size = `${viewport.width}x${viewport.height}`;
  test(
    `${lang}: lobby, replay and review, explorer, how to play and puzzles at ${size}`,
    { timeout: 240000 },
    async () => {
      const P = await L.newPlayer(env.browser, {
        locale,
        viewport,
        ...device,
        reducedMotion: 'reduce',
      });
      const page = P.page;
      const base = env.server.url;
      const problems = [];
      await page.goto(base);
      await page.waitForSelector('.lobby .daily-puzzle:not([hidden]) .daily-line:not(:empty)');
      assert.equal(
        await page.evaluate(() => document.documentElement.dir),
        lang === 'ar' ? 'rtl' : 'ltr',
      );
      problems.push(...(await check(page, lang, size, 'lobby')));

      const id = await finishedGame(page, base);
      await page.goto(`${base}#/replay/${id}`);
      await page.waitForSelector('.review .win-graph polyline');
      await page.waitForSelector('.replay-list li');
      problems.push(...(await check(page, lang, size, 'review')));
      if (await page.isEnabled('button[data-action=key-start]')) {
        await page.click('button[data-action=key-start]');
        await page.waitForSelector('.key-text:not(:empty)');
        problems.push(...(await check(page, lang, size, 'review-key-move')));
      }

      await page.goto(`${base}#/explore?rules=bell&position=start`);
      await page.click('.explore-throw-row button[data-action=throw]');
      await page.waitForSelector('.explore-list .explore-move');
      problems.push(...(await check(page, lang, size, 'explore')));
      await page.click('button[data-action=setup]');
      await page.waitForSelector('.setup-panel:not([hidden])');
      problems.push(...(await check(page, lang, size, 'explore-setup')));

      await page.goto(`${base}#/rules/bell`);
      await page.waitForSelector('.howto-section');
      problems.push(...(await check(page, lang, size, 'howto')));

      await page.goto(`${base}#/puzzles?rules=bell`);
      await page.waitForSelector('.puzzle-solver[data-state=question] .piece.legal');
      problems.push(...(await check(page, lang, size, 'puzzle')));
      await page.locator('.puzzle-solver .piece.legal').first().click();
      await page.waitForSelector(
        '.puzzle-solver[data-state=right], .puzzle-solver[data-state=wrong]',
      );
      await page.waitForSelector('.puzzle-reason');
      problems.push(...(await check(page, lang, size, 'puzzle-answer')));

      assert.deepEqual(problems, []);
      assert.deepEqual(P.errors, [], 'a clean console');
      await P.context.close();
    },
  );
}
