// What brings players back, at 390×844 (touch) and 1366×768: games against the computer are not
// listed in the lobby; registration refuses a name that impersonates the computer or a guest; the
// header of a logged-in player shows name and rating and leads to their profile on every size;
// the profile (ratings per rule set, last games as cards, the bot switch on one's own profile
// only) and the match history (who ended the game, whose accuracy, the rule set's name) fit the
// screen without sideways scrolling; quick messages reach the opponent; a visitor watches a public
// table without logging in.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

/** How many pixels the page scrolls sideways (0: it fits). */
const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const size of L.SIZES) {
  test(
    `${size.name}: unlisted computer games, reserved names, header, profile, history`,
    {
      timeout: 180000,
    },
    async () => {
      const base = env.server.url;
      const opts = { viewport: size.viewport, hasTouch: size.hasTouch, isMobile: size.isMobile };
      const P = await L.newPlayer(env.browser, opts);
      const page = P.page;
      const problems = [];

      // "Computer" and a guest's name are refused, in the catalog's words for the code.
      await page.goto(`${base}#/login`);
      const form = page.locator('form[data-form="create-account"]');
      for (const [name, words] of [
        ['Computer', /username is reserved/],
        ['guest-a03f5062', /username is reserved/],
      ]) {
        await form.locator('input[name=username]').fill(name);
        await form.locator('input[name=password]').fill('correct horse 42');
        await form.locator('button[type=submit]').click();
        await page.waitForFunction(
          (w) =>
            new RegExp(w).test(
              document.querySelector('form[data-form="create-account"] .form-error')?.textContent ??
                '',
            ),
          words.source,
        );
      }
      const name = `pia_${size.name}`;
      await L.register(page, base, name);

      // A game against the computer is not in the public list of someone else's lobby.
      await L.playComputer(page, base, 'finkel');
      const watcher = await L.newPlayer(env.browser, opts);
      await watcher.page.goto(`${base}#/lobby`);
      await L.moreOptions(watcher.page);
      await watcher.page.click('button[data-action=refresh-tables]');
      await watcher.page.waitForFunction(() =>
        /No public tables right now/.test(document.querySelector('.tables')?.textContent ?? ''),
      );
      // Resign it, so that the history and the profile have a game.
      await page.click('button[data-action=resign]');
      await page.click('button[data-action=resign]');
      await L.waitTable(page, (d) => d.status === 'finished' || d.status === 'closed');

      // The header shows the name and rating on every size and leads to the profile.
      const who = page.locator('header .who');
      assert.ok(await who.isVisible(), 'the name is in the header');
      assert.match(await who.textContent(), new RegExp(`^${name} · \\d+`));
      await who.click();
      await page.waitForSelector('.profile h1');
      assert.equal(await page.textContent('.profile h1'), name);
      await page.waitForSelector('.game-card');
      assert.match(await page.textContent('.game-card'), /Lost[\s\S]*You resigned/);
      assert.ok(
        await page.isVisible('input[name=is-bot]'),
        'the bot switch is on one’s own profile',
      );
      assert.equal(await overflow(page), 0, 'the profile fits the screen');
      problems.push(...(await L.axeProblems(page, `${size.name} profile`)));
      await L.screenshot(page, `profile-${size.name}`);

      // The history: who resigned, whose accuracy, the rule set's name; no bot switch; no scroll.
      await page.goto(`${base}#/history/${name}`);
      await page.waitForSelector('table.history tbody tr');
      const row = await page.textContent('table.history tbody tr');
      assert.match(row, /Finkel/);
      assert.match(row, /You resigned/);
      assert.equal(await page.$('input[name=is-bot]'), null, 'no bot switch on the history');
      assert.equal(await overflow(page), 0, 'the history fits the screen');
      problems.push(...(await L.axeProblems(page, `${size.name} history`)));
      await L.screenshot(page, `history-${size.name}`);

      // Someone else's profile has no bot switch.
      await watcher.page.goto(`${base}#/profile/${name}`);
      await watcher.page.waitForSelector('.profile h1');
      assert.equal(await watcher.page.$('input[name=is-bot]'), null);

      assert.deepEqual(problems, []);
      // The two refused registrations are the only failed requests the console reports.
      const refused = P.errors.filter((e) => /status of 400 \(Bad Request\)/.test(e));
      assert.equal(refused.length, 2);
      assert.deepEqual(
        P.errors.filter((e) => !refused.includes(e)),
        [],
      );
      await P.context.close();
      await watcher.context.close();
    },
  );
}

test(
  'quick messages reach the opponent and a visitor watches a public table',
  {
    timeout: 180000,
  },
  async () => {
    const base = env.server.url;
    const A = await L.newGuest(env.browser, base, {
      viewport: L.SIZES[0].viewport,
      hasTouch: true,
    });
    const B = await L.newGuest(env.browser, base, { viewport: L.SIZES[1].viewport });
    await L.moreOptions(A.page);
    await A.page.selectOption('select[name=visibility]', 'public');
    await A.page.click('button[data-action=create-table]');
    const invite = A.page.locator('input.invite-link');
    await invite.waitFor({ state: 'visible' });
    const link = await invite.inputValue();
    const tableId = /table\/([0-9a-f]{16})/.exec(link)[1];
    await B.page.goto(link);
    await L.waitTable(B.page, (d) => d.status === 'playing' && d.you === '2');
    await L.waitTable(A.page, (d) => d.status === 'playing' && d.you === '1');

    await A.page.click('button[data-quick=good_luck]');
    await B.page.waitForFunction(() =>
      /: Good luck$/.test(document.querySelector('.quick-said')?.textContent ?? ''),
    );
    await A.page.waitForFunction(() =>
      /^You: Good luck$/.test(document.querySelector('.quick-said')?.textContent ?? ''),
    );
    // Muted, bob no longer sees alice's messages in this game.
    await B.page.click('button[data-action=mute]');
    await A.page.waitForTimeout(2100);
    await A.page.click('button[data-quick=well_played]');
    await A.page.waitForFunction(() =>
      /Well played/.test(document.querySelector('.quick-said')?.textContent ?? ''),
    );
    await B.page.waitForTimeout(500);
    assert.doesNotMatch((await B.page.textContent('.quick-said')) ?? '', /Well played/);
    await L.screenshot(A.page, 'quick-messages-phone');

    // bob's page goes away: alice sees him as disconnected, not as thinking.
    await B.context.close();
    await A.page.waitForFunction(() =>
      /disconnected/.test(document.querySelector('.presence-note')?.textContent ?? ''),
    );
    await L.screenshot(A.page, 'opponent-disconnected-phone');

    // A fresh visitor opens the public table and watches at once, with no login and no seat.
    const V = await L.newPlayer(env.browser, { viewport: L.SIZES[0].viewport, hasTouch: true });
    await V.page.goto(`${base}#/table/${tableId}`);
    await L.waitTable(V.page, (d) => d.role === 'spectator' && d.status === 'playing');
    assert.equal(await V.page.$('.auth-grid'), null, 'not asked to log in');
    assert.equal(await V.page.isVisible('.quick-row'), false, 'spectators send no messages');
    assert.deepEqual(V.errors, []);
    for (const P of [A, V]) await P.context.close();
  },
);
