// Measures the web client's budgets from a local server (not a test: timings never fail a test).
//   UR_BINARY=build/release/ur node tests/e2e/perf.mjs
// Prints the script size in bytes, uncompressed (what the first screen loads — the entry script
// and what it imports statically — against the budget of 100,000 bytes, and all of it), the first screen (navigation start → the lobby's Play button
// in the page, median of 5 cold loads, and of that the page's part: the entry script received →
// the Play button) and the answer to a tap (the click's timestamp → the next frame after its handler, median over the Throw
// and move taps of a short game).
//   UR_COMPARE=/path/to/other/dist UR_LOADS=20 ... node tests/e2e/perf.mjs
// also serves that other build (a second server) and alternates cold loads between the two, so
// that both meet the same load on the machine: the first screen of each, side by side.
//   UR_PAGE=puzzles ... node tests/e2e/perf.mjs
// measures the puzzle page's first screen instead (a cold load of #/puzzles, where the lobby's
// link leads → a puzzle's legal pieces on the board: the screens' script, the rule sets, the
// next puzzle and its board included), on a server whose data directory has Bell's table and
// 40 of its puzzles (the page's default: the one rule set with puzzles).
//   UR_RTT=150 UR_KBPS=1600 ... node tests/e2e/perf.mjs
// loads the first screens over an emulated network (Chromium's: each request's answer delayed by
// the round trip UR_RTT in ms, downloads at UR_KBPS kilobits a second), as a phone on a mobile
// network meets the site: what a loopback server hides, the requests made one after another and
// the bytes, shows.

import { cpSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as L from './lib.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Script bytes of a build: all of it, and what the first screen loads (the entry script that
 * index.html names, with the scripts it imports statically; dynamic imports come later).
 */
function scriptSize(root) {
  const dir = join(root, 'assets');
  const js = readdirSync(dir).filter((f) => f.endsWith('.js'));
  const size = (f) => statSync(join(dir, f)).size;
  const entry = /src="\.\/assets\/([^"]+\.js)"/.exec(
    readFileSync(join(root, 'index.html'), 'utf8'),
  );
  const first = new Set();
  const visit = (f) => {
    if (first.has(f)) return;
    first.add(f);
    const text = readFileSync(join(dir, f), 'utf8');
    for (const m of text.matchAll(
      /(?:^|;|\})import\s*(?:[^'"`()]*?from\s*)?["'`]\.\/([^"'`]+\.js)["'`]/g,
    ))
      visit(m[1]);
  };
  if (entry) visit(entry[1]);
  const sum = (fs) => [...fs].reduce((n, f) => n + size(f), 0);
  return { all: sum(js), first: sum(first), js };
}

const page = process.env.UR_PAGE ?? 'lobby';
const rtt = Number(process.env.UR_RTT ?? 0);
const kbps = Number(process.env.UR_KBPS ?? 0);
const network =
  rtt || kbps
    ? {
        offline: false,
        latency: rtt,
        downloadThroughput: kbps ? (kbps * 1000) / 8 : -1,
        uploadThroughput: kbps ? (kbps * 1000) / 8 : -1,
      }
    : null;
const SCREENS = {
  // The lobby: its Play button.
  lobby: { path: '', ready: 'button[data-action=play-now]' },
  // The puzzle page: the first puzzle's pieces that can move, ready to be tapped.
  puzzles: {
    path: '#/puzzles',
    ready: '.puzzle-solver[data-state=question] .piece.legal',
  },
};
const screen = SCREENS[page];
if (!screen) throw new Error(`UR_PAGE: ${page} is not one of ${Object.keys(SCREENS).join(', ')}`);

