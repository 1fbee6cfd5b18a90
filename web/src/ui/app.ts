// The application shell: who the player is (an account, a guest or nobody yet), the one
// WebSocket, the header, the connection banner, messages to the player, and the hash router that
// mounts one screen at a time. Who the player is comes from the socket's `welcome` (the server
// reads the same cookies), so a visitor without a session costs no refused HTTP request: a 401 in
// the console would look like an error to someone who did nothing wrong.

import { api, ApiError, type LevelInfo } from '../net/api.ts';
import { ProtocolError, socketUrl, UrSocket } from '../net/socket.ts';
import './header.css';
import {
  historyHash,
  needsIdentity,
  parseHash,
  profileHash,
  replayHash,
  type Route,
} from '../logic/route.ts';
import type { PresetSummary, User } from '../logic/types.ts';
import { afterPaint, clear, h, onClick, setText, svg } from './dom.ts';
import { onLanguage } from './language.ts';
import { applySettings, openSettings } from './settings.ts';
import { unlockAudioOnGesture } from './sound.ts';

export type Identity =
  { kind: 'user'; user: User } | { kind: 'guest'; name: string } | { kind: 'none' };

export interface View {
  destroy(): void;
}

export type ViewFactory = (app: App, root: HTMLElement, route: Route) => View;
/** A screen's factory, loaded with its chunk when the screen is first shown. */
export type ViewLoader = () => Promise<ViewFactory>;
type ScreenName = Route['name'];

const GUEST_FLAG = 'ur.guest';

export class App {
  identity: Identity = { kind: 'none' };
  readonly socket = new UrSocket(socketUrl(window.location));
  private view: View | null = null;
  /** Counts routings: a screen whose chunk arrives after the player moved on is not mounted. */
  private routeSeq = 0;
  private readonly factories = new Map<ScreenName, ViewFactory>();
  private readonly loading = new Map<ScreenName, Promise<ViewFactory>>();
  private readonly idListeners = new Set<() => void>();
  private presetList: Promise<PresetSummary[]> | null = null;
  private levelList: Promise<LevelInfo[]> | null = null;
  private readonly main = h('main', { id: 'main' });
  // The visitor's name; for a logged-in player with their rating, and a link to their profile
  // (shown on every size: header.css).
  private readonly who = h('a', { class: 'who' });
  private readonly authLink = h('a', { class: 'auth-link', href: '#/login' });
  private readonly historyLink = iconLink(
    '#/leaderboard',
    'history-link',
    'My games',
    HISTORY_ICON,
    true,
  );
  private readonly accountLink = iconLink(
    '#/account',
    'account-link',
    'Account',
    ACCOUNT_ICON,
    true,
  );
  private readonly friendsLink = iconLink(
    '#/friends',
    'friends-link',
    'Friends',
    FRIENDS_ICON,
    true,
  );
  private readonly connBanner = h('div', { class: 'conn-banner', role: 'status' });
  private readonly toasts = h('div', { class: 'toasts', 'aria-live': 'polite' });
  private readonly gear = h('button', {
    type: 'button',
    class: 'gear',
    'data-action': 'settings',
    'aria-label': 'Settings',
    title: 'Settings',
    text: '⚙',
  });

  /** `views` load each screen; `ready` are those in the first script (shown without waiting). */
  constructor(
    private readonly views: Record<ScreenName, ViewLoader>,
    ready: Partial<Record<ScreenName, ViewFactory>> = {},
  ) {
    for (const [name, f] of Object.entries(ready)) this.factories.set(name as ScreenName, f);
  }

