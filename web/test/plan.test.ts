import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import { describeEvent, logLine, planDuration, planEvents } from '../src/logic/plan.ts';
import type { SeatPieces, TableEvent } from '../src/logic/types.ts';
import { loadCatalog, t, useCatalog, type Lang } from '../src/logic/i18n.ts';
import { rules } from './fixtures.ts';

const finkel = buildGeometry(rules('finkel'));
const names = (s: 1 | 2) => (s === 1 ? 'alice' : 'bob');

function pieces(light: Record<number, number>, dark: Record<number, number>): SeatPieces[] {
  const mk = (seat: 1 | 2, at: Record<number, number>) => {
    const counts = new Array<number>(16).fill(0);
    for (const [i, c] of Object.entries(at)) counts[Number(i)] = c;
    return { seat, pool: 0, counts };
  };
  return [mk(1, light), mk(2, dark)];
}

test('a throw becomes a dice step; a passed throw also says the turn passes', () => {
  const ev: TableEvent = { kind: 'roll', seat: 1, value: 0, move: 0, dice: 4, passed: true };
  const steps = planEvents(finkel, pieces({ 0: 7 }, { 0: 7 }), [ev], names);
  assert.deepEqual(steps[0], { kind: 'dice', seat: 1, value: 0, move: 0, dice: 4, passed: true });
  assert.equal(steps[1].kind, 'note');
  assert.match((steps[1] as { text: string }).text, /no legal move — turn passes/);
});

test('a move slides along its path; a capture sends the victim home', () => {
  const prev = pieces({ 0: 6, 5: 1 }, { 0: 6, 7: 1 });
  const ev: TableEvent = {
    kind: 'move',
    seat: 1,
    from: 5,
    to: 7,
    capture: true,
    captures: 1,
    rosette: false,
    extra_turn: false,
  };
  const steps = planEvents(finkel, prev, [ev], names);
  assert.deepEqual(steps[0], { kind: 'move', seat: 1, path: ['a2', 'b2', 'c2'] });
  assert.deepEqual(steps[1], { kind: 'capture', seat: 2, from: 'c2', to: 'home:2' });
  assert.equal(steps[2].kind, 'note');
  assert.match((steps[2] as { text: string }).text, /alice captured a piece/);
});

test('a rosette landing says extra turn; bearing off is said too', () => {
  const prev = pieces({ 0: 6, 1: 1 }, { 0: 7 });
  const ev: TableEvent = {
    kind: 'move',
    seat: 1,
    from: 1,
    to: 4,
    rosette: true,
    rosettes: 1,
    extra_turn: true,
  };
  const steps = planEvents(finkel, prev, [ev], names);
  assert.deepEqual(steps[0], { kind: 'move', seat: 1, path: ['d1', 'c1', 'b1', 'a1'] });
  assert.match((steps[1] as { text: string }).text, /rosette ✸ — extra turn/);
  const off = describeEvent({ kind: 'move', seat: 2, from: 14, to: 15, borne_off: 1 }, names);
  assert.match(off!.text, /bob bore a piece off/i);
});

test('without a drawn board, moves are not animated but still described', () => {
  const steps = planEvents(
    finkel,
    null,
    [{ kind: 'move', seat: 2, from: 0, to: 2, capture: true }],
    names,
  );
  assert.equal(
    steps.some((s) => s.kind === 'move'),
    false,
  );
  assert.equal(
    steps.some((s) => s.kind === 'note'),
    true,
  );
});

test('only the first move of a message is animated (later ones would be guessed)', () => {
  const prev = pieces({ 0: 7 }, { 0: 7 });
  const evs: TableEvent[] = [
    { kind: 'move', seat: 1, from: 0, to: 4, rosette: true, extra_turn: true },
    { kind: 'roll', seat: 1, value: 1, move: 1, dice: 4, passed: false },
    { kind: 'move', seat: 1, from: 4, to: 5 },
  ];
  const steps = planEvents(finkel, prev, evs, names);
  assert.equal(steps.filter((s) => s.kind === 'move').length, 1);
  assert.equal(steps.filter((s) => s.kind === 'dice').length, 1);
  assert.ok(planDuration(steps) > 0);
});

test('game events are described in words', () => {
  assert.equal(describeEvent({ kind: 'timeout', seat: 2 }, names)?.text, 'bob ran out of time');
  assert.equal(describeEvent({ kind: 'resign', seat: 1 }, names)?.text, 'alice resigned');
  assert.equal(
    describeEvent({ kind: 'game_over', winner: 2, reason: 'bore-off' }, names)?.text,
    'bob wins!',
  );
  assert.equal(
    describeEvent({ kind: 'roll', seat: 1, value: 2, move: 2, passed: false }, names),
    null,
  );
});

