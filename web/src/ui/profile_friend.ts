// Follow / Unfollow and Challenge on another player's profile, for a logged-in visitor
// (docs/server.md "Friends"). The challenge controls come from the friends script, loaded here
// only when the player is online.

import { api, type FriendsAnswer } from '../net/api.ts';
import { errorText, type App } from './app.ts';
import { h, onClick, setText } from './dom.ts';

export function friendBar(app: App, name: string): HTMLElement | null {
  if (app.identity.kind !== 'user') return null;
  const follow = h('button', { type: 'button', 'data-action': 'follow', text: 'Follow' });
  const state = h('span', { class: 'hint' });
  const bar = h('div', { class: 'profile-friend' }, follow, state);
  let following = false;
  const show = (a: FriendsAnswer) => {
    const f = a.following.find((x) => x.username.toLowerCase() === name.toLowerCase());
    following = f !== undefined;
    setText(follow, following ? 'Unfollow' : 'Follow');
    follow.setAttribute('aria-pressed', String(following));
    return f;
  };
  onClick(follow, () =>
    api.follow(name, !following).then(show, (e) => app.toast(errorText(e), 'warn')),
  );
  // Whether this player is followed; one known to be offline cannot be challenged now (one not
  // followed may be: the server says if they are offline).
  api.friends().then(
    async (a) => {
      const followed = show(a);
      if (followed && !followed.online) return setText(state, 'Offline now.');
      const { challengeControls } = await import('./friends_page.ts');
      bar.append(challengeControls(app, name));
    },
    () => {},
  );
  return bar;
}
