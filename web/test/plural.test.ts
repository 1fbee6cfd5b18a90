import assert from 'node:assert/strict';
import { test } from 'node:test';
import { count } from '../src/logic/plural.ts';

test('counted words follow the plural rules: 1 second, 0 and 2 seconds', () => {
  assert.equal(count(1, 'second'), '1 second');
  assert.equal(count(2, 'second'), '2 seconds');
  assert.equal(count(0, 'second'), '0 seconds');
  assert.equal(count(3, 'marked tip'), '3 marked tips');
  assert.equal(count(1, 'person', 'people'), '1 person');
  assert.equal(count(5, 'person', 'people'), '5 people');
});
