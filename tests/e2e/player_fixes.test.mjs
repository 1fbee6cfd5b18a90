// Smaller things players met (issue 25, item 6), in the browser: an error toast stays with the
// screen it was met on; a stale register error goes with the next attempt; "How to play" at a
// table opens over the table (the game and its clock stay); the level menu fits its card on a
// phone; the sides have one name (light and dark) in the lobby.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

test('an error toast does not follow the player to the next screen', async () => {
  const P = await L.newPlayer(env.browser);
  const page = P.page;
  // The server fails the rule sets once: the lobby says so in a toast.
  let failed = false;
  await page.route('**/api/rules', (route) => {
    if (failed) return route.continue();
    failed = true;
    return route.fulfill({ status: 503, contentType: 'application/json', body: '{}' });
  });
  await page.goto(env.server.url);
  await page.waitForSelector('.toast.warn');
  assert.match(await page.textContent('.toast.warn'), /Could not load the rule sets/);
  await page.goto(`${env.server.url}#/leaderboard`);
  await page.waitForSelector('main.screen-leaderboard');
  assert.equal(await page.$('.toast.warn'), null, 'the lobby’s error is gone');
  await P.context.close();
});

test('a register error is cleared by the next attempt', async () => {
  const P = await L.newPlayer(env.browser);
  const page = P.page;
  await L.register(page, env.server.url, 'taken_name');
  await page.evaluate(() =>
    fetch('/api/logout', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    }),
  );
  await page.context().clearCookies();
  await page.goto(`${env.server.url}#/login`);
  await page.reload();
  const form = page.locator('form[data-form="create-account"]');
  await form.locator('input[name=username]').fill('taken_name');
  await form.locator('input[name=password]').fill('another password 9');
  await form.locator('button[type=submit]').click();
  await page.waitForFunction(
    () => document.querySelector('form[data-form="create-account"] .form-error')?.textContent,
  );
  // The next attempt, stopped by the browser's own check (too short a name): no stale words.
  await form.locator('input[name=username]').fill('ab');
  await form.locator('button[type=submit]').click();
  assert.equal(await form.locator('.form-error').textContent(), '');
  await P.context.close();
});

test('How to play at the table opens over it; the game stays', async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  await page.goto(env.server.url);
  await page.click('button[data-action=play-now]');
  await L.waitTable(page, (d) => d.status === 'playing');
  const url = page.url();
  await page.click('.table-bar .howto-link');
  await page.waitForSelector('.howto-overlay .howto-section');
  assert.equal(page.url(), url, 'still at the table');
  assert.match(await page.textContent('.howto-overlay h1'), /How to play — Finkel/);
  assert.ok(await page.$('.table-page .board'), 'the table is under the overlay');
  const boardInside = () =>
    page.evaluate(() => {
      const d = document.querySelector('.howto-overlay').getBoundingClientRect();
      const b = document.querySelector('.howto-overlay .board').getBoundingClientRect();
      return b.left >= d.left && b.right <= d.right;
    });
  assert.ok(await boardInside(), 'the board fits the overlay');
  await L.screenshot(page, 'howto-overlay');
  await page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await boardInside(), 'the board fits the overlay on a phone');
  await L.screenshot(page, 'howto-overlay-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.keyboard.press('Escape');
  assert.equal(await page.$('.howto-overlay'), null, 'Escape closes it');
  await page.click('.table-bar .howto-link');
  await page.click('button[data-action=close-howto]');
  assert.equal(await page.$('.howto-overlay'), null, 'Close closes it');
  assert.equal((await L.tableState(page)).status, 'playing');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test('the level menu fits its card on a phone; the sides are light and dark', async () => {
  const P = await L.newPlayer(env.browser, {
    viewport: { width: 360, height: 640 },
    hasTouch: true,
    isMobile: true,
  });
  const page = P.page;
  await page.goto(env.server.url);
  await L.moreOptions(page);
  await page.waitForSelector('select[name=level] option[value=perfect]', { state: 'attached' });
  const fit = await page.$eval('select[name=level]', (s) => {
    const card = s.closest('.block').getBoundingClientRect();
    const r = s.getBoundingClientRect();
    return {
      inside: r.left >= card.left && r.right <= card.right + 0.5,
      r: r.right,
      card: card.right,
    };
  });
  assert.ok(fit.inside, `the level menu inside its card: ${JSON.stringify(fit)}`);
  const seats = await page.$$eval('select[name=bot-seat] option', (o) =>
    o.map((x) => x.textContent),
  );
  assert.deepEqual(seats, ['You play light (rose)', 'You play dark (sky)']);
  const names = await page.$$eval('input.pp-name', (i) => i.map((x) => x.placeholder));
  assert.deepEqual(names, ['Light', 'Dark']);
  await L.screenshot(page, 'lobby-levels-phone');
  await P.context.close();
});
