// docs/protocol.md against the client's protocol types (protocol-doc.mjs): the same client
// messages with the same fields and answers, the same server messages with the same fields, the
// same table events with the same fields, and the snapshot's fields.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { differences, fromTs, readDoc } from './protocol-doc.mjs';

const doc = readDoc();
const code = fromTs();

test('the client names the messages and fields of docs/protocol.md, no more and no fewer', () => {
  assert.ok(Object.keys(doc.client).length >= 20, 'the client message table was read');
  assert.deepEqual(doc.client.move, ['action_id', 'from', 'kind', 'table', 'to', 'version']);
  assert.deepEqual(differences(doc, code), []);
});

test('a message or field on one side only is a difference', () => {
  const withField = structuredClone(doc);
  withField.client.hint.push('depth');
  const withType = structuredClone(code);
  withType.client.shout = [];
  withType.server.push('shouted');
  const withShape = structuredClone(code);
  withShape.shapes.Snapshot = withShape.shapes.Snapshot.filter((f) => f !== 'rules_name');
  withShape.shapes.Clock.push('increment_ms');
  assert.deepEqual(differences(withField, code), ['hint.depth: in protocol.md only']);
  assert.deepEqual(differences(doc, withType), [
    'client message shout: in protocol.ts only',
    'server message shouted: in protocol.ts only',
  ]);
  assert.deepEqual(differences(doc, withShape), [
    'Snapshot.rules_name: in protocol.md only',
    `Clock.increment_ms: in types.ts only (protocol.md's "Tables" never names it)`,
  ]);
});

test('the server messages, their answers and the table events are read from both sides', () => {
  assert.deepEqual(doc.messages.presence.fields, ['online', 'seat', 'table']);
  assert.deepEqual(doc.messages.joined.fields, doc.messages.match_found.fields);
  assert.equal(doc.replies.move, 'action_ok');
  assert.deepEqual(doc.events.undo, ['seat', 'undone']);
  assert.ok(code.events.kinds.includes('rematch_decline'));
  assert.ok(code.messages.table.includes('events'));
});

test('a server message field, an answer or a table event on one side only is a difference', () => {
  const withField = structuredClone(code);
  withField.messages.presence.push('since');
  withField.messages.spectators = withField.messages.spectators.filter((f) => f !== 'count');
  assert.deepEqual(differences(doc, withField), [
    "presence.since: in protocol.ts only (protocol.md's presence never names it)",
    'spectators.count: in protocol.md only',
  ]);
  const withAnswer = structuredClone(code);
  withAnswer.replies.unwatch = 'table';
  assert.deepEqual(differences(doc, withAnswer), [
    'unwatch is answered with ok in protocol.md, table in protocol.ts',
  ]);
  const withEvent = structuredClone(code);
  withEvent.events.kinds.push('shrug');
  withEvent.events.fields = withEvent.events.fields.filter((f) => f !== 'undone');
  assert.deepEqual(differences(doc, withEvent), [
    'event shrug: in types.ts only',
    'event field undone: in protocol.md only',
  ]);
});
