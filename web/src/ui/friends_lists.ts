// The friends screen's other lists (docs/server.md "Friends" and "Blocking"): the players who
// follow you, newest first, with Follow back; the players you block, with Unblock; and the Block
// button of a row (it asks first: a second click within 4 s), which also ends both follows.

import { profileHash } from '../logic/route.ts';
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
  const b = button('Block', 'block');
  b.setAttribute('aria-label', `Block ${name}`);
  let timer = 0;
  const reset = () => ((b.dataset.confirm = ''), setText(b, 'Block'));
  onClick(b, () => {
    window.clearTimeout(timer);
    if (b.dataset.confirm !== '1') {
      b.dataset.confirm = '1';
      setText(b, 'Block?');
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
    ? h('span', { class: 'friend-meta', text: 'you follow back' })
    : button('Follow back', 'follow-back');
  if (!f.following)
    onClick(back, () =>
      api.follow(f.username, true).then(refresh, (e) => app.toast(errorText(e), 'warn')),
    );
  return h(
    'li',
    { class: 'friend follower', 'data-user': f.username },
    h('a', { href: profileHash(f.username), text: f.username, class: 'friend-name' }),
    h('span', { class: 'friend-meta', text: `${f.rating} · ${f.games} games` }),
    back,
    blockButton(app, f.username, refresh),
  );
}

/** The followers section; `draw` fills it from an answer of GET /api/friends. */
export function followersSection(app: App, refresh: () => void) {
  const list = h('ul', { class: 'friends-list followers-list' });
  const note = h('p', { class: 'hint' });
  const el = h('section', { class: 'friends-part' }, h('h2', { text: 'Followers' }), note, list);
  const draw = (a: FriendsAnswer) => {
    clear(list);
    for (const f of a.followers) list.append(followerRow(app, f, refresh));
    const shown = a.followers.length;
    const more = a.followers_total > shown ? ` (the newest ${shown} are listed)` : '';
    setText(
      note,
      a.followers_total
        ? `${a.followers_total} ${a.followers_total === 1 ? 'player follows' : 'players follow'} you${more}.`
        : 'Nobody follows you yet.',
    );
  };
  return { el, draw };
}

/** The block list, loaded by `load` (and after each change). */
export function blockedSection(app: App, changed: () => void) {
  const list = h('ul', { class: 'friends-list blocked-list' });
  const note = h('p', { class: 'hint' });
  const el = h('section', { class: 'friends-part' }, h('h2', { text: 'Blocked' }), note, list);
  const draw = (b: BlocksAnswer) => {
    clear(list);
    for (const u of b.blocking) {
      const unblock = button('Unblock', 'unblock');
      unblock.setAttribute('aria-label', `Unblock ${u.username}`);
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
    setText(
      note,
      b.blocking.length
        ? 'They cannot challenge or follow you, and their quick messages are not shown to you.'
        : 'You block nobody.',
    );
  };
  const load = () => api.blocks().then(draw, (e) => setText(note, errorText(e)));
  return { el, draw, load };
}
