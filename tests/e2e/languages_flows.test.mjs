// The whole flow of the browser tests in every language (issue 30): in English, German, Dutch,
// French, Spanish and Arabic a guest plays the computer to the end (the banner), opens the game's
// review and the explorer from a position of its replay; two people take turns at a pass-and-play
// table until one resigns (the banner names the other); a guest invites a second one, a third
// watches, the game ends and its rematch is offered, accepted and watched. One language switch in the middle of the game against the
// computer loses nothing (the same table, board, version and move log, the prompt in the new
// language). On every screen: <html lang> is the language, none of the English catalog's texts is
// left in the page's main part (every English text of web/src/logic/lang/en/ that the language's
// catalog does not share), nothing scrolls sideways, axe-core finds nothing serious, and a screenshot
// is left (build/screenshots/flow-<code>-<screen>.png); axe-core looks at each kind of screen once
// a language (it takes most of the time). Blitz (five pieces) keeps the games short; one server and
// one browser serve every language.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 120, botDelay: 10 });
const RULES = 'blitz';
const PHONE = { hasTouch: true, isMobile: true };
const RUNS = [
  ['en', { width: 1366, height: 768 }, {}],
  ['de', { width: 360, height: 640 }, PHONE],
  ['nl', { width: 390, height: 844 }, PHONE],
  ['fr', { width: 1366, height: 768 }, {}],
  ['es', { width: 390, height: 844 }, PHONE],
  ['ar', { width: 360, height: 640 }, PHONE],
];
const CODES = RUNS.map(([lang]) => lang);

/** English words these screens show alone (too short for a fragment of a sentence). */
const WORDS = ['Resign', 'Leave', 'Hint', 'Undo', 'Light', 'Dark', 'Replay', 'Watch', 'accuracy'];

/**
 * The English texts that must not be on a page in `lang`: every piece (between placeholders) of
 * every English text of two words or more, and the WORDS, that no text of `lang`'s catalog holds.
 */
function englishTexts(lang) {
  if (lang === 'en') return [];
  const texts = (c) =>
    Object.values(c).flatMap((e) => (typeof e === 'string' ? [e] : Object.values(e)));
  const own = texts(L.catalog(lang));
  const pieces = new Set(WORDS);
  for (const text of texts(L.catalog('en')))
    for (const piece of text.split(/\{\w+\}/).map((p) => p.trim()))
      if (piece.length >= 8 && /\s/.test(piece) && /[A-Za-z]{3}/.test(piece)) pieces.add(piece);
  return [...pieces].filter((piece) => !own.some((text) => text.includes(piece)));
}

/**
 * The checks every screen gets, its problems added to `problems`; axe-core only where `axe` says
 * (once for each kind of screen: it takes most of the test's time).
 */
function checker(lang, problems) {
  const english = englishTexts(lang);
  return async (page, screen, { axe = true } = {}) => {
    await page.waitForFunction(() => !document.querySelector('.table-page[data-busy="1"]'));
    const said = await page.evaluate(() => ({
      lang: document.documentElement.lang,
      dir: document.documentElement.dir,
      text: document.querySelector('main')?.innerText ?? '',
      wide: document.documentElement.scrollWidth - document.documentElement.clientWidth,
    }));
    if (said.lang !== lang) problems.push(`${lang} ${screen}: <html lang=${said.lang}>`);
    if (said.dir !== (lang === 'ar' ? 'rtl' : 'ltr'))
      problems.push(`${lang} ${screen}: <html dir=${said.dir}>`);
    for (const words of english)
      if (said.text.includes(words)) problems.push(`${lang} ${screen}: English left: "${words}"`);
    if (said.wide > 0) problems.push(`${lang} ${screen}: ${said.wide} px wider than the screen`);
    if (axe) problems.push(...(await L.axeProblems(page, `${lang} ${screen}`)));
    // Named by its own language (L.screenshot would add UR_E2E_LANG's).
    await page.screenshot({ path: join(L.screenshotDir, `flow-${lang}-${screen}.png`) });
  };
}

const title = async (page) => L.plain(await page.textContent('.banner-title'));

/** Opens the settings, picks `to`, waits until the page speaks it, and closes them. */
async function switchLanguage(page, to) {
  await page.click('button[data-action=settings]');
  await page.selectOption('.settings select[name=language]', to);
  await page.waitForFunction(
    (words) => document.querySelector('.settings h2')?.textContent === words,
    L.tIn(to, 'settings.title'),
  );
  await page.click('button[data-action=close-settings]');
}

/**
 * What the table shows that a language switch must keep: the game, the board, the move log. The
 * table is drawn again in the new language and its log written again from the game's record,
 * which comes a moment later (ui/table_log.ts): `lines` is how many the log must come back to.
 */
