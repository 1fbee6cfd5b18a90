// The lobby's "More ways to play": the rule set with a plain sentence, then one block per way —
// Find Match (the rating queue), a private or public table with an invite link, two players on
// this device (pass and play), the computer at a level the server lists (GET /api/levels).
// Rated play needs an account: the Rated boxes follow the identity.

import { t } from '../logic/i18n.ts';
import { rulesName } from '../logic/known.ts';
import { plainSentence } from '../logic/plain.ts';
import { tableHash } from '../logic/route.ts';
import { levelLabel } from '../logic/status.ts';
import type { PresetSummary, SeatNo } from '../logic/types.ts';
import { errorText, type App } from './app.ts';
import { h, onClick, setText } from './dom.ts';
import { play } from './sound.ts';
import type { ClientMessages } from '../net/protocol.ts';

/** What the lobby's parts share: the rule sets by id, once the server has listed them. */
export interface LobbyParts {
  presets: Map<string, PresetSummary>;
}

/** The level of the lobby's one-tap Play and the level preselected below it. */
export const FIRST_GAME_LEVEL = 'easy';

export const goToTable = (id: string) => {
  window.location.hash = tableHash(id);
};

/** Creates a table with `opts` as this player (a guest if need be) and goes there. */
export async function startTable(
  app: App,
  button: HTMLButtonElement,
  error: HTMLElement,
  opts: ClientMessages['create_table'],
): Promise<void> {
  setText(error, '');
  button.disabled = true;
  try {
    await app.ensureIdentity();
    const ans = await app.socket.request('create_table', opts);
    goToTable(ans.table.id);
  } catch (e) {
    setText(error, errorText(e));
  } finally {
    button.disabled = false;
  }
}

const button = (action: string, text: string, primary = true) =>
  h('button', { class: primary ? 'primary' : '', 'data-action': action, text });
const errorLine = () => h('p', { class: 'line form-error', role: 'alert' });

function block(title: string, hint: string, ...rows: (HTMLElement | null)[]): HTMLElement {
  return h(
    'div',
    { class: 'block' },
    h('h3', { text: title }),
    h('p', { class: 'hint', text: hint }),
    ...rows,
  );
}

/** A "Rated" box: checked and usable for an account, off with a "needs an account" link else. */
function ratedCheck(app: App, name: string) {
  const box = h('input', { type: 'checkbox', name, checked: false, disabled: true });
  const hint = h('a', { class: 'hint', href: '#/login', text: t('lobby.needsAccount') });
  const el = h('label', { class: 'check' }, box, t('lobby.rated'), hint);
  const apply = () => {
    const user = app.identity.kind === 'user';
    if (box.disabled === user) box.checked = user;
    box.disabled = !user;
    hint.hidden = user;
  };
  return { box, el, apply };
}

export function playCard(app: App, parts: LobbyParts) {
  const rules = h('select', { name: 'rules', 'aria-label': t('lobby.ruleSet') });
  rules.append(h('option', { value: 'finkel', text: rulesName('finkel', 'Finkel') }));
  const note = h('p', { class: 'hint rules-summary' });
  const match = matchBlock(app, () => rules.value);
  const table = tableBlock(app, () => rules.value);
  const computer = computerBlock(app, () => rules.value);
  // The rule set's summary under the menu, and whether the perfect level can play it perfectly.
  const showPreset = () => {
    const p = parts.presets.get(rules.value);
    setText(note, p ? plainSentence(p.id, p.summary) : '');
    computer.label(p);
  };
  rules.addEventListener('change', showPreset);
  computer.onLevels = showPreset;
  const el = h(
    'details',
    { class: 'card play more' },
    h('summary', {}, h('h2', { text: t('lobby.moreWays') })),
    h('label', { class: 'field' }, t('lobby.ruleSet'), rules),
    note,
    match.el,
    table.el,
    localBlock(app, () => rules.value),
    computer.el,
  );
  return {
    el,
    presetsLoaded(list: PresetSummary[]) {
      rules.replaceChildren(
        ...list.map((p) => h('option', { value: p.id, text: rulesName(p.id, p.name) })),
      );
      rules.value = 'finkel';
      showPreset();
    },
    applyIdentity() {
      match.rated.apply();
      table.rated.apply();
    },
    /** The requests of the card: the computer's levels. */
    load: () => void computer.load(),
    destroy: match.destroy,
  };
}

