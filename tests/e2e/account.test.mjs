// The account page and the admin page (docs/server.md, "Your account" and "Moderation") on a
// phone held upright (390×844, touch) and on a laptop (1366×768), axe-core clean: a player
// reaches the account page from the header, changes the password, downloads the data; an
// operator makes them an administrator with `ur admin grant`, and they ban, unban and rename
// another player from the admin page, which lists every action; then they delete their account.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({});

/** Nothing wider than the viewport: no sideways scrolling of the page. */
async function fitsWidth(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

function grant(name) {
  const db = join(env.server.dataDir, 'ur.db');
  execFileSync(process.env.UR_BINARY, ['admin', 'grant', name, '--db', db]);
}

async function submit(page, form, said) {
  await page.locator(`form[data-form="${form}"] button[type=submit]`).click();
  await page.waitForFunction(
    ([f, s]) => document.querySelector(`form[data-form="${f}"] .form-said`)?.textContent === s,
    [form, said],
  );
}

for (const [i, size] of L.SIZES.entries()) {
  test(`account and admin pages, ${size.name}`, { timeout: 180000 }, async () => {
    const P = await L.newPlayer(env.browser, size);
    const page = P.page;
    const base = env.server.url;
    const me = `keeper${i}`;
    const other = `rascal${i}`;
    const O = await L.newPlayer(env.browser, size);
    await L.register(O.page, base, other);
    await L.register(page, base, me);
    const problems = [];

    await page.locator('header a.account-link').click();
    await page.waitForSelector('form[data-form="change-password"]');
    problems.push(...(await L.axeProblems(page, 'account')));
    assert.ok(await fitsWidth(page), 'the account page fits the width');
    await L.screenshot(page, `account-${size.name}`);

    const pw = page.locator('form[data-form="change-password"]');
    await pw.locator('input[name=old_password]').fill('correct horse 42');
    await pw.locator('input[name=new_password]').fill('staple battery 9');
    await submit(page, 'change-password', 'Password changed.');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('a[data-action=export]').click(),
    ]);
    assert.equal(download.suggestedFilename(), `ur-account-${me}.json`);

    grant(me);
    await page.reload();
    await page.locator('a[data-action=admin]').click();
    await page.waitForSelector('[data-part=audit]');
    await page.locator('form[data-form="admin-search"] input[name=username]').fill(other);
    await page.locator('form[data-form="admin-search"] button[type=submit]').click();
    await page.waitForSelector(`.admin-account[data-user="${other}"]`);
    await page.locator('form[data-form=ban] input[name=reason]').fill('spam in the lobby');
    await page.locator('form[data-form=ban] button[type=submit]').click();
    await page.waitForSelector('form[data-form=unban]');
    problems.push(...(await L.axeProblems(page, 'admin')));
    assert.ok(await fitsWidth(page), 'the admin page fits the width');
    await L.screenshot(page, `admin-${size.name}`);
    await page.locator('form[data-form=unban] button[type=submit]').click();
    await page.waitForSelector('form[data-form=ban]');
    const renamed = `${other}x`;
    await page.locator('form[data-form=rename] input[name=new_username]').fill(renamed);
    await page.locator('form[data-form=rename] button[type=submit]').click();
    await page.waitForSelector(`.admin-account[data-user="${renamed}"]`);
    await page.waitForFunction(
      () => document.querySelectorAll('[data-part=audit] tbody tr').length >= 4,
    );
    const audit = await page.$$eval('[data-part=audit] tbody tr', (rows) =>
      rows.map((r) => [...r.cells].map((c) => c.textContent)),
    );
    assert.deepEqual(
      audit.slice(0, 3).map((r) => [r[1], r[2], r[3]]),
      [
        [me, L.t('admin.act.rename'), other],
        [me, L.t('admin.act.unban'), other],
        [me, L.t('admin.act.ban'), other],
      ],
    );
    // The stored codes stay in the cells' data (the words are the page's).
    const codes = await page.$$eval('[data-part=audit] tbody tr [data-code]', (cells) =>
      cells.slice(0, 3).map((c) => c.dataset.code),
    );
    assert.deepEqual(codes, ['rename', 'unban', 'ban']);
    assert.equal(audit[0][4], `${other} -> ${renamed}`);

    await page.goto(`${base}#/account`);
    const del = page.locator('form[data-form="delete-account"]');
    await del.locator('input[name=password]').fill('staple battery 9');
    await del.locator('input[name=sure]').check();
    await del.locator('button[type=submit]').click();
    await page.waitForSelector('.lobby');
    await page.waitForFunction(
      () => !document.querySelector('header a.account-link:not([hidden])'),
    );
    assert.deepEqual(problems, []);
    assert.deepEqual(P.errors.filter(L.realError), []);
    await P.context.close();
    await O.context.close();
  });
}