test('the reader is "You", with the verbs agreeing', () => {
  const you = (s: 1 | 2) => (s === 1 ? 'You' : 'bob');
  const award = (seat: 1 | 2, kind: 'award_yes' | 'award_no') =>
    describeEvent({ kind: 'move', seat, from: -1, to: 0, move_kind: kind }, you)?.text;
  assert.equal(award(1, 'award_yes'), 'You take the award: a counter enters S');
  assert.equal(award(2, 'award_yes'), 'bob takes the award: a counter enters S');
  assert.equal(award(1, 'award_no'), 'You decline the award');
  assert.equal(award(2, 'award_no'), 'bob declines the award');
  const again = (seat: 1 | 2) =>
    describeEvent({ kind: 'move', seat, from: 2, to: 5, extra_turn: true }, you)?.text;
  assert.equal(again(1), 'You throw again');
  assert.equal(again(2), 'bob throws again');
  const bounced = (seat: 1 | 2) =>
    describeEvent({ kind: 'move', seat, from: 2, to: 5, bounced: true }, you)?.text;
  assert.equal(bounced(1), 'Your counter was sent off');
  assert.equal(bounced(2), "bob's counter was sent off");
  const landed = describeEvent(
    { kind: 'move', seat: 1, from: 0, to: 4, rosette: true, award_pending: true },
    you,
  )?.text;
  assert.equal(landed, 'You landed on a rosette ✸ · award: a counter may enter S');
  const eye = describeEvent({ kind: 'move', seat: 2, from: 0, to: 1, forfeit_pending: true }, you);
  assert.equal(eye?.text, 'Forfeit: the opponent moves a counter 4');
});

test('the log has a line for every throw and move', () => {
  assert.equal(
    logLine(finkel, { kind: 'roll', seat: 1, value: 3, move: 3, passed: false }, names),
    'alice threw 3',
  );
  assert.equal(
    logLine(
      finkel,
      { kind: 'move', seat: 2, from: 0, to: 4, rosette: true, extra_turn: true },
      names,
    ),
    'bob: Home → a3 (rosette ✸, extra turn)',
  );
  assert.equal(
    logLine(finkel, { kind: 'move', seat: 1, from: 13, to: 15 }, names),
    'alice: h1 → borne off',
  );
});

test('undo and rematch events in words', () => {
  assert.equal(
    describeEvent({ kind: 'undo', seat: 2, undone: 3 }, names)?.text,
    'Move taken back: bob decides again',
  );
  assert.equal(
    describeEvent({ kind: 'rematch_offer', seat: 1 }, names)?.text,
    'alice offers a rematch',
  );
  const you = (s: 1 | 2) => (s === 1 ? 'You' : 'bob');
  assert.equal(describeEvent({ kind: 'rematch_offer', seat: 1 }, you)?.text, 'You offer a rematch');
  assert.equal(
    describeEvent({ kind: 'rematch_decline', seat: 2 }, names)?.text,
    'bob declined the rematch',
  );
  assert.match(describeEvent({ kind: 'rematch', table: 'abc' }, names)!.text, /colours swapped/);
  // The move log says the same.
  assert.equal(
    logLine(finkel, { kind: 'undo', seat: 1, undone: 1 }, names),
    'Move taken back: alice decides again',
  );
});

test("the move log in the reader's language: their own moves in the second person", async () => {
  const speak = async (lang: Lang) => useCatalog(lang, await loadCatalog(lang));
  try {
    await speak('de');
    const mine = (s: 1 | 2) => (s === 1 ? t('name.you') : 'bob');
    assert.equal(
      logLine(finkel, { kind: 'roll', seat: 1, value: 3, move: 3, passed: false }, mine),
      'Du hast 3 gewürfelt',
    );
    assert.equal(
      logLine(
        finkel,
        { kind: 'move', seat: 2, from: 0, to: 4, rosette: true, extra_turn: true },
        mine,
      ),
      'bob: Start → a3 (Rosette ✸, noch ein Wurf)',
    );
    assert.equal(describeEvent({ kind: 'resign', seat: 1 }, mine)?.text, 'Du hast aufgegeben');
    assert.equal(describeEvent({ kind: 'resign', seat: 2 }, mine)?.text, 'bob hat aufgegeben');
    await speak('fr');
    assert.equal(
      logLine(finkel, { kind: 'move', seat: 1, from: 13, to: 15 }, names),
      'alice : h1 → sorti',
    );
  } finally {
    await speak('en');
  }
});
