// Friends at 390×844 (touch) and 1366×768: the header leads to the friends screen, a player
// follows another by name and sees them online, challenges them; the challenged player sees the
// challenge on whatever screen they are (here the leaderboard), accepts, and both pages go to the
// new table with a seat each; a declined challenge tells the challenger. The profile has Follow
// and Challenge. Followers are listed with Follow back; a player blocks another from the profile
// (the blocked player's challenge is refused, he leaves the lists) and unblocks from the friends
// screen. axe-core without serious violations; no sideways scrolling, also at 360×640.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });

const overflow = (page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

const friendRow = (page, name) =>
  page.locator(`.friends-list:not(.followers-list, .blocked-list) li[data-user="${name}"]`);
const buttonSays = (page, sel, text) =>
  page.waitForFunction(([s, t]) => document.querySelector(s)?.textContent === t, [sel, text]);
const toastSays = (page, text) =>
  page.waitForFunction(
    (t) => [...document.querySelectorAll('.toast')].some((el) => el.textContent.includes(t)),
    text,
  );

for (const size of L.SIZES) {
  test(`${size.name}: follow, who is online, challenge by name`, { timeout: 180000 }, async () => {
    const base = env.server.url;
    const opts = { viewport: size.viewport, hasTouch: size.hasTouch, isMobile: size.isMobile };
    const A = await L.newPlayer(env.browser, opts);
    const B = await L.newPlayer(env.browser, opts);
    const ann = `ann_${size.name}`,
      ben = `ben_${size.name}`;
    await L.register(A.page, base, ann);
    await L.register(B.page, base, ben);
    await B.page.goto(`${base}#/leaderboard`); // somewhere else on the site

    // The header leads to the friends screen on every size.
    const link = A.page.locator('header a.friends-link');
    assert.ok(await link.isVisible(), 'Friends is in the header');
    await link.click();
    await A.page.waitForSelector('.card.friends .hint');
    await A.page.fill('.follow-form input[name=username]', ben.toUpperCase());
    await A.page.click('.follow-form button');
    await friendRow(A.page, ben).waitFor();
    assert.match(await friendRow(A.page, ben).textContent(), /online/);
    assert.equal(await overflow(A.page), 0, 'the friends screen fits');
    const problems = await L.axeProblems(A.page, `${size.name} friends`);
    await L.screenshot(A.page, `friends-${size.name}`);

    // A challenge by name reaches ben on the leaderboard; he accepts; both go to the table.
    await friendRow(A.page, ben).locator('button[data-action=challenge]').click();
    await A.page.waitForSelector('.challenge-bar button[data-action=cancel-challenge]');
    const bar = B.page.locator('.challenge-bar');
    await bar.waitFor();
    assert.match(await bar.textContent(), new RegExp(`${ann} \\(1200\\) challenges you`));
    assert.equal(await overflow(B.page), 0, 'the challenge bar fits');
    problems.push(...(await L.axeProblems(B.page, `${size.name} challenge bar`)));
    await L.screenshot(B.page, `challenge-${size.name}`);
    await bar.locator('button[data-action=accept-challenge]').click();
    await L.waitTable(A.page, (d) => d.status === 'playing');
    await L.waitTable(B.page, (d) => d.status === 'playing');
    assert.equal(A.page.url().split('#')[1], B.page.url().split('#')[1], 'the same table');
    assert.equal(await B.page.$('.challenge-bar'), null, 'the bar is gone');
    await L.screenshot(A.page, `challenge-accepted-${size.name}`);

    // A declined challenge is said to the challenger.
    await B.page.goto(`${base}#/lobby`);
    await A.page.goto(`${base}#/profile/${ben}`);
    await A.page.waitForSelector('.profile-friend button[data-action=follow]');
    assert.equal(
      await A.page.textContent('.profile-friend button[data-action=follow]'),
      'Unfollow',
    );
    await A.page.click('.profile-friend button[data-action=challenge]');
    await B.page.click('.challenge-bar button[data-action=decline-challenge]');
    await A.page.waitForFunction(
      (b) =>
        [...document.querySelectorAll('.toast')].some((t) =>
          t.textContent.includes(`${b} declined`),
        ),
      ben,
    );
    assert.equal(await overflow(A.page), 0, 'the profile fits');
    problems.push(...(await L.axeProblems(A.page, `${size.name} profile with Follow`)));

    // Unfollowed from the profile, ben leaves the list.
    await A.page.click('.profile-friend button[data-action=follow]');
    await A.page.waitForFunction(
      () =>
        document.querySelector('.profile-friend button[data-action=follow]')?.textContent ===
        'Follow',
    );
    await A.page.goto(`${base}#/friends`);
    await A.page.waitForFunction(() =>
      /follow nobody/.test(document.querySelector('.card.friends')?.textContent ?? ''),
    );

    // ben follows ann: she sees him among her followers and follows back.
    await B.page.goto(`${base}#/profile/${ann}`);
    await B.page.click('.profile-friend button[data-action=follow]');
    await buttonSays(B.page, '.profile-friend button[data-action=follow]', 'Unfollow');
    await A.page.reload();
    const follower = A.page.locator(`.followers-list li[data-user="${ben}"]`);
    await follower.locator('button[data-action=follow-back]').click();
    await follower.getByText('you follow back').waitFor();
    await friendRow(A.page, ben).waitFor();
    assert.equal(await overflow(A.page), 0, 'the friends screen with followers fits');
    problems.push(...(await L.axeProblems(A.page, `${size.name} friends with followers`)));
    await L.screenshot(A.page, `friends-followers-${size.name}`);

    // ann blocks ben from his profile (Block asks first); his challenge is refused without a
    // word about the block, and he is gone from her lists but the block list.
    await A.page.goto(`${base}#/profile/${ben}`);
    const block = '.profile-friend button[data-action=block]';
    await A.page.click(block);
    await buttonSays(A.page, block, `Block ${ben}?`);
    await A.page.click(block);
    await buttonSays(A.page, block, 'Unblock');
    assert.ok(await A.page.isHidden('.profile-friend button[data-action=follow]'), 'no Follow');
    problems.push(...(await L.axeProblems(A.page, `${size.name} profile blocked`)));
    await L.screenshot(A.page, `profile-blocked-${size.name}`);
    await B.page.reload();
    await B.page.click('.profile-friend button[data-action=challenge]');
    await toastSays(B.page, 'does not accept your challenges');
    const toast = await B.page.textContent('.toast:last-of-type');
    assert.doesNotMatch(toast, /block/i, 'the blocked player is not told why');
    await A.page.goto(`${base}#/friends`);
    const blocked = A.page.locator(`.blocked-list li[data-user="${ben}"]`);
    await blocked.waitFor();
    await A.page.waitForFunction(() =>
      /follow nobody/.test(document.querySelector('.card.friends')?.textContent ?? ''),
    );
    assert.equal(await A.page.$(`.followers-list li[data-user="${ben}"]`), null, 'not a follower');
    assert.equal(await overflow(A.page), 0, 'the friends screen with a block fits');
    problems.push(...(await L.axeProblems(A.page, `${size.name} friends with a block`)));
    await L.screenshot(A.page, `friends-blocked-${size.name}`);
    await blocked.locator('button[data-action=unblock]').click();
    await blocked.waitFor({ state: 'detached' });

    assert.deepEqual(problems, []);
    assert.deepEqual(A.errors, []);
    assert.deepEqual(B.errors, []);
    await A.context.close();
    await B.context.close();
  });
}

test('the friends screen and a challenge fit 360×640', { timeout: 120000 }, async () => {
  const base = env.server.url;
  const opts = { viewport: { width: 360, height: 640 }, hasTouch: true, isMobile: true };
  const A = await L.newPlayer(env.browser, opts);
  const B = await L.newPlayer(env.browser, opts);
  await L.register(A.page, base, 'cleo_small');
  await L.register(B.page, base, 'a_rather_long_name_x');
  await A.page.click('header a.friends-link');
  await A.page.fill('.follow-form input[name=username]', 'a_rather_long_name_x');
  await A.page.click('.follow-form button');
  await friendRow(A.page, 'a_rather_long_name_x').waitFor();
  assert.equal(await overflow(A.page), 0, 'the friends screen fits 360 px');
  // The header keeps room for the player's own name: Leaderboard, Friends and Account are icons
  // there, each named for screen readers.
  const who = await A.page.$eval('header .who', (el) => el.getBoundingClientRect().width);
  assert.ok(who >= 80, `the player's name in the header is ${who} px wide`);
  for (const name of ['Leaderboard', 'Friends', 'Account'])
    assert.ok(await A.page.$(`header a[aria-label="${name}"]`), `the ${name} link`);
  await L.screenshot(A.page, 'friends-360');
  await friendRow(A.page, 'a_rather_long_name_x').locator('button[data-action=challenge]').click();
  await B.page.waitForSelector('.challenge-bar');
  assert.equal(await overflow(B.page), 0, 'the challenge bar fits 360 px');
  assert.equal(await overflow(A.page), 0, 'the waiting bar fits 360 px');
  await L.screenshot(B.page, 'challenge-360');
  // Cancelled by the challenger, the bar leaves the challenged page.
  await A.page.click('.challenge-bar button[data-action=cancel-challenge]');
  await B.page.waitForSelector('.challenge-bar', { state: 'detached' });
  assert.deepEqual(A.errors, []);
  assert.deepEqual(B.errors, []);
  await A.context.close();
  await B.context.close();
});
