// Friends (#/friends; docs/server.md "Friends" and "Blocking", docs/protocol.md "Challenges"): the
// players one follows with who is online now, following and unfollowing by name, challenges by
// name, the players who follow one (friends_lists.ts) and the block list.
// The challenge bars show on every screen: app.ts loads this script on the first challenge
// message, so the lobby's script carries none of it. A challenge this page made or accepted
// leads here to the new table; the account's other pages only drop the bar.

import { profileHash, tableHash, type Route } from '../logic/route.ts';
import { t } from '../logic/i18n.ts';
import { rulesName } from '../logic/known.ts';
import type { PresetSummary } from '../logic/types.ts';
import { api, type FriendsAnswer } from '../net/api.ts';
import type { Challenge, MessageOf } from '../net/protocol.ts';
import type { ServerMessage } from '../net/socket.ts';
import { errorText, type App, type View } from './app.ts';
import { clear, h, onClick, setText } from './dom.ts';
import { blockButton, blockedSection, followersSection } from './friends_lists.ts';

/** Challenges of this page: made here (the bar says whom it waits for) or accepted here. */
const mine = new Map<string, { to: string; bar: HTMLElement | null }>();
const bars = new Map<string, { el: HTMLElement; timer: number }>();
let host: HTMLElement | null = null;
let presetNames: Record<string, string> = {};

function barHost(): HTMLElement {
  if (!host || !host.isConnected) {
    host = h('div', { class: 'challenge-bars', 'aria-live': 'polite' });
    document.body.append(host);
  }
  return host;
}

const rulesText = (c: Challenge) =>
  t(c.rated ? 'challenge.rated' : 'challenge.casual', { rules: presetNames[c.rules] ?? c.rules });

/** A bar with a countdown to the challenge's end; `text` is what it says before the seconds. */
function showBar(c: Challenge, text: string, ...buttons: HTMLElement[]): HTMLElement {
  dropBar(c.id);
  const left = h('span', { class: 'challenge-left' });
  const el = h(
    'div',
    {
      class: 'challenge-bar',
      role: 'group',
      'aria-label': t('challenge.label'),
      'data-challenge': c.id,
    },
    h('span', { class: 'challenge-text', text }),
    h('span', { class: 'challenge-actions' }, left, ...buttons),
  );
  const end = Date.now() + c.expires_in;
  const tick = () =>
    setText(left, t('unit.seconds', { n: Math.max(0, Math.ceil((end - Date.now()) / 1000)) }));
  tick();
  bars.set(c.id, { el, timer: window.setInterval(tick, 1000) });
  barHost().append(el);
  return el;
}

function dropBar(id: string): void {
  const b = bars.get(id);
  if (!b) return;
  window.clearInterval(b.timer);
  b.el.remove();
  bars.delete(id);
}

const button = (text: string, action: string) =>
  h('button', { type: 'button', text, 'data-action': action });

function incoming(app: App, c: Challenge): void {
  const accept = button(t('challenge.accept'), 'accept-challenge');
  const decline = button(t('challenge.decline'), 'decline-challenge');
  const text = t('challenge.incoming', {
    name: c.from,
    rating: String(c.from_rating),
    rules: rulesText(c),
  });
  showBar(c, text, accept, decline);
  const answer = (yes: boolean) => {
    accept.disabled = decline.disabled = true;
    if (yes) mine.set(c.id, { to: c.from, bar: null });
    app.socket.request('challenge_answer', { challenge: c.id, accept: yes }).then(
      () => yes || dropBar(c.id),
      (e) => (dropBar(c.id), app.toast(errorText(e), 'warn')),
    );
  };
  onClick(accept, () => answer(true));
  onClick(decline, () => answer(false));
}

function ended(app: App, m: MessageOf<'challenge_ended'>): void {
  const id = m.challenge;
  dropBar(id);
  const own = mine.get(id);
  if (!own) return;
  mine.delete(id);
  const reason = m.reason;
  if (reason === 'accepted' && m.table) {
    window.location.hash = tableHash(m.table);
  } else if (own.bar) {
    const words: Record<string, string> = {
      declined: t('challenge.declined', { name: own.to }),
      expired: t('challenge.expired', { name: own.to }),
      failed: t('challenge.failed'),
    };
    if (words[reason]) app.toast(words[reason], reason === 'failed' ? 'warn' : 'info');
  }
}

/** A challenge message from the socket (app.ts hands them here). */
export function challengeMessage(app: App, m: ServerMessage): void {
  if (m.type === 'challenged') {
    void loadNames(app).finally(() => incoming(app, m.challenge));
  } else if (m.type === 'challenge_ended') ended(app, m);
}

async function loadNames(app: App): Promise<void> {
  try {
    const list = await app.presets();
    presetNames = Object.fromEntries(list.map((p) => [p.id, rulesName(p.id, p.name)]));
  } catch {
    /* the bar shows the rule set's id */
  }
}

