// The lobby. A visitor plays at once: one main "Play" (the computer, Finkel rules, as a guest; no
// form first). The rest is one step away under "More ways to play" (lobby_play.ts). Beside them:
// how to play, the bots online and the live public tables to watch (lobby_tables.ts). The screen
// only composes those parts and runs their common clock.

import type { Route } from '../logic/route.ts';
import { errorText, type App, type View } from './app.ts';
import { botsCard } from './bots.ts';
import { afterPaint, h, onClick } from './dom.ts';
import { dailyCard } from './lobby_daily.ts';
import { FIRST_GAME_LEVEL, playCard, startTable, type LobbyParts } from './lobby_play.ts';
import { tablesCard } from './lobby_tables.ts';

export function mountLobby(app: App, root: HTMLElement, _route: Route): View {
  const parts: LobbyParts = { presets: new Map() };
  const hero = heroCard(app);
  const play = playCard(app, parts);
  const tables = tablesCard(app, parts);
  const bots = botsCard(app);
  const daily = dailyCard();
  root.append(
    h(
      'div',
      { class: 'lobby' },
      h('div', { class: 'lobby-main' }, hero.el, play.el),
      h('div', { class: 'lobby-side' }, daily.el, howToCard(), bots.el, tables.el),
    ),
  );
  const loadPresets = () =>
    app
      .presets()
      .then((list) => {
        for (const p of list) parts.presets.set(p.id, p);
        play.presetsLoaded(list);
        daily.load(list);
        tables.redraw(); // now with the rule sets' names
      })
      .catch((e) => app.toast(`Could not load the rule sets: ${errorText(e)}`, 'warn'));
  // The lobby shows before the server has said who this is: it follows the identity when it does.
  const applyIdentity = () => {
    hero.applyIdentity();
    play.applyIdentity();
  };
  applyIdentity();
  const offIdentity = app.onIdentity(applyIdentity);
  // The header's rating and game count: a game may have ended since it was drawn (one left
  // running at a table, lost on time or resigned by the opponent), so look again now and then.
  const refresh = () => {
    void tables.refresh();
    void app.refreshMe();
    void bots.refresh();
  };
  // Every request starts once the lobby is on screen, all at once: the first screen (the Play
  // button) waits for none of them, and none waits for another.
  let timer = 0;
  let gone = false;
  void afterPaint().then(() => {
    if (gone) return;
    void loadPresets();
    play.load();
    refresh();
    timer = window.setInterval(refresh, 5000);
  });
  return {
    destroy() {
      gone = true;
      window.clearInterval(timer);
      offIdentity();
      tables.destroy();
      play.destroy();
    },
  };
}

/** The first thing a visitor sees: one Play button, and what playing as a guest means. */
function heroCard(app: App): { el: HTMLElement; applyIdentity: () => void } {
  const playNow = h('button', {
    type: 'button',
    class: 'primary big',
    'data-action': 'play-now',
    text: 'Play',
  });
  const error = h('p', { class: 'line form-error', role: 'alert' });
  const guestNote = h('p', { class: 'hint guest-note' });
  onClick(playNow, () =>
    startTable(app, playNow, error, {
      rules: 'finkel',
      level: FIRST_GAME_LEVEL,
      seat: 1,
      // Unlisted: the player may make the table public from the table's bar.
      public: false,
    }),
  );
  const el = h(
    'section',
    { class: 'card hero' },
    h('h1', { text: 'The Royal Game of Ur' }),
    h('p', {
      text: 'A 4,500-year-old race for two: throw the dice, run your pieces round the board and off it first.',
    }),
    playNow,
    h('p', { class: 'hint', text: 'Against the computer, on the usual (Finkel) rules.' }),
    error,
    guestNote,
  );
  const applyIdentity = () => {
    const kind = app.identity.kind;
    guestNote.hidden = kind === 'user';
    guestNote.replaceChildren(
      kind === 'guest' ? 'You play as a guest. ' : 'No account needed: you play as a guest. ',
      h('a', { href: '#/login', text: 'Register' }),
      ' to keep your games and get a rating.',
    );
  };
  return { el, applyIdentity };
}

const HOW_TO_PLAY = [
  'Bring all your pieces from the Home pile onto the board, along your path (your row, the shared middle row, back to your row) and off the far end. The first to bear off every piece wins.',
  'Press Throw the dice: the marked tips show how many squares you move. Then tap a glowing piece or its marked landing square (or press its number key).',
  'Landing on a rosette ✸ gives another throw, and a piece there is safe. Landing on a lone opponent piece in the shared row sends it home.',
  'A throw with no legal move passes the turn. Against a person, the clock under the dice shows how long you have left to act.',
];

function howToCard(): HTMLElement {
  return h(
    'section',
    { class: 'card howto' },
    h(
      'h2',
      {},
      'How to play ',
      h('a', { href: '#/rules/finkel', class: 'small-link', text: '(full rules)' }),
    ),
    h('ul', {}, ...HOW_TO_PLAY.map((text) => h('li', { text }))),
  );
}
