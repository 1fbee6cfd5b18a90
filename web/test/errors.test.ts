import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { CLIENT_CODES, errorKey, errorWords } from '../src/logic/errors.ts';
import { loadCatalog, t, useCatalog, type Lang } from '../src/logic/i18n.ts';
import { en } from '../src/logic/lang/en.ts';

// The server's codes, read from docs/protocol.md's table "Every error code" (a row per code with
// its floor and HTTP status): the server's tests check that table against every floor's codes row
// by row, so a code added on the server fails here until the catalogs say it in words.
function serverCodes(): string[] {
  const url = new URL('../../../docs/protocol.md', import.meta.url);
  const text = readFileSync(url, 'utf8');
  const table = text.slice(text.indexOf('### Every error code'));
  const codes = [...table.matchAll(/^\| `(\w+)` \| \w+ \| \d{3} \|$/gm)];
  return codes.map((m) => m[1]);
}

test("every code of the server's error table, and the client's own, has words", () => {
  const codes = serverCodes();
  assert.ok(codes.length >= 60, `read ${codes.length} codes from docs/protocol.md`);
  for (const code of [...codes, ...CLIENT_CODES])
    assert.ok(errorKey(code), `error.${code} is missing from lang/en/errors.ts`);
  const known = new Set<string>([...codes, ...CLIENT_CODES]);
  for (const key of Object.keys(en).filter((k) => k.startsWith('error.')))
    assert.ok(
      known.has(key.slice(6)) || ['error.rateLimitedWait', 'error.unknown'].includes(key),
      `${key} is no code of the server's nor the client's`,
    );
});

test("an error is said in the player's language, a code unknown here in the server's words", async () => {
  const de = await loadCatalog('de' as Lang);
  useCatalog('de', de);
  assert.equal(
    errorWords({ code: 'not_your_turn', message: 'not your turn' }),
    t('error.not_your_turn'),
  );
  assert.notEqual(t('error.not_your_turn'), en['error.not_your_turn']);
  assert.equal(
    errorWords({ code: 'rate_limited', message: '', retryAfter: 1 }),
    'Zu viele Versuche: warte 1 Sekunde und versuch es noch einmal.',
  );
  assert.equal(
    errorWords({ code: 'http_error', message: '', status: 502 }),
    'Der Server antwortete mit 502.',
  );
  assert.equal(
    errorWords({ code: 'brand_new', message: 'a newer server says' }),
    'a newer server says',
  );
  assert.equal(errorWords({ code: 'brand_new', message: '' }), 'Etwas ist schiefgegangen.');
  const ar = await loadCatalog('ar');
  useCatalog('ar', ar);
  assert.equal(
    errorWords({ code: 'rate_limited', message: '', retryAfter: 2 }),
    'محاولات كثيرة جدًا: انتظر ثانيتين ثم حاول مجددًا.',
  );
  useCatalog('en', en);
  assert.equal(
    errorWords({ code: 'table_full', message: 'x' }),
    'Both seats at this table are taken.',
  );
});