/** Find Match: the rating queue, with Cancel; a found match goes to its table. */
function matchBlock(app: App, rules: () => string) {
  const rated = ratedCheck(app, 'match-rated');
  const find = button('find-match', t('lobby.findMatch'));
  const cancel = h('button', {
    'data-action': 'cancel-match',
    text: t('lobby.cancel'),
    hidden: true,
  });
  const status = h('p', { class: 'line match-status', role: 'status' });
  let queued = false;
  const setQueued = (q: boolean, text = '') => {
    queued = q;
    find.hidden = q;
    cancel.hidden = !q;
    setText(status, text);
  };
  onClick(find, async () => {
    setQueued(true, t('lobby.searching'));
    try {
      await app.ensureIdentity();
      const ans = await app.socket.request('find_match', {
        rules: rules(),
        rated: rated.box.checked,
      });
      if (ans.type === 'queued')
        setText(
          status,
          ans.rating === undefined || ans.rating === null
            ? t('lobby.searching')
            : t('lobby.searchingNear', { rating: String(ans.rating) }),
        );
    } catch (e) {
      setQueued(false, errorText(e));
    }
  });
  onClick(cancel, async () => {
    try {
      await app.socket.request('cancel_match', {});
    } catch (e) {
      app.toast(errorText(e), 'warn');
    }
    setQueued(false, t('lobby.searchCancelled'));
  });
  const offMsg = app.socket.onMessage((m) => {
    if (m.type !== 'match_found') return;
    setQueued(false, t('lobby.matchFound'));
    play('match');
    document.title = t('lobby.matchFoundTitle');
    if (m.table?.id) goToTable(m.table.id);
  });
  const offState = app.socket.onState((s) => {
    if (s === 'reconnecting' && queued) setQueued(false, t('lobby.searchDropped'));
  });
  const hint = t('lobby.matchHint');
  const el = block(
    t('lobby.findMatch'),
    hint,
    h('div', { class: 'row' }, find, cancel, rated.el),
    status,
  );
  const destroy = () => {
    offMsg();
    offState();
    if (queued) app.socket.request('cancel_match', {}).catch(() => {});
  };
  return { el, rated, destroy };
}

/** A table for a friend: private (invite link) or public, rated or not. */
function tableBlock(app: App, rules: () => string) {
  const rated = ratedCheck(app, 'table-rated');
  const vis = h(
    'select',
    { name: 'visibility', 'aria-label': t('lobby.visibility') },
    h('option', { value: 'private', text: t('lobby.privateOption') }),
    h('option', { value: 'public', text: t('lobby.publicOption') }),
  );
  const create = button('create-table', t('lobby.createTable'));
  const error = errorLine();
  onClick(create, () =>
    startTable(app, create, error, {
      rules: rules(),
      public: vis.value === 'public',
      rated: rated.box.checked,
    }),
  );
  const hint = t('lobby.tableHint');
  const el = block(
    t('lobby.friendTable'),
    hint,
    h('div', { class: 'row' }, vis, rated.el),
    h('div', { class: 'row' }, create),
    error,
  );
  return { el, rated };
}

/** Pass and play: two people, one screen, any rule set, no account; names are optional. */
function localBlock(app: App, rules: () => string): HTMLElement {
  const nameInput = (seat: number, word: string) =>
    h('input', {
      name: `name${seat}`,
      maxlength: 24,
      placeholder: word,
      'aria-label': t('lobby.sideName', { side: word }),
      class: `pp-name s${seat}`,
    });
  const names = [nameInput(1, t('seat.light')), nameInput(2, t('seat.dark'))];
  const start = button('pass-and-play', t('lobby.start'));
  const error = errorLine();
  onClick(start, () =>
    startTable(app, start, error, {
      rules: rules(),
      local: true,
      names: names.map((n) => n.value.trim() || n.placeholder),
    }),
  );
  const hint = t('lobby.localHint');
  const rows = [h('div', { class: 'row' }, ...names), h('div', { class: 'row' }, start), error];
  return block(t('lobby.twoPlayers'), hint, ...rows);
}

/** The computer at a level of the server's list, on either seat. */
function computerBlock(app: App, rules: () => string) {
  const level = h('select', { name: 'level', 'aria-label': t('lobby.level') });
  const seat = h(
    'select',
    { name: 'bot-seat', 'aria-label': t('lobby.yourSeat') },
    h('option', { value: '1', text: t('lobby.playLight') }),
    h('option', { value: '2', text: t('lobby.playDark') }),
  );
  const start = button('play-computer', t('lobby.playComputer'));
  start.disabled = true; // until the server has listed the levels
  const error = errorLine();
  onClick(start, () =>
    startTable(app, start, error, {
      rules: rules(),
      level: level.value,
      seat: Number(seat.value) as SeatNo,
      // Unlisted: the player may make the table public from the table's bar.
      public: false,
    }),
  );
  const hint = t('lobby.computerHint');
  const el = block(
    t('lobby.playComputer'),
    hint,
    h('div', { class: 'row' }, level, seat),
    h('div', { class: 'row' }, start),
    error,
  );
  const part = {
    el,
    onLevels: () => {},
    /** Asks the server for its levels (once the lobby is on screen). */
    load: () =>
      app
        .levels()
        .then((list) => {
          level.replaceChildren(...list.map((l) => h('option', { value: l.name, text: l.name })));
          level.value = FIRST_GAME_LEVEL;
          start.disabled = false;
          part.onLevels();
        })
        .catch((e) => setText(error, t('lobby.levelsFailed', { why: errorText(e) }))),
    /** The levels' names for the rule set `p` (perfect says when it plays as hard). */
    label(p: PresetSummary | undefined) {
      for (const o of level.options)
        setText(
          o,
          levelLabel(o.value, p?.solved ?? true, p?.solve ?? null, p?.learned ?? false, p?.endgame),
        );
    },
  };
  return part;
}
