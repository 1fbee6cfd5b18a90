// Spanish: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';
import { common } from './es/common.ts';
import { lobby } from './es/lobby.ts';
import { table } from './es/table.ts';
import { board } from './es/board.ts';
import { explore } from './es/explore.ts';
import { home } from './es/home.ts';
import { howto } from './es/howto.ts';
import { puzzles } from './es/puzzles.ts';
import { review } from './es/review.ts';
import { header } from './es/header.ts';
import { account } from './es/account.ts';
import { players } from './es/players.ts';
import { errors } from './es/errors.ts';

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
