// A phone held upright (390×844, touch) is as good as a laptop (issue 25): at the table the tools
// row (Hint, Show path) and the move log are shown beside the standing board, the countdown line
// is never cut, no seat name breaks inside a word; the waiting-for-opponent bar keeps "How to
// play" whole and does not cover "Copy link", and offers the share sheet where the browser has
// one. And no page scrolls sideways at 360×640: every route of web/src/logic/route.ts (the test
// fails when a route is added without a page here), the table both waiting and finished; and
// axe-core finds no serious or critical violation on any of them. The page and its scripts
// come in the build's compressed copies.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { AxeBuilder } from '@axe-core/playwright';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 50 });
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

/** Whether `sel` is wholly inside the viewport and not clipped by its own box. */
function whole(page, sel) {
  return page.$eval(sel, (el) => {
    const r = el.getBoundingClientRect();
    return {
      visible: r.width > 0 && r.height > 0,
      inside: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
      cut: el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1,
      text: el.textContent,
    };
  });
}

/** Words of the element's text that the layout split over two lines. */
function brokenWords(page, sel) {
  return page.$$eval(sel, (els) =>
    els.flatMap((el) => {
      const out = [];
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode())
        for (const m of node.textContent.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) out.push(m[0]);
        }
      return out;
    }),
  );
}

// A phone on a slow line downloads a third of the bytes: every script, style sheet and the page
// arrive in the build's Brotli or gzip copy, as the browser asked, and decode to the built file.
test('on a phone the page and its scripts arrive compressed', async () => {
  const P = await L.newPlayer(env.browser, PHONE);
  const seen = [];
  P.page.on('response', async (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/' || /\.(js|css)$/.test(path))
      seen.push({ path, headers: await r.allHeaders() });
  });
  await P.page.goto(env.server.url);
  await P.page.waitForSelector('button[data-action=play-now]');
  await P.context.close();
  assert.ok(seen.length >= 3, JSON.stringify(seen));
  for (const { path, headers } of seen)
    assert.match(
      headers['content-encoding'] ?? '',
      /^(br|gzip)$/,
      `${path} ${JSON.stringify(headers)}`,
    );

  const files = ['index.html', ...readdirSync(join(L.webRoot, 'assets')).map((f) => `assets/${f}`)];
  const sent = { br: 0, gzip: 0 };
  let whole = 0;
  for (const file of files.filter((f) => /\.(html|js|css)$/.test(f))) {
    const built = readFileSync(join(L.webRoot, file));
    for (const [coding, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ]) {
      const res = await rawGet(`${env.server.url}${file === 'index.html' ? '' : file}`, coding);
      if (built.length < 1024) continue; // too small to be worth a copy
      assert.equal(res.headers.vary, 'Accept-Encoding', file);
      assert.equal(res.headers['content-encoding'], coding, file);
      assert.ok(decode(res.body).equals(built), `${file} in ${coding} is not the built file`);
      sent[coding] += res.body.length;
    }
    whole += built.length;
  }
  for (const coding of ['br', 'gzip'])
    assert.ok(sent[coding] < whole / 2, `${coding}: ${sent[coding]} bytes of ${whole}`);
});

/** A GET with `Accept-Encoding: coding`, its body as sent (fetch would decode it). */
function rawGet(url, coding) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': coding } }, (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

