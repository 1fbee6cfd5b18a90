// Share and download a finished game (issue 25): from the banner, the replay and the history, the
// game's link (the share sheet where there is one), its record as JSON and as text (one event per
// line, read back by `ur replay`) and its review as a PNG image.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

/** Clicks `selector` inside `scope` and returns the downloaded file's name and bytes. */
async function download(page, scope, selector) {
  const [dl] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`${scope} ${selector}`),
  ]);
  return { name: dl.suggestedFilename(), bytes: readFileSync(await dl.path()) };
}

test('a game shared and downloaded from the banner, the replay and the history', async () => {
  const P = await L.newPlayer(env.browser, { reducedMotion: 'reduce' });
  const page = P.page;
  await page.addInitScript(() => {
    window.__shared = [];
    navigator.share = async (data) => void window.__shared.push(data);
  });
  await L.register(page, env.server.url, 'sharer');
  await page.click('button[data-action=play-now]');
  await L.waitTable(page, (d) => d.status === 'playing');
  for (let i = 0; i < 6; i++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    await L.clickTurn(page, st);
  }
  const id = await page.$eval('.table-page', (el) => el.dataset.table);
  await page.click('button[data-action=resign]');
  await page.click('button[data-action=resign]');
  await page.waitForSelector('.banner .share-game');

  // The banner: the link to the share sheet, both records, the review image.
  await page.click('.banner .share-game > summary');
  await page.click('.banner button[data-action=share-game]');
  const shared = await page.evaluate(() => window.__shared);
  assert.equal(shared.length, 1);
  assert.ok(shared[0].url.endsWith(`#/replay/${id}`), shared[0].url);
  const json = await download(page, '.banner', 'a:text-is("Record (JSON)")');
  assert.equal(json.name, `ur-${id}.json`);
  const record = JSON.parse(json.bytes.toString('utf8'));
  assert.equal(record.format, 'ur-game');
  assert.equal(record.result.reason, 'resign');
  const text = await download(page, '.banner', 'a:text-is("Record (text)")');
  assert.equal(text.name, `ur-${id}.txt`);
  const lines = text.bytes.toString('utf8').split('\n');
  assert.equal(
    lines.filter((l) => /^\s*\{"player":/.test(l)).length,
    record.events.length,
    'one event per line',
  );
  // The engine reads the text form back.
  const replay = spawnSync(process.env.UR_BINARY, ['replay', '-'], {
    input: text.bytes,
    encoding: 'utf8',
  });
  assert.equal(replay.status, 0, replay.stderr);
  assert.match(replay.stdout, /^final:/m);
  const image = await download(page, '.banner', 'button[data-action=review-image]');
  assert.equal(image.name, `ur-${id}-review.png`);
  assert.deepEqual([...image.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], 'a PNG');
  assert.ok(
    image.bytes.length > 5000,
    `an image with something drawn (${image.bytes.length} bytes)`,
  );
  await L.screenshot(page, 'share-banner');

  // The replay and the history offer the same.
  await page.goto(`${env.server.url}#/replay/${id}`);
  await page.waitForSelector('.replay .share-game');
  await page.click('.replay .share-game > summary');
  const fromReplay = await download(page, '.replay', 'a:text-is("Record (JSON)")');
  assert.equal(fromReplay.name, `ur-${id}.json`);
  await page.goto(`${env.server.url}#/history/sharer`);
  await page.waitForSelector(`tr[data-game="${id}"] .share-game`);
  await page.click(`tr[data-game="${id}"] .share-game > summary`);
  const fromHistory = await download(page, `tr[data-game="${id}"]`, 'a:text-is("Record (text)")');
  assert.equal(fromHistory.name, `ur-${id}.txt`);
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
