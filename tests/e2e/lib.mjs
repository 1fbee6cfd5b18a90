// Shared helpers of the browser tests: a fresh `ur serve` per test file (its own data directory and
// port, serving web/dist), Debian's Chromium driven by playwright-core, and the steps a player
// takes (register, play as guest, roll, pick a glowing piece). Every wait is generous and no test
// asserts on timing.

import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { chromium } from 'playwright-core';
import { plain, tIn, tReIn } from './i18n.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '../..');
export const webRoot = process.env.UR_WEB_ROOT ?? join(repoRoot, 'web/dist');
const defaultWebRoot = webRoot;
export const screenshotDir = process.env.UR_SCREENSHOTS ?? join(repoRoot, 'build/screenshots');
const binary = process.env.UR_BINARY;

/**
 * The language the flow tests speak (UR_E2E_LANG: en, de, nl, fr, es or ar; English when unset),
 * and the browser locale that brings each one: `newPlayer` opens its pages in LANG's locale unless
 * a test names another, so `UR_E2E_LANG=ar scripts/e2e build/release/ur review.test.mjs` plays the
 * review's flow in Arabic (docs/languages.md, "The flows in every language").
 */
export const LOCALES = {
  en: 'en-GB',
  de: 'de-DE',
  nl: 'nl-NL',
  fr: 'fr-FR',
  es: 'es-ES',
  ar: 'ar-EG',
};
export const LANG = process.env.UR_E2E_LANG || 'en';
if (!Object.hasOwn(LOCALES, LANG))
  throw new Error(`UR_E2E_LANG=${LANG}: not one of ${Object.keys(LOCALES).join(', ')}`);

