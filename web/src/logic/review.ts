// The words and numbers of the game review (GET /api/games/<id>/analysis, docs/analysis.md):
// per-player lines, the decomposition in words, the graph's coordinates and the key moves in
// game order. Pure, unit-tested; the screen is ui/review_*.ts.

import { locationOf, type Geometry } from './geometry.ts';
import { num, pct as percent, t } from './i18n.ts';
import { known } from './known.ts';
import type {
  AnalysedMove,
  AnalysedPlayer,
  AnalysedThrow,
  AnalysisAnswer,
  GraphPoint,
  Names,
  SeatNo,
} from './types.ts';

/** A share as a percentage with one decimal, in the language's own way ("57.3%", "57,3 %"). */
export const pct = (v: number) => percent(v, 1);

/** A signed percentage with a true minus sign, "+0.0%" for zero (as the server's summary). */
export function signedPct(v: number): string {
  return `${v < -0.0005 ? '\u2212' : '+'}${pct(Math.abs(v))}`;
}

/** A number with one decimal ("82.4", "82,4"). */
export const fixed1 = (v: number) => num(v, { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A move grade's word ("mistake", "Fehler"); a grade the client does not know, as sent. */
export function gradeWord(grade: string): string {
  return known(`grade.${grade}`) ?? grade;
}

/** "~" before every estimated number, as the CLI does. */
const approx = (a: AnalysisAnswer) => (a.estimate ? '~' : '');

/** A player's accuracy, "–" without a decision with a choice (the server sends null there). */
export const accuracyWords = (p: AnalysedPlayer, mark: string) =>
  p.decisions > 0 && typeof p.accuracy === 'number' ? mark + fixed1(p.accuracy) : '–';

/**
 * One line per player: accuracy, luck, the chance lost and the hints used, e.g.
 * "alice: accuracy 82.4 · luck +3.0% · chance lost 1.2% a decision (12.0 points in all) ·
 * 2 hints used".
 */
export function playerLines(a: AnalysisAnswer, names: Names): string[] {
  const m = approx(a);
  return a.players.map((p) => {
    const value = accuracyWords(p, m);
    const accuracy = t(p.decisions === 0 ? 'review.noChoice' : 'review.accuracy', { value });
    // The chance lost is a sum over the game's decisions (it can pass 100 points in a long game
    // of weak play, won back by luck): per decision it reads as a chance, the sum in points.
    const lost =
      p.decisions > 0
        ? t('review.lostPer', {
            pct: m + pct(p.total_cost / p.decisions),
            points: m + fixed1(100 * p.total_cost),
          })
        : t('review.lost', { pct: m + pct(p.total_cost) });
    const line = t('review.player', {
      name: names[p.seat],
      accuracy,
      luck: m + signedPct(p.luck ?? 0),
      lost,
    });
    // Hints are named only when taken (games against the computer; the server counts them).
    return p.hints ? t('review.hints', { line, count: p.hints }) : line;
  });
}

/** The banner's line: "alice: accuracy 82.4, luck +12.0% · bob: accuracy 61.0, luck −12.0%". */
export function reviewLine(a: AnalysisAnswer, names: Names): string {
  const m = approx(a);
  const line = a.players
    .map((p) =>
      t('review.line', {
        name: names[p.seat],
        accuracy: accuracyWords(p, m),
        luck: m + signedPct(p.luck ?? 0),
      }),
    )
    .join(' · ');
  // An estimate now; the review page may later read exact numbers (when the server has solved
  // the rule set) that differ: say so here, where the first numbers are seen.
  return a.estimate ? t('review.lineEstimate', { line }) : line;
}

/** Points of winning chance: "19.3 points" (a sum over a game, so not a chance itself). */
const points = (v: number, mark: string) =>
  t('review.points', { n: mark + fixed1(100 * Math.abs(v)) });

/**
 * The decomposition from the winner's side, each number said for what it is, so that it reads
 * beside the players' own luck: "alice won. The dice gave alice 19.3 points more than bob (luck
 * +25.6% against +6.3%); mistakes cost alice 16.3 points and bob 45.4 points."
 */
export function decompositionWords(a: AnalysisAnswer, names: Names): string {
  const d = a.decomposition;
  if (!d) return a.summary ?? '';
  const over = d.result === 0 || d.result === 1;
  const side: SeatNo = over && d.result === 0 ? 2 : 1;
  const foe: SeatNo = side === 1 ? 2 : 1;
  const luck = (s: SeatNo) => (s === 1 ? d.light_luck : d.dark_luck);
  const lost = (s: SeatNo) => (s === 1 ? d.light_lost : d.dark_lost);
  const m = approx(a);
  const head = over
    ? t('review.won', { name: names[side] })
    : t('review.had', { name: names[1], pct: pct(d.result) });
  const diff = luck(side) - luck(foe);
  const dice = t(diff < 0 ? 'review.diceLess' : 'review.diceMore', {
    side: names[side],
    foe: names[foe],
    points: points(diff, m),
    luck: m + signedPct(luck(side)),
    foeLuck: m + signedPct(luck(foe)),
  });
  const cost = t('review.cost', {
    side: names[side],
    foe: names[foe],
    points: points(lost(side), m),
    foePoints: points(lost(foe), m),
  });
  const text = t('review.decomposition', { head, dice, cost });
  return a.estimate ? t('review.estimateTag', { text }) : text;
}

export interface PlotPoint extends GraphPoint {
  x: number;
  y: number;
}

/** The graph's points in a w × h box: x by step, y = light's chance (1 at the top). */
export function plotPoints(graph: GraphPoint[], w: number, h: number, pad = 6): PlotPoint[] {
  const last = Math.max(1, graph[graph.length - 1]?.step ?? 1);
  return graph.map((g) => ({
    ...g,
    x: pad + ((w - 2 * pad) * g.step) / last,
    y: pad + (h - 2 * pad) * (1 - Math.max(0, Math.min(1, g.light))),
  }));
}

/** The replay frame that shows the position after an event (frame 0 is the start). */
export const frameAfter = (event: number) => event + 1;

export type KeyItem =
  | { kind: 'decision'; event: number; move: AnalysedMove }
  | { kind: 'throw'; event: number; throw: AnalysedThrow };

/** The key decisions and throws, in game order: what "Review key moves" steps through. */
export function keyItems(a: AnalysisAnswer): KeyItem[] {
  const k = a.key_moves;
  if (!k) return [];
  const items: KeyItem[] = [
    ...k.decisions.map((m) => ({ kind: 'decision' as const, event: m.event, move: m })),
    ...k.throws.map((t) => ({ kind: 'throw' as const, event: t.event, throw: t })),
  ];
  return items.sort((x, y) => x.event - y.event);
}

/** A square's name for the words: "home", "S", "off" or the square ("d3"). */
export function squareWord(geo: Geometry, seat: SeatNo, index: number): string {
  const key = locationOf(geo, seat, index);
  if (key.startsWith('home:')) return t('square.home');
  if (key.startsWith('start:')) return t('square.start');
  if (key.startsWith('off:')) return t('square.off');
  return key;
}

/** A decision in words: "d3 → f3", "home → c1", the award, or the resignation. */
export function moveWords(
  geo: Geometry,
  seat: SeatNo,
  m: { from?: number; to?: number; award?: boolean; resign?: boolean },
): string {
  if (m.resign) return t('review.resigned');
  if (m.award !== undefined) return t(m.award ? 'review.tookAward' : 'review.declinedAward');
  return t('move.words', {
    from: squareWord(geo, seat, m.from ?? 0),
    to: squareWord(geo, seat, m.to ?? 0),
  });
}

/** A key decision in words, with both chances (the decider's). */
export function decisionWords(geo: Geometry, names: Names, m: AnalysedMove): string {
  const played = t('review.played', {
    who: names[m.seat],
    move: moveWords(geo, m.seat, m),
    pct: pct(m.value),
    grade: gradeWord(m.grade),
  });
  if (!m.best || m.cost < 1e-6) return t('review.playedBest', { played });
  return t('review.playedWorse', {
    played,
    best: moveWords(geo, m.seat, m.best),
    pct: pct(m.best_value),
  });
}

/** A key throw in words: "bob threw 4: luck +22.6% (alice's chance 71.0%, 48.4% on average…)". */
export function throwWords(names: Names, th: AnalysedThrow): string {
  return t('review.threw', {
    who: names[th.seat],
    n: th.outcome,
    luck: signedPct(th.luck),
    light: names[1],
    pct: pct(th.light),
    avg: pct(th.light_expected),
  });
}

/**
 * Why a review is estimated, in the page's words from the server's `note_code`; a code this
 * client does not know (a newer server's) shows the server's words, as a sentence.
 */
export function estimateNote(a: AnalysisAnswer): string {
  const words = a.note_code ? known(`review.note.${a.note_code}`) : undefined;
  if (words) return words;
  return a.note ? a.note[0].toUpperCase() + a.note.slice(1) + '.' : '';
}