/** One cold load (a fresh context): ms from navigation start to the screen ready in the page. */
async function firstScreen(browser, url) {
  const P = await L.newPlayer(browser);
  if (network) {
    const cdp = await P.context.newCDPSession(P.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', network);
  }
  // Noted inside the page when the screen is first ready (the driver's own delay aside).
  await P.page.addInitScript((ready) => {
    new MutationObserver((_, obs) => {
      if (document.querySelector(ready)) {
        window.__firstScreen = performance.now();
        obs.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  }, screen.ready);
  await P.page.goto(url + screen.path);
  await P.page.waitForSelector(screen.ready);
  // And the page's own part: from the entry script received to the Play button (the rest is the
  // browser's: a new renderer, the requests; on a busy machine those dominate).
  const ms = await P.page.evaluate(() => {
    const js = performance
      .getEntriesByType('resource')
      .find((e) => e.initiatorType === 'script' || e.name.endsWith('.js'));
    return [window.__firstScreen, window.__firstScreen - (js?.responseEnd ?? 0)];
  });
  await P.context.close();
  return ms;
}

/**
 * The script budget (web/README.md): 100,000 bytes uncompressed, of the script loaded before the
 * first screen (the entry and its static imports); the other screens load later, on their own.
 */
const SCRIPT_BUDGET = 100_000;
const bytes = (n) => `${n.toLocaleString('en-US')} bytes`;
const budgetWord = (n) =>
  n <= SCRIPT_BUDGET
    ? `within the budget of ${bytes(SCRIPT_BUDGET)}`
    : `OVER the budget of ${bytes(SCRIPT_BUDGET)} by ${bytes(n - SCRIPT_BUDGET)}`;
const other = process.env.UR_COMPARE;
const loads = Number(process.env.UR_LOADS ?? 5);
// The puzzle page needs puzzles: Bell's table and 40 puzzles, a copy of them for each server.
const data = page === 'puzzles' ? L.bellWithPuzzles('ur-perf-puzzles-').dir : undefined;
const withData = (dir) => (dir ? { dataDir: dir, extraArgs: ['--no-puzzles'] } : {});
const otherData = data && other ? `${data}-other` : undefined;
if (otherData) cpSync(data, otherData, { recursive: true });
const server = await L.startServer({ idleTimeout: 60, botDelay: 50, ...withData(data) });
const otherServer = other
  ? await L.startServer({ idleTimeout: 60, webRoot: other, ...withData(otherData) })
  : null;
const browser = await L.launchBrowser();
try {
  const size = scriptSize(L.webRoot);
  console.log(
    `script before the first screen: ${bytes(size.first)} uncompressed, ${budgetWord(size.first)}; ` +
      `all scripts: ${bytes(size.all)} (${size.js.join(', ')})`,
  );
  const first = [];
  const firstOther = [];
  for (let i = 0; i < loads; i++) {
    // Alternate which build goes first, so that neither always meets a warmer machine.
    const pair = [
      async () => first.push(await firstScreen(browser, server.url)),
      async () => otherServer && firstOther.push(await firstScreen(browser, otherServer.url)),
    ];
    if (i % 2) pair.reverse();
    for (const run of pair) await run();
  }

  const P = await L.newPlayer(browser);
  await P.page.addInitScript(() => {
    window.__taps = [];
    document.addEventListener(
      'click',
      (e) => {
        const t0 = e.timeStamp;
        requestAnimationFrame(() => window.__taps.push(performance.now() - t0));
      },
      true,
    );
  });
  await P.page.goto(server.url);
  await P.page.click('button[data-action=play-now]');
  await L.waitTable(P.page, (d) => d.status === 'playing');
  for (let i = 0; i < 12; i++) {
    const st = await L.myTurn(P.page);
    if (st.status === 'finished') break;
    await L.clickTurn(P.page, st);
  }
  const taps = await P.page.evaluate(() => window.__taps);
  const line = (what, ms) =>
    `first screen (${page})${what}: median ${median(ms.map((m) => m[0])).toFixed(0)} ms of ${ms.map((m) => Math.round(m[0]))}; ` +
    `script received → ready: median ${median(ms.map((m) => m[1])).toFixed(0)} ms`;
  if (network) console.log(`over an emulated network: ${rtt} ms round trip, ${kbps || '∞'} kbit/s`);
  console.log(line('', first));
  if (otherServer) {
    const o = scriptSize(other);
    console.log(`${other}: script ${bytes(o.all)}, ${bytes(o.first)} before the first screen`);
    console.log(line(` of ${other}`, firstOther));
  }
  console.log(`taps (ms, in order): ${taps.map((t) => t.toFixed(0)).join(' ')}`);
  console.log(
    `tap answered: median ${median(taps).toFixed(1)} ms, max ${Math.max(...taps).toFixed(1)} ms over ${taps.length} taps`,
  );
  await P.context.close();
} finally {
  await browser.close();
  for (const s of [server, otherServer]) {
    await s?.stop();
    s?.cleanup();
  }
  for (const dir of [data, otherData]) if (dir) rmSync(dir, { recursive: true, force: true });
}
