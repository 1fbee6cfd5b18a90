// What a match history row says, from the point of view of the page's player (`you` in the row):
// who ended a game that did not end by bearing off, and whose accuracy is whose.

import type { MatchRow } from './types.ts';

/** "You left the table", "alice resigned", "the opponent's idle clock ran out", ... */
export function historyHow(m: MatchRow, who: string): string {
  if (m.reason === 'bore-off') return 'all pieces borne off';
  const mine = m.ended_by !== undefined && m.ended_by === m.you;
  const subject = mine ? who : 'the opponent';
  const poss = mine ? (who === 'You' ? 'your' : `${who}’s`) : 'the opponent’s';
  switch (m.reason) {
    case 'left':
      return `${subject} left the table`;
    case 'resign':
      return `${subject} resigned`;
    case 'timeout':
      return `${poss} idle clock ran out`;
    default:
      return m.reason;
  }
}

function pct(v: number | null | undefined, estimate: boolean): string {
  if (v === null || v === undefined) return '–';
  return `${estimate ? '~' : ''}${v.toFixed(1)}`;
}

/**
 * The accuracy cell, the page's player first and named: "You 82.4 · opp. 61.0"; "–" for a seat
 * without a decision (the server sends null) and while the game is not reviewed; "~" before an
 * estimate.
 */
export function historyAccuracyText(m: MatchRow, who: string): string {
  if (!m.accuracy) return '–';
  const mine = m.you === 2 ? 1 : 0;
  const est = !!m.accuracy_estimate;
  return `${who} ${pct(m.accuracy[mine], est)} · opp. ${pct(m.accuracy[1 - mine], est)}`;
}
