// Languages on the screens beyond the table (issue 30): the lobby's main card, a finished game's
// replay and review (exact, and estimated by search with the server's note in words), the
// analysis board, the how-to-play page and the puzzles, in every language the client speaks and
// at 360×640, 390×844 and 1366×768. Each screen is visited once per language and looked at in the
// three sizes on the same page (layout_checks.mjs): the page speaks the language (none of the
// English texts those screens used to show is left in the page's main part), nothing scrolls
// sideways or is cut off, axe-core finds nothing serious, and a screenshot is left in
// build/screenshots (language-<code>-<screen>-<size>.png). Bell's table is solved before the
// server starts, so that review is exact and the puzzles (40, generated with a fixed seed) are
// there; Finkel has no table, so its review is an estimate with a note.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, before, test } from 'node:test';
import * as L from './lib.mjs';
import { LANGUAGES, lookAtSizes } from './layout_checks.mjs';

const env = { server: null, browser: null, dir: null, exact: null, estimated: null };

before(async () => {
  env.dir = L.bellWithPuzzles('ur-e2e-languages-').dir;
  env.server = await L.startServer({
    dataDir: env.dir,
    idleTimeout: 120,
    botDelay: 20,
    extraArgs: ['--no-puzzles'],
  });
  env.browser = await L.launchBrowser();
  // The two finished games every language looks at, played once (a replay is anyone's to see).
  const P = await L.newPlayer(env.browser, { locale: 'de-DE', reducedMotion: 'reduce' });
  env.exact = await finishedGame(P.page, env.server.url, 'bell', 16);
  // The computer's seat is named from its level in the page's language, not in the server's words.
  assert.equal(
    await P.page.textContent('.table-page .seat-box.s2 .seat-name'),
    'Computer (Anfänger)',
  );
  env.estimated = await finishedGame(P.page, env.server.url, 'finkel', 0);
  assert.deepEqual(P.errors, []);
  await P.context.close();
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
  'Computer (beginner)',
  'this server has not solved',
  ': resign',
];

/**
 * The computer seat and the review's note in each language: what the replay must say (the
 * server sends "Computer (beginner)" and "this server has not solved this rule set yet: …").
 */
const WORDS = {
  en: { computer: 'Computer (Beginner)', note: 'This server has not solved' },
  de: { computer: 'Computer (Anfänger)', note: 'Dieser Server hat' },
  nl: { computer: 'Computer (Beginner)', note: 'Deze server heeft' },
  fr: { computer: 'Ordinateur (Débutant)', note: 'Ce serveur n’a pas' },
  es: { computer: 'Ordenador (Principiante)', note: 'Este servidor aún no' },
  ar: { computer: 'الحاسوب (مبتدئ)', note: 'لم يحلّ هذا الخادم' },
};

/** A finished game against the computer: `turns` actions, then resigned. Returns its id. */
async function finishedGame(page, base, rules, turns) {
  await L.playComputer(page, base, rules);
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  for (let i = 0; i < turns; i++) {
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

/** The page's language and no English left in its main part. */
async function speaks(page, lang) {
  const problems = [];
  const html = await page.evaluate(() => document.documentElement.lang);
  if (html !== lang) problems.push(`<html lang=${html}>`);
  if (lang === 'en') return problems;
  const text = await page.$eval('main', (m) => m.innerText);
  for (const words of ENGLISH) if (text.includes(words)) problems.push(`English left: "${words}"`);
  return problems;
}

for (const [lang, locale] of LANGUAGES) {
  test(
    `${lang}: lobby, replay and review, explorer, how to play and puzzles at every size`,
    { timeout: 240000 },
    async () => {
      const P = await L.newPlayer(env.browser, { locale, reducedMotion: 'reduce' });
      const page = P.page;
      const base = env.server.url;
      const problems = [];
      const look = async (screen, options) => {
        problems.push(...(await speaks(page, lang)).map((p) => `${lang} ${screen}: ${p}`));
        problems.push(...(await lookAtSizes(page, lang, screen, options)));
      };
      await page.goto(base);
      await page.waitForSelector('.lobby .daily-puzzle:not([hidden]) .daily-line:not(:empty)');
      assert.equal(
        await page.evaluate(() => document.documentElement.dir),
        lang === 'ar' ? 'rtl' : 'ltr',
      );
      await look('lobby');

      await page.goto(`${base}#/replay/${env.exact}`);
      await page.waitForSelector('.review .win-graph polyline');
      await page.waitForSelector('.replay-list li');
      assert.equal(
        await page.textContent('.replay-host .seat-box.s2 .seat-name'),
        WORDS[lang].computer,
      );
      await look('review');
      if (await page.isEnabled('button[data-action=key-start]')) {
        await page.click('button[data-action=key-start]');
        await page.waitForSelector('.key-text:not(:empty)');
        await look('review-key-move');
      }

      await page.goto(`${base}#/replay/${env.estimated}`);
      await page.waitForSelector('.review .review-estimate');
      const note = await page.textContent('.review .review-estimate');
      assert.ok(note.includes(WORDS[lang].note), `${lang}: the estimate's note: ${note}`);
      await look('review-estimate', { axe: false });

      await page.goto(`${base}#/explore?rules=bell&position=start`);
      await page.click('.explore-throw-row button[data-action=throw]');
      await page.waitForSelector('.explore-list .explore-move');
      await look('explore');
      await page.click('button[data-action=setup]');
      await page.waitForSelector('.setup-panel:not([hidden])');
      await look('explore-setup');

      await page.goto(`${base}#/rules/bell`);
      await page.waitForSelector('.howto-section');
      await look('howto');

      await page.goto(`${base}#/puzzles?rules=bell`);
      await page.waitForSelector('.puzzle-solver[data-state=question] .piece.legal');
      await look('puzzle');
      await page.locator('.puzzle-solver .piece.legal').first().click();
      await page.waitForSelector(
        '.puzzle-solver[data-state=right], .puzzle-solver[data-state=wrong]',
      );
      await page.waitForSelector('.puzzle-reason');
      await look('puzzle-answer');

      assert.deepEqual(problems, [], problems.join('\n'));
      assert.deepEqual(P.errors, [], 'a clean console');
      await P.context.close();
    },
  );
}
