// English words of the first screen — the shell, the header, the lobby, and what they show
// (seats, table states, bots, rule sets' names and plain sentences, errors) — bundled with the
// entry script. The other screens' English words (en_more.ts) are a chunk of their own, loaded
// with those screens: a reader of another language never fetches them. Which parts belong here
// is checked: scripts/check-first-words.mjs fails when the entry script's code uses a key that
// is not in these parts.
import { board } from './en/board.ts';
import { common } from './en/common.ts';
import { errors } from './en/errors.ts';
import { header } from './en/header.ts';
import { home } from './en/home.ts';
import { lobby } from './en/lobby.ts';
import { table } from './en/table.ts';

export const enFirst = {
  ...common,
  ...lobby,
  ...table,
  ...home,
  ...board,
  ...header,
  ...errors,
};
