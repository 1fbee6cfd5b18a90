// Two players on one phone (pass and play): a visitor opens the lobby, starts "Two players on this
// device" with two names, and the two sides play a whole Finkel game by tapping, each in turn; the
// prompt names the side to act. One move is taken back with Undo: the same throw waits for a
// decision again. At the end the banner names the winner and "Play again" starts a new table with
// the names on the other colours. axe-core finds nothing serious; the console stays clean.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import * as L from './lib.mjs';

const env = L.serverAndBrowser({ idleTimeout: 2, botDelay: 50 });

test('pass and play: a whole game on one phone, with one undo', { timeout: 300000 }, async () => {
  const P = await L.newPlayer(env.browser, {
    viewport: { width: 390, height: 844 },
    hasTouch: true,
    isMobile: true,
    reducedMotion: 'reduce',
  });
  const page = P.page;
  await page.goto(env.server.url);
  await page.waitForSelector('.lobby .rules-summary:not(:empty)', { state: 'attached' });
  await L.moreOptions(page);
  await page.selectOption('select[name=rules]', 'finkel');
  await page.fill('input[name=name1]', 'Ann');
  await page.fill('input[name=name2]', 'Bob');
  await L.screenshot(page, 'pass-and-play-lobby-phone-portrait');
  await page.locator('button[data-action=pass-and-play]').tap();
  await L.waitTable(page, (d) => d.status === 'playing');
  await page.waitForSelector('.table-page.local');
  assert.match(await L.text(page, '.table-status'), L.tRe('table.local'));
  assert.equal(await page.textContent('.seat-box.s1 .seat-name'), 'Ann', 'no "You": both are');
  assert.equal(await page.textContent('.seat-box.s2 .seat-name'), 'Bob');
  assert.equal(await L.text(page, '.status-main'), `Ann — ${L.t('table.prompt.throw')}`);
  assert.equal(await page.isVisible('button[data-action=undo]'), true);
  assert.equal(await page.isDisabled('button[data-action=undo]'), true, 'nothing to undo yet');
  assert.equal(await page.isVisible('button[data-action=visibility]'), false, 'never public');
  const fit = await L.boardFits(page);
  assert.ok(fit.inside && !fit.scrolls, `the board fits: ${JSON.stringify(fit)}`);

  let actions = 0;
  let undone = false;
  let shot = false;
  const sides = new Set();
  for (let guard = 0; guard < 3000; guard++) {
    const st = await L.myTurn(page);
    if (st.status === 'finished') break;
    sides.add(st.toAct);
    const name = st.toAct === '1' ? 'Ann' : 'Bob';
    assert.ok(
      (await L.text(page, '.status-main')).startsWith(`${name} — `),
      'the prompt names the side to act',
    );
    assert.ok(
      await page.$eval(`.seat-box.s${st.toAct}`, (el) => el.classList.contains('to-act')),
      'the seat to act is marked',
    );
    if (st.canRoll) await page.locator('button[data-action=roll]').tap();
    else {
      if (!shot && actions > 30) {
        shot = true;
        await L.screenshot(page, 'pass-and-play-phone-portrait');
        const { violations } = await new AxeBuilder({ page }).analyze();
        const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        assert.deepEqual(
          bad.map((v) => v.id),
          [],
          'axe: the pass-and-play table',
        );
      }
      // The move to take back, and the next throw, run with the animations on.
      if (!undone && actions > 6) await page.emulateMedia({ reducedMotion: 'no-preference' });
      await page
        .locator('.piece.legal')
        .nth(st.legal - 1)
        .tap();
    }
    const dice = await page.textContent('.dice-sum');
    await L.waitTable(page, (d, v) => Number(d.version) > Number(v), st.version);
    actions++;
    if (!undone && !st.canRoll && actions > 6) {
      // Take that move back (and the throw after it): the same throw waits for a decision again.
      let after = await L.myTurn(page);
      if (after.status !== 'playing') continue;
      if (after.canRoll) {
        await page.locator('button[data-action=roll]').tap();
        await L.waitTable(page, (d, v) => Number(d.version) > Number(v), after.version);
        after = await L.myTurn(page);
        if (after.status !== 'playing') continue;
      }
      await page.locator('button[data-action=undo]:not([disabled])').tap();
      await L.waitTable(page, (d, v) => Number(d.version) > Number(v), after.version);
      const back = await L.myTurn(page);
      assert.equal(back.position, st.position, 'undo restores the position before the move');
      assert.equal(back.sig, st.sig, 'and the board as it was drawn');
      assert.equal(back.toAct, st.toAct);
      assert.ok(back.legal > 0, 'the throw is still there: a piece to move');
      assert.equal(await page.textContent('.dice-sum'), dice, 'the dice show that throw');
      const undo = [L.tRe('log.undo'), L.tRe('log.undo.you')];
      const log = await L.text(page, '.log');
      assert.ok(
        undo.some((re) => re.test(log)),
        'the log says the move was taken back',
      );
      await page.emulateMedia({ reducedMotion: 'reduce' });
      undone = true;
    }
  }
  assert.ok(undone, 'a move was taken back');
  assert.deepEqual([...sides].sort(), ['1', '2'], 'both sides played');
  assert.ok(actions > 40, `a whole game (${actions} actions)`);
  await page.waitForSelector('.banner');
  const title = await L.text(page, '.banner-title');
  assert.ok(
    ['Ann', 'Bob'].some((name) => title === L.t('log.win', { name })),
    `banner: ${title}`,
  );
  assert.match(await L.text(page, '.banner-reason'), L.tRe('reason.boreOff'));
  assert.equal(await page.isVisible('button[data-action=undo]'), false, 'no undo after the end');
  await L.screenshot(page, 'pass-and-play-banner-phone-portrait');

  // Play again: a new pass-and-play table, the names on the other colours.
  const first = await page.$eval('.table-page', (el) => el.dataset.table);
  await page.locator('button[data-action=play-again]').tap();
  await L.waitTable(page, (d, id) => d.status === 'playing' && d.table !== id, first);
  assert.equal(await page.textContent('.seat-box.s1 .seat-name'), 'Bob');
  assert.equal(await page.textContent('.seat-box.s2 .seat-name'), 'Ann');
  assert.equal(await L.text(page, '.status-main'), `Bob — ${L.t('table.prompt.throw')}`);
  // No clock at this table, however long the turn (the server's idle timeout is 2 s here).
  await L.sleep(3000);
  assert.equal((await L.tableState(page)).status, 'playing', 'no idle forfeit');
  assert.equal(await page.isVisible('.countdown'), false);
  assert.deepEqual(P.errors, [], 'a clean console');
  await P.context.close();
});
