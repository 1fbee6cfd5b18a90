// The English-words lint (check-words.mjs) itself: it finds a word passed as text in each way a
// screen passes text, lets through what comes from the catalog and what is not a word, and its
// pending list names only files that exist.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { englishWords, PENDING } from './check-words.mjs';

const found = (code) => englishWords('x.ts', code).map((l) => l.replace(/^x\.ts:\d+: /, ''));

test('a word passed as text is found, whichever way it is passed', () => {
  assert.deepEqual(found(`h('button', { type: 'button', text: 'Play' });`), ['"Play"']);
  assert.deepEqual(found(`h('p', {}, 'Hello ', name, \`\${n} games\`);`), ['"Hello"', '"games"']);
  assert.deepEqual(found(`h('a', { title: ok ? 'Open' : 'Shut', 'aria-label': 'Menu' });`), [
    '"Open"',
    '"Shut"',
    '"Menu"',
  ]);
  assert.deepEqual(found(`setText(el, 'Loading…');`), ['"Loading…"']);
  assert.deepEqual(found(`el.textContent = 'Done';`), ['"Done"']);
  assert.deepEqual(found(`el.setAttribute('aria-label', \`Move \${a}\`);`), ['"Move"']);
  assert.deepEqual(found(`list.append(' and ', x);`), ['"and"']);
  assert.deepEqual(found(`app.toast('Saved: ' + why, 'good');`), ['"Saved:"']);
  assert.deepEqual(found(`t.view.failed('Gone', ok ? 'Nothing here:' : undefined);`), [
    '"Gone"',
    '"Nothing here:"',
  ]);
});

test('a text kept in a file constant is found where the constant is passed as text', () => {
  const table = `const SIDE = { 1: 'Light', 2: 'Dark' };\nh('span', { text: SIDE[seat] });`;
  assert.deepEqual(found(table), ['"Light"', '"Dark"']);
  const words = `const T = { title: 'Puzzles', cls: 'x' };\nconst HI = 'Hello';\nsetText(a, T.title);\nsetText(b, HI);`;
  assert.deepEqual(found(words), ['"Puzzles"', '"Hello"']);
  assert.deepEqual(found(`const CLS = 'card wide';\nh('div', { class: CLS });`), []);
});

test('catalog texts, names, numbers, symbols and the allowed non-words pass', () => {
  const ok = [
    `h('button', { text: t('home.play'), class: 'primary big', 'data-action': 'play-now' });`,
    `h('span', { text: '|◀' }, \` \${n} \`, ' · ', name);`,
    `setText(el, \`\${a} / \${b}\`);`,
    `el.setAttribute('data-move', 'abc');`,
    `h('a', { href: '#/puzzles', download: \`ur-\${id}.json\`, text: t('share.json') });`,
    `h('p', { class: 'hint long-class-name' }, t('x', { what: 'words in a call' }));`,
  ];
  for (const code of ok) assert.deepEqual(found(code), [], code);
});

test('every pending file exists under src/ui', () => {
  for (const name of PENDING) {
    assert.match(name, /^[a-z_]+\.ts$/, 'a file name only');
    assert.ok(existsSync(fileURLToPath(new URL(`../src/ui/${name}`, import.meta.url))), name);
  }
});
