import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  computerName,
  countdownSeconds,
  isSeated,
  levelLabel,
  playerName,
  playerNames,
  ratingLine,
  reasonText,
  seatName,
  shownThrow,
  signed,
  statusText,
  tabTitle,
} from '../src/logic/status.ts';
import type { Snapshot, Summary, TableEvent } from '../src/logic/types.ts';
import { loadCatalog, useCatalog, type Lang } from '../src/logic/i18n.ts';

function snap(over: Partial<Snapshot['game']>, status: Snapshot['status'] = 'playing'): Snapshot {
  return {
    id: '0123456789abcdef',
    rules: 'finkel',
    rules_name: 'Finkel',
    public: false,
    rated: true,
    status,
    version: 3,
    seats: [
      { seat: 1, side: 'light', kind: 'user', name: 'alice', rating: 1200 },
      { seat: 2, side: 'dark', kind: 'user', name: 'bob', rating: 1200 },
    ],
    game: {
      position: 'Lr/0000000/0000000',
      phase: 'awaiting_roll',
      to_act: 1,
      roll: null,
      legal_moves: [],
      pieces: [],
      turn: 1,
      events: 0,
      ...over,
    },
    summary: null,
  };
}

test('the prompt says what to do now, in plain words', () => {
  assert.equal(statusText(snap({}), 1).main, 'Throw the dice');
  assert.equal(statusText(snap({}), 1).yourMove, true);
  assert.equal(statusText(snap({}), 2).main, "alice's turn");
  assert.equal(statusText(snap({}), 2).yourMove, false);
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', roll: 2 }), 1).main,
    'Move a piece: 2 squares',
  );
  // The rule set maps the throw to squares (a throw of 0 may move 4).
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', roll: 0 }), 1, 4).main,
    'Move a piece: 4 squares',
  );
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', roll: 1 }), 1).main,
    'Move a piece: 1 square',
  );
  assert.equal(
    statusText(snap({ phase: 'awaiting_move', to_act: 2 }), null).main,
    'bob is moving…',
  );
  assert.equal(statusText(snap({}, 'waiting'), 1).main, 'Waiting for an opponent to sit down');
  assert.equal(statusText(snap({ phase: 'awaiting_award' }), 1).main, 'Rosette award: take it?');
  assert.equal(statusText(snap({ phase: 'awaiting_forfeit', to_act: 2 }), 1).main, "bob's turn");
});

test('the tab title calls the player back in the last seconds', () => {
  assert.equal(tabTitle(false, 5, 'ur'), 'ur');
  assert.equal(tabTitle(true, 30, 'ur'), 'Your move — ur');
  assert.equal(tabTitle(true, 8, 'ur'), 'Your move — 8 s');
  assert.equal(tabTitle(true, null, 'ur'), 'Your move — ur');
});

test('a finished game names the winner', () => {
  const s = snap({ phase: 'game_over', to_act: null }, 'finished');
  s.summary = { winner: 2, reason: 'bore-off', turns: 80, seats: [] };
  assert.equal(statusText(s, 2).main, 'Game over — you win!');
  assert.equal(statusText(s, 1).main, 'Game over — bob wins');
});

test('rating lines and reasons', () => {
  const summary = {
    winner: 1 as const,
    reason: 'timeout',
    turns: 3,
    seats: [
      {
        seat: 1 as const,
        name: 'alice',
        rating_before: 1200,
        rating_after: 1216,
        rating_change: 16,
        throws: 0,
        moves: 0,
        passes: 0,
        captures: 0,
        rosettes: 0,
        borne_off: 0,
        bounces: 0,
        forfeits: 0,
      },
      {
        seat: 2 as const,
        name: 'bob',
        throws: 0,
        moves: 0,
        passes: 0,
        captures: 0,
        rosettes: 0,
        borne_off: 0,
        bounces: 0,
        forfeits: 0,
      },
    ],
  };
  assert.equal(ratingLine(summary, 1), '1200 → 1216 (+16)');
  assert.equal(ratingLine(summary, 2), null);
  assert.equal(signed(-8), '−8');
  assert.equal(signed(0), '±0');
  assert.match(reasonText('timeout'), /idle/);
  assert.equal(reasonText('bore-off'), 'all pieces borne off');
});