export { catalog, plain, tIn, tReIn } from './i18n.mjs';
/** The text of a catalog key in LANG, filled as the page fills it (i18n.mjs). */
export const t = (key, vars) => tIn(LANG, key, vars);
/** A pattern of a catalog text in LANG; placeholders not given match anything (i18n.mjs). */
export const tRe = (key, vars, options) => tReIn(LANG, key, vars, options);
/** A percentage as any language writes it ("57.3%", "57,3 %", "~57.3%"), for tRe's placeholders. */
export const PCT = /~?\d+(?:[.,]\d+)?\s?%/;
/** An element's text without the bidirectional marks a right-to-left page adds. */
export const text = async (page, selector) => plain(await page.textContent(selector));
/** Waits until the text of `selector` (without bidirectional marks) matches `pattern`. */
export function waitText(page, selector, pattern, { attribute } = {}) {
  return page.waitForFunction(
    ([sel, src, flags, attr]) => {
      const el = document.querySelector(sel);
      const words = (attr ? el?.getAttribute(attr) : el?.textContent) ?? '';
      return new RegExp(src, flags).test(words.replace(/[\u2066-\u2069\u200e\u200f\u061c]/g, ''));
    },
    [selector, pattern.source, pattern.flags, attribute],
  );
}
/** A pattern that is exactly `words`. */
export const exactly = (words) =>
  new RegExp(`^${words.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'u');

/**
 * Starts `ur serve` on a free port (serving webRoot, web/dist by default, with `extraArgs` after
 * the usual ones); resolves once it listens.
 */
export async function startServer({
  idleTimeout = 30,
  botDelay = 50,
  port = 0,
  dataDir,
  webRoot = defaultWebRoot,
  extraArgs = [],
} = {}) {
  if (!binary) throw new Error('UR_BINARY must name the ur binary (scripts/e2e sets it)');
  if (!existsSync(join(webRoot, 'index.html'))) throw new Error(`no web build at ${webRoot}`);
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'ur-e2e-'));
  const args = [
    'serve',
    '--port',
    String(port),
    '--data-dir',
    dir,
    '--web-root',
    webRoot,
    '--idle-timeout',
    String(idleTimeout),
    '--bot-delay',
    String(botDelay),
    '--quiet',
    ...extraArgs,
  ];
  const child = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  const url = await new Promise((res, rej) => {
    const timer = setTimeout(() => rej(new Error(`ur serve did not start:\n${log}`)), 20000);
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk) => {
      log += chunk;
      const m = /listening on (http:\/\/127\.0\.0\.1:(\d+)\/)/.exec(log);
      if (m) {
        clearTimeout(timer);
        res(m[1]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`ur serve exited with ${code}:\n${log}`));
    });
  });
  const server = {
    url,
    port: Number(new URL(url).port),
    dataDir: dir,
    log: () => log,
    async stop() {
      if (child.exitCode !== null) return;
      const done = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const t = setTimeout(() => child.kill('SIGKILL'), 8000);
      await done;
      clearTimeout(t);
    },
    cleanup() {
      if (!dataDir) rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}

/**
 * A data directory with Bell's table solved and `count` of its puzzles generated with a fixed seed
 * (`ur solve`, `ur puzzles generate`), for a server started on it with --no-puzzles: the review is
 * exact and the puzzles are known. Returns the directory and the puzzles as generated, answers
 * included.
 */
export function bellWithPuzzles(prefix, count = 40) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  mkdirSync(join(dir, 'tables'), { recursive: true });
  const run = (args) => {
    const r = spawnSync(binary, args, {
      encoding: 'utf8',
      env: { ...process.env, UR_DATA_DIR: dir },
    });
    if (r.status !== 0) throw new Error(`ur ${args.join(' ')}: ${r.stderr}`);
  };
  run(['solve', '--rules', 'bell']);
  const file = join(dir, 'puzzles.jsonl');
  const db = `sqlite:${join(dir, 'ur.db')}`;
  run(
    ['puzzles', 'generate', '--rules', 'bell', '--count', String(count), '--seed', '1'].concat([
      '--db',
      db,
      '-o',
      file,
    ]),
  );
  const puzzles = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line));
  return { dir, puzzles };
}

/** Debian's Chromium, headless; playwright gives every launch a fresh temporary profile. */
/**
 * A test file's fixture: a fresh server (startServer's options) and a browser, started before the
 * file's tests and stopped after them. Read them as env.server and env.browser inside tests.
 */
export function serverAndBrowser(options) {
  const env = { server: null, browser: null };
  before(async () => {
    env.server = await startServer(options);
    env.browser = await launchBrowser();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
    env.server?.cleanup();
  });
  return env;
}

export async function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.UR_CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-quic',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}

/** A new browser context (its own cookies) with one page; page errors are collected. */
export async function newPlayer(
  browser,
  {
    viewport = { width: 1280, height: 800 },
    reducedMotion = 'no-preference',
    hasTouch = false,
    isMobile = false,
    locale = LOCALES[LANG],
  } = {},
) {
  const context = await browser.newContext({
    viewport,
    reducedMotion,
    hasTouch,
    isMobile,
    locale,
    deviceScaleFactor: 1,
  });
  context.setDefaultTimeout(30000);
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  // Errors and warnings alike: a visitor's normal use must leave the console clean.
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/** Saves a screenshot as <name>.png (<name>-<LANG>.png when the flows run in another language). */
export async function screenshot(page, name) {
  mkdirSync(screenshotDir, { recursive: true });
  const path = join(screenshotDir, LANG === 'en' ? `${name}.png` : `${name}-${LANG}.png`);
  await page.screenshot({ path });
  return path;
}

export async function register(page, base, username, password = 'correct horse 42') {
  await page.goto(`${base}#/login`);
  const form = page.locator('form[data-form="create-account"]');
  await form.locator('input[name=username]').fill(username);
  await form.locator('input[name=password]').fill(password);
  await form.locator('button[type=submit]').click();
  await page.waitForSelector('.lobby');
  await page.waitForFunction(
    (u) => document.querySelector('header .who')?.textContent?.startsWith(u),
    username,
  );
}

/**
 * Chooses "Play as guest" on the login screen: the one the page shows (a table asks first), else
 * that of `base` or of the page's own server (the lobby no longer asks).
 */
export async function playAsGuest(page, base) {
  if (base || !(await page.$('.auth-grid'))) {
    const url = new URL(base ?? page.url());
    url.hash = '#/login';
    await page.goto(url.toString());
  }
  await page.click('button[data-action=play-guest]'); // in every language
}

