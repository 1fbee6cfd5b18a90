// German: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';
import { common } from './de/common.ts';
import { lobby } from './de/lobby.ts';
import { table } from './de/table.ts';
import { board } from './de/board.ts';
import { explore } from './de/explore.ts';
import { home } from './de/home.ts';
import { howto } from './de/howto.ts';
import { puzzles } from './de/puzzles.ts';
import { review } from './de/review.ts';
import { header } from './de/header.ts';
import { account } from './de/account.ts';
import { players } from './de/players.ts';
import { errors } from './de/errors.ts';

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