test('the idle countdown shows only in the last 10 seconds', () => {
  assert.equal(countdownSeconds(null, 0), null);
  assert.equal(countdownSeconds(30_000, 0), 30);
  assert.equal(countdownSeconds(10_000, 0), 10);
  assert.equal(countdownSeconds(9_001, 0), 10);
  assert.equal(countdownSeconds(2_000, 0), 2);
  assert.equal(countdownSeconds(1_000, 5_000), 0);
});

test('the dice keep the last throw until the next one', () => {
  const throws = [0, 1, 2, 3, 4];
  const waiting = snap({}).game;
  const moving = snap({ phase: 'awaiting_move', roll: 3, to_act: 2 }).game;
  // A throw among the events wins, the newest one when there are several.
  const events: TableEvent[] = [
    { kind: 'roll', seat: 1, value: 2, move: 2 },
    { kind: 'move', seat: 1, from: 0, to: 2 },
    { kind: 'roll', seat: 2, value: 4, move: 4 },
  ];
  assert.deepEqual(shownThrow(null, events, waiting, throws, false), {
    value: 4,
    move: 4,
    seat: 2,
  });
  // No throw in the events: a snapshot awaiting a move rebuilds the throw when nothing is shown,
  // or when the board was redrawn from scratch; otherwise the dice keep what they show.
  const shown = { value: 1, move: 1, seat: 1 as const };
  assert.deepEqual(shownThrow(null, [], moving, throws, false), { value: 3, move: 3, seat: 2 });
  assert.deepEqual(shownThrow(shown, [], moving, throws, true), { value: 3, move: 3, seat: 2 });
  assert.deepEqual(shownThrow(shown, [], moving, throws, false), shown);
  assert.deepEqual(shownThrow(shown, [], waiting, throws, true), shown);
  assert.equal(shownThrow(null, [], waiting, throws, true), null);
  // A rule set whose throw values differ from their moves (the table maps them).
  assert.equal(shownThrow(null, [], moving, [0, 1, 2, 10, 4], false)?.move, 10);
});

test('the perfect level says when it plays as hard', () => {
  assert.equal(levelLabel('medium', false), 'Medium');
  assert.equal(levelLabel('perfect', true), 'Perfect');
  assert.equal(levelLabel('perfect', false), 'Perfect (no table: plays as Hard)');
  assert.equal(
    levelLabel('perfect', false, null, true),
    'Perfect (strongest: learned, no exact table)',
  );
  assert.equal(levelLabel('perfect', true, null, true), 'Perfect');
  assert.equal(levelLabel('perfect', true, null, false, 3), 'Perfect (exact in the endgame)');
  assert.equal(levelLabel('hard', true, null, false, 3), 'Hard');
  assert.equal(
    levelLabel('perfect', false, { state: 'solving', progress: 0.42, eta_seconds: 240 }),
    'Perfect (42% solved, about 4 min; Hard till then)',
  );
  assert.equal(
    levelLabel('perfect', false, { state: 'queued', progress: 0 }),
    'Perfect (queued; Hard till then)',
  );
  assert.equal(
    levelLabel('perfect', false, { state: 'skipped', progress: 0, reason: 'memory' }),
    'Perfect (no table: plays as Hard)',
  );
});

test('a seat counts until its player leaves or the table closes', () => {
  assert.equal(isSeated(snap({}), 1), true);
  assert.equal(isSeated(snap({}), null), false);
  assert.equal(isSeated(snap({}, 'closed'), 1), false);
  const s = snap({});
  s.seats[0].left = true;
  assert.equal(isSeated(s, 1), false);
});

