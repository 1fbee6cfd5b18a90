// The lobby. A visitor plays at once: one main "Play" (the computer, Finkel rules, as a guest; no
// form first). The rest is one step away under "More ways to play": the rule set with a plain
// sentence, Find Match (the rating queue), a private or public table with an invite link, two
// players on this device (pass and play), the computer's level; rated play needs an account.
// Then the live public tables to watch.

import type { Route } from '../logic/route.ts';
import { tableHash } from '../logic/route.ts';
import { plainSentence } from '../logic/plain.ts';
import { levelLabel } from '../logic/status.ts';
import type { PresetSummary } from '../logic/types.ts';
import type { ServerMessage } from '../net/socket.ts';
import { errorText, type App, type View } from './app.ts';
import { botsCard } from './bots.ts';
import { h, setText } from './dom.ts';
import { play } from './sound.ts';

interface PublicTable {
  id: string;
  rules: string;
  status: string;
  rated: boolean;
  version: number;
  players: (string | null)[];
}

const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'perfect'];

export function mountLobby(app: App, root: HTMLElement, _route: Route): View {
  const isUser = app.identity.kind === 'user';
  const rulesSelect = h('select', { name: 'rules', 'aria-label': 'Rule set' });
  rulesSelect.append(h('option', { value: 'finkel', text: 'Finkel' }));
  const rulesNote = h('p', { class: 'hint rules-summary' });
  const presets = new Map<string, PresetSummary>();
  // The rule set's summary under the menu, and whether the perfect level can play it perfectly.
  const showPreset = () => {
    const p = presets.get(rulesSelect.value);
    setText(rulesNote, p ? plainSentence(p.id, p.summary) : '');
    for (const o of level.options)
      setText(o, levelLabel(o.value, p?.solved ?? false, p?.solve ?? null));
  };
  app
    .presets()
    .then((list) => {
      rulesSelect.replaceChildren(...list.map((p) => h('option', { value: p.id, text: p.name })));
      rulesSelect.value = 'finkel';
      for (const p of list) presets.set(p.id, p);
      showPreset();
      renderTables(lastTables); // now with the rule sets' names
    })
    .catch((e) => app.toast(`Could not load the rule sets: ${errorText(e)}`, 'warn'));
  rulesSelect.addEventListener('change', showPreset);

  const ratedHint = () => h('a', { class: 'hint', href: '#/login', text: '(needs an account)' });
  const ratedHints = [ratedHint(), ratedHint()];
  const matchRated = h('input', {
    type: 'checkbox',
    name: 'match-rated',
    checked: isUser,
    disabled: !isUser,
  });
  const findButton = h('button', {
    class: 'primary',
    'data-action': 'find-match',
    text: 'Find Match',
  });
  const cancelButton = h('button', { 'data-action': 'cancel-match', text: 'Cancel', hidden: true });
  const matchStatus = h('p', { class: 'line match-status', role: 'status' });

  const vis = h(
    'select',
    { name: 'visibility', 'aria-label': 'Visibility' },
    h('option', { value: 'private', text: 'Private — invite only' }),
    h('option', { value: 'public', text: 'Public — anyone can watch' }),
  );
  const tableRated = h('input', {
    type: 'checkbox',
    name: 'table-rated',
    checked: isUser,
    disabled: !isUser,
  });
  const createButton = h('button', {
    class: 'primary',
    'data-action': 'create-table',
    text: 'Create table',
  });
  const createError = h('p', { class: 'line form-error', role: 'alert' });

  const level = h(
    'select',
    { name: 'level', 'aria-label': 'Computer level' },
    ...LEVELS.map((l) => h('option', { value: l, text: levelLabel(l, true) })),
  );
  level.value = 'easy';
  const botSeat = h(
    'select',
    { name: 'bot-seat', 'aria-label': 'Your seat' },
    h('option', { value: '1', text: 'You play seat 1 (rose)' }),
    h('option', { value: '2', text: 'You play seat 2 (sky)' }),
  );
  const botButton = h('button', {
    class: 'primary',
    'data-action': 'play-computer',
    text: 'Play the computer',
  });
  const botError = h('p', { class: 'line form-error', role: 'alert' });

  // Pass and play: two people, one screen, any rule set, no account; names are optional.
  const nameInput = (seat: number, word: string) =>
    h('input', {
      name: `name${seat}`,
      maxlength: 24,
      placeholder: word,
      'aria-label': `Name of the ${word.toLowerCase()} side (seat ${seat})`,
      class: `pp-name s${seat}`,
    });
  const names = [nameInput(1, 'Rose'), nameInput(2, 'Sky')];
  const localButton = h('button', {
    class: 'primary',
    'data-action': 'pass-and-play',
    text: 'Start',
  });
  const localError = h('p', { class: 'line form-error', role: 'alert' });

  const tableList = h('tbody', {});
  const tablesNote = h('p', { class: 'hint', text: 'Loading…' });
  const refreshButton = h('button', { text: 'Refresh', 'data-action': 'refresh-tables' });

  const playNow = h('button', {
    type: 'button',
    class: 'primary big',
    'data-action': 'play-now',
    text: 'Play',
  });
  const playNowError = h('p', { class: 'line form-error', role: 'alert' });
  const guestNote = h('p', { class: 'hint guest-note' });
  // The lobby shows before the server has said who this is: it follows the identity when it does.
  const applyIdentity = () => {
    const kind = app.identity.kind;
    for (const box of [matchRated, tableRated]) {
      if (box.disabled === (kind === 'user')) box.checked = kind === 'user';
      box.disabled = kind !== 'user';
    }
    for (const hint of ratedHints) hint.hidden = kind === 'user';
    guestNote.hidden = kind === 'user';
    guestNote.replaceChildren(
      kind === 'guest' ? 'You play as a guest. ' : 'No account needed: you play as a guest. ',
      h('a', { href: '#/login', text: 'Register' }),
      ' to keep your games and get a rating.',
    );
  };
  const hero = h(
    'section',
    { class: 'card hero' },
    h('h1', { text: 'The Royal Game of Ur' }),
    h('p', {
      text: 'A 4,500-year-old race for two: throw the dice, run your pieces round the board and off it first.',
    }),
    playNow,
    h('p', { class: 'hint', text: 'Against the computer, on the usual (Finkel) rules.' }),
    playNowError,
    guestNote,
  );
  const playCard = h(
    'details',
    { class: 'card play more' },
    h('summary', {}, h('h2', { text: 'More ways to play' })),
    h('label', { class: 'field' }, 'Rule set', rulesSelect),
    rulesNote,
    h(
      'div',
      { class: 'block' },
      h('h3', { text: 'Find Match' }),
      h('p', { class: 'hint', text: 'Be paired with a waiting player near your rating.' }),
      h(
        'div',
        { class: 'row' },
        findButton,
        cancelButton,
        h('label', { class: 'check' }, matchRated, 'Rated', ratedHints[0]),
      ),
      matchStatus,
    ),
    h(
      'div',
      { class: 'block' },
      h('h3', { text: 'A table for a friend' }),
      h('p', { class: 'hint', text: 'Private tables give you an invite link to send.' }),
      h(
        'div',
        { class: 'row' },
        vis,
        h('label', { class: 'check' }, tableRated, 'Rated', ratedHints[1]),
      ),
      h('div', { class: 'row' }, createButton),
      createError,
    ),
    h(
      'div',
      { class: 'block' },
      h('h3', { text: 'Two players on this device' }),
      h('p', {
        class: 'hint',
        text: 'Pass and play: take turns on this screen, with undo. No account needed.',
      }),
      h('div', { class: 'row' }, ...names),
      h('div', { class: 'row' }, localButton),
      localError,
    ),
    h(
      'div',
      { class: 'block' },
      h('h3', { text: 'Play the computer' }),
      h('p', { class: 'hint', text: 'Choose how strong it plays and which side you take.' }),
      h('div', { class: 'row' }, level, botSeat),
      h('div', { class: 'row' }, botButton),
      botError,
    ),
  );
  const tablesCard = h(
    'section',
    { class: 'card tables' },
    h('div', { class: 'row spread' }, h('h2', { text: 'Public tables' }), refreshButton),
    h(
      'table',
      { class: 'list' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: 'Rules' }),
          h('th', { text: 'Players' }),
          h('th', { text: 'Status' }),
          h('th', { text: '' }),
        ),
      ),
      tableList,
    ),
    tablesNote,
  );
  const howTo = h(
    'section',
    { class: 'card howto' },
    h(
      'h2',
      {},
      'How to play ',
      h('a', { href: '#/rules/finkel', class: 'small-link', text: '(full rules)' }),
    ),
    h(
      'ul',
      {},
      h('li', {
        text: 'Bring all your pieces from the Home pile onto the board, along your path (your row, the shared middle row, back to your row) and off the far end. The first to bear off every piece wins.',
      }),
      h('li', {
        text: 'Press Throw the dice: the marked tips show how many squares you move. Then tap a glowing piece or its marked landing square (or press its number key).',
      }),
      h('li', {
        text: 'Landing on a rosette ✸ gives another throw, and a piece there is safe. Landing on a lone opponent piece in the shared row sends it home.',
      }),
      h('li', {
        text: 'A throw with no legal move passes the turn. Against a person, the clock under the dice shows how long you have left to act.',
      }),
    ),
  );
  const bots = botsCard(app);
  root.append(
    h(
      'div',
      { class: 'lobby' },
      h('div', { class: 'lobby-main' }, hero, playCard),
      h('div', { class: 'lobby-side' }, howTo, bots.el, tablesCard),
    ),
  );

  let queued = false;
  const setQueued = (q: boolean, text = '') => {
    queued = q;
    findButton.hidden = q;
    cancelButton.hidden = !q;
    setText(matchStatus, text);
  };

  const go = (id: string) => {
    window.location.hash = tableHash(id);
  };

  findButton.addEventListener('click', async () => {
    setQueued(true, 'Searching for an opponent…');
    try {
      await app.ensureIdentity();
      const ans = await app.socket.request('find_match', {
        rules: rulesSelect.value,
        rated: matchRated.checked,
      });
      if (ans.type === 'queued')
        setText(
          matchStatus,
          `Searching for an opponent near ${String(ans.rating ?? '')}…`.replace(' near …', '…'),
        );
    } catch (e) {
      setQueued(false, errorText(e));
    }
  });
  cancelButton.addEventListener('click', async () => {
    try {
      await app.socket.request('cancel_match', {});
    } catch (e) {
      app.toast(errorText(e), 'warn');
    }
    setQueued(false, 'Search cancelled.');
  });

  createButton.addEventListener('click', async () => {
    setText(createError, '');
    createButton.disabled = true;
    try {
      await app.ensureIdentity();
      const ans = await app.socket.request('create_table', {
        rules: rulesSelect.value,
        public: vis.value === 'public',
        rated: tableRated.checked,
      });
      const t = ans.table as { id: string };
      go(t.id);
    } catch (e) {
      setText(createError, errorText(e));
    } finally {
      createButton.disabled = false;
    }
  });

  const playComputer = async (
    button: HTMLButtonElement,
    error: HTMLElement,
    opts: Record<string, unknown>,
  ) => {
    setText(error, '');
    button.disabled = true;
    try {
      await app.ensureIdentity();
      const ans = await app.socket.request('create_table', opts);
      go((ans.table as { id: string }).id);
    } catch (e) {
      setText(error, errorText(e));
    } finally {
      button.disabled = false;
    }
  };
  botButton.addEventListener('click', () =>
    playComputer(botButton, botError, {
      rules: rulesSelect.value,
      level: level.value,
      seat: Number(botSeat.value),
      public: true,
    }),
  );
  playNow.addEventListener('click', () =>
    playComputer(playNow, playNowError, { rules: 'finkel', level: 'easy', seat: 1, public: true }),
  );
  localButton.addEventListener('click', () =>
    playComputer(localButton, localError, {
      rules: rulesSelect.value,
      local: true,
      names: names.map((n) => n.value.trim() || n.placeholder),
    }),
  );

  let lastTables: PublicTable[] = [];
  const renderTables = (tables: PublicTable[]) => {
    lastTables = tables;
    tableList.replaceChildren(
      ...tables.map((t) =>
        h(
          'tr',
          { 'data-table': t.id },
          h('td', { text: presets.get(t.rules)?.name ?? t.rules }),
          h('td', { text: t.players.map((p) => p ?? '(open seat)').join(' vs ') }),
          h('td', { text: t.status + (t.rated ? ' · rated' : '') }),
          h('td', {}, h('a', { href: tableHash(t.id), class: 'button', text: 'Watch' })),
        ),
      ),
    );
    setText(tablesNote, tables.length ? '' : 'No public tables right now.');
  };
  const refresh = async () => {
    if (!app.socket.isOpen) return;
    try {
      const ans = await app.socket.request('list_tables', {});
      renderTables((ans.tables as PublicTable[]) ?? []);
    } catch (e) {
      setText(tablesNote, `Could not list the tables: ${errorText(e)}`);
    }
  };
  refreshButton.addEventListener('click', () => void refresh());

  const offMsg = app.socket.onMessage((m: ServerMessage) => {
    if (m.type === 'match_found') {
      setQueued(false, 'Match found!');
      play('match');
      document.title = 'Match found! — ur';
      const t = m.table as { id: string } | undefined;
      if (t?.id) go(t.id);
    }
  });
  const offState = app.socket.onState((s) => {
    if (s === 'open') void refresh();
    if (s === 'reconnecting' && queued) setQueued(false, 'The connection dropped: search again.');
  });
  // The header's rating and game count: a game may have ended since it was drawn (one left
  // running at a table, lost on time or resigned by the opponent), so look again now and then.
  void refresh();
  void app.refreshMe();
  applyIdentity();
  const offIdentity = app.onIdentity(applyIdentity);
  void bots.refresh();
  const timer = window.setInterval(() => {
    void refresh();
    void app.refreshMe();
    void bots.refresh();
  }, 5000);

  return {
    destroy() {
      window.clearInterval(timer);
      offMsg();
      offState();
      offIdentity();
      if (queued) app.socket.request('cancel_match', {}).catch(() => {});
    },
  };
}
