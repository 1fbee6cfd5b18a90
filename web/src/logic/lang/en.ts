// English: the source catalog, in parts by screen (lang/catalog.ts). Every other language has
// exactly these keys (typed) and the same placeholders (checked by test/i18n.test.ts). A key
// starts with its screen's name: `settings.*` is the settings dialog.
import { common } from './en/common.ts';
import { lobby } from './en/lobby.ts';
import { table } from './en/table.ts';
import { header } from './en/header.ts';
import { account } from './en/account.ts';
import { players } from './en/players.ts';
import { errors } from './en/errors.ts';

export const en = { ...common, ...lobby, ...table, ...header, ...account, ...players, ...errors };
