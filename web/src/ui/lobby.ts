// The lobby. A visitor plays at once: one main "Play" (the computer, Finkel rules, as a guest; no
// form first). The rest is one step away under "More ways to play" (lobby_play.ts). Beside them:
// how to play, the bots online and the live public tables to watch (lobby_tables.ts). The screen
// only composes those parts and runs their common clock.

import { t, type Key } from '../logic/i18n.ts';
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
      .catch((e) => app.toast(t('home.presetsFailed', { why: errorText(e) }), 'warn'));
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
    text: t('home.play'),
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
    h('h1', { text: t('home.title') }),
    h('p', { text: t('home.tagline') }),
    playNow,
    h('p', { class: 'hint', text: t('home.playHint') }),
    error,
    guestNote,
  );
  const applyIdentity = () => {
    const kind = app.identity.kind;
    guestNote.hidden = kind === 'user';
    // The link sits where the language puts {link} in the sentence.
    const [before, after = ''] = t(kind === 'guest' ? 'home.guest' : 'home.noAccount').split(
      '{link}',
    );
    guestNote.replaceChildren(before, h('a', { href: '#/login', text: t('home.register') }), after);
  };
  return { el, applyIdentity };
}

const HOW_TO_PLAY: Key[] = ['home.howto1', 'home.howto2', 'home.howto3', 'home.howto4'];

function howToCard(): HTMLElement {
  return h(
    'section',
    { class: 'card howto' },
    h(
      'h2',
      {},
      `${t('home.howto')} `,
      h('a', { href: '#/rules/finkel', class: 'small-link', text: t('home.fullRules') }),
    ),
    h('ul', {}, ...HOW_TO_PLAY.map((key) => h('li', { text: t(key) }))),
  );
}
