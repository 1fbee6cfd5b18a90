// Arabic: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary. The page runs right to left; the board keeps its geometry.
import type { Catalog } from './catalog.ts';
import { common } from './ar/common.ts';
import { lobby } from './ar/lobby.ts';
import { table } from './ar/table.ts';
import { board } from './ar/board.ts';
import { explore } from './ar/explore.ts';
import { home } from './ar/home.ts';
import { howto } from './ar/howto.ts';
import { puzzles } from './ar/puzzles.ts';
import { review } from './ar/review.ts';
import { header } from './ar/header.ts';
import { account } from './ar/account.ts';
import { players } from './ar/players.ts';
import { errors } from './ar/errors.ts';

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
