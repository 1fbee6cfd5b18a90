import assert from 'node:assert/strict';
import { test } from 'node:test';
import { exploreHash, inviteUrl, needsIdentity, parseHash, tableHash } from '../src/logic/route.ts';

test('hash routes', () => {
  assert.deepEqual(parseHash(''), { name: 'lobby' });
  assert.deepEqual(parseHash('#/lobby'), { name: 'lobby' });
  assert.deepEqual(parseHash('#/leaderboard'), { name: 'leaderboard' });
  assert.deepEqual(parseHash('#/friends'), { name: 'friends' });
  assert.deepEqual(parseHash('#/friends/x'), { name: 'not_found', hash: '/friends/x' });
  assert.deepEqual(parseHash('#/table/0123456789abcdef'), {
    name: 'table',
    id: '0123456789abcdef',
    invite: null,
  });
  assert.deepEqual(parseHash('#/table/0123456789abcdef?invite=9f0c9f0c9f0c9f0c9f0c9f0c9f0c9f0c'), {
    name: 'table',
    id: '0123456789abcdef',
    invite: '9f0c9f0c9f0c9f0c9f0c9f0c9f0c9f0c',
  });
  assert.deepEqual(parseHash('#/history/alice_1'), { name: 'history', user: 'alice_1' });
  assert.deepEqual(parseHash('#/replay/0123456789abcdef'), {
    name: 'replay',
    id: '0123456789abcdef',
  });
  assert.deepEqual(parseHash('#/login?next=/table/0123456789abcdef'), {
    name: 'login',
    next: '/table/0123456789abcdef',
  });
});

test('bad parameters never reach a request', () => {
  assert.equal(parseHash('#/table/xyz').name, 'not_found');
  assert.equal(parseHash('#/table/0123456789ABCDEF').name, 'not_found');
  assert.equal(parseHash('#/history/<script>').name, 'not_found');
  assert.equal(parseHash('#/history/%E0%A4%A').name, 'not_found');
  assert.equal(
    (parseHash('#/table/0123456789abcdef?invite=<x>') as { invite: string | null }).invite,
    null,
  );
  assert.deepEqual(parseHash('#/login?next=https://evil.example/'), { name: 'login', next: null });
});

test('invite links keep the page origin and path', () => {
  assert.equal(tableHash('0123456789abcdef', 'ab12'), '#/table/0123456789abcdef?invite=ab12');
  assert.equal(
    inviteUrl('http://127.0.0.1:8080/#/lobby', '0123456789abcdef', 'ab12'),
    'http://127.0.0.1:8080/#/table/0123456789abcdef?invite=ab12',
  );
  assert.equal(needsIdentity({ name: 'table', id: 'x', invite: 'ab12' }), true, 'a seat to take');
  assert.equal(needsIdentity({ name: 'table', id: 'x', invite: null }), false, 'a visitor watches');
  assert.equal(needsIdentity({ name: 'leaderboard' }), false);
  assert.equal(needsIdentity({ name: 'lobby' }), false, 'a visitor sees the lobby');
});

test('how-to-play routes name a preset id', () => {
  assert.deepEqual(parseHash('#/rules/finkel'), { name: 'howto', preset: 'finkel' });
  assert.deepEqual(parseHash('#/rules/murray-royalur'), {
    name: 'howto',
    preset: 'murray-royalur',
  });
  assert.equal(parseHash('#/rules/<b>').name, 'not_found');
});

test('the explorer route keeps any text for the server to judge, and round-trips', () => {
  assert.deepEqual(parseHash('#/explore'), { name: 'explore', rules: 'finkel', position: 'start' });
  const hash = exploreHash('finkel(pieces=3)', 'L3/005/001');
  assert.deepEqual(parseHash(hash), {
    name: 'explore',
    rules: 'finkel(pieces=3)',
    position: 'L3/005/001',
  });
  assert.equal(
    (parseHash(exploreHash('finkel', 'x'.repeat(999))) as { position: string }).position.length,
    200,
  );
  assert.equal(needsIdentity(parseHash(hash)), false);
});

test('the account and admin pages: an account first', () => {
  assert.deepEqual(parseHash('#/account'), { name: 'account' });
  assert.deepEqual(parseHash('#/admin'), { name: 'admin', user: null });
  assert.deepEqual(parseHash('#/admin/bob_2'), { name: 'admin', user: 'bob_2' });
  assert.equal(parseHash('#/admin/<b>').name, 'not_found');
  assert.equal(parseHash('#/account/x').name, 'not_found');
  assert.equal(needsIdentity({ name: 'account' }), true);
  assert.equal(needsIdentity({ name: 'admin', user: null }), true);
});
