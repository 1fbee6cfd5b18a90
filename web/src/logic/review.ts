// The words and numbers of the game review (GET /api/games/<id>/analysis, docs/analysis.md):
// per-player lines, the decomposition in words, the graph's coordinates and the key moves in
// game order. Pure, unit-tested; the screen is ui/review_*.ts.

import { count } from './plural.ts';
import { locationOf, type Geometry } from './geometry.ts';
import type {
  AnalysedMove,
  AnalysedPlayer,
  AnalysedThrow,
  AnalysisAnswer,
  GraphPoint,
  Names,
  SeatNo,
} from './types.ts';

/** A signed percentage with a true minus sign, "+0.0%" for zero (as the server's summary). */
export function signedPct(v: number): string {
  return `${v < -0.0005 ? '\u2212' : '+'}${Math.abs(100 * v).toFixed(1)}%`;
}

export const pct = (v: number) => `${(100 * v).toFixed(1)}%`;

/** "~" before every estimated number, as the CLI does. */
const approx = (a: AnalysisAnswer) => (a.estimate ? '~' : '');

/** A player's accuracy, "–" without a decision with a choice (the server sends null there). */
export const accuracyWords = (p: AnalysedPlayer, t: string) =>
  p.decisions > 0 && typeof p.accuracy === 'number' ? t + p.accuracy.toFixed(1) : '–';

/**
 * One line per player: accuracy, luck, the chance lost and the hints used, e.g.
 * "alice: accuracy 82.4 · luck +3.0% · chance lost 1.2% a decision (12.0 points in all) ·
 * 2 hints used".
 */
export function playerLines(a: AnalysisAnswer, names: Names): string[] {
  const t = approx(a);
  return a.players.map((p) => {
    const acc =
      `accuracy ${accuracyWords(p, t)}` +
      (p.decisions === 0 ? ' (no decisions with a choice)' : '');
    // Hints are named only when taken (games against the computer; the server counts them).
    const hints = p.hints ? ` · ${count(p.hints, 'hint')} used` : '';
    // The chance lost is a sum over the game's decisions (it can pass 100 points in a long game
    // of weak play, won back by luck): per decision it reads as a chance, the sum in points.
    const lost =
      p.decisions > 0
        ? `chance lost ${t}${pct(p.total_cost / p.decisions)} a decision ` +
          `(${t}${(100 * p.total_cost).toFixed(1)} points in all)`
        : `chance lost ${t}${pct(p.total_cost)}`;
    return `${names[p.seat]}: ${acc} · luck ${t}${signedPct(p.luck ?? 0)} · ${lost}${hints}`;
  });
}

/** The banner's line: "alice: accuracy 82.4, luck +12.0% · bob: accuracy 61.0, luck −12.0%". */
export function reviewLine(a: AnalysisAnswer, names: Names): string {
  const t = approx(a);
  return (
    a.players
      .map(
        (p) =>
          `${names[p.seat]}: accuracy ${accuracyWords(p, t)}, ` +
          `luck ${t}${signedPct(p.luck ?? 0)}`,
      )
      .join(' · ') +
    // An estimate now; the review page may later read exact numbers (when the server has solved
    // the rule set) that differ: say so here, where the first numbers are seen.
    (a.estimate
      ? ' (estimated by search; an exact review, once the rules are solved, can differ)'
      : '')
  );
}

/** Points of winning chance: "19.3 points" (a sum over a game, so not a chance itself). */
const points = (v: number) => `${(100 * Math.abs(v)).toFixed(1)} points`;

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
  const t = approx(a);
  const head = over ? `${names[side]} won.` : `${names[1]} had ${pct(d.result)} at the end.`;
  const diff = luck(side) - luck(foe);
  const dice =
    `The dice gave ${names[side]} ${t}${points(diff)} ${diff < 0 ? 'less' : 'more'} than ` +
    `${names[foe]} (luck ${t}${signedPct(luck(side))} against ${t}${signedPct(luck(foe))})`;
  const cost =
    `mistakes cost ${names[side]} ${t}${points(lost(side))} and ` +
    `${names[foe]} ${t}${points(lost(foe))}`;
  return `${head} ${dice}; ${cost}.` + (a.estimate ? ' (estimate)' : '');
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
  if (key.startsWith('home:')) return 'home';
  if (key.startsWith('start:')) return 'S';
  if (key.startsWith('off:')) return 'off';
  return key;
}

/** A decision in words: "d3 → f3", "home → c1", the award, or the resignation. */
export function moveWords(
  geo: Geometry,
  seat: SeatNo,
  m: { from?: number; to?: number; award?: boolean; resign?: boolean },
): string {
  if (m.resign) return 'resigned';
  if (m.award !== undefined) return m.award ? 'took the award' : 'declined the award';
  return `${squareWord(geo, seat, m.from ?? 0)} → ${squareWord(geo, seat, m.to ?? 0)}`;
}

/** A key decision in words, with both chances (the decider's). */
export function decisionWords(geo: Geometry, names: Names, m: AnalysedMove): string {
  const who = names[m.seat];
  const played = `${who} played ${moveWords(geo, m.seat, m)} (${pct(m.value)} to win, ${m.grade})`;
  if (!m.best || m.cost < 1e-6) return `${played}: the best move`;
  return `${played}; best was ${moveWords(geo, m.seat, m.best)} (${pct(m.best_value)} to win)`;
}

/** A key throw in words: "bob threw 4: luck +22.6% (light 71.0%, expected 48.4%)". */
export function throwWords(names: Names, t: AnalysedThrow): string {
  return (
    `${names[t.seat]} threw ${t.outcome}: luck ${signedPct(t.luck)} ` +
    `(${names[1]}'s chance ${pct(t.light)}, ${pct(t.light_expected)} on average over the throws)`
  );
}