test("the prompts and level names in the player's language, with its plural forms", async () => {
  const speak = async (lang: Lang) => useCatalog(lang, await loadCatalog(lang));
  const move = (roll: number) => statusText(snap({ phase: 'awaiting_move', roll }), 1).main;
  try {
    await speak('de');
    assert.equal(move(1), 'Ziehe einen Spielstein: 1 Feld');
    assert.equal(move(3), 'Ziehe einen Spielstein: 3 Felder');
    assert.equal(statusText(snap({}), 2).main, 'alice ist am Zug');
    assert.equal(
      levelLabel('perfect', false, { state: 'solving', progress: 0.42, eta_seconds: 240 }),
      'Perfekt (42\u00a0% gelöst, noch etwa 4 Min.; bis dahin Schwer)',
    );
    assert.equal(reasonText('resign'), 'durch Aufgabe');
    assert.equal(reasonText('a-new-reason'), 'a-new-reason', 'an unknown reason as sent');
    await speak('ar');
    assert.equal(move(1), 'حرّك قطعة: مربعًا واحدًا');
    assert.equal(move(2), 'حرّك قطعة: مربعين');
    assert.equal(move(4), 'حرّك قطعة: 4 مربعات');
    assert.equal(levelLabel('hard', true), 'صعب');
    assert.equal(levelLabel('grandmaster', true), 'Grandmaster', 'an unknown level keeps its id');
  } finally {
    await speak('en');
  }
});

test('a computer seat is named from its level and note in the language, else as the server named it', async () => {
  const speak = async (lang: Lang) => useCatalog(lang, await loadCatalog(lang));
  const seats: Snapshot['seats'] = [
    { seat: 1, side: 'light', kind: 'guest', name: 'guest-0a1b2c3d' },
    { seat: 2, side: 'dark', kind: 'bot', name: 'Computer (beginner)', level: 'beginner' },
  ];
  const summary = {
    winner: 1 as const,
    reason: 'resign',
    turns: 3,
    seats: [
      { seat: 1, name: 'alice' },
      {
        seat: 2,
        name: 'Computer (hard: no perfect table)',
        level: 'perfect',
        level_note: 'as_hard',
      },
    ],
  } as unknown as Summary;
  try {
    assert.equal(seatName(seats, 2), 'Computer (Beginner)');
    await speak('de');
    assert.equal(seatName(seats, 2), 'Computer (Anfänger)');
    assert.equal(seatName(seats, 1), 'guest-0a1b2c3d', 'a person keeps their name');
    assert.deepEqual(playerNames(['alice', 'Computer (hard: no perfect table)'], summary), [
      'alice',
      'Computer (Schwer: keine perfekte Tabelle)',
    ]);
    assert.equal(computerName('perfect', 'endgame'), 'Computer (Perfekt: exakt im Endspiel)');
    await speak('ar');
    assert.equal(computerName('easy'), 'الحاسوب (سهل)');
    // What this client does not know (a newer server's level or note) keeps the server's name.
    assert.equal(computerName('grandmaster'), null);
    assert.equal(computerName('perfect', 'a-new-note'), null);
    assert.deepEqual(playerNames(['a', 'Computer (tin)'], null), ['a', 'Computer (tin)']);
    const tin = [{ ...seats[1], level: 'tin', name: 'Computer (tin)' }];
    assert.equal(seatName(tin, 2), 'Computer (tin)');
  } finally {
    await speak('en');
  }
});

test("the lobby's names of computer seats (names only) are said in the player's language", async () => {
  const speak = async (lang: Lang) => useCatalog(lang, await loadCatalog(lang));
  assert.equal(playerName('Computer (easy)'), 'Computer (Easy)');
  assert.equal(playerName('alice'), 'alice', "a person's name as it is");
  assert.equal(playerName('Computer (someday)'), 'Computer (someday)', 'an unknown level as sent');
  try {
    await speak('fr');
    assert.equal(playerName('Computer (beginner)'), computerName('beginner'));
    assert.match(playerName('Computer (beginner)'), /^Ordinateur/);
    assert.equal(
      playerName('Computer (hard: no perfect table)'),
      computerName('perfect', 'as_hard'),
    );
    await speak('ar');
    assert.equal(playerName('Computer (medium)'), computerName('medium'));
  } finally {
    await speak('en');
  }
});
