// The friends screen's other lists (docs/server.md "Friends" and "Blocking"): the players who
// follow you, newest first, with Follow back; the players you block, with Unblock; and the Block
// button of a row (it asks first: a second click within 4 s), which also ends both follows.

import { profileHash } from '../logic/route.ts';
import { t } from '../logic/i18n.ts';
import { api, type BlocksAnswer, type FriendsAnswer } from '../net/api.ts';
import { errorText, type App } from './app.ts';
import { clear, h, onClick, setText } from './dom.ts';

const button = (text: string, action: string) =>
  h('button', { type: 'button', text, 'data-action': action });

/**
 * A Block button for `name`; `done` runs with the new block list. It asks first, as
 * confirm.ts's buttons do; written out here because the friends script may share no module
 * with the screens' script (vite.config.ts).
 */
export function blockButton(app: App, name: string, done: (b: BlocksAnswer) => void) {
  const b = button(t('friends.block'), 'block');
  b.setAttribute('aria-label', t('friends.blockName', { name }));
  let timer = 0;
  const reset = () => ((b.dataset.confirm = ''), setText(b, t('friends.block')));
  onClick(b, () => {
    window.clearTimeout(timer);
    if (b.dataset.confirm !== '1') {
      b.dataset.confirm = '1';
      setText(b, t('friends.blockAsk'));
      timer = window.setTimeout(reset, 4000);
      return;
    }
    reset();
    api.block(name, true).then(done, (e) => app.toast(errorText(e), 'warn'));
  });
  return b;
}

type Follower = FriendsAnswer['followers'][number];

function followerRow(app: App, f: Follower, refresh: () => void): HTMLElement {
  const back = f.following
    ? h('span', { class: 'friend-meta', text: t('friends.followsBack') })
    : button(t('friends.followBack'), 'follow-back');
  if (!f.following)
    onClick(back, () =>
      api.follow(f.username, true).then(refresh, (e) => app.toast(errorText(e), 'warn')),
    );
  return h(
    'li',
    { class: 'friend follower', 'data-user': f.username },
    h('a', { href: profileHash(f.username), text: f.username, class: 'friend-name' }),
    h('span', {
      class: 'friend-meta',
      text: `${f.rating} · ${t('friends.games', { count: f.games })}`,
    }),
    back,
    blockButton(app, f.username, refresh),
  );
}

/** The followers section; `draw` fills it from an answer of GET /api/friends. */
export function followersSection(app: App, refresh: () => void) {
  const list = h('ul', { class: 'friends-list followers-list' });
  const note = h('p', { class: 'hint' });
  const title = h('h2', { text: t('friends.followers') });
  const el = h('section', { class: 'friends-part' }, title, note, list);
  const draw = (a: FriendsAnswer) => {
    clear(list);
    for (const f of a.followers) list.append(followerRow(app, f, refresh));
    const shown = a.followers.length;
    const count = a.followers_total;
    const words =
      count > shown
        ? t('friends.followedByNewest', { count, shown })
        : t('friends.followedBy', { count });
    setText(note, count ? words : t('friends.noFollowers'));
  };
  return { el, draw };
}

/** The block list, loaded by `load` (and after each change). */
export function blockedSection(app: App, changed: () => void) {
  const list = h('ul', { class: 'friends-list blocked-list' });
  const note = h('p', { class: 'hint' });
  const title = h('h2', { text: t('friends.blocked') });
  const el = h('section', { class: 'friends-part' }, title, note, list);
  const draw = (b: BlocksAnswer) => {
    clear(list);
    for (const u of b.blocking) {
      const unblock = button(t('friends.unblock'), 'unblock');
      unblock.setAttribute('aria-label', t('friends.unblockName', { name: u.username }));
      onClick(unblock, () =>
        api.block(u.username, false).then(
          (x) => (draw(x), changed()),
          (e) => app.toast(errorText(e), 'warn'),
        ),
      );
      list.append(
        h(
          'li',
          { class: 'friend blocked', 'data-user': u.username },
          h('a', { href: profileHash(u.username), text: u.username, class: 'friend-name' }),
          unblock,
        ),
      );
    }
    setText(note, b.blocking.length ? t('friends.blockedText') : t('friends.blockNobody'));
  };
  const load = () => api.blocks().then(draw, (e) => setText(note, errorText(e)));
  return { el, draw, load };
}
