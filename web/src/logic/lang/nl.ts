// Dutch: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';
import { common } from './nl/common.ts';
import { lobby } from './nl/lobby.ts';
import { table } from './nl/table.ts';
import { board } from './nl/board.ts';
import { explore } from './nl/explore.ts';
import { home } from './nl/home.ts';
import { howto } from './nl/howto.ts';
import { puzzles } from './nl/puzzles.ts';
import { review } from './nl/review.ts';
import { header } from './nl/header.ts';
import { account } from './nl/account.ts';
import { players } from './nl/players.ts';
import { errors } from './nl/errors.ts';

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
