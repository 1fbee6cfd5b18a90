// Languages on the players' screens (issue 30): the header, login, leaderboard, "not found",
// your account, the admin page, a profile, the match history and the friends screen, visited in
// German and Arabic on a small phone (360x640): no serious axe problem, nothing wider than the
// screen, no English left (a few known texts of each screen), a screenshot of each. And the
// account keeps its language: a switch in the settings while logged in is saved to the account,
// and a browser that never chose one speaks it from the first login.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60 });
const phone = { width: 360, height: 640 };

// English texts each screen showed before it was translated (web/src/logic/lang/en/*.ts).
const ENGLISH = {
  login: ['Log in', 'Create account', 'Play as guest', 'Username', 'Password', 'No account needed'],
  leaderboard: ['Leaderboard', 'Player', 'Wins', 'Nobody has played'],
  not_found: ['Nothing here', 'Go to the lobby', 'This address'],
  account: ['Your account', 'Change password', 'Log out everywhere', 'Download my data'],
  admin: ['Administration', 'Find an account', 'Look up', 'Only administrators'],
  profile: ['Ratings per rule set', 'Rating over time', 'No rated game', 'Playing since'],
  own_profile: ['Bot account', 'This account is a bot', 'Bot pool'],
  history: ['Match history', 'No finished games', 'Opponent', 'Accuracy', 'Profile and ratings'],
  friends: ['Followers', 'Unfollow', 'Blocked', 'Name of a player', 'You block nobody'],
  header: ['Log out', 'My games', 'Friends', 'Account', 'Leaderboard', 'Puzzles'],
};

