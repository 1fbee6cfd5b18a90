// Dark mode (issue 25): the page follows the system's colours (prefers-color-scheme) and the
// settings switch them (as the system, light, dark); the high-contrast board stays. axe-core finds
// no serious or critical problem on any page in either theme.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

const isDark = (page) => page.evaluate(() => document.documentElement.classList.contains('dark'));
/** Waits until the page is dark (or light); true then (a timeout fails the test). */
const turns = async (page, dark) => {
  await page.waitForFunction(
    (d) => document.documentElement.classList.contains('dark') === d,
    dark,
  );
  return dark;
};

test('the theme follows the system and the settings', async () => {
  const P = await L.newPlayer(env.browser);
  const page = P.page;
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(env.server.url);
  await page.waitForSelector('button[data-action=play-now]');
  assert.equal(await isDark(page), true, 'dark, as the system');
  const bg = await page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
  assert.equal(bg, 'rgb(23, 19, 15)');
  await page.emulateMedia({ colorScheme: 'light' });
  assert.equal(await turns(page, false), false, 'the system turned light: so does the page');
  // Chosen in the settings: dark whatever the system says, remembered across a reload.
  await page.click('button[data-action=settings]');
  await page.selectOption('.settings select[name=theme]', 'dark');
  assert.equal(await turns(page, true), true);
  await page.click('button[data-action=close-settings]');
  await page.reload();
  await page.waitForSelector('button[data-action=play-now]');
  assert.equal(await isDark(page), true, 'remembered');
  await page.click('button[data-action=settings]');
  await page.selectOption('.settings select[name=theme]', 'light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await L.sleep(300);
  assert.equal(await isDark(page), false, 'light chosen: the system’s dark is not followed');
  await P.context.close();
});

test(
  'every page in both themes: no serious accessibility problem',
  { timeout: 240000 },
  async () => {
    const P = await L.newPlayer(env.browser, {
      viewport: { width: 1366, height: 768 },
      reducedMotion: 'reduce',
    });
    const page = P.page;
    const base = env.server.url;
    await L.register(page, base, 'night_owl');
    await page.click('button[data-action=play-now]');
    await L.waitTable(page, (d) => d.status === 'playing');
    for (let i = 0; i < 4; i++) await L.clickTurn(page, await L.myTurn(page));
    const id = await page.$eval('.table-page', (el) => el.dataset.table);
    const problems = [];
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      const check = async (name) => {
        assert.equal(await isDark(page), scheme === 'dark', `${name} in ${scheme}`);
        problems.push(...(await L.axeProblems(page, `${name} (${scheme})`)));
        await L.screenshot(page, `theme-${scheme}-${name}`);
      };
      await page.goto(`${base}#/table/${id}`);
      await L.myTurn(page);
      await check('table');
      await page.click('button[data-action=settings]');
      await page.check('.settings input[name=contrast]');
      await check('settings-contrast');
      await page.uncheck('.settings input[name=contrast]');
      await page.click('button[data-action=close-settings]');
      const pages = [
        ['lobby', '#/lobby', 'button[data-action=play-now]'],
        ['leaderboard', '#/leaderboard', 'main table'],
        ['howto', '#/rules/finkel', '.howto-section'],
        ['explore', '#/explore?rules=finkel&position=start', '.explore-throw-row button'],
        ['not_found', '#/nowhere', 'main h1'],
      ];
      for (const [name, hash, sel] of pages) {
        await page.goto(`${base}${hash}`);
        await page.waitForSelector(sel);
        await check(name);
      }
    }
    // The finished game: banner, replay with its review, history; then the login page.
    await page.goto(`${base}#/table/${id}`);
    await L.myTurn(page);
    // Resign: the button asks, a second click confirms.
    await page.click('button[data-action=resign]');
    await page.waitForSelector('button[data-action=resign][data-confirm="1"]');
    await page.click('button[data-action=resign]');
    await page.waitForSelector('.banner');
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base}#/table/${id}`);
      await page.waitForSelector('.banner');
      problems.push(...(await L.axeProblems(page, `banner (${scheme})`)));
      await L.screenshot(page, `theme-${scheme}-banner`);
      await page.goto(`${base}#/replay/${id}`);
      await page.waitForSelector('.replay-host.reviewed .win-graph polyline');
      problems.push(...(await L.axeProblems(page, `replay (${scheme})`)));
      await L.screenshot(page, `theme-${scheme}-replay`);
      await page.goto(`${base}#/history/night_owl`);
      await page.waitForSelector(`tr[data-game="${id}"]`);
      problems.push(...(await L.axeProblems(page, `history (${scheme})`)));
    }
    await page.evaluate(() =>
      fetch('/api/logout', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      }),
    );
    for (const scheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme: scheme });
      await page.goto(`${base}#/login`);
      await page.reload();
      await page.waitForSelector('.auth-grid');
      problems.push(...(await L.axeProblems(page, `login (${scheme})`)));
    }
    assert.deepEqual(problems, [], 'no serious or critical accessibility violation');
    assert.deepEqual(P.errors, [], 'a clean console');
    await P.context.close();
  },
);
