// Languages on the players' screens (issue 30): the header, login, leaderboard, "not found",
// your account, the admin page (refused, and an administrator's with a game and the audit list),
// a profile, the match history and the friends screen, in every language the client speaks and
// at 360x640, 390x844 and 1366x768 (each screen visited once per language and looked at in the
// three sizes on the same page, layout_checks.mjs): no serious axe problem, nothing wider than the
// screen or cut off, no English left (a few known texts of each screen), a screenshot of each; a
// game against the computer names it in the language in the history and the admin page, and the
// admin page says stored codes (a result, an end reason, an audit action) in words. And the
// account keeps its language: a switch in the settings while logged in is saved to the account,
// and a browser that never chose one speaks it from the first login.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import * as L from './lib.mjs';
import { LANGUAGES, lookAtSizes } from './layout_checks.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

// English texts each screen showed before it was translated (web/src/logic/lang/en/*.ts).
const ENGLISH = {
  login: ['Log in', 'Create account', 'Play as guest', 'Username', 'Password', 'No account needed'],
  leaderboard: ['Leaderboard', 'Player', 'Wins', 'Nobody has played'],
  not_found: ['Nothing here', 'Go to the lobby', 'This address'],
  account: ['Your account', 'Change password', 'Log out everywhere', 'Download my data'],
  admin: ['Administration', 'Find an account', 'Look up', 'Only administrators'],
  admin_account: ['Audit list', 'Latest games', 'by resignation', 'Administrator role given'],
  profile: [
    'Ratings per rule set',
    'Rating over time',
    'No rated game',
    'Playing since',
    'Bot account',
    'This account is a bot',
    'Bot pool',
  ],
  'profile-other': ['Ratings per rule set', 'Rating over time', 'Playing since', 'Follow'],
  history: ['Match history', 'Opponent', 'Accuracy', 'Profile and ratings'],
  friends: ['Followers', 'Unfollow', 'Blocked', 'Name of a player', 'You block nobody'],
  header: ['Log out', 'My games', 'Friends', 'Account', 'Leaderboard', 'Puzzles'],
};

/** The English words that are the language's own too. */
const SAME = { nl: ['Account'], fr: ['Administration'] };

/** The computer at the beginner level, and an audit list's ban, in each language. */
const WORDS = {
  en: { logout: 'Log out', title: 'Your account', computer: 'Computer (Beginner)', ban: 'Banned' },
  de: { logout: 'Abmelden', title: 'Dein Konto', computer: 'Computer (Anfänger)', ban: 'Gesperrt' },
  nl: {
    logout: 'Uitloggen',
    title: 'Je account',
    computer: 'Computer (Beginner)',
    ban: 'Verbannen',
  },
  fr: {
    logout: 'Se déconnecter',
    title: 'Votre compte',
    computer: 'Ordinateur (Débutant)',
    ban: 'Banni',
  },
  es: {
    logout: 'Salir',
    title: 'Tu cuenta',
    computer: 'Ordenador (Principiante)',
    ban: 'Bloqueado',
  },
  ar: { logout: 'تسجيل الخروج', title: 'حسابك', computer: 'الحاسوب (مبتدئ)', ban: 'محظور' },
};

/** The English texts of a screen (and the header) still shown, in its text and accessible names. */
async function english(page, screen, lang) {
  if (lang === 'en') return [];
  const text = await page.evaluate(() => {
    const words = [document.body.innerText];
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder]'))
      words.push(el.getAttribute('aria-label'), el.title, el.getAttribute('placeholder'));
    // Words the CSS writes (a phone's column names) are shown too.
    for (const el of document.querySelectorAll('main *'))
      for (const part of ['::before', '::after']) words.push(getComputedStyle(el, part).content);
    return words.filter(Boolean).join('\n');
  });
  // Whole words only ("Wins" is not in the Dutch "Winst"), and not the language's own same word.
  const shown = (words) =>
    new RegExp(`(^|[^\\p{L}])${words.replace(/[()]/g, '\\$&')}($|[^\\p{L}])`, 'u').test(text);
  return [...ENGLISH[screen], ...ENGLISH.header]
    .filter((words) => !SAME[lang]?.includes(words) && shown(words))
    .map((words) => `${lang} ${screen}: "${words}" is English`);
}

