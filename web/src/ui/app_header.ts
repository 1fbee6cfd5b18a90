// The header of every screen: the brand, the screens' links (a word, or on a phone an icon with
// the word as its accessible name: header.css), who the player is, Log in / Log out and the
// settings gear. Its words are drawn again after a switch of language (draw), from the identity
// it was last shown.

import { t } from '../logic/i18n.ts';
import { historyHash, profileHash } from '../logic/route.ts';
import type { User } from '../logic/types.ts';
import { h, setText, svg } from './dom.ts';
import './header.css';

type Shown = { kind: 'user'; user: User } | { kind: 'guest'; name: string } | { kind: 'none' };

export class Header {
  readonly el: HTMLElement;
  readonly gear = h('button', { type: 'button', class: 'gear', 'data-action': 'settings' });
  readonly authLink = h('a', { class: 'auth-link', href: '#/login' });
  // The visitor's name; for a logged-in player with their rating, and a link to their profile
  // (shown on every size: header.css).
  private readonly who = h('a', { class: 'who' });
  private readonly brand = h('a', { class: 'brand', href: '#/lobby' }, h('span', { text: '✸' }));
  private readonly lobby = h('a', { href: '#/lobby' });
  private readonly puzzles = iconLink('#/puzzles', 'puzzles-link', PUZZLES_ICON);
  private readonly leaderboard = iconLink('#/leaderboard', 'leaderboard-link', LEADERBOARD_ICON);
  private readonly history = iconLink('#/leaderboard', 'history-link', HISTORY_ICON, true);
  private readonly friends = iconLink('#/friends', 'friends-link', FRIENDS_ICON, true);
  private readonly account = iconLink('#/account', 'account-link', ACCOUNT_ICON, true);
  private shown: Shown = { kind: 'none' };

  constructor() {
    this.brand.append(' ur');
    const nav = h('nav', {}, this.lobby, this.puzzles, this.leaderboard, this.history);
    nav.append(this.friends);
    const mine = h('div', { class: 'account' }, this.who, this.account, this.authLink, this.gear);
    this.el = h('header', { class: 'top' }, this.brand, nav, mine);
    this.draw();
  }

  /** Every word of the header in the current language. */
  draw(): void {
    this.brand.title = t('login.gameTitle');
    setText(this.lobby, t('nav.lobby'));
    label(this.puzzles, t('nav.puzzles'));
    label(this.leaderboard, t('nav.leaderboard'));
    label(this.history, t('nav.history'));
    label(this.friends, t('nav.friends'));
    label(this.account, t('nav.account'));
    setText(this.gear, '⚙');
    this.gear.title = t('settings.title');
    this.gear.setAttribute('aria-label', t('settings.title'));
    this.show(this.shown);
  }

  show(id: Shown): void {
    this.shown = id;
    const user = id.kind === 'user';
    if (id.kind === 'user') {
      const u = id.user;
      setText(this.who, `${u.username} · ${u.rating}`);
      const games = t('nav.games', { count: u.games });
      this.who.title = t('nav.record', { games, wins: t('nav.wins', { count: u.wins }) });
      this.who.href = profileHash(u.username);
      this.history.href = historyHash(u.username);
    } else {
      setText(this.who, id.kind === 'guest' ? t('nav.guest', { name: id.name }) : '');
      this.who.title = '';
      this.who.removeAttribute('href');
    }
    this.who.classList.toggle('who-link', user);
    setText(this.authLink, user ? t('nav.logout') : t('nav.login'));
    if (!user) this.authLink.href = '#/login';
    this.history.hidden = this.account.hidden = this.friends.hidden = !user;
  }
}

// The header's icons (20×16), drawn for links that show as an icon alone on a phone.
const FRIENDS_ICON = [
  'M7 1.3a3.2 3.2 0 1 1 0 6.4 3.2 3.2 0 0 1 0-6.4z',
  'M1 15c0-3.6 2.7-6 6-6s6 2.4 6 6z',
  'M14.5 2.4a2.6 2.6 0 1 1 0 5.2 2.6 2.6 0 0 1 0-5.2zM14 15c0-2.4-.8-4.3-2-5.4.7-.3 1.5-.5 2.5-.5 2.7 0 4.5 2.3 4.5 5.9z',
];
const ACCOUNT_ICON = [
  'M10 1.3a3.4 3.4 0 1 1 0 6.8 3.4 3.4 0 0 1 0-6.8z',
  'M3.5 15c0-3.7 2.9-6 6.5-6s6.5 2.3 6.5 6z',
];
// A puzzle piece.
const PUZZLES_ICON = [
  'M2 4h4.2a2.3 2.3 0 1 1 4.6 0H15v4.2a2.3 2.3 0 1 1 0 4.6V15H2v-3.6a2.3 2.3 0 1 0 0-4.6z',
];
// A list of games.
const HISTORY_ICON = ['M2 2.5h16v2.5H2z', 'M2 7h16v2.5H2z', 'M2 11.5h16V14H2z'];
const LEADERBOARD_ICON = ['M1.5 9h5v6.5h-5z', 'M7.5 3.5h5v12h-5z', 'M13.5 6.5h5v9h-5z'];

/** A header link that shows its word, or on a phone (header.css) its icon alone. */
function iconLink(href: string, cls: string, paths: string[], hidden = false): HTMLAnchorElement {
  const icon = svg('svg', { viewBox: '0 0 20 16', width: 20, height: 16, class: 'icon' });
  icon.setAttribute('aria-hidden', 'true');
  for (const d of paths) icon.append(svg('path', { d }));
  return h('a', { href, class: `icon-link ${cls}`, hidden }, icon, h('span', { class: 'label' }));
}

/** The link's word, also its accessible name when the word is hidden on a phone. */
function label(link: HTMLAnchorElement, word: string): void {
  link.setAttribute('aria-label', word);
  setText(link.querySelector('.label')!, word);
}
