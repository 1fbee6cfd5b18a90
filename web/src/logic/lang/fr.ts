// French: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';
import { common } from './fr/common.ts';
import { lobby } from './fr/lobby.ts';
import { table } from './fr/table.ts';
import { board } from './fr/board.ts';
import { explore } from './fr/explore.ts';
import { home } from './fr/home.ts';
import { howto } from './fr/howto.ts';
import { puzzles } from './fr/puzzles.ts';
import { review } from './fr/review.ts';
import { header } from './fr/header.ts';
import { account } from './fr/account.ts';
import { players } from './fr/players.ts';
import { errors } from './fr/errors.ts';

export const catalog: Catalog = {
  ...common,
  ...lobby,
  ...table,
  ...home,
  ...puzzles,
  ...review,
  ...explore,
  ...howto,
  ...board,
  ...header,
  ...account,
  ...players,
  ...errors,
};