/** The screen's problems: English texts still shown, sideways overflow, serious axe findings. */
async function problems(page, screen, lang) {
  const found = [];
  const text = await page.evaluate(() => {
    const words = [document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
      words.push(el.getAttribute('aria-label'), el.title, el.getAttribute('placeholder'));
    return words.filter(Boolean).join('\n');
  });
  for (const english of [...ENGLISH[screen], ...ENGLISH.header])
    if (text.includes(english)) found.push(`${lang} ${screen}: "${english}" is English`);
  const over = await page.evaluate(() => {
    const root = document.documentElement;
    const out = [];
    if (root.scrollWidth > root.clientWidth) out.push(`the page is ${root.scrollWidth}px wide`);
    for (const el of document.querySelectorAll('main h1, main h2, main button, main a.button')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue; // hidden
      if (r.right > root.clientWidth + 1 || r.left < -1) out.push(`"${el.textContent}" off screen`);
      if (el.scrollWidth > el.clientWidth + 1) out.push(`"${el.textContent}" cut`);
    }
    return out;
  });
  found.push(...over.map((o) => `${lang} ${screen}: ${o}`));
  found.push(...(await L.axeProblems(page, `${lang} ${screen}`)));
  await L.screenshot(page, `language-${lang}-${screen}-360x640`);
  return found;
}

async function visit(page, hash, ready, state = 'visible') {
  await page.goto(`${env.server.url}${hash}`);
  await page.waitForSelector(ready, { state });
  // The loading words are gone once the screen has its data.
  await page.waitForFunction(
    () => !document.querySelector('main .hint')?.textContent?.endsWith('…'),
  );
}

for (const [lang, locale, words] of [
  ['de', 'de-DE', { logout: 'Abmelden', title: 'Dein Konto' }],
  ['ar', 'ar-EG', { logout: 'تسجيل الخروج', title: 'حسابك' }],
]) {
  test(`the players' screens in ${lang} at 360x640`, { timeout: 180000 }, async () => {
    const bob = await L.newPlayer(env.browser, { locale });
    await L.register(bob.page, env.server.url, `bob_${lang}`);
    await bob.context.close();
    const P = await L.newPlayer(env.browser, { viewport: phone, locale, isMobile: true });
    const page = P.page;
    const found = [];
    await visit(page, '#/login', 'form[data-form="create-account"]');
    found.push(...(await problems(page, 'login', lang)));
    await visit(page, '#/nowhere', 'main h1');
    found.push(...(await problems(page, 'not_found', lang)));
    await visit(page, '#/leaderboard', 'table.leaderboard');
    found.push(...(await problems(page, 'leaderboard', lang)));

    const me = `anna_${lang}`;
    await L.register(page, env.server.url, me);
    assert.equal(await page.textContent('header a.auth-link'), words.logout);
    await visit(page, '#/account', '.account-grid');
    assert.equal(await page.textContent('main h1'), words.title);
    found.push(...(await problems(page, 'account', lang)));
    await visit(page, '#/admin', 'main p.card[role=alert]'); // not an administrator: 403
    found.push(...(await problems(page, 'admin', lang)));
    await visit(page, `#/profile/${me}`, '.bot-account .hint:not(:empty)');
    found.push(...(await problems(page, 'profile', lang)));
    found.push(...(await problems(page, 'own_profile', lang)));
    await visit(page, `#/history/${me}`, 'table.history', 'attached'); // hidden while empty
    found.push(...(await problems(page, 'history', lang)));

    await visit(page, '#/friends', '.follow-form');
    await page.fill('.follow-form input[name=username]', `bob_${lang}`);
    await page.click('.follow-form button');
    await page.waitForSelector(`.friends-list li[data-user="bob_${lang}"]`);
    found.push(...(await problems(page, 'friends', lang)));
    await visit(page, `#/profile/bob_${lang}`, '.profile-friend');
    await page.waitForFunction(() => document.querySelector('.profile-friend .hint')?.textContent);
    found.push(...(await problems(page, 'profile', lang)));
    assert.deepEqual(found, [], found.join('\n'));
    // The browser logs the admin page's 403 (not an administrator) itself; nothing else.
    assert.deepEqual(
      P.errors.filter((e) => !e.includes('status of 403')),
      [],
    );
    await P.context.close();
  });
}

test('a German error from its code, never the server’s English words', async () => {
  const P = await L.newPlayer(env.browser, { locale: 'de-DE' });
  await P.page.goto(`${env.server.url}#/login`);
  const form = P.page.locator('form[data-form="log-in"]');
  await form.locator('input[name=username]').fill('nobody_here');
  await form.locator('input[name=password]').fill('not the password');
  await form.locator('button[type=submit]').click();
  await P.page.waitForFunction(
    () => document.querySelector('form[data-form="log-in"] .form-error')?.textContent,
  );
  assert.equal(
    await form.locator('.form-error').textContent(),
    'Falscher Benutzername oder falsches Passwort.',
  );
  // The browser logs the refused login's 401 itself; nothing else.
  assert.deepEqual(
    P.errors.filter((e) => !e.includes('status of 401')),
    [],
  );
  await P.context.close();
});

test('the account keeps its language: saved from the settings, spoken at the next login', async () => {
  const A = await L.newPlayer(env.browser); // an English browser
  await L.register(A.page, env.server.url, 'lena_lang');
  await A.page.click('button[data-action=settings]');
  const saved = A.page.waitForResponse((r) => r.url().endsWith('/api/account/language'));
  await A.page.selectOption('.settings select[name=language]', 'fr');
  assert.equal((await saved).status(), 200);
  const me = await A.page.evaluate(() => fetch('/api/me').then((r) => r.json()));
  assert.equal(me.user.language, 'fr');
  await A.context.close();

  // Another browser, English too, that never chose a language: French from the login on.
  const B = await L.newPlayer(env.browser);
  await B.page.goto(`${env.server.url}#/login`);
  assert.equal(await B.page.evaluate(() => document.documentElement.lang), 'en');
  const form = B.page.locator('form[data-form="log-in"]');
  await form.locator('input[name=username]').fill('lena_lang');
  await form.locator('input[name=password]').fill('correct horse 42');
  await form.locator('button[type=submit]').click();
  await B.page.waitForFunction(() => document.documentElement.lang === 'fr');
  await B.page.waitForFunction(
    () => document.querySelector('header a.auth-link')?.textContent === 'Se déconnecter',
  );
  assert.equal(await B.page.evaluate(() => localStorage.getItem('ur.lang')), null);
  // A browser with a choice of its own keeps it.
  const C = await L.newPlayer(env.browser);
  await C.page.goto(env.server.url);
  await C.page.evaluate(() => localStorage.setItem('ur.lang', 'nl'));
  await C.page.goto(`${env.server.url}#/login`);
  await C.page.reload(); // a new hash alone loads nothing: the saved choice counts at a load
  await C.page.waitForFunction(() => document.documentElement.lang === 'nl');
  const formC = C.page.locator('form[data-form="log-in"]');
  await formC.locator('input[name=username]').fill('lena_lang');
  await formC.locator('input[name=password]').fill('correct horse 42');
  await formC.locator('button[type=submit]').click();
  await C.page.waitForSelector('header a.auth-link:text("Uitloggen")');
  assert.equal(await C.page.evaluate(() => document.documentElement.lang), 'nl');
  assert.deepEqual([...B.errors, ...C.errors], []);
  await B.context.close();
  await C.context.close();
});
