// The lobby's list of the live public tables, each with a Watch link: asked for over the socket
// when it opens and on the lobby's clock, and on Refresh.

import { rulesName } from '../logic/known.ts';
import { t as tr } from '../logic/i18n.ts';
import { playerName, tableStateText } from '../logic/status.ts';
import { tableHash } from '../logic/route.ts';
import { errorText, type App } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import type { LobbyParts } from './lobby_play.ts';
import type { PublicTable } from '../net/protocol.ts';

export function tablesCard(app: App, parts: LobbyParts) {
  const list = h('tbody', {});
  const note = h('p', { class: 'hint', text: tr('lobby.loading') });
  const refreshButton = h('button', { text: tr('lobby.refresh'), 'data-action': 'refresh-tables' });
  const head = [tr('lobby.col.rules'), tr('lobby.col.players'), tr('lobby.col.status'), ''].map(
    (text) => h('th', { text }),
  );
  const el = h(
    'section',
    { class: 'card tables' },
    h('div', { class: 'row spread' }, h('h2', { text: tr('lobby.publicTables') }), refreshButton),
    h('table', { class: 'list' }, h('thead', {}, h('tr', {}, ...head)), list),
    note,
  );
  let last: PublicTable[] = [];
  const render = (tables: PublicTable[]) => {
    last = tables;
    list.replaceChildren(
      ...tables.map((t) =>
        h(
          'tr',
          { 'data-table': t.id },
          h('td', { text: rulesName(t.rules, parts.presets.get(t.rules)?.name ?? t.rules) }),
          h('td', {
            text: tr('lobby.vs', {
              a: t.players[0] ? playerName(t.players[0]) : tr('table.openSeat'),
              b: t.players[1] ? playerName(t.players[1]) : tr('table.openSeat'),
            }),
          }),
          h('td', { text: tableStateText(t.status) + (t.rated ? ` · ${tr('table.rated')}` : '') }),
          h('td', {}, h('a', { href: tableHash(t.id), class: 'button', text: tr('lobby.watch') })),
        ),
      ),
    );
    setText(note, tables.length ? '' : tr('lobby.noTables'));
  };
  const refresh = async () => {
    if (!app.socket.isOpen) return;
    try {
      const ans = await app.socket.request('list_tables', {});
      render(ans.tables ?? []);
    } catch (e) {
      setText(note, tr('lobby.tablesFailed', { why: errorText(e) }));
    }
  };
  onClick(refreshButton, () => void refresh());
  const offState = app.socket.onState((s) => {
    if (s === 'open') void refresh();
  });
  return { el, refresh, redraw: () => render(last), destroy: offState };
}
