import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  historyAccuracyText,
  historyHow,
  matchRulesName,
  opponentText,
} from '../src/logic/history.ts';
import { loadCatalog, useCatalog } from '../src/logic/i18n.ts';
import { en } from '../src/logic/lang/en.ts';
import { parseHash, profileHash } from '../src/logic/route.ts';
import type { MatchRow } from '../src/logic/types.ts';
import { englishWords } from '../src/logic/i18n.ts';

// These screens' words come with their script (wordsReady), after the first screen's.
await englishWords();

const row: MatchRow = {
  id: '0123456789abcdef',
  rules: 'finkel',
  rated: false,
  players: ['alice', 'bob'],
  winner: 2,
  reason: 'left',
  started_at: 0,
  finished_at: 0,
  summary: null,
  you: 1,
  ended_by: 1,
};

test('the history says who ended the game, from the page player’s side', () => {
  assert.equal(historyHow(row, null), 'You left the table');
  assert.equal(historyHow({ ...row, you: 2, winner: 2 }, null), 'the opponent left the table');
  assert.equal(historyHow({ ...row, reason: 'resign' }, 'alice'), 'alice resigned');
  assert.equal(historyHow({ ...row, reason: 'timeout' }, null), 'your idle clock ran out');
  assert.equal(
    historyHow({ ...row, reason: 'timeout', ended_by: 2 }, null),
    'the opponent’s idle clock ran out',
  );
  assert.equal(historyHow({ ...row, reason: 'bore-off' }, null), 'all pieces borne off');
});

test('the accuracy cell names whose number is whose and shows no number without a decision', () => {
  assert.equal(
    historyAccuracyText({ ...row, accuracy: [82.44, 61] }, null),
    'You 82.4 · opp. 61.0',
  );
  assert.equal(
    historyAccuracyText(
      { ...row, you: 2, accuracy: [82.44, null], accuracy_estimate: true },
      'bob',
    ),
    'bob – · opp. ~82.4',
  );
  assert.equal(historyAccuracyText({ ...row, accuracy: null }, null), '–');
});

test('profiles have a route of their own', () => {
  assert.deepEqual(parseHash(profileHash('bob_2')), { name: 'profile', user: 'bob_2' });
  assert.equal(parseHash('#/profile/no way').name, 'not_found');
});

test('the opponent and the rule set in the page’s words: a computer from its level', async () => {
  const vsComputer: MatchRow = {
    ...row,
    players: ['alice', 'Computer (easy)'],
    opponent: 'Computer (easy)',
    rules_name: 'Finkel',
    summary: {
      winner: 2,
      reason: 'left',
      turns: 2,
      seats: [{ seat: 2, name: 'Computer (easy)', level: 'easy' }],
    } as unknown as MatchRow['summary'],
  };
  assert.equal(opponentText(vsComputer), 'Computer (Easy)');
  assert.equal(opponentText({ ...row, you: undefined }), 'alice vs bob');
  useCatalog('de', await loadCatalog('de'));
  try {
    assert.equal(opponentText(vsComputer), 'Computer (Leicht)');
    assert.equal(opponentText({ ...vsComputer, you: 2 }), 'alice');
    assert.equal(matchRulesName(vsComputer), 'Finkel');
    assert.equal(matchRulesName({ ...vsComputer, rules: 'x(1)', rules_name: 'X' }), 'X');
  } finally {
    useCatalog('en', en);
  }
});
