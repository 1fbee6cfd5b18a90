// A rematch between two people, in two browser contexts. alice and bob play a rated game that
// bob resigns; the header's game count follows without a reload. alice offers a rematch, bob sees
// the offer on his banner and declines, alice offers again and bob accepts: both pages move to a
// new table with the colours swapped. alice goes to the lobby mid-game and bob resigns: her
// header counts the second game without a reload. When she leaves the finished table, bob's
// banner says so and offers no rematch. carol watches: she is offered no rematch of a game she did
// not play, and once the rematch starts her banner takes her to it. The console stays clean.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60 });

const games = async (page) => L.plain(await page.getAttribute('header .who', 'title'));
/** The header's "2 rated games, 1 win" in LANG. */
const record = (games, wins) =>
  L.t('nav.record', {
    games: L.t('nav.games', { count: games }),
    wins: L.t('nav.wins', { count: wins }),
  });
const counted = (page, g, w) =>
  L.waitText(page, 'header .who', L.exactly(record(g, w)), { attribute: 'title' });

test('a rematch offered, declined, offered again and accepted', { timeout: 180000 }, async () => {
  const opts = { reducedMotion: 'reduce', viewport: { width: 1366, height: 768 } };
  const A = await L.newPlayer(env.browser, opts);
  const B = await L.newPlayer(env.browser, opts);
  const base = env.server.url;
  await L.register(A.page, base, 'alice');
  await L.register(B.page, base, 'bob');
  assert.equal(await games(A.page), record(0, 0));

  // A public rated table; bob joins through the invite link, carol (a guest) watches.
  await L.moreOptions(A.page);
  await A.page.selectOption('select[name=visibility]', 'public');
  await A.page.click('button[data-action=create-table]');
  const invite = A.page.locator('input.invite-link');
  await invite.waitFor({ state: 'visible' });
  const link = await invite.inputValue();
  await B.page.goto(link);
  await L.waitTable(B.page, (d) => d.status === 'playing' && d.you === '2');
  await L.waitTable(A.page, (d) => d.status === 'playing' && d.you === '1');
  const first = await A.page.$eval('.table-page', (el) => el.dataset.table);
  const C = await L.newGuest(env.browser, base, opts);
  await C.page.goto(`${base}#/table/${first}`);
  await L.waitTable(C.page, (d) => d.role === 'spectator' && d.status === 'playing');

  // bob resigns (a second click confirms).
  await B.page.click('button[data-action=resign]');
  await B.page.click('button[data-action=resign]');
  for (const p of [A.page, B.page]) await p.waitForSelector('.banner');
  assert.equal(await L.text(A.page, '.banner-title'), L.t('log.win.you'));
  // The header counts the game without a reload.
  await counted(A.page, 1, 1);
  await counted(B.page, 1, 0);
  assert.match(await L.text(A.page, '.banner-rematch'), L.tRe('rematch.offer', { name: 'bob' }));
  // carol, who did not play, is offered no rematch: a game of her own.
  await C.page.waitForSelector('button[data-action=play-yourself]');
  assert.equal(await C.page.isVisible('button[data-action=play-again]'), false);

  // alice offers; bob sees it and declines.
  await A.page.click('button[data-action=play-again]');
  await L.waitText(A.page, '.banner-rematch', L.tRe('rematch.waiting', { name: 'bob' }));
  assert.equal(await A.page.isVisible('button[data-action=play-again]'), false);
  await B.page.waitForSelector('button[data-action=accept-rematch]');
  assert.match(
    await L.text(B.page, '.banner-rematch'),
    L.tRe('rematch.offered', { name: 'alice' }),
  );
  await L.screenshot(B.page, 'rematch-offer-laptop');
  const { violations } = await new AxeBuilder({ page: B.page }).analyze();
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    bad.map((v) => v.id),
    [],
    'axe: the banner with an offer',
  );
  await B.page.click('button[data-action=decline-rematch]');
  await L.waitText(A.page, '.banner-rematch', L.tRe('rematch.declined', { name: 'bob' }));
  await B.page.waitForSelector('button[data-action=play-again]');

  // Offered again (bob had closed his banner: the offer opens it again) and accepted.
  await B.page.click('button[data-action=close-banner]');
  await A.page.click('button[data-action=play-again]');
  await B.page.waitForSelector('button[data-action=accept-rematch]');
  await B.page.click('button[data-action=accept-rematch]');
  await L.waitTable(
    A.page,
    (d, id) => d.table !== id && d.status === 'playing' && d.you === '2',
    first,
  );
  await L.waitTable(
    B.page,
    (d, id) => d.table !== id && d.status === 'playing' && d.you === '1',
    first,
  );
  const second = await A.page.$eval('.table-page', (el) => el.dataset.table);
  // carol's banner now offers the rematch to watch, and takes her there as a spectator.
  await C.page.click('button[data-action=watch-rematch]');
  await L.waitTable(C.page, (d, id) => d.table === id && d.role === 'spectator', second);
  assert.deepEqual(C.errors, [], 'a clean console (spectator)');
  await C.context.close();
  assert.equal(await B.page.$eval('.table-page', (el) => el.dataset.table), second);
  assert.match(await A.page.textContent('.seat-box.s1 .seat-name'), /bob/);
  assert.equal(
    await L.text(A.page, '.seat-box.s2 .seat-name'),
    `${L.t('table.youPrefix')} (alice)`,
  );
  assert.match(await L.text(A.page, '.table-status'), L.tRe('table.rated'));
  // The seat cards show the ratings the first game produced.
  assert.match(await A.page.textContent('.seat-box.s2 .seat-extra'), /1220/);
  assert.match(await A.page.textContent('.seat-box.s1 .seat-extra'), /1180/);
  await L.screenshot(A.page, 'rematch-table-laptop');

  // A move, then alice goes to the lobby with the game still on, and bob resigns it there: the
  // lobby's header counts the game without a reload.
  const st = await L.myTurn(B.page);
  await L.clickTurn(B.page, st);
  await A.page.click('header nav a[href="#/lobby"]');
  await A.page.waitForSelector('.lobby');
  await B.page.click('button[data-action=resign]');
  await B.page.click('button[data-action=resign]');
  await B.page.waitForSelector('.banner');
  assert.equal(await L.text(B.page, '.banner-title'), L.t('banner.youLose'));
  await counted(A.page, 2, 2);
  // alice comes back to the finished table and leaves it: bob's banner says so, no rematch.
  await A.page.goBack();
  await A.page.waitForSelector('.banner');
  assert.equal(await L.text(A.page, '.banner-title'), L.t('log.win.you'));
  await A.page.click('button[data-action=leave]');
  await A.page.waitForSelector('.lobby');
  await L.waitText(B.page, '.banner-rematch', L.tRe('rematch.left', { name: 'alice' }));
  assert.equal(await B.page.isVisible('button[data-action=play-again]'), false);

  for (const p of [A, B]) assert.deepEqual(p.errors, [], 'a clean console');
  for (const p of [A, B]) await p.context.close();
});
