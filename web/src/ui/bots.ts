// Bot accounts in the browser (docs/server.md, "Bot accounts"): the lobby's list of the bots
// online, each with its rule sets and a Challenge button, and on a player's own history page the
// switch "this account is a bot" with its token, shown once when it is issued.

import { t } from '../logic/i18n.ts';
import { tableHash } from '../logic/route.ts';
import { api, type BotStatus, type OnlineBot } from '../net/api.ts';
import { errorText, type App } from './app.ts';
import { h, onClick, setText } from './dom.ts';

/** The lobby's card of the bots online; `refresh` lists them again. */
export function botsCard(app: App): { el: HTMLElement; refresh: () => Promise<void> } {
  const list = h('ul', { class: 'bots' });
  const note = h('p', { class: 'hint' });
  const el = h(
    'section',
    { class: 'card bots-card' },
    h('h2', { text: t('bots.title') }),
    list,
    note,
  );
  el.hidden = true;

  const challenge = async (bot: OnlineBot, rules: string, button: HTMLButtonElement) => {
    button.disabled = true;
    try {
      await app.ensureIdentity();
      const ans = await app.socket.request('challenge_bot', {
        bot: bot.name,
        rules,
        rated: app.identity.kind === 'user',
      });
      if (ans.table?.id) window.location.hash = tableHash(ans.table.id);
    } catch (e) {
      setText(note, `${bot.name}: ${errorText(e)}`);
    } finally {
      button.disabled = false;
    }
  };

  const row = (bot: OnlineBot) => {
    const rules = h('select', { 'aria-label': t('bots.rulesAgainst', { name: bot.name }) });
    rules.append(...bot.rules.map((r) => h('option', { value: r, text: r })));
    const button = h('button', {
      type: 'button',
      text: t(bot.busy ? 'bots.playing' : 'bots.challenge'),
    });
    button.disabled = bot.busy;
    onClick(button, () => void challenge(bot, rules.value, button));
    return h('li', {}, h('b', { text: bot.name }), ` ${bot.rating} `, rules, button);
  };

  const refresh = async () => {
    try {
      const { bots } = await api.bots();
      list.replaceChildren(...bots.map(row));
      el.hidden = bots.length === 0;
    } catch {
      el.hidden = true; // the lobby's other cards say when the server is away
    }
  };
  return { el, refresh };
}

/** The command that runs a bot with its token (docs/server.md): the same in every language. */
const BOT_COMMAND = 'ur bot --server URL --token TOKEN --engine "PATH".';

/** The switch "this account is a bot" and its token, for the logged-in owner. */
export function botAccountCard(): HTMLElement {
  const box = h('input', { type: 'checkbox', name: 'is-bot' });
  const status = h('p', { class: 'hint' });
  const token = h('code', { class: 'bot-token' });
  const renew = h('button', { type: 'button', text: t('bots.newToken') });
  const revoke = h('button', { type: 'button', text: t('bots.revokeToken') });
  const show = (b: BotStatus) => {
    box.checked = b.bot;
    renew.hidden = revoke.hidden = !b.bot;
    revoke.disabled = !b.has_token;
    setText(token, b.token ?? '');
    const pool = t('bots.pool', { rating: String(b.rating), count: b.games });
    const active = b.bot ? `${t(b.has_token ? 'bots.active' : 'bots.none')} ` : '';
    setText(status, b.token ? t('bots.tokenOnce', { command: BOT_COMMAND }) : active + pool);
  };
  const change = (c: { bot: boolean } | { revoke: true }) =>
    api
      .setBot(c)
      .then(show)
      .catch((e) => setText(status, errorText(e)));
  box.addEventListener('change', () => void change({ bot: box.checked }));
  onClick(renew, () => void change({ bot: true }));
  onClick(revoke, () => void change({ revoke: true }));
  api
    .bot()
    .then(show)
    .catch((e) => setText(status, errorText(e)));
  return h(
    'section',
    { class: 'card bot-account' },
    h('h2', { text: t('bots.account') }),
    h('label', {}, box, ` ${t('bots.isBot')}`),
    h('div', { class: 'row' }, renew, revoke),
    token,
    status,
  );
}