async function kept(page, lines = 0) {
  const st = await L.myTurn(page);
  await page.waitForFunction(
    (n) => document.querySelectorAll('.table-page .log li').length >= n,
    lines,
  );
  const log = await page.$$eval('.table-page .log li', (li) => li.length);
  return { table: st.table, version: st.version, sig: st.sig, position: st.position, log };
}

/** The prompt of a player whose turn it is, as `lang` says it. */
async function promptIn(page, lang) {
  const prompt = L.plain(await page.textContent('.status-main'));
  const ok = [L.tReIn(lang, 'table.prompt.throw'), L.tReIn(lang, 'table.prompt.move')];
  assert.ok(
    ok.some((re) => re.test(prompt)),
    `the prompt "${prompt}" is in ${lang}`,
  );
}

/** A game against the computer to the end, one language switch in its middle; its review and the
 * explorer from a position of its replay. */
async function computerGame(lang, opts, check) {
  const base = env.server.url;
  const P = await L.newGuest(env.browser, base, opts);
  const page = P.page;
  await L.playComputer(page, base, RULES);
  let switched = false;
  for (let guard = 0; guard < 2000; guard++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    if (!switched && guard === 6) {
      await check(page, 'computer-game');
      // Mid-game, to another language and back: nothing of the game is lost either way.
      const other = CODES[(CODES.indexOf(lang) + 1) % CODES.length];
      const before = await kept(page);
      await switchLanguage(page, other);
      assert.deepEqual(await kept(page, before.log), before, `${lang} → ${other} keeps the game`);
      await promptIn(page, other);
      await switchLanguage(page, lang);
      assert.deepEqual(await kept(page, before.log), before, `${other} → ${lang} keeps the game`);
      await promptIn(page, lang);
      switched = true;
      continue;
    }
    await L.clickTurn(page, st);
  }
  assert.ok(switched, 'the language was switched mid-game');
  await page.waitForSelector('.banner .banner-review a');
  await L.waitText(page, '.banner-review', L.tReIn(lang, 'review.line'));
  const won = await title(page);
  assert.ok(
    [L.tIn(lang, 'log.win.you'), L.tIn(lang, 'banner.youLose')].includes(won),
    `banner: ${won}`,
  );
  assert.match(L.plain(await page.textContent('.banner-reason')), L.tReIn(lang, 'reason.boreOff'));
  await check(page, 'computer-banner');

  await page.click('.banner-review a');
  await page.waitForSelector('.review .win-graph polyline');
  await page.waitForSelector('.review-players li');
  await check(page, 'review');
  if (await page.isEnabled('button[data-action=key-start]')) {
    await page.click('button[data-action=key-start]');
    await page.waitForSelector('.key-text:not(:empty)');
    await check(page, 'review-key-move', { axe: false });
  }
  const here = await page.getAttribute('.replay-host', 'data-position');
  await page.click('.explore-link');
  await page.waitForSelector('.explore-throws li, .explore-list .explore-move');
  assert.equal(
    await page.evaluate(() => new URLSearchParams(location.hash.split('?')[1]).get('position')),
    here,
    'the explorer opens at the position on show',
  );
  await check(page, 'explore');
  assert.deepEqual(P.errors, [], `${lang}: a clean console (computer game)`);
  await P.context.close();
}

/** Two players on one screen: a few turns each, then the side to act resigns. */
async function passAndPlay(lang, opts, check) {
  const P = await L.newGuest(env.browser, env.server.url, opts);
  const page = P.page;
  await L.moreOptions(page);
  await page.selectOption('select[name=rules]', RULES);
  await page.fill('input[name=name1]', 'Ann');
  await page.fill('input[name=name2]', 'Bob');
  await page.click('button[data-action=pass-and-play]');
  await L.waitTable(page, (d) => d.status === 'playing');
  await page.waitForSelector('.table-page.local');
  const sides = new Set();
  for (let actions = 0; actions < 14; actions++) {
    const st = await L.myTurn(page);
    sides.add(st.toAct);
    const prompt = L.plain(await page.textContent('.status-main'));
    assert.ok(prompt.startsWith(`${st.toAct === '1' ? 'Ann' : 'Bob'} — `), prompt);
    await L.clickTurn(page, st);
  }
  assert.deepEqual([...sides].sort(), ['1', '2'], 'both sides played');
  await L.myTurn(page);
  await check(page, 'pass-and-play');
  await page.click('button[data-action=resign]');
  await page.click('button[data-action=resign]');
  await page.waitForSelector('.banner');
  const won = await title(page);
  assert.ok(
    ['Ann', 'Bob'].some((name) => L.tIn(lang, 'log.win', { name }) === won),
    `banner: ${won}`,
  );
  assert.match(L.plain(await page.textContent('.banner-reason')), L.tReIn(lang, 'reason.resign'));
  await check(page, 'pass-and-play-banner', { axe: false });
  assert.deepEqual(P.errors, [], `${lang}: a clean console (pass and play)`);
  await P.context.close();
}

