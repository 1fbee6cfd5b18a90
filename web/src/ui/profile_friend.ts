// Follow / Unfollow, Challenge and Block / Unblock on another player's profile, for a logged-in
// visitor (docs/server.md "Friends" and "Blocking"). The challenge controls come from the
// friends script, loaded here only when the player may be challenged now. Blocking asks first
// (a second click within 4 s): it also ends both follows.

import { api, type BlocksAnswer, type FriendsAnswer } from '../net/api.ts';
import { t } from '../logic/i18n.ts';
import { errorText, type App } from './app.ts';
import { ConfirmButton } from './confirm.ts';
import { h, onClick, setText } from './dom.ts';

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export function friendBar(app: App, name: string): HTMLElement | null {
  if (app.identity.kind !== 'user') return null;
  const follow = h('button', { type: 'button', 'data-action': 'follow' });
  const block = h('button', { type: 'button', 'data-action': 'block' });
  setText(follow, t('friends.follow'));
  setText(block, t('friends.block'));
  const state = h('span', { class: 'hint' });
  const bar = h('div', { class: 'profile-friend' }, follow, state, block);
  let following = false;
  let blocked = false;
  let challenge: HTMLElement | null = null;
  const show = (a: FriendsAnswer) => {
    const f = a.following.find((x) => same(x.username, name));
    following = f !== undefined;
    setText(follow, following ? t('friends.unfollow') : t('friends.follow'));
    follow.setAttribute('aria-pressed', String(following));
    return f;
  };
  const showBlocked = (b: BlocksAnswer) => {
    blocked = b.blocking.some((x) => same(x.username, name));
    setText(block, blocked ? t('friends.unblock') : t('friends.block'));
    block.setAttribute('aria-pressed', String(blocked));
    follow.hidden = blocked;
    if (challenge) challenge.hidden = blocked;
    setText(state, blocked ? t('friends.blockedNote') : '');
    if (blocked) show({ following: [], max: 0, followers: [], followers_total: 0 });
  };
  onClick(follow, () =>
    api.follow(name, !following).then(show, (e) => app.toast(errorText(e), 'warn')),
  );
  const confirm = new ConfirmButton(block, t('friends.blockConfirm', { name }), () => {});
  onClick(block, () => {
    const act = () =>
      api.block(name, !blocked).then(showBlocked, (e) => app.toast(errorText(e), 'warn'));
    if (blocked) void act();
    else confirm.click(() => void act());
  });
  // Whether this player is followed or blocked; one known to be offline cannot be challenged now
  // (one not followed may be: the server says if they are offline).
  Promise.all([api.friends(), api.blocks()]).then(
    async ([a, b]) => {
      const followed = show(a);
      showBlocked(b);
      if (blocked) return;
      if (followed && !followed.online) return setText(state, t('friends.offlineNow'));
      const { challengeControls } = await import('./friends_page.ts');
      challenge = challengeControls(app, name);
      bar.insertBefore(challenge, block);
    },
    () => {},
  );
  return bar;
}
