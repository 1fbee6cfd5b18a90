// Languages (issue 30): the page speaks the player's language, chosen from the browser's
// languages or in the settings, remembered, and switched without a reload — mid-game too, losing
// nothing. Arabic runs the page right to left. And the table, played, in every language at every
// size the client is made for.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';
import { LANGUAGES, lookAtSizes } from './layout_checks.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

const html = (page) =>
  page.evaluate(() => ({ lang: document.documentElement.lang, dir: document.documentElement.dir }));

async function openSettings(page) {
  await page.click('button[data-action=settings]');
  return page.waitForSelector('.settings h2');
}

test("the browser's language is spoken from the first screen", async () => {
  const P = await L.newPlayer(env.browser, { locale: 'de-AT' });
  await P.page.goto(env.server.url);
  await P.page.waitForSelector('button[data-action=play-now]');
  assert.deepEqual(await html(P.page), { lang: 'de', dir: 'ltr' });
  assert.equal(await (await openSettings(P.page)).textContent(), 'Einstellungen');
  assert.deepEqual(P.errors, []);
  await P.context.close();
});

test('chosen in the settings: Arabic runs right to left, is remembered, has no serious axe problem', async () => {
  const P = await L.newPlayer(env.browser, { viewport: { width: 390, height: 844 } });
  const page = P.page;
  await page.goto(env.server.url);
  await page.waitForSelector('button[data-action=play-now]');
  assert.deepEqual(await html(page), { lang: 'en', dir: 'ltr' });
  await openSettings(page);
  const names = await page.$$eval('.settings select[name=language] option', (os) =>
    os.map((o) => `${o.value}:${o.lang}:${o.textContent}`),
  );
  assert.deepEqual(names, [
    'en:en:English',
    'de:de:Deutsch',
    'nl:nl:Nederlands',
    'fr:fr:Français',
    'es:es:Español',
    'ar:ar:العربية',
  ]);
  await page.selectOption('.settings select[name=language]', 'ar');
  await page.waitForFunction(
    () => document.querySelector('.settings h2')?.textContent === 'الإعدادات',
  );
  assert.deepEqual(await html(page), { lang: 'ar', dir: 'rtl' });
  assert.equal(await page.$eval('.settings select[name=language]', (s) => s.value), 'ar');
  assert.deepEqual(await L.axeProblems(page, 'Arabic settings'), []);
  await L.screenshot(page, 'language-ar-settings-390x844');
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  assert.ok(overflow <= 0, `no sideways scrolling in Arabic (${overflow} px)`);
  await page.reload();
  await page.waitForSelector('button[data-action=play-now]');
  assert.deepEqual(await html(page), { lang: 'ar', dir: 'rtl' }, 'remembered across a reload');
  assert.deepEqual(P.errors, []);
  await P.context.close();
});

test('switching mid-game loses nothing: the same table, the same board, and play goes on', async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  await L.playAsGuest(page, env.server.url);
  await L.playComputer(page, env.server.url, 'finkel');
  for (let i = 0; i < 3; i++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    await L.clickTurn(page, st);
  }
  const before = await L.myTurn(page);
  await openSettings(page);
  await page.selectOption('.settings select[name=language]', 'nl');
  await page.waitForFunction(
    () => document.querySelector('.settings h2')?.textContent === 'Instellingen',
  );
  await page.click('button[data-action=close-settings]');
  const after = await L.myTurn(page);
  assert.equal(after.table, before.table, 'the same table');
  assert.equal(after.version, before.version, 'nothing happened to the game');
  assert.equal(after.sig, before.sig, 'the same board');
  if (after.status !== 'finished') {
    const prompt = await page.textContent('.status-main');
    assert.match(prompt, /Gooi de dobbelstenen|Verzet een speelstuk/, 'the prompt speaks Dutch');
    assert.equal(await page.textContent('button[data-action=resign]'), 'Opgeven');
  }
  if (after.status !== 'finished') await L.clickTurn(page, after);
  assert.equal((await html(page)).lang, 'nl');
  assert.deepEqual(P.errors, []);
  await P.context.close();
});

// The table in every language at every size (German and Dutch words are long, Arabic runs right
// to left): nothing wider than the screen or cut off, the whole board on the screen, no serious
// axe-core finding, a screenshot of each (layout_checks.mjs, language-<code>-table-<size>.png).
for (const [lang, locale] of LANGUAGES) {
  test(`a game in ${lang} at every size: the board on the screen, nothing cut off`, async () => {
    const P = await L.newPlayer(env.browser, { locale, reducedMotion: 'reduce' });
    const page = P.page;
    await L.playAsGuest(page, env.server.url);
    await L.playComputer(page, env.server.url, 'finkel');
    await L.clickTurn(page, await L.myTurn(page));
    await L.myTurn(page);
    assert.equal((await html(page)).lang, lang);
    const board = async (p) => {
      const fit = await L.boardFits(p);
      return fit.inside
        ? []
        : [`the board is not all on the screen (${JSON.stringify(fit.rects)})`];
    };
    assert.deepEqual(await lookAtSizes(page, lang, 'table', { extra: board }), []);
    assert.deepEqual(P.errors, []);
    await P.context.close();
  });
}
