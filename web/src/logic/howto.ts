// The "How to play" text of a rule set, built from its definition (GET /api/rules/<preset>), so
// every preset gets its page without one written by hand: the goal, the path, the dice, the
// rosettes and each special rule the set has. Pure, unit-tested.

import { count } from './plural.ts';
import type { RulesInfo } from './types.ts';

export interface HowtoSection {
  title: string;
  lines: string[];
}

const cellList = (cells: string[]) =>
  cells.length <= 1 ? cells.join('') : `${cells.slice(0, -1).join(', ')} and ${cells.at(-1)}`;

function pathSection(r: RulesInfo): HowtoSection {
  const light = r.paths.light;
  const dark = r.paths.dark;
  // Unique squares: a long path (Murray's) passes some of them twice.
  const shared = [...new Set(light.filter((c) => dark.includes(c)))];
  return {
    title: 'The path',
    lines: [
      `Each side runs its own path of ${r.path_length} squares: light (rose) from ${light[0]} to ${light.at(-1)}, dark (sky) from ${dark[0]} to ${dark.at(-1)}. "Show path" numbers it on the board.`,
      shared.length
        ? `The ${shared.length} squares both paths share (${cellList(shared)}) are where pieces meet: landing on a lone opponent piece there sends it back to its Home pile.`
        : 'The paths never meet.',
      'A piece bears off by moving exactly one square past the end of the path.',
    ],
  };
}

function diceSection(r: RulesInfo): HowtoSection {
  const n = r.dice.count;
  const rows = r.dice.throws.map((t, k) => {
    const bits = [`${count(k, 'marked tip')}: move ${t.move}`];
    if (t.move === 0) bits.push('no move, the turn passes');
    if (t.extra) bits.push('and throw again');
    return bits.join(', ');
  });
  return {
    title: 'The dice',
    lines: [
      `${n} four-sided dice; each shows a marked (white) tip or not, and the marked tips count.`,
      ...rows,
      'A throw with no legal move passes the turn.',
    ],
  };
}

function rosetteSection(r: RulesInfo): HowtoSection {
  const ros = r.board.squares.filter((s) => s.rosette);
  const safe = ros.filter((s) => s.safe).map((s) => s.cell);
  const lines = [`The rosettes ✸ are ${cellList(ros.map((s) => s.cell))}.`];
  lines.push('Landing on a rosette gives another throw.');
  lines.push(
    safe.length === ros.length
      ? 'A piece on a rosette is safe: it cannot be captured.'
      : safe.length
        ? `A piece is safe on ${cellList(safe)}; elsewhere it can be captured.`
        : 'Rosettes do not protect a piece: it can be captured there.',
  );
  return { title: 'Rosettes', lines };
}

function specialSection(r: RulesInfo): HowtoSection | null {
  const lines: string[] = [];
  if (r.entry === 'staging')
    lines.push('Counters first go onto a start space S, and enter the path from there.');
  if (r.stacking) lines.push('Pieces of one side may stack on a square and move together.');
  for (const s of r.board.squares) {
    if (s.special === 'double') lines.push(`${s.cell} doubles the move that lands there.`);
    if (s.special === 'forfeit')
      lines.push(`Landing on ${s.cell} makes the opponent move a counter 4 squares.`);
    if (s.award) lines.push(`Landing on ${s.cell} may enter a counter onto S.`);
  }
  if (r.scored) lines.push("The win is scored: the winner counts the loser's pieces left.");
  if (r.stake > 0) lines.push(`Each game is played for a stake of ${r.stake}.`);
  return lines.length ? { title: 'Special rules', lines } : null;
}

export function howtoSections(r: RulesInfo): HowtoSection[] {
  const goal: HowtoSection = {
    title: 'The goal',
    lines: [
      `Each player has ${r.pieces} pieces waiting in a Home pile. Throw the dice, bring the pieces onto the board, run them along your path and bear them off the far end. The first to bear off every piece wins.`,
      'On your turn: press "Throw the dice", then tap a glowing piece or its marked landing square.',
    ],
  };
  const out = [goal, pathSection(r), diceSection(r), rosetteSection(r)];
  const special = specialSection(r);
  if (special) out.push(special);
  return out;
}
