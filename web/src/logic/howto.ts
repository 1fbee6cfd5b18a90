// The "How to play" text of a rule set, built from its definition (GET /api/rules/<preset>), so
// every preset gets its page without one written by hand: the goal, the path, the dice, the
// rosettes and each special rule the set has. Every sentence is a catalog text with placeholders
// (lang/<code>/howto.ts), counted ones in the language's plural forms; lists of squares are
// joined as the language joins them (Intl.ListFormat). Pure, unit-tested.

import { currentLang, LANGUAGES, list, t } from './i18n.ts';
import { rulesName } from './known.ts';
import type { RulesInfo } from './types.ts';

export interface HowtoSection {
  title: string;
  lines: string[];
}

/** A square's name ("a4"), kept left to right inside right-to-left text (Unicode isolates). */
export const cellName = (cell: string) =>
  LANGUAGES[currentLang()].dir === 'rtl' ? `\u2066${cell}\u2069` : cell;

const cellList = (cells: string[]) => list(cells.map(cellName));

export { rulesName };

function pathSection(r: RulesInfo): HowtoSection {
  const light = r.paths.light;
  const dark = r.paths.dark;
  // Unique squares: a long path (Murray's) passes some of them twice.
  const shared = [...new Set(light.filter((c) => dark.includes(c)))];
  return {
    title: t('howto.path'),
    lines: [
      t('howto.pathLine', {
        count: r.path_length,
        lightFrom: cellName(light[0]),
        lightTo: cellName(light.at(-1)!),
        darkFrom: cellName(dark[0]),
        darkTo: cellName(dark.at(-1)!),
        show: t('table.showPath'),
      }),
      shared.length
        ? t('howto.shared', { count: shared.length, list: cellList(shared) })
        : t('howto.apart'),
      t('howto.bearOff'),
    ],
  };
}

function diceSection(r: RulesInfo): HowtoSection {
  const rows = r.dice.throws.map((th, k) => {
    let row = t('howto.tips', { count: k, move: th.move });
    if (th.move === 0) row = t('howto.passes', { row });
    if (th.extra) row = t('howto.again', { row });
    return row;
  });
  return {
    title: t('howto.dice'),
    lines: [t('howto.diceLine', { count: r.dice.count }), ...rows, t('howto.noLegal')],
  };
}

function rosetteSection(r: RulesInfo): HowtoSection {
  const ros = r.board.squares.filter((s) => s.rosette);
  const safe = ros.filter((s) => s.safe).map((s) => s.cell);
  const lines = [
    t('howto.rosetteList', { count: ros.length, list: cellList(ros.map((s) => s.cell)) }),
  ];
  lines.push(t('howto.rosetteAgain'));
  lines.push(
    safe.length === ros.length
      ? t('howto.safeAll')
      : safe.length
        ? t('howto.safeSome', { list: cellList(safe) })
        : t('howto.safeNone'),
  );
  return { title: t('howto.rosettes'), lines };
}

function specialSection(r: RulesInfo): HowtoSection | null {
  const lines: string[] = [];
  if (r.entry === 'staging') lines.push(t('howto.staging'));
  if (r.stacking) lines.push(t('howto.stacking'));
  for (const s of r.board.squares) {
    const cell = cellName(s.cell);
    if (s.special === 'double') lines.push(t('howto.double', { cell }));
    if (s.special === 'forfeit') lines.push(t('howto.forfeit', { cell }));
    if (s.award) lines.push(t('howto.award', { cell }));
  }
  if (r.scored) lines.push(t('howto.scored'));
  if (r.stake > 0) lines.push(t('howto.stake', { n: r.stake }));
  return lines.length ? { title: t('howto.special'), lines } : null;
}

export function howtoSections(r: RulesInfo): HowtoSection[] {
  const goal: HowtoSection = {
    title: t('howto.goal'),
    lines: [
      t('howto.goalLine', { count: r.pieces }),
      t('howto.turn', { throw: t('table.prompt.throw') }),
    ],
  };
  const out = [goal, pathSection(r), diceSection(r), rosetteSection(r)];
  const special = specialSection(r);
  if (special) out.push(special);
  return out;
}
