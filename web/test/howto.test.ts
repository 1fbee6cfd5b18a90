import assert from 'node:assert/strict';
import { test } from 'node:test';
import { howtoSections } from '../src/logic/howto.ts';
import { rules } from './fixtures.ts';
import { englishWords } from '../src/logic/i18n.ts';

// These screens' words come with their script (wordsReady), after the first screen's.
await englishWords();

test('every fixture rule set gets its how-to-play sections from its definition', () => {
  for (const id of ['finkel', 'aseb', 'boxed', 'murray'] as const) {
    const r = rules(id);
    const s = howtoSections(r);
    const titles = s.map((x) => x.title);
    assert.deepEqual(titles.slice(0, 4), ['The goal', 'The path', 'The dice', 'Rosettes'], id);
    assert.match(s[0].lines[0], new RegExp(`${r.pieces} pieces`), id);
    assert.equal(s[2].lines.length, r.dice.throws.length + 2, `${id}: a line per throw`);
  }
});

test('Finkel: safe rosettes, a throw of 0 passes; the boxed game lists its special squares', () => {
  const f = howtoSections(rules('finkel'));
  assert.match(f[3].lines.join(' '), /safe: it cannot be captured/);
  assert.match(f[2].lines[1], /0 marked tips: move 0, no move, the turn passes/);
  assert.equal(f.length, 4, 'Finkel has no special rules');
  const b = howtoSections(rules('boxed'));
  const special = b.find((x) => x.title === 'Special rules');
  assert.ok(special);
  assert.match(special.lines.join(' '), /doubles the move/);
  assert.match(special.lines.join(' '), /scored/);
});

test('the count of shared squares is the number listed (Murray’s path passes some twice)', () => {
  for (const id of ['finkel', 'aseb', 'boxed', 'murray'] as const) {
    const line = howtoSections(rules(id))[1].lines[1];
    const m = /^The (\d+) squares both paths share \(([^)]*)\)/.exec(line);
    assert.ok(m, `${id}: ${line}`);
    const listed = m[2].split(/, | and /);
    assert.equal(Number(m[1]), listed.length, `${id}: ${line}`);
    assert.equal(new Set(listed).size, listed.length, `${id}: each square once`);
  }
  assert.match(howtoSections(rules('murray'))[1].lines[1], /^The 12 squares/);
});
