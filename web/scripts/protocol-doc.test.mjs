// docs/protocol.md against the client's protocol types (protocol-doc.mjs): the same client
// messages with the same fields, the same server message types, and the snapshot's fields.

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
