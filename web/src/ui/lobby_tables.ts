// The lobby's list of the live public tables, each with a Watch link: asked for over the socket
// when it opens and on the lobby's clock, and on Refresh.

import { tableHash } from '../logic/route.ts';
import { errorText, type App } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import type { LobbyParts } from './lobby_play.ts';
import type { PublicTable } from '../net/protocol.ts';

export function tablesCard(app: App, parts: LobbyParts) {
  const list = h('tbody', {});
  const note = h('p', { class: 'hint', text: 'Loading…' });
  const refreshButton = h('button', { text: 'Refresh', 'data-action': 'refresh-tables' });
  const head = ['Rules', 'Players', 'Status', ''].map((text) => h('th', { text }));
  const el = h(
    'section',
    { class: 'card tables' },
    h('div', { class: 'row spread' }, h('h2', { text: 'Public tables' }), refreshButton),
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
          h('td', { text: parts.presets.get(t.rules)?.name ?? t.rules }),
          h('td', { text: t.players.map((p) => p ?? '(open seat)').join(' vs ') }),
          h('td', { text: t.status + (t.rated ? ' · rated' : '') }),
          h('td', {}, h('a', { href: tableHash(t.id), class: 'button', text: 'Watch' })),
        ),
      ),
    );
    setText(note, tables.length ? '' : 'No public tables right now.');
  };
  const refresh = async () => {
    if (!app.socket.isOpen) return;
    try {
      const ans = await app.socket.request('list_tables', {});
      render(ans.tables ?? []);
    } catch (e) {
      setText(note, `Could not list the tables: ${errorText(e)}`);
    }
  };
  onClick(refreshButton, () => void refresh());
  const offState = app.socket.onState((s) => {
    if (s === 'open') void refresh();
  });
  return { el, refresh, redraw: () => render(last), destroy: offState };
}
