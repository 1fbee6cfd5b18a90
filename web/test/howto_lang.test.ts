// The how-to-play text and the rule sets' plain sentences in German and Arabic: whole catalog
// sentences filled from the rule set's parameters, counted ones in the language's plural forms.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { howtoSections, rulesName } from '../src/logic/howto.ts';
import { loadCatalog, useCatalog, type Lang } from '../src/logic/i18n.ts';
import { en } from '../src/logic/lang/en.ts';
import { plainSentence } from '../src/logic/plain.ts';
import { rules } from './fixtures.ts';

async function speak(lang: Lang) {
  useCatalog(lang, await loadCatalog(lang));
}

test('German: the sections, the pieces counted, the throws, a safe rosette', async () => {
  await speak('de');
  try {
    const f = howtoSections(rules('finkel'));
    assert.deepEqual(
      f.map((s) => s.title),
      ['Das Ziel', 'Der Laufweg', 'Die Würfel', 'Rosetten'],
    );
    assert.match(f[0].lines[0], /^Jeder Spieler hat 7 Spielsteine, die auf dem Startstapel warten/);
    assert.match(f[0].lines[1], /„Würfle“/, 'the button as the table names it');
    assert.match(f[1].lines[0], /„Weg zeigen“ nummeriert ihn/);
    assert.equal(f[2].lines[1], '0 markierte Spitzen: 0 ziehen, kein Zug, der andere ist dran');
    assert.equal(f[2].lines[2], '1 markierte Spitze: 1 ziehen', 'the singular form');
    assert.match(f[3].lines.join(' '), /kann nicht geschlagen werden/);
    // Intl.ListFormat joins the squares as German does: "a, b und c".
    assert.match(
      f[1].lines[1],
      /^Die \d+ Felder, die beide Laufwege teilen \([a-h0-9, ]+ und [a-h]\d\)/,
    );
    const b = howtoSections(rules('boxed'));
    const special = b.find((s) => s.title === 'Besondere Regeln');
    assert.ok(special, 'the boxed game has special rules');
    assert.match(special.lines.join(' '), /verdoppelt den Zug/);
    assert.equal(
      plainSentence('blitz', 'server words'),
      'Eine schnelle Partie: je 5 Spielsteine, und auch Schlagen gibt einen weiteren Wurf.',
    );
    assert.equal(rulesName('finkel6', 'Finkel, 6 stones'), 'Finkel, 6 Steine');
    assert.equal(rulesName('new-one', 'New one'), 'New one', 'an unknown preset keeps its name');
    assert.equal(plainSentence('new-one', 'server words'), 'server words');
  } finally {
    useCatalog('en', en);
  }
});

test('Arabic: six plural forms, square names kept left to right, Arabic list words', async () => {
  await speak('ar');
  try {
    const f = howtoSections(rules('finkel'));
    assert.deepEqual(
      f.map((s) => s.title),
      ['الهدف', 'المسار', 'النرد', 'الورود'],
    );
    // 7 is "few" in Arabic (3–10): the plural of قطعة is قطع.
    assert.match(f[0].lines[0], /^لكل لاعب 7 قطع تنتظر/);
    // 4 dice: few; each throw row by its own form: 0 zero, 1 one, 2 two, 3–4 few.
    assert.match(f[2].lines[0], /^4 أحجار نرد/);
    assert.equal(f[2].lines[1], 'لا رؤوس معلَّمة: تقدَّم 0، لا نقلة، ينتقل الدور');
    assert.equal(f[2].lines[2], 'رأس معلَّم واحد: تقدَّم 1');
    assert.equal(f[2].lines[3], 'رأسان معلَّمان: تقدَّم 2');
    assert.match(f[2].lines[4], /^3 رؤوس معلَّمة/);
    // Square names are isolated (U+2066 … U+2069) so that they read left to right.
    assert.match(f[3].lines[0], /\u2066[a-h]\d\u2069/);
    assert.match(f[1].lines[1], / و\u2066[a-h]\d\u2069/, 'the list joined with و');
    const murray = howtoSections(rules('murray'));
    assert.match(murray[1].lines[1], /^المربعات الـ12 التي يشترك فيها المساران/);
    assert.equal(rulesName('blitz', 'Blitz'), 'الخاطفة');
    assert.match(plainSentence('finkel', ''), /^القواعد المعتادة اليوم/);
  } finally {
    useCatalog('en', en);
  }
});
