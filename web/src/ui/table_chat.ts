// Quick messages at the table (docs/protocol.md, "quick_message"): a seated player taps one of a
// fixed set, everyone at the table sees "alice: Good luck" for a few seconds. The server sends
// codes; the words are here, so they can be translated. "Mute" hides the opponent's messages for
// this game (kept for the tab's life in sessionStorage, per table). It also says when the other
// player's page has left the table (`presence`): "bob is disconnected", instead of a clock that
// seems to show them thinking.

import { list, t as tr, type Key } from '../logic/i18n.ts';
import type { QuickCode } from '../net/protocol.ts';
import type { ServerMessage } from '../net/socket.ts';
import { errorText } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import type { TableState } from './table_state.ts';

export const QUICK_WORDS: Record<QuickCode, Key> = {
  good_game: 'quick.good_game',
  good_luck: 'quick.good_luck',
  well_played: 'quick.well_played',
  thanks: 'quick.thanks',
  oops: 'quick.oops',
};

const muteKey = (table: string) => `ur-mute-${table}`;

/** The other players whose page has left (the server speaks of people's seats only). */
function awayNames(t: TableState, offline: Set<number>): string[] {
  return [...offline]
    .filter((seat) => seat !== t.you)
    .map((seat) => t.snap?.seats[seat - 1]?.name ?? tr('seat.n', { n: seat }));
}

/** Who is away, from `joined.online` and `presence` (null: not a person's seat, never away). */
function notePresence(t: TableState, m: ServerMessage, offline: Set<number>): void {
  if (m.type === 'joined' && Array.isArray(m.online) && m.table?.id === t.id)
    m.online.forEach((on, i) => (on === false ? offline.add(i + 1) : offline.delete(i + 1)));
  if (m.type === 'presence' && m.table === t.id) {
    if (m.online) offline.delete(m.seat);
    else offline.add(m.seat);
  }
}

export function quickChat(t: TableState) {
  const said = h('p', { class: 'quick-said', role: 'status', 'aria-live': 'polite' });
  const mute = h('button', { type: 'button', class: 'quick-mute', 'data-action': 'mute' });
  let muted = sessionStorage.getItem(muteKey(t.id)) === '1';
  const buttons = (Object.keys(QUICK_WORDS) as QuickCode[]).map((code) => {
    const b = h('button', { type: 'button', 'data-quick': code, text: tr(QUICK_WORDS[code]) });
    onClick(b, () => {
      t.app.socket.request('quick_message', { table: t.id, code }).catch((e) => {
        setText(said, errorText(e));
        refresh();
      });
    });
    return b;
  });
  const row = h('div', { class: 'quick-row', role: 'group', 'aria-label': tr('quick.group') });
  row.append(...buttons, mute);
  const away = h('p', { class: 'presence-note', role: 'status' });
  // On a phone the notes float over the board's foot (table_chat.css): no height of their own.
  const el = h('div', { class: 'quick-chat' }, h('div', { class: 'quick-notes' }, away, said), row);
  const offline = new Set<number>();
  const showAway = () => {
    const names = awayNames(t, offline);
    setText(
      away,
      names.length ? tr('presence.away', { names: list(names), count: names.length }) : '',
    );
    away.hidden = !names.length || t.snap?.status !== 'playing';
  };
  let clearTimer = 0;
  // Nothing to say to the computer, nor to oneself at pass and play: the element then takes no
  // room at all (the board keeps the whole screen).
  const refresh = () => {
    const snap = t.snap;
    const person = !!snap && snap.seats.every((s) => s.kind !== 'bot');
    row.hidden = !(t.you !== null && person && !snap?.local && snap?.status !== 'closed');
    said.hidden = !said.textContent;
    el.hidden = row.hidden && said.hidden && away.hidden;
    // The page gives the row its room (table_chat.css): the board shrinks rather than scroll.
    t.view.page.classList.toggle('chatting', !row.hidden);
    setText(mute, tr(muted ? 'quick.unmute' : 'quick.mute'));
    mute.setAttribute('aria-pressed', String(muted));
  };
  onClick(mute, () => {
    muted = !muted;
    if (muted) sessionStorage.setItem(muteKey(t.id), '1');
    else sessionStorage.removeItem(muteKey(t.id));
    refresh();
  });
  refresh();
  return {
    el,
    refresh,
    /** A message of the socket: shows this table's quick messages (unless muted). */
    onMessage(m: ServerMessage) {
      notePresence(t, m, offline);
      showAway();
      if (m.type !== 'quick_message' || m.table !== t.id) return;
      const code = m.code;
      const mine = m.seat === t.you;
      if (!(code in QUICK_WORDS) || (muted && !mine)) return;
      setText(
        said,
        tr('quick.said', {
          name: mine ? tr('name.you') : String(m.name),
          words: tr(QUICK_WORDS[code]),
        }),
      );
      refresh();
      window.clearTimeout(clearTimer);
      clearTimer = window.setTimeout(() => {
        setText(said, '');
        refresh();
      }, 6000);
    },
    destroy() {
      window.clearTimeout(clearTimer);
    },
  };
}
