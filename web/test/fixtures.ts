// Rule sets as `GET /api/rules/<preset>` answered them (saved from a real `ur serve`).
import { readFileSync } from 'node:fs';
import type { RulesInfo } from '../src/logic/types.ts';

export function rules(preset: 'finkel' | 'aseb' | 'boxed' | 'murray'): RulesInfo {
  // Compiled tests live in .test-build/test/; the JSON stays in test/fixtures/.
  const url = new URL(`../../test/fixtures/rules_${preset}.json`, import.meta.url);
  return JSON.parse(readFileSync(url, 'utf8')) as RulesInfo;
}