  async start(body: HTMLElement): Promise<void> {
    const header = h(
      'header',
      { class: 'top' },
      h(
        'a',
        { class: 'brand', href: '#/lobby', title: 'The Royal Game of Ur' },
        h('span', { text: '✸' }),
        ' ur',
      ),
      h(
        'nav',
        {},
        h('a', { href: '#/lobby', text: 'Lobby' }),
        iconLink('#/puzzles', 'puzzles-link', 'Puzzles', PUZZLES_ICON),
        iconLink('#/leaderboard', 'leaderboard-link', 'Leaderboard', LEADERBOARD_ICON),
        this.historyLink,
        this.friendsLink,
      ),
      h('div', { class: 'account' }, this.who, this.accountLink, this.authLink, this.gear),
    );
    onClick(this.gear, () => openSettings(this.gear));
    applySettings();
    unlockAudioOnGesture();
    this.setIdentity({ kind: 'none' }); // a visitor until the server says otherwise
    onClick(this.authLink, (e) => {
      if (this.identity.kind === 'user') {
        e.preventDefault();
        void this.logout();
      }
    });
    body.replaceChildren(header, this.main, this.connBanner, this.toasts);
    this.socket.onState((s) => {
      this.connBanner.textContent = s === 'reconnecting' ? 'Connection lost — reconnecting…' : '';
      this.connBanner.classList.toggle('shown', s === 'reconnecting');
    });
    window.addEventListener('online', () => this.socket.kick());
    window.addEventListener('hashchange', () => this.route());
    // The screen draws itself again in the new language; its state is the server's or the app's.
    onLanguage(() => this.route());
    // The server answers /explore?rules=…&position=… with this page: the explorer is a hash route.
    if (window.location.pathname === '/explore')
      history.replaceState(null, '', `/#/explore${window.location.search}`);
    // Screens that need no identity show at once, before the socket is even opened: the header
    // follows when the server answers. The table's script loads next (Play leads there).
    if (needsIdentity(parseHash(window.location.hash))) {
      await this.loadIdentity();
      this.route();
    } else {
      this.route();
      await afterPaint();
      void this.screen('table').catch(() => {}); // said when the table is opened, if it fails
      await this.loadIdentity();
    }
  }

  /**
   * Who this browser is, from the socket's welcome: an account (session cookie), a guest who
   * chose to play as one (the flag, and the guest cookie), or a visitor. Waits at most a moment
   * for the server, so the first screen never hangs on it.
   */
  private async loadIdentity(): Promise<void> {
    this.socket.connect();
    const opened = new Promise<void>((resolve) => {
      const off = this.socket.onState((s) => {
        if (s === 'open') (off(), resolve());
      });
      window.setTimeout(() => (off(), resolve()), 3000);
    });
    await opened;
    const w = this.socket.welcome;
    if (w?.user) this.setIdentity({ kind: 'user', user: w.user });
    else if (localStorage.getItem(GUEST_FLAG) === '1') {
      try {
        const g = await api.guest();
        this.setIdentity({ kind: 'guest', name: g.name });
        if (w && w.name !== g.name) this.socket.reconnect(); // the guest cookie was new
      } catch (e) {
        this.toast(errorText(e), 'warn');
      }
    }
  }

  /** A visitor who presses Play becomes a guest (a cookie), without a form. */
  async ensureIdentity(): Promise<void> {
    if (this.identity.kind !== 'none') return;
    const g = await api.guest();
    localStorage.setItem(GUEST_FLAG, '1');
    this.setIdentity(g.guest ? { kind: 'guest', name: g.name } : await meIdentity());
    this.socket.reconnect();
  }

  onIdentity(fn: () => void): () => void {
    this.idListeners.add(fn);
    return () => this.idListeners.delete(fn);
  }

  setIdentity(id: Identity): void {
    this.identity = id;
    for (const fn of this.idListeners) fn();
    if (id.kind === 'user') {
      setText(this.who, `${id.user.username} · ${id.user.rating}`);
      const n = (k: number, w: string) => `${k} ${w}${k === 1 ? '' : 's'}`;
      this.who.title = `${n(id.user.games, 'rated game')}, ${n(id.user.wins, 'win')}`;
      this.who.href = profileHash(id.user.username);
      this.who.classList.add('who-link');
      setText(this.authLink, 'Log out');
      this.historyLink.href = historyHash(id.user.username);
      this.historyLink.hidden = false;
      this.accountLink.hidden = false;
      this.friendsLink.hidden = false;
    } else {
      setText(this.who, id.kind === 'guest' ? `${id.name} (guest)` : '');
      this.who.title = '';
      setText(this.authLink, 'Log in');
      this.authLink.href = '#/login';
      this.historyLink.hidden = true;
      this.accountLink.hidden = true;
      this.friendsLink.hidden = true;
      this.who.removeAttribute('href');
      this.who.classList.remove('who-link');
    }
  }

  /** After logging in, registering or choosing to be a guest: a new socket carries the new cookie. */
  async signedIn(id: Identity, next: string | null): Promise<void> {
    if (id.kind === 'guest') localStorage.setItem(GUEST_FLAG, '1');
    else localStorage.removeItem(GUEST_FLAG);
    this.setIdentity(id);
    this.socket.reconnect();
    const target = `#${next ?? '/lobby'}`;
    if (window.location.hash === target) this.route();
    else window.location.hash = target;
  }

  async logout(): Promise<void> {
    try {
      await api.logout();
    } catch (e) {
      this.toast(errorText(e), 'warn');
      return;
    }
    localStorage.removeItem(GUEST_FLAG);
    this.setIdentity({ kind: 'none' });
    this.socket.reconnect();
    window.location.hash = '#/login';
  }