/** A screen's problems: English left, and at each size overflow, cut text, axe (a screenshot). */
async function problems(page, screen, lang) {
  return [...(await english(page, screen, lang)), ...(await lookAtSizes(page, lang, screen))];
}

/** Whether the profile's rating line has a "?" and draws it to the right of the last digit. */
function provisionalMark(page) {
  return page.$eval('.profile-rating', (el) => {
    const node = [...el.childNodes].find((n) => n.nodeType === 3 && /\d\?/.test(n.textContent));
    if (!node) return { mark: false, after: false };
    const at = node.textContent.search(/\d\?/);
    const box = (i) => {
      const r = document.createRange();
      r.setStart(node, i);
      r.setEnd(node, i + 1);
      return r.getBoundingClientRect();
    };
    return { mark: true, after: box(at + 1).left >= box(at).right - 0.5 };
  });
}

async function visit(page, hash, ready, state = 'visible') {
  await page.goto(`${env.server.url}${hash}`);
  await page.waitForSelector(ready, { state });
  // The loading words are gone once the screen has its data.
  await page.waitForFunction(
    () => !document.querySelector('main .hint')?.textContent?.endsWith('…'),
  );
}

/** An account made by the API, logged in nowhere. */
async function account(name) {
  const r = await fetch(`${env.server.url}api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: name, password: 'correct horse 42' }),
  });
  assert.equal(r.status, 201, await r.text());
}

/** A game against the computer (beginner), resigned at once: one for the history and admin. */
async function lostGame(page) {
  await L.playComputer(page, env.server.url, 'finkel');
  await page.click('button[data-action=resign]');
  await page.click('button[data-action=resign]');
  await page.waitForSelector('.banner');
}

for (const [lang, locale] of LANGUAGES) {
  const words = WORDS[lang];
  test(`the players' screens in ${lang} at every size`, { timeout: 240000 }, async () => {
    const bob = `bob_${lang}`;
    await account(bob);
    const P = await L.newPlayer(env.browser, { locale, reducedMotion: 'reduce' });
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

    await lostGame(page);
    await visit(page, `#/profile/${me}`, '.bot-account .hint:not(:empty)');
    await page.waitForSelector('.game-card');
    found.push(...(await problems(page, 'profile', lang)));
    // A new account's rating is provisional: its "?" is drawn after the number, right to left too.
    assert.deepEqual(await provisionalMark(page), { mark: true, after: true });
    await visit(page, `#/history/${me}`, 'table.history tbody tr');
    assert.equal(await page.textContent('table.history td.opponent'), words.computer);
    found.push(...(await problems(page, 'history', lang)));

    await visit(page, '#/friends', '.follow-form');
    await page.fill('.follow-form input[name=username]', bob);
    await page.click('.follow-form button');
    await page.waitForSelector(`.friends-list li[data-user="${bob}"]`);
    found.push(...(await problems(page, 'friends', lang)));
    await visit(page, `#/profile/${bob}`, '.profile-friend');
    await page.waitForFunction(() => document.querySelector('.profile-friend .hint')?.textContent);
    found.push(...(await problems(page, 'profile-other', lang)));

    // An administrator's page: the stored codes in words, the codes in the titles.
    execFileSync(process.env.UR_BINARY, [
      'admin',
      'grant',
      me,
      '--db',
      join(env.server.dataDir, 'ur.db'),
    ]);
    const banned = await page.evaluate(
      (name) =>
        fetch(`/api/admin/users/${name}/ban`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        }).then((r) => r.status),
      bob,
    );
    assert.equal(banned, 200);
    await visit(page, `#/admin/${me}`, '.admin-account [data-code=resign]');
    await page.waitForSelector('[data-part=audit] [data-code=ban]');
    const cell = (code) => page.textContent(`main [data-code=${code}]`);
    assert.equal(await cell('ban'), words.ban);
    assert.equal(await page.getAttribute('main [data-code=loss]', 'title'), 'loss');
    assert.ok((await cell('resign')) !== 'resign' && (await cell('grant')) !== 'grant');
    const game = await page.$eval(
      '.admin-account [data-code=resign]',
      (el) => el.closest('tr').textContent,
    );
    assert.ok(game.includes(words.computer), game);
    found.push(...(await problems(page, 'admin_account', lang)));
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