/** Sends a challenge and shows its bar, with Cancel, until it ends. */
export async function sendChallenge(
  app: App,
  to: string,
  rules: string,
  rated: boolean,
): Promise<void> {
  try {
    await loadNames(app);
    const r = await app.socket.request('challenge_player', { to, rules, rated });
    const c = r.challenge;
    const cancel = button(t('challenge.cancel'), 'cancel-challenge');
    const waiting = t('challenge.waiting', { name: c.to, rules: rulesText(c) });
    const bar = showBar(c, waiting, cancel);
    mine.set(c.id, { to: c.to, bar });
    onClick(cancel, () => {
      cancel.disabled = true;
      app.socket.request('challenge_cancel', { challenge: c.id }).catch(() => dropBar(c.id));
    });
  } catch (e) {
    app.toast(errorText(e), 'warn');
  }
}

/** A rule-set choice, a rated box and a Challenge button for one player (also on profiles). */
export function challengeControls(app: App, name: string): HTMLElement {
  const pick = rulePicker(app);
  const go = button(t('challenge.challenge'), 'challenge');
  onClick(go, () => void sendChallenge(app, name, pick.rules(), pick.rated()));
  return h('div', { class: 'challenge-controls' }, pick.el, go);
}

function rulePicker(app: App) {
  const select = h('select', { 'aria-label': t('challenge.rulePick') });
  const rated = h('input', { type: 'checkbox' });
  select.append(h('option', { value: 'finkel', text: rulesName('finkel', 'Finkel') }));
  app.presets().then(
    (list: PresetSummary[]) =>
      select.replaceChildren(
        ...list.map((p) => h('option', { value: p.id, text: rulesName(p.id, p.name) })),
      ),
    () => {},
  );
  const box = h('label', {}, rated, ` ${t('challenge.ratedBox')}`);
  const el = h('span', { class: 'rule-pick' }, select, box);
  return { el, rules: () => select.value, rated: () => rated.checked };
}

function friendRow(
  app: App,
  f: FriendsAnswer['following'][number],
  refresh: () => void,
  blocked: () => void,
) {
  const unfollow = button(t('friends.unfollow'), 'unfollow');
  onClick(unfollow, () =>
    api.follow(f.username, false).then(refresh, (e) => app.toast(errorText(e), 'warn')),
  );
  const status = f.online ? 'online' : 'offline';
  return h(
    'li',
    { class: `friend ${status}`, 'data-user': f.username },
    h('span', { class: 'dot', 'aria-hidden': 'true' }),
    h('a', { href: profileHash(f.username), text: f.username, class: 'friend-name' }),
    h('span', { class: 'friend-meta', text: `${f.rating} · ${t(`friends.${status}`)}` }),
    f.online ? challengeControls(app, f.username) : null,
    unfollow,
    blockButton(app, f.username, blocked),
  );
}

export function mountFriends(app: App, root: HTMLElement, _route: Route): View {
  const list = h('ul', { class: 'friends-list' });
  const note = h('p', { class: 'hint' });
  const name = h('input', {
    type: 'text',
    name: 'username',
    autocomplete: 'off',
    maxlength: '20',
    'aria-label': t('friends.nameLabel'),
    placeholder: t('friends.namePlaceholder'),
  });
  const submit = h('button', { text: t('friends.follow') });
  const form = h('form', { class: 'follow-form' }, name, submit);
  let timer = 0;
  const followers = followersSection(app, () => refresh());
  const blocks = blockedSection(app, () => refresh());
  const blocked = () => (refresh(), void blocks.load());
  const draw = (a: FriendsAnswer) => {
    clear(list);
    for (const f of a.following) list.append(friendRow(app, f, refresh, blocked));
    followers.draw(a);
    const online = a.following.filter((f) => f.online).length;
    setText(
      note,
      a.following.length
        ? t('friends.onlineCount', { online, count: a.following.length })
        : t('friends.none'),
    );
  };
  const refresh = () => {
    const user = app.identity.kind === 'user';
    followers.el.hidden = !user;
    blocks.el.hidden = !user;
    if (!user) {
      clear(list);
      setText(note, t('friends.login'));
      return;
    }
    api.friends().then(draw, (e) => setText(note, errorText(e)));
  };
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const who = name.value.trim();
    if (!who) return;
    api.follow(who, true).then(
      (a) => ((name.value = ''), draw(a)),
      (err) => app.toast(errorText(err), 'warn'),
    );
  });
  root.append(
    h(
      'section',
      { class: 'card friends' },
      h('h1', { text: t('nav.friends') }),
      form,
      note,
      list,
      followers.el,
      blocks.el,
    ),
  );
  refresh();
  if (app.identity.kind === 'user') void blocks.load();
  timer = window.setInterval(refresh, 20000); // who is online changes
  const off = app.onIdentity(() => (refresh(), app.identity.kind === 'user' && blocks.load()));
  return {
    destroy() {
      window.clearInterval(timer);
      off();
    },
  };
}
