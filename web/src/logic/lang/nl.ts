// Dutch: the English catalog's keys (lang/en.ts), translated part by part; the game's terms as in
// docs/languages.md's glossary.
import type { Catalog } from './catalog.ts';
import { common } from './nl/common.ts';
import { lobby } from './nl/lobby.ts';
import { table } from './nl/table.ts';
import { header } from './nl/header.ts';
import { account } from './nl/account.ts';
import { players } from './nl/players.ts';
import { errors } from './nl/errors.ts';

export const catalog: Catalog = {
  ...common,
  ...lobby,
  ...table,
  ...header,
  ...account,
  ...players,
  ...errors,
};
