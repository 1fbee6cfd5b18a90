// The review, the replay's words and the puzzles' words in German and Arabic: numbers formatted
// for the language, grades and reasons from the catalog by the server's codes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildGeometry } from '../src/logic/geometry.ts';
import { loadCatalog, useCatalog, type Lang } from '../src/logic/i18n.ts';
import { en } from '../src/logic/lang/en.ts';
import { PUZZLE_TEXT, reasonWords, themeName } from '../src/logic/puzzles.ts';
import { describeRecordEvent } from '../src/logic/replay.ts';
import {
  decisionWords,
  decompositionWords,
  estimateNote,
  gradeWord,
  playerLines,
  reviewLine,
} from '../src/logic/review.ts';
import type { AnalysisAnswer } from '../src/logic/types.ts';
import { rules } from './fixtures.ts';

const finkel = buildGeometry(rules('finkel'));
const names = { 1: 'alice', 2: 'bob' } as const;
const move = {
  event: 7,
  seat: 2 as const,
  legal: 3,
  from: 3,
  to: 4,
  best: { from: 0, to: 3 },
  value: 0.483,
  best_value: 0.503,
  cost: 0.02,
  grade: 'inaccuracy',
};
const player = { best: 9, worst_cost: 0.04, accuracy: 58.2 };
const review: AnalysisAnswer = {
  estimate: false,
  moves: [move],
  players: [
    { ...player, seat: 1, decisions: 15, total_cost: 0.163, luck: 0.256, hints: 1 },
    { ...player, seat: 2, decisions: 12, total_cost: 0.454, luck: -0.063, hints: 3 },
  ],
  decomposition: {
    start: 0.516,
    result: 1,
    light_luck: 0.256,
    dark_luck: 0.063,
    light_lost: 0.163,
    dark_lost: 0.454,
    residual: 0,
  },
};

async function speaking<T>(lang: Lang, f: () => T): Promise<T> {
  useCatalog(lang, await loadCatalog(lang));
  try {
    return f();
  } finally {
    useCatalog('en', en);
  }
}

test('German: the review in words, with German decimals and grades', async () => {
  await speaking('de', () => {
    assert.equal(
      decompositionWords(review, names),
      'alice hat gewonnen. Die Würfel gaben alice 19,3 Punkte mehr als bob ' +
        '(Glück +25,6\u00a0% gegen +6,3\u00a0%); Fehler kosteten alice 16,3 Punkte und bob 45,4 Punkte.',
    );
    assert.deepEqual(playerLines(review, names), [
      'alice: Genauigkeit 58,2 · Glück +25,6\u00a0% · verlorene Chance 1,1\u00a0% je Entscheidung ' +
        '(16,3 Punkte insgesamt) · 1 Tipp genutzt',
      'bob: Genauigkeit 58,2 · Glück \u22126,3\u00a0% · verlorene Chance 3,8\u00a0% je Entscheidung ' +
        '(45,4 Punkte insgesamt) · 3 Tipps genutzt',
    ]);
    assert.match(reviewLine({ ...review, estimate: true }, names), /^alice: Genauigkeit ~58,2/);
    assert.equal(
      decisionWords(finkel, names, move),
      'bob spielte b3 → a3 (48,3\u00a0% Gewinnchance, Ungenauigkeit); ' +
        'am besten war Start → b3 (50,3\u00a0% Gewinnchance)',
    );
    assert.equal(
      describeRecordEvent({ player: 'light', move: { from: 13, to: 15 } }, finkel, names),
      'alice zog h1 → hinausgespielt',
    );
    assert.equal(gradeWord('blunder'), 'grober Fehler');
    assert.equal(gradeWord('brilliant'), 'brilliant', 'a grade the client does not know, as sent');
    assert.equal(PUZZLE_TEXT.toMove('Hell', 1), 'Hell ist am Zug · der Wurf: 1 Feld');
    assert.equal(PUZZLE_TEXT.toMove('Hell', 3), 'Hell ist am Zug · der Wurf: 3 Felder');
    assert.equal(PUZZLE_TEXT.chance(0.5234), '52,3\u00a0% Gewinnchance');
  });
});

test('Arabic: the move arrow runs right to left, plural forms, reasons by theme', async () => {
  await speaking('ar', () => {
    const words = decisionWords(finkel, names, move);
    // Names and squares are isolated (U+2068 … U+2069): a Latin name keeps its order in Arabic.
    assert.match(words, /^\u2068bob\u2069 لعب \u2068b3\u2069 ← \u2068a3\u2069 \(فرصة الفوز 48\.3/);
    assert.match(words, /غير دقيقة/);
    assert.equal(reasonWords(['capture', 'race'], 'it hits an enemy piece'), 'تأسر قطعة للخصم');
    assert.equal(reasonWords([], 'it keeps the best winning chance'), 'تحافظ على أفضل فرصة للفوز');
    assert.equal(reasonWords(['new-theme'], 'server words'), 'server words');
    assert.equal(themeName('bear-off'), 'الإخراج');
    assert.deepEqual(
      [0, 1, 2, 3, 11, 100].map((n) => PUZZLE_TEXT.learn('bob', n)),
      [
        '\u2068bob\u2069: لا أخطاء',
        '\u2068bob\u2069: تعلّم من خطأ واحد',
        '\u2068bob\u2069: تعلّم من خطأين',
        '\u2068bob\u2069: تعلّم من 3 أخطاء',
        '\u2068bob\u2069: تعلّم من 11 خطأً',
        '\u2068bob\u2069: تعلّم من 100 خطأ',
      ],
    );
    assert.match(playerLines(review, names)[1], /استُخدمت 3 تلميحات$/);
  });
});

test('English stays as before after a switch back', () => {
  assert.equal(gradeWord('inaccuracy'), 'inaccuracy');
  assert.equal(reasonWords(['escape'], ''), 'it takes a threatened piece out of reach');
  assert.equal(
    PUZZLE_TEXT.streakOver(4),
    'Streak over: 4 solved in a row. The best move is shown on the board.',
  );
});

test('why a review is estimated, from the server’s code in each language', async () => {
  const a = {
    estimate: true,
    note: 'this server has not solved this rule set yet: the values are estimates from search',
    note_code: 'missing',
    moves: [],
  } as unknown as AnalysisAnswer;
  assert.equal(
    estimateNote(a),
    'This server has not solved this rule set yet: the values are estimates from search.',
  );
  await speaking('de', () =>
    assert.equal(
      estimateNote(a),
      'Dieser Server hat diese Regeln noch nicht gelöst: Die Werte sind Schätzungen aus der Suche.',
    ),
  );
  await speaking('ar', () =>
    assert.equal(
      estimateNote({ ...a, note_code: 'refused' }),
      'جدول هذا الخادم لهذه القواعد لم يجتز فحوصه ولم يُستخدم: القيم تقديرات بالبحث.',
    ),
  );
  // A code this client does not know: the server's words, as a sentence.
  await speaking('fr', () =>
    assert.equal(estimateNote({ ...a, note_code: 'new', note: 'a new reason' }), 'A new reason.'),
  );
  assert.equal(estimateNote({ moves: [] } as unknown as AnalysisAnswer), '');
});