/** A new player (newPlayer's options) who chose "Play as guest" and sees the lobby. */
export async function newGuest(browser, base, options) {
  const P = await newPlayer(browser, options);
  await P.page.goto(base);
  await playAsGuest(P.page);
  await P.page.waitForSelector('.lobby .rules-summary:not(:empty)', { state: 'attached' });
  return P;
}

/** Opens the lobby's "More ways to play" (rule set, Find Match, tables, the computer's level). */
export async function moreOptions(page) {
  await page.waitForSelector('.lobby details.more');
  if (!(await page.$eval('.lobby details.more', (d) => d.open)))
    await page.click('.lobby details.more > summary');
}

/**
 * From the lobby (opened afresh), starts a game of `rules` against the computer at `level`, seated
 * first, and waits until it is under way.
 */
export async function playComputer(page, base, rules, level = 'beginner') {
  await page.goto(`${base}#/lobby`);
  await page.waitForSelector('.lobby .rules-summary:not(:empty)', { state: 'attached' });
  await moreOptions(page);
  await page.selectOption('select[name=rules]', rules);
  await page.selectOption('select[name=level]', level);
  await page.click('button[data-action=play-computer]');
  await waitTable(page, (d) => d.status === 'playing' && d.you === '1');
}

/** The table screen's state, as the page publishes it on data attributes. */
export function tableState(page) {
  return page.$eval('.table-page', (el) => ({ ...el.dataset }));
}

export async function waitTable(page, predicate, arg) {
  await page.waitForFunction(
    ([src, a]) => {
      const el = document.querySelector('.table-page');
      if (!el) return false;
      // eslint-disable-next-line no-new-func
      return new Function('d', 'a', `return (${src})(d, a)`)({ ...el.dataset }, a);
    },
    [predicate.toString(), arg],
    { timeout: 30000 },
  );
}

/**
 * One look at the table screen: its published state, whether this page's player can act now (and
 * how), and a compact picture of the board as drawn (each square's pieces, each pile's count).
 */
export function look(page) {
  return page.evaluate(() => {
    const el = document.querySelector('.table-page');
    const d = el ? { ...el.dataset } : {};
    const roll = document.querySelector('button[data-action=roll]');
    const canRoll = !!roll && !roll.disabled;
    const legal = document.querySelectorAll('.piece.legal').length;
    const award = document.querySelectorAll('.award-row button').length;
    const ready = d.status === 'playing' && !!d.you && d.toAct === d.you && d.busy !== '1';
    const parts = [];
    for (const cell of document.querySelectorAll('.board [data-cell]')) {
      const pieces = [...cell.querySelectorAll('.piece')].map(
        (p) =>
          `${p.classList.contains('s1') ? 'R' : 'S'}${p.querySelector('.count')?.textContent ?? '1'}`,
      );
      if (pieces.length) parts.push(`${cell.dataset.cell}=${pieces.join('+')}`);
    }
    for (const pile of document.querySelectorAll('[data-pile]'))
      parts.push(`${pile.dataset.pile}=${pile.querySelectorAll('.piece').length}`);
    // Where the board and the panel stand: must not move while playing.
    const rects = ['.board', '.panel'].map((sel) =>
      document.querySelector(sel)?.getBoundingClientRect(),
    );
    const layout = rects.every(Boolean)
      ? rects
          .flatMap((r) => [r.x, r.y, r.width, r.height])
          .map(Math.round)
          .join(',')
      : '';
    return {
      ...d,
      layout,
      canRoll,
      legal,
      award,
      canAct: ready && (canRoll || legal > 0 || award > 0),
      sig: parts.join(' '),
    };
  });
}

/**
 * Waits until this page's player may act (the other seat has moved and the animations are done:
 * the Roll button, a glowing piece or an award button is ready) or the game is over; then looks.
 */
