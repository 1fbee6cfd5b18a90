// The import check (check-imports.mjs) itself: it passes imports that point down, and reports an
// upward import and a circle (a type-only one included).

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { breaches } from './check-imports.mjs';

test('imports that point down and have no circle pass', () => {
  assert.deepEqual(
    breaches({
      'main.ts': "import { App } from './ui/app.ts';",
      'ui/app.ts': "import { api } from '../net/api.ts';\nconst s = () => import('./screens.ts');",
      'ui/screens.ts': "import type { Snapshot } from '../logic/types.ts';",
      'net/api.ts': "import type { Snapshot } from '../logic/types.ts';",
      'logic/types.ts': 'export type Snapshot = {};',
    }),
    [],
  );
});

test('an upward import is reported with its folders', () => {
  assert.deepEqual(
    breaches({
      'logic/plan.ts': "import { api } from '../net/api.ts';",
      'net/api.ts': "import { toast } from '../ui/app.ts';",
      'ui/app.ts': '',
    }),
    [
      'logic/plan.ts: imports net/api.ts (logic/ may not import net/)',
      'net/api.ts: imports ui/app.ts (net/ may not import ui/)',
    ],
  );
});

test('a circle is reported, a type-only one too', () => {
  assert.deepEqual(
    breaches({
      'logic/replay.ts': "import { pct } from './review.ts';",
      'logic/review.ts': "import type { Names } from './replay.ts';",
    }),
    ['import circle: logic/replay.ts -> logic/review.ts -> logic/replay.ts'],
  );
});
