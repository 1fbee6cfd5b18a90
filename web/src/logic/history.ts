// What a match history row says, from the point of view of the page's player (`you` in the row):
// who ended a game that did not end by bearing off, and whose accuracy is whose. `who` is the
// page's player's name, or null when that player is the one reading ("You").

import { num, t } from './i18n.ts';
import { rulesName } from './known.ts';
import { playerNames } from './status.ts';
import type { MatchRow } from './types.ts';

/** "You left the table", "alice resigned", "the opponent's idle clock ran out", ... */
export function historyHow(m: MatchRow, who: string | null): string {
  if (m.reason === 'bore-off') return t('reason.boreOff');
  const mine = m.ended_by !== undefined && m.ended_by === m.you;
  const name = who ?? '';
  switch (m.reason) {
    case 'left':
      if (!mine) return t('reason.left');
      return who === null ? t('how.youLeft') : t('how.left', { name });
    case 'resign':
      if (!mine) return t('how.oppResigned');
      return who === null ? t('how.youResigned') : t('how.resigned', { name });
    case 'timeout':
      if (!mine) return t('how.oppClock');
      return who === null ? t('how.yourClock') : t('how.clock', { name });
    default:
      return m.reason;
  }
}

function pct(v: number | null | undefined, estimate: boolean): string {
  if (v === null || v === undefined) return '–';
  const n = num(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
  return `${estimate ? '~' : ''}${n}`;
}

/**
 * The accuracy cell, the page's player first and named: "You 82.4 · opp. 61.0"; "–" for a seat
 * without a decision (the server sends null) and while the game is not reviewed; "~" before an
 * estimate.
 */
export function historyAccuracyText(m: MatchRow, who: string | null): string {
  if (!m.accuracy) return '–';
  const mine = m.you === 2 ? 1 : 0;
  const est = !!m.accuracy_estimate;
  return t('history.cell', {
    who: who ?? t('name.you'),
    mine: pct(m.accuracy[mine], est),
    theirs: pct(m.accuracy[1 - mine], est),
  });
}

/**
 * Who a row's game was against ("alice", "Computer (Anfänger)" in the page's words), or both
 * players ("alice – bob") when the row is nobody's of the page.
 */
export function opponentText(m: MatchRow): string {
  const [a, b] = playerNames(m.players, m.summary);
  if (m.you === 1 || m.you === 2) return m.you === 1 ? b : a;
  return m.opponent ?? t('history.vs', { a, b });
}

/** The row's rule set for people: the catalog's name of a preset, else the server's. */
export const matchRulesName = (m: MatchRow) => rulesName(m.rules, m.rules_name ?? m.rules);