  /** Refreshes the header's rating and game count (after a game; on the lobby). */
  async refreshMe(): Promise<void> {
    if (this.identity.kind !== 'user') return;
    try {
      const { user } = await api.me();
      this.setIdentity({ kind: 'user', user });
    } catch {
      /* the header keeps the old numbers */
    }
  }

  presets(): Promise<PresetSummary[]> {
    if (!this.presetList) {
      this.presetList = api.presets().then((r) => r.presets);
      this.presetList.catch(() => (this.presetList = null));
    }
    return this.presetList;
  }

  /** The computer's levels, from the server's one list (GET /api/levels), fetched once. */
  levels(): Promise<LevelInfo[]> {
    if (!this.levelList) {
      this.levelList = api.levels().then((r) => r.levels);
      this.levelList.catch(() => (this.levelList = null));
    }
    return this.levelList;
  }

  toast(text: string, tone: 'info' | 'warn' | 'good' = 'info', ms = 5000): void {
    const t = h('div', {
      class: `toast ${tone}`,
      role: tone === 'warn' ? 'alert' : 'status',
      text,
    });
    this.toasts.append(t);
    window.setTimeout(() => t.remove(), ms);
  }

  route(): void {
    const route = parseHash(window.location.hash);
    this.view?.destroy();
    this.view = null;
    clear(this.main);
    // An error belongs to the screen it was met on: the next screen starts without it.
    for (const t of this.toasts.querySelectorAll('.toast.warn')) t.remove();
    const seq = ++this.routeSeq;
    if (needsIdentity(route) && this.identity.kind === 'none' && route.name === 'table') {
      // An invite to a game that has finished: its replay, which anyone may see, not a login.
      // The table says so (`game_over`) to anyone who may not open it (docs/protocol.md).
      const id = route.id;
      const over = (e: unknown) => e instanceof ProtocolError && e.code === 'game_over';
      this.socket
        .request('open_table', { table: id })
        .then(
          () => void this.socket.request('unwatch', { table: id }).catch(() => {}),
          (e) => over(e) && seq === this.routeSeq && history.replaceState(null, '', replayHash(id)),
        )
        .finally(() => seq === this.routeSeq && this.mountRoute(seq));
      return;
    }
    this.mountRoute(seq);
  }

  private mountRoute(seq: number): void {
    let route = parseHash(window.location.hash);
    this.main.className = `screen-${route.name}`;
    document.body.dataset.route = route.name;
    if (needsIdentity(route) && this.identity.kind === 'none') {
      const next = window.location.hash.replace(/^#/, '') || '/lobby';
      route = { name: 'login', next };
    }
    const mount = (f: ViewFactory) => {
      if (seq === this.routeSeq) this.view = f(this, this.main, route);
    };
    const ready = this.factories.get(route.name);
    if (ready) return mount(ready); // at once: no frame without the screen
    this.screen(route.name)
      .then(mount)
      .catch(() => {
        if (seq !== this.routeSeq) return;
        this.main.replaceChildren(
          h('p', { class: 'card', role: 'alert', text: 'This screen could not be loaded. ' }),
        );
        this.main.firstElementChild!.append(h('a', { href: '', text: 'Reload the page' }));
      });
  }

  /** The factory of a screen, its chunk loaded once (again after a failure). */
  private screen(name: ScreenName): Promise<ViewFactory> {
    let p = this.loading.get(name);
    if (!p) {
      p = this.views[name]().then((f) => (this.factories.set(name, f), f));
      p.catch(() => this.loading.delete(name));
      this.loading.set(name, p);
    }
    return p;
  }
}

/** The header's links that are icons on a phone (header.css), so the name keeps its room. */
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

/**
 * A header link that shows its word, or on a phone (header.css) its icon alone, with the word
 * as its accessible name either way.
 */
function iconLink(
  href: string,
  cls: string,
  label: string,
  paths: string[],
  hidden = false,
): HTMLAnchorElement {
  const icon = svg('svg', { viewBox: '0 0 20 16', width: 20, height: 16, class: 'icon' });
  icon.setAttribute('aria-hidden', 'true');
  for (const d of paths) icon.append(svg('path', { d }));
  const word = h('span', { class: 'label', text: label });
  return h('a', { href, class: `icon-link ${cls}`, 'aria-label': label, hidden }, icon, word);
}

async function meIdentity(): Promise<Identity> {
  const { user } = await api.me();
  return { kind: 'user', user };
}

/** Words for any error a screen may meet. */
export function errorText(e: unknown): string {
  if (e instanceof ApiError || e instanceof ProtocolError) return e.message;
  if (e instanceof Error) return e.message;
  return 'Something went wrong.';
}