/** An invite joined by a second guest, a third watching, a resignation and a rematch. */
async function inviteAndRematch(lang, opts, check) {
  const base = env.server.url;
  const [A, B, C] = await Promise.all([0, 1, 2].map(() => L.newGuest(env.browser, base, opts)));
  await L.moreOptions(A.page);
  await A.page.selectOption('select[name=rules]', RULES);
  await A.page.selectOption('select[name=visibility]', 'public');
  await A.page.click('button[data-action=create-table]');
  const invite = A.page.locator('input.invite-link');
  await invite.waitFor({ state: 'visible' });
  await check(A.page, 'invite', { axe: false });
  const link = await invite.inputValue();
  const first = await A.page.$eval('.table-page', (el) => el.dataset.table);
  await B.page.goto(link);
  await L.waitTable(B.page, (d) => d.status === 'playing' && d.you === '2');
  await L.waitTable(A.page, (d) => d.status === 'playing' && d.you === '1');

  // The spectator finds the table in the lobby's public tables.
  await C.page.goto(`${base}#/lobby`);
  await C.page.click('button[data-action=refresh-tables]');
  const row = C.page.locator(`tr[data-table="${first}"]`);
  await row.waitFor();
  await row.locator('a', { hasText: L.tIn(lang, 'lobby.watch') }).click();
  await L.waitTable(C.page, (d) => d.role === 'spectator' && d.status === 'playing');

  const pages = [A.page, B.page, C.page];
  let seen = await L.lookAll(pages, 0);
  for (let actions = 0; actions < 16 && seen[0].status === 'playing';) {
    const who = seen[0].canAct ? 0 : seen[1].canAct ? 1 : -1;
    if (who < 0) {
      await L.sleep(10);
      seen = await Promise.all(pages.map((p) => L.look(p)));
      continue;
    }
    const version = await L.clickTurn(pages[who], seen[who]);
    actions++;
    seen = await L.lookAll(pages, version);
    if (seen.every((s) => s.version === version))
      assert.equal(seen[2].sig, seen[who].sig, `the spectator sees the board (${version})`);
  }
  await check(C.page, 'spectator');
  if (seen[0].status === 'playing') {
    await B.page.click('button[data-action=resign]');
    await B.page.click('button[data-action=resign]');
  }
  for (const p of pages) await p.waitForSelector('.banner');

  // alice offers the rematch; bob sees the offer and accepts; carol follows them to it.
  await A.page.click('button[data-action=play-again]');
  await B.page.waitForSelector('button[data-action=accept-rematch]');
  assert.match(
    L.plain(await B.page.textContent('.banner-rematch')),
    L.tReIn(lang, 'rematch.offered'),
  );
  await check(B.page, 'rematch-offer');
  await B.page.click('button[data-action=accept-rematch]');
  for (const [p, seat] of [
    [A.page, '2'],
    [B.page, '1'],
  ])
    await L.waitTable(p, (d, [id, s]) => d.table !== id && d.status === 'playing' && d.you === s, [
      first,
      seat,
    ]);
  const second = await A.page.$eval('.table-page', (el) => el.dataset.table);
  await C.page.click('button[data-action=watch-rematch]');
  await L.waitTable(C.page, (d, id) => d.table === id && d.role === 'spectator', second);
  await check(C.page, 'spectator-rematch', { axe: false });
  await check(A.page, 'rematch', { axe: false });
  for (const P of [A, B, C]) assert.deepEqual(P.errors, [], `${lang}: a clean console (invite)`);
  for (const P of [A, B, C]) await P.context.close();
}

// UR_E2E_LANG runs one language only.
const only = process.env.UR_E2E_LANG;
for (const [lang, viewport, device] of RUNS.filter(([code]) => !only || code === only)) {
  test(
    `${lang} at ${viewport.width}x${viewport.height}: computer game, review, explorer, pass and play, invite, spectator, rematch`,
    { timeout: 300000 },
    async () => {
      const opts = { locale: L.LOCALES[lang], viewport, ...device, reducedMotion: 'reduce' };
      const problems = [];
      const check = checker(lang, problems);
      await computerGame(lang, opts, check);
      await passAndPlay(lang, opts, check);
      await inviteAndRematch(lang, opts, check);
      assert.deepEqual(problems, []);
    },
  );
}
