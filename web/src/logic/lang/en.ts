// English: the source catalog, in parts by screen (lang/catalog.ts). Every other language has
// exactly these keys (typed) and the same placeholders (checked by test/i18n.test.ts). A key
// starts with its screen's name: `settings.*` is the settings dialog.
import { board } from './en/board.ts';
import { common } from './en/common.ts';
import { explore } from './en/explore.ts';
import { home } from './en/home.ts';
import { howto } from './en/howto.ts';
import { lobby } from './en/lobby.ts';
import { puzzles } from './en/puzzles.ts';
import { review } from './en/review.ts';
import { table } from './en/table.ts';
import { header } from './en/header.ts';
import { account } from './en/account.ts';
import { players } from './en/players.ts';
import { errors } from './en/errors.ts';

export const en = {
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
