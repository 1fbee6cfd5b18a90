// Who sees what at a table (issue 25): a public table says so on a phone too; a dead or wrong
// invite offers no Resign and no Leave to someone without a seat, and a closed table says it
// closed; a finished private game opened by its link shows the game, not an error or a login;
// the quick messages fit a phone's table without scrolling; a Resign works after many visits to
// the table without a reload; a game without a decision shows no accuracy (banner, review,
// history, profile).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Creates "A table for a friend" from the lobby; resolves with the table id and invite link. */
async function friendTable(page, visibility) {
  await page.goto(`${env.server.url}#/lobby`);
  await L.moreOptions(page);
  await page.selectOption('select[name=visibility]', visibility);
  await page.click('button[data-action=create-table]');
  await L.waitTable(page, (d) => d.status === 'waiting');
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  const link = await page.locator('input.invite-link').inputValue();
  return { id, link };
}

const shown = (page, sel) =>
  page.$eval(sel, (el) => el.checkVisibility() && el.getBoundingClientRect().width > 0);

test('a public table says so on a phone, upright and sideways, and in the lobby', async () => {
  const P = await L.newGuest(env.browser, env.server.url, PHONE);
  const page = P.page;
  const { id } = await friendTable(page, 'public');
  assert.ok(await shown(page, '.table-bar .public-badge'), 'the phone shows "Public"');
  assert.equal(await L.text(page, '.table-bar .public-badge'), L.t('table.publicBadge'));
  await L.screenshot(page, 'public-badge-phone');
  await page.setViewportSize({ width: 844, height: 390 });
  assert.ok(await shown(page, '.table-bar .public-badge'), 'and in landscape');
  await page.setViewportSize({ width: 1366, height: 768 });
  assert.match(await L.text(page, '.table-bar .table-status'), L.tRe('table.public'));
  assert.ok(await shown(page, '.table-bar .table-status'), 'the wide bar says it in its badge');
  assert.equal(await shown(page, '.table-bar .public-badge'), false, 'once only');
  await page.setViewportSize(PHONE.viewport);
  // The lobby's list, on the phone: the table is there under "Public tables".
  await page.goto(`${env.server.url}#/lobby`);
  await page.waitForSelector(`.tables tr[data-table="${id}"]`);
  assert.ok(await shown(page, `.tables tr[data-table="${id}"]`));
  assert.match(await L.text(page, '.tables h2'), L.tRe('lobby.publicTables'));
  // A private table has no such badge.
  await friendTable(page, 'private');
  assert.equal(await shown(page, '.table-bar .public-badge'), false);
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test('a wrong or dead invite offers no Resign and no Leave; a closed table says so', async () => {
  const A = await L.newGuest(env.browser, env.server.url);
  const { id, link } = await friendTable(A.page, 'private');
  const B = await L.newGuest(env.browser, env.server.url, PHONE);
  // A wrong token on a private table.
  await B.page.goto(link.replace(/invite=[0-9a-f]+/, 'invite=00ff00ff00ff00ff'));
  await B.page.waitForSelector('.table-page.failed');
  for (const action of ['resign', 'leave', 'visibility'])
    assert.equal(await shown(B.page, `button[data-action=${action}]`), false, action);
  // The owner leaves the waiting table: it closes, and the invite says that.
  await A.page.click('button[data-action=leave]');
  await A.page.waitForSelector('main.screen-lobby');
  await B.page.goto(`${env.server.url}#/lobby`);
  await B.page.goto(link);
  await B.page.waitForSelector('.table-page.failed');
  const said = await L.text(B.page, '.table-page');
  assert.match(said, L.tRe('table.error.closed'), said);
  assert.doesNotMatch(said, L.tRe('table.error.full'), said);
  assert.equal(await shown(B.page, 'button[data-action=resign]'), false);
  assert.equal(await shown(B.page, 'button[data-action=leave]'), false);
  await L.screenshot(B.page, 'dead-invite-phone');
  await A.context.close();
  await B.context.close();
});

test('a finished private game opened by its link shows the game', async () => {
  const A = await L.newGuest(env.browser, env.server.url, { reducedMotion: 'reduce' });
  const { id, link } = await friendTable(A.page, 'private');
  const B = await L.newGuest(env.browser, env.server.url, { reducedMotion: 'reduce' });
  await B.page.goto(link);
  await L.waitTable(B.page, (d) => d.status === 'playing');
  await L.waitTable(A.page, (d) => d.status === 'playing');
  await A.page.click('button[data-action=resign]');
  await A.page.click('button[data-action=resign]');
  await A.page.waitForSelector('.banner');
  // A player of it, by the table's address and by the invite link: the finished table, no error.
  for (const address of [`${env.server.url}#/table/${id}`, link]) {
    await B.page.goto(`${env.server.url}#/lobby`);
    await B.page.goto(address);
    await B.page.waitForSelector('.table-page .banner');
    assert.equal(await B.page.$('.toast.warn'), null, address);
  }
  // A fresh visitor (no account, no guest): the replay, neither a login nor an error.
  for (const address of [`${env.server.url}#/table/${id}`, link]) {
    const V = await L.newPlayer(env.browser, PHONE);
    await V.page.goto(address);
    await V.page.waitForSelector('.replay-host');
    assert.equal(V.page.url(), `${env.server.url}#/replay/${id}`);
    assert.equal(await V.page.$('.auth-grid'), null, 'no login wall');
    assert.equal(await V.page.$('.table-page.failed'), null);
    assert.deepEqual(V.errors, [], 'a clean console');
    await V.context.close();
  }
  await A.context.close();
  await B.context.close();
});

test('Resign works after many visits to the table by address, without a reload', async () => {
  const P = await L.newPlayer(env.browser, {
    viewport: { width: 1366, height: 768 },
    reducedMotion: 'reduce',
  });
  const page = P.page;
  const base = env.server.url;
  await L.register(page, base, 'wanderer');
  await page.click('button[data-action=play-now]');
  await L.waitTable(page, (d) => d.status === 'playing');
  for (let i = 0; i < 2; i++) await L.clickTurn(page, await L.myTurn(page));
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  for (let round = 0; round < 2; round++) {
    for (const [hash, sel] of [
      [`#/table/${id}`, '.table-page:not(.loading)'],
      ['#/lobby', 'button[data-action=play-now]'],
      [`#/table/${id}`, '.table-page:not(.loading)'],
      ['#/leaderboard', 'main table'],
      ['#/rules/finkel', '.howto-section'],
      ['#/explore?rules=finkel&position=start', '.explore-throw-row button'],
      ['#/nowhere', 'main h1'],
    ]) {
      await page.goto(`${base}${hash}`);
      await page.waitForSelector(sel);
    }
  }
  await page.goto(`${base}#/table/${id}`);
  await L.myTurn(page);
  await page.click('button[data-action=resign]');
  await page.waitForSelector('button[data-action=resign][data-confirm="1"]');
  await page.click('button[data-action=resign]');
  await page.waitForSelector('.banner');
  assert.equal((await L.tableState(page)).status, 'finished');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test('the quick messages fit the phone table, upright and sideways, without scrolling', async () => {
  const A = await L.newGuest(env.browser, env.server.url, PHONE);
  const { link } = await friendTable(A.page, 'private');
  const B = await L.newGuest(env.browser, env.server.url);
  await B.page.goto(link);
  await L.waitTable(B.page, (d) => d.status === 'playing');
  await L.waitTable(A.page, (d) => d.status === 'playing');
  for (const [width, height] of [
    [390, 844],
    [360, 640],
    [844, 390],
  ]) {
    await A.page.setViewportSize({ width, height });
    await A.page.waitForFunction(() => document.querySelector('.quick-row')?.checkVisibility());
    const fit = await A.page.evaluate(() => {
      const row = document.querySelector('.quick-row');
      const r = row.getBoundingClientRect();
      const mute = row.querySelector('.quick-mute').getBoundingClientRect();
      return {
        bottom: r.bottom,
        height: innerHeight,
        page: document.scrollingElement.scrollHeight,
        wide: document.scrollingElement.scrollWidth,
        width: innerWidth,
        muteInside: mute.right <= innerWidth + 0.5,
      };
    });
    const at = `${width}×${height}: ${JSON.stringify(fit)}`;
    assert.ok(fit.bottom <= fit.height, `the row is on screen at ${at}`);
    assert.ok(fit.page <= fit.height, `the table page does not scroll at ${at}`);
    assert.ok(fit.wide <= fit.width, `nor sideways at ${at}`);
    assert.ok(fit.muteInside, `Mute is on screen at ${at}`);
    await L.screenshot(A.page, `quick-row-${width}x${height}`);
    await A.page.tap('button[data-quick=good_luck]');
    const words = L.tRe('quick.said', { words: L.t('quick.good_luck') });
    await L.waitText(B.page, '.quick-said', new RegExp(`${words.source}$`, 'u'));
    await B.page.evaluate(() => (document.querySelector('.quick-said').textContent = ''));
    await L.sleep(2100); // one quick message every two seconds (docs/protocol.md)
  }
  assert.deepEqual(A.errors, [], 'a clean console');
  await A.context.close();
  await B.context.close();
});

test('a game without a decision shows no accuracy anywhere: "–"', async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  const base = env.server.url;
  await L.register(page, base, 'quitter');
  await page.click('button[data-action=play-now]');
  await L.waitTable(page, (d) => d.status === 'playing');
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  // Resigned before a single move: neither side had a decision to make.
  await page.click('button[data-action=resign]');
  await page.click('button[data-action=resign]');
  const noAccuracy = (name) => L.tRe('review.line', { name, accuracy: '–' }).source;
  await L.waitText(page, '.banner-review', L.tRe('review.line', { accuracy: '–' }));
  const banner = await L.text(page, '.banner-review');
  const computer = L.tRe('seat.computer', { level: L.t('level.easy') });
  assert.match(
    banner,
    new RegExp(`${noAccuracy('quitter')}.*${noAccuracy(computer)}`, 'u'),
    banner,
  );
  const review = await (await page.request.get(`${base}api/games/${id}/analysis`)).json();
  assert.deepEqual(
    review.players.map((p) => p.accuracy),
    [null, null],
    'the server sends no accuracy',
  );
  await page.goto(`${base}#/replay/${id}`);
  await page.waitForSelector('.review-players li');
  for (const line of await page.$$eval('.review-players li', (l) => l.map((x) => x.textContent)))
    assert.match(L.plain(line), L.tRe('review.noChoice', { value: '–' }), line);
  await page.goto(`${base}#/history/quitter`);
  await page.waitForSelector(`tr[data-game="${id}"]`);
  const cell = L.t('history.cell', { who: L.t('name.you'), mine: '–', theirs: '–' });
  await L.waitText(
    page,
    `tr[data-game="${id}"]`,
    L.tRe('history.cell', { who: L.t('name.you'), mine: '–', theirs: '–' }),
  );
  await page.goto(`${base}#/profile/quitter`);
  await page.waitForSelector(`.game-card[data-game="${id}"]`);
  assert.match(
    await L.text(page, `.game-card[data-game="${id}"]`),
    L.tRe('profile.accuracy', { text: cell }),
  );
  assert.doesNotMatch(await L.text(page, '.profile'), L.tRe('profile.averageAccuracy'));
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
