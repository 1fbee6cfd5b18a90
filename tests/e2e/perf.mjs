// Measures the web client's budgets from a local server (not a test: timings never fail a test).
//   UR_BINARY=build/release/ur node tests/e2e/perf.mjs
// Prints the first screen (navigation start → the lobby's Play button in the page, median of 5
// cold loads), the script size (uncompressed) and the answer to a tap (the click's timestamp →
// the next frame after its handler, median over the Throw and move taps of a short game).

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import * as L from './lib.mjs';

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await L.startServer({ idleTimeout: 60, botDelay: 50 });
const browser = await L.launchBrowser();
try {
  const assets = join(L.webRoot, 'assets');
  const js = readdirSync(assets).filter((f) => f.endsWith('.js'));
  const bytes = js.reduce((n, f) => n + statSync(join(assets, f)).size, 0);

  const first = [];
  for (let i = 0; i < 5; i++) {
    const P = await L.newPlayer(browser);
    // Noted inside the page when the Play button is first there (the driver's own delay aside).
    await P.page.addInitScript(() => {
      new MutationObserver((_, obs) => {
        if (document.querySelector('button[data-action=play-now]')) {
          window.__firstScreen = performance.now();
          obs.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await P.page.goto(server.url);
    await P.page.waitForSelector('button[data-action=play-now]');
    first.push(await P.page.evaluate(() => window.__firstScreen));
    await P.context.close();
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
  console.log(`script: ${(bytes / 1024).toFixed(1)} KiB uncompressed (${js.join(', ')})`);
  console.log(`first screen: median ${median(first).toFixed(0)} ms of ${first.map(Math.round)}`);
  console.log(`taps (ms, in order): ${taps.map((t) => t.toFixed(0)).join(' ')}`);
  console.log(
    `tap answered: median ${median(taps).toFixed(1)} ms, max ${Math.max(...taps).toFixed(1)} ms over ${taps.length} taps`,
  );
  await P.context.close();
} finally {
  await browser.close();
  await server.stop();
  server.cleanup();
}
