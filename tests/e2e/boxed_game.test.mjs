// The boxed game against the computer, played by clicking: a counter that lands on a rosette
// while another waits off the board offers the award as two buttons (enter a counter onto S, or
// decline); the player takes the first award and declines the second, and the board, the log and
// the status line follow. When the computer lands on a forfeit square, the player chooses which
// counter moves 4 by clicking a glowing one. Plays on until both awards were answered.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 60, botDelay: 20 });

/** Counters in seat 1's Home pile (not entered yet), as drawn. */
const homeCount = (sig) => Number(/(?:^| )home:1=(\d+)/.exec(sig)?.[1] ?? NaN);

test('the boxed game: award buttons and forfeit choices', { timeout: 240000 }, async () => {
  const P = await L.newGuest(env.browser, env.server.url, { reducedMotion: 'reduce' });
  const page = P.page;
  let taken = false;
  let declined = false;
  let forfeitChoices = 0;
  // A game rarely ends without a rosette award; play another one if it does.
  for (let game = 0; game < 4 && !(taken && declined); game++) {
    await L.playComputer(page, env.server.url, 'boxed');
    for (let guard = 0; guard < 3000 && !(taken && declined); guard++) {
      const st = await L.myTurn(page);
      if (st.status === 'finished') break;
      if (st.phase === 'awaiting_forfeit') forfeitChoices++;
      if (st.award === 0) {
        await L.clickTurn(page, st);
        continue;
      }
      // The award: two buttons, the status line says what they are for.
      const labels = await page.locator('.award-row button').allTextContents();
      assert.deepEqual(labels, ['Enter a counter onto S', 'Decline']);
      assert.match(await page.textContent('.status-main'), /Rosette award/);
      assert.equal(st.legal, 0, 'no piece glows while the award is open');
      const take = !taken;
      if (take) await L.screenshot(page, 'boxed-award');
      await page.click(`.award-row button[data-action=${take ? 'award_yes' : 'award_no'}]`);
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
      const after = await L.look(page);
      assert.equal(after.award, 0, 'the buttons go once answered');
      assert.notEqual(after.phase, 'awaiting_award');
      // An award won in a forfeit response is answered in the computer's turn, which then goes
      // on at once and may hit a counter back Home: the drawn count shows the answer alone only
      // when the answer is the one version drawn since.
      const alone = Number(after.version) === Number(st.version) + 1;
      const home = homeCount(after.sig);
      if (take) {
        if (alone) assert.equal(home, homeCount(st.sig) - 1, 'a counter left Home for S');
        assert.match(await page.textContent('.log'), /You take the award: a counter enters S/);
        taken = true;
      } else {
        if (alone) assert.equal(home, homeCount(st.sig), 'declining enters nothing');
        assert.match(await page.textContent('.log'), /You decline the award/);
        declined = true;
      }
    }
  }
  assert.ok(taken && declined, 'an award was taken and one declined');
  console.log(`boxed: ${forfeitChoices} forfeit choice(s) made by clicking`);
  assert.deepEqual(P.errors.filter(L.realError), [], 'no script errors');
  await P.context.close();
});