export async function myTurn(page) {
  await page.waitForFunction(
    () => {
      const d = document.querySelector('.table-page')?.dataset;
      if (!d) return false;
      if (d.status === 'finished') return true;
      const roll = document.querySelector('button[data-action=roll]');
      return (
        d.toAct === d.you &&
        d.busy !== '1' &&
        ((roll && !roll.disabled) ||
          document.querySelector('.piece.legal, .award-row button') !== null)
      );
    },
    null,
    { timeout: 30000 },
  );
  return look(page);
}

/** Whether this page's player must act now and the screen is ready for it. */
export async function canAct(page) {
  return (await look(page))?.canAct ?? false;
}

/**
 * Takes one action by clicking, as a player would: the Roll button, else a glowing piece (the most
 * advanced one, which ends games sooner), else the award button. Waits until the table's version
 * moves on and returns the new version.
 */
export async function clickTurn(page, seen) {
  const st = seen ?? (await look(page));
  if (st.canRoll) await page.click('button[data-action=roll]');
  else if (st.legal > 0)
    await page
      .locator('.piece.legal')
      .nth(st.legal - 1)
      .click();
  else await page.locator('.award-row button').first().click();
  await waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
  return (await tableState(page)).version;
}

/** The board as drawn, for comparing two pages. */
export async function boardSignature(page) {
  return (await look(page)).sig;
}

/** Waits until every page shows at least `version`, then looks at each. */
export async function lookAll(pages, version) {
  await Promise.all(
    pages.map((p) => waitTable(p, (d, v) => Number(d.version) >= Number(v), version)),
  );
  return Promise.all(pages.map((p) => look(p)));
}

/**
 * The position after each event of a game record, as `GET /api/games/<id>/positions` is to send
 * them, computed by the engine itself: `ur replay` of each prefix of the record prints its final
 * position. Used to stand in for the endpoint on a server that does not have it yet.
 */
export function positionsByReplay(record) {
  const dir = mkdtempSync(join(tmpdir(), 'ur-replay-'));
  try {
    const positions = [];
    for (let i = 0; i < record.events.length; i++) {
      const file = join(dir, 'prefix.json');
      writeFileSync(
        file,
        JSON.stringify({
          ...record,
          events: record.events.slice(0, i + 1),
          result: undefined,
        }),
      );
      const out = spawnSync(binary, ['replay', file], { encoding: 'utf8' });
      const m = /^final:\s+(\S+)/m.exec(out.stdout);
      if (out.status !== 0 || !m) throw new Error(`ur replay failed at event ${i}: ${out.stderr}`);
      positions.push({ event: i, position: m[1] });
    }
    return positions;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Which collected console lines count. Every one does: a visitor without a session no longer meets
 * a refused request (401), and the server reviews every finished game (exact or estimated).
 */
export const realError = () => true;

/** Whether the whole board (and its piles) lies inside the viewport, with nothing to scroll. */
export function boardFits(page) {
  return page.evaluate(() => {
    const rects = ['.board', '[data-pile="home:1"]', '[data-pile="off:2"]'].map((s) =>
      document.querySelector(s)?.getBoundingClientRect(),
    );
    const inside = rects.every(
      (r) =>
        r &&
        r.width > 0 &&
        r.left >= -0.5 &&
        r.top >= -0.5 &&
        r.right <= window.innerWidth + 0.5 &&
        r.bottom <= window.innerHeight + 0.5,
    );
    const el = document.documentElement;
    return {
      inside,
      scrolls:
        el.scrollWidth > window.innerWidth + 0.5 || el.scrollHeight > window.innerHeight + 0.5,
      rects: rects.map((r) => r && [r.left, r.top, r.right, r.bottom].map(Math.round)),
    };
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** The two sizes most browser tests look at: a phone held upright (touch) and a laptop. */
export const SIZES = [
  { name: 'phone', viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true },
  { name: 'laptop', viewport: { width: 1366, height: 768 } },
];

/** axe-core's serious and critical findings on the page as it is, each named with `what`. */
export async function axeProblems(page, what) {
  // Legacy mode runs axe.run in the page itself. The default gathers each frame's results and
  // finishes them in a new blank page, which costs ~2 s a look on 2 cores; our pages have no
  // frames, so both modes see the same document and report the same findings.
  const { violations } = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target).join(' ')}`);
}