test('at the table on a phone: tools, move log, whole names and countdown', async () => {
  const P = await L.newPlayer(env.browser, { ...PHONE, reducedMotion: 'reduce' });
  const page = P.page;
  await page.goto(env.server.url);
  await page.click('button[data-action=play-now]');
  await L.waitTable(page, (d) => d.status === 'playing');
  for (let i = 0; i < 4; i++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    await L.clickTurn(page, st);
  }
  await L.myTurn(page);
  await L.screenshot(page, 'phone-table');
  for (const sel of ['button[data-action=path]', 'button[data-action=hint]', '.table-page .log']) {
    const w = await whole(page, sel).catch(() => null);
    assert.ok(w?.visible && w.inside, `${sel} shown on the phone: ${JSON.stringify(w)}`);
  }
  assert.ok((await page.$$('.table-page .log li')).length > 0, 'the log has moves');
  assert.deepEqual(await brokenWords(page, '.seat-name'), [], 'no name broken inside a word');
  const fit = await L.boardFits(page);
  assert.ok(fit.inside && !fit.scrolls, `the board fits: ${JSON.stringify(fit)}`);
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test('the countdown on a phone is not cut', async () => {
  // Two people: the clock runs (there is none against the computer).
  const A = await L.newGuest(env.browser, env.server.url, PHONE);
  const B = await L.newGuest(env.browser, env.server.url, PHONE);
  await L.moreOptions(A.page);
  await A.page.click('button[data-action=create-table]');
  const invite = A.page.locator('input.invite-link');
  await invite.waitFor({ state: 'visible' });
  await B.page.goto(await invite.inputValue());
  await L.waitTable(A.page, (d) => d.status === 'playing');
  const who = (await L.tableState(A.page)).toAct === (await L.tableState(A.page)).you ? A : B;
  await who.page.waitForSelector('.countdown:not(:empty)');
  const w = await whole(who.page, '.countdown');
  assert.ok(w.visible && !w.cut, `the countdown whole: ${JSON.stringify(w)}`);
  assert.match(w.text, /^You have \d+ s to act$/);
  await L.screenshot(who.page, 'phone-countdown');
  await A.context.close();
  await B.context.close();
});

test('waiting for an opponent on a phone: How to play, Copy link, Share', async () => {
  const P = await L.newGuest(env.browser, env.server.url, PHONE);
  const page = P.page;
  // A share sheet, as phones have (headless Chromium has none): it records what it was given.
  await page.addInitScript(() => {
    window.__shared = [];
    navigator.share = async (data) => void window.__shared.push(data);
  });
  await page.reload();
  await L.moreOptions(page);
  await page.click('button[data-action=create-table]');
  await page.waitForSelector('input.invite-link');
  const howto = await whole(page, '.howto-link');
  assert.ok(howto.visible && howto.inside && !howto.cut, `How to play: ${JSON.stringify(howto)}`);
  // Nothing lies over "Copy link": the element at its centre is the button itself.
  const onTop = await page.$eval('button[data-action=copy-invite]', (b) => {
    const r = b.getBoundingClientRect();
    const at = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.right <= innerWidth && (at === b || b.contains(at));
  });
  assert.ok(onTop, 'Copy link is whole and uncovered');
  await page.click('button[data-action=share-invite]');
  const shared = await page.evaluate(() => window.__shared);
  assert.equal(shared.length, 1);
  assert.equal(shared[0].url, await page.inputValue('input.invite-link'));
  await L.screenshot(page, 'phone-waiting');
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});

test(
  'no page scrolls sideways at 360×640, and axe-core finds nothing serious on any',
  { timeout: 180000 },
  async () => {
    const P = await L.newGuest(env.browser, env.server.url, {
      viewport: { width: 360, height: 640 },
      hasTouch: true,
      isMobile: true,
      reducedMotion: 'reduce',
    });
    const page = P.page;
    const base = env.server.url;
    // A finished game for the table, the replay and the history, played by the account (a game
    // against the computer is private: only its player sees its table).
    await L.register(page, base, 'phone_player');
    await page.click('button[data-action=play-now]');
    await L.waitTable(page, (d) => d.status === 'playing');
    const id = await page.$eval('.table-page', (el) => el.dataset.table);
    await page.click('button[data-action=resign]');
    await page.click('button[data-action=resign]');
    await page.waitForSelector('.banner');
    // A table waiting for its second player (its invite bar), a follower and a blocked player for
    // the friends screen, and the administrator's pages.
    await page.goto(`${base}#/lobby`);
    await L.moreOptions(page);
    await page.click('button[data-action=create-table]');
    await page.waitForSelector('input.invite-link');
    const waiting = await page.$eval('.table-page', (el) => el.dataset.table);
    const other = await L.newGuest(env.browser, base, { viewport: { width: 360, height: 640 } });
    await L.register(other.page, base, 'a_rather_long_name_y');
    for (const [what, body] of [
      ['friends', { username: 'phone_player', follow: true }],
      ['blocks', { username: 'phone_player', block: true }],
    ])
      await other.page.evaluate(
        ([w, b]) =>
          fetch(`/api/${w}`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify(b),
          }),
        [what, body],
      );
    await page.evaluate(() =>
      fetch('/api/blocks', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'a_rather_long_name_y', block: true }),
      }),
    );
    await other.context.close();
    execFileSync(process.env.UR_BINARY, [
      'admin',
      'grant',
      'phone_player',
      '--db',
      join(env.server.dataDir, 'ur.db'),
    ]);
    const pages = {
      lobby: ['#/lobby', '.lobby'],
      login: ['#/login', '.auth-grid'],
      table: [`#/table/${id}`, '.table-page .board'],
      'table (waiting)': [`#/table/${waiting}`, 'input.invite-link'],
      leaderboard: ['#/leaderboard', 'main table, main .card'],
      friends: ['#/friends', '.blocked-list li'],
      history: ['#/history/phone_player', 'main .card, main table'],
      profile: ['#/profile/phone_player', '.card.profile'],
      'profile (another)': [
        '#/profile/a_rather_long_name_y',
        '.profile-friend button[data-action=block]',
      ],
      replay: [`#/replay/${id}`, '.replay-host .board'],
      howto: ['#/rules/finkel', '.howto-section'],
      explore: ['#/explore?rules=finkel&position=start', '.explorer, .explore-form'],
      puzzles: ['#/puzzles', 'section.puzzles h1'],
      mistakes: [`#/mistakes/${id}?seat=1`, 'section.mistakes h1'],
      account: ['#/account', '.account-head'],
      admin: ['#/admin/phone_player', '[data-part=audit]'],
      not_found: ['#/nowhere', 'main'],
    };
    // Every route the client knows has a page above.
    const routes = readFileSync(join(L.repoRoot, 'web/src/logic/route.ts'), 'utf8');
    const names = new Set([...routes.matchAll(/\bname: '(\w+)'/g)].map((m) => m[1]));
    const covered = new Set(Object.keys(pages).map((k) => k.split(' ')[0]));
    assert.deepEqual(
      [...names].filter((n) => !covered.has(n)),
      [],
      'routes without a page in this test',
    );
    const wide = [];
    const axe = [];
    for (const [name, [hash, sel]] of Object.entries(pages)) {
      await page.goto(`${base}${hash}`);
      await page.waitForSelector(sel);
      await L.sleep(300);
      const w = await page.evaluate(() => document.documentElement.scrollWidth);
      if (w > 360) wide.push(`${name}: ${w}px`);
      const { violations } = await new AxeBuilder({ page }).analyze();
      for (const v of violations)
        if (v.impact === 'serious' || v.impact === 'critical')
          axe.push(`${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`);
      await L.screenshot(page, `narrow-${name.replace(/\W+/g, '-')}`);
    }
    assert.deepEqual(wide, [], 'pages wider than the screen');
    assert.deepEqual(axe, [], 'axe-core: serious violations');
    await P.context.close();
  },
);
