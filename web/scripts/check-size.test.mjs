// The size check (check-size.mjs) itself: it sees a long file and a long function, nested ones
// and arrow functions included, and passes what is within the limits.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breaches } from './check-size.mjs';

const body = (n) => Array.from({ length: n }, (_, i) => `  const x${i} = ${i};`).join('\n');

test('functions of up to 80 lines and files of up to 400 lines pass', () => {
  assert.deepEqual(breaches('ok.ts', `function f() {\n${body(78)}\n}\n`), []);
  assert.deepEqual(breaches('ok.ts', `${body(400)}\n`), []);
});

test('a longer function, nested or arrow, and a longer file are reported', () => {
  const nested = `export function outer() {\n  const inner = () => {\n${body(79)}\n  };\n}\n`;
  assert.deepEqual(breaches('n.ts', nested), [
    'n.ts:1: function outer has 83 lines (at most 80)',
    'n.ts:2: function inner has 81 lines (at most 80)',
  ]);
  const method = `class C {\n  m() {\n${body(79)}\n  }\n}\n`;
  assert.deepEqual(breaches('m.ts', method), ['m.ts:2: function m has 81 lines (at most 80)']);
  assert.deepEqual(breaches('f.ts', `${body(401)}\n`), ['f.ts: 401 lines (at most 400)']);
});
