// The application shell: who the player is (an account, a guest or nobody yet), the one
// WebSocket, the header, the connection banner, messages to the player, and the hash router that
// mounts one screen at a time. Who the player is comes from the socket's `welcome` (the server
// reads the same cookies), so a visitor without a session costs no refused HTTP request: a 401 in
// the console would look like an error to someone who did nothing wrong.

import { api, ApiError, type LevelInfo } from '../net/api.ts';
import { ProtocolError, socketUrl, UrSocket } from '../net/socket.ts';
import { errorWords } from '../logic/errors.ts';
import { currentLang, t } from '../logic/i18n.ts';
import { needsIdentity, parseHash, replayHash, type Route } from '../logic/route.ts';
import type { PresetSummary, User } from '../logic/types.ts';
import { Header } from './app_header.ts';
import { afterPaint, clear, h, onClick } from './dom.ts';
import { adoptAccountLanguage, onLanguage } from './language.ts';
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
/** The longest a cold start waits for its screen's script before drawing the page's frame. */
const SHELL_WAIT_MS = 300;
const sleep = (ms: number) => new Promise<void>((r) => window.setTimeout(r, ms));

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
  private readonly header = new Header();
  private readonly connBanner = h('div', { class: 'conn-banner', role: 'status' });
  private readonly toasts = h('div', { class: 'toasts', 'aria-live': 'polite' });

  /** `views` load each screen; `ready` are those in the first script (shown without waiting). */
  constructor(
    private readonly views: Record<ScreenName, ViewLoader>,
    ready: Partial<Record<ScreenName, ViewFactory>> = {},
  ) {
    for (const [name, f] of Object.entries(ready)) this.factories.set(name as ScreenName, f);
  }

  async start(body: HTMLElement): Promise<void> {
    const first = parseHash(window.location.hash);
    // A cold start on a screen of a later script draws nothing until that script is in (at most
    // SHELL_WAIT_MS): the first frame has the screen, not the header over an empty page first
    // (a frame drawn, then the whole page laid out again, on the first screen's path).
    if (!needsIdentity(first) && !this.factories.has(first.name))
      await Promise.race([this.screen(first.name).catch(() => {}), sleep(SHELL_WAIT_MS)]);
    this.header.draw(); // in the language chosen since the app was made
    const gear = this.header.gear;
    onClick(gear, () => openSettings(gear));
    applySettings();
    unlockAudioOnGesture();
    this.setIdentity({ kind: 'none' }); // a visitor until the server says otherwise
    onClick(this.header.authLink, (e) => {
      if (this.identity.kind === 'user') {
        e.preventDefault();
        void this.logout();
      }
    });
    body.replaceChildren(this.header.el, this.main, this.connBanner, this.toasts);
    const banner = () => {
      const lost = this.socket.state === 'reconnecting';
      this.connBanner.textContent = lost ? t('app.reconnecting') : '';
      this.connBanner.classList.toggle('shown', lost);
    };
    this.socket.onState(banner);
    window.addEventListener('online', () => this.socket.kick());
    window.addEventListener('hashchange', () => this.route());
    // The screen draws itself again in the new language; its state is the server's or the app's.
    onLanguage(() => (this.header.draw(), banner(), this.route(), this.saveLanguage()));
    // The server answers /explore?rules=…&position=… with this page: the explorer is a hash route.
    if (window.location.pathname === '/explore')
      history.replaceState(null, '', `/#/explore${window.location.search}`);
    // Screens that need no identity show at once, before the socket is even opened: the header
    // follows when the server answers. The table's script loads next (Play leads there), but not
    // beside the puzzles' own script, which is all their first screen waits for.
    if (needsIdentity(first)) {
      await this.loadIdentity();
      this.route();
    } else {
      this.route();
      await afterPaint();
      if (first.name !== 'puzzles' && first.name !== 'mistakes')
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
    this.header.show(id);
    // A browser without a saved choice speaks the account's language (set on another device).
    if (id.kind === 'user') adoptAccountLanguage(id.user.language);
  }

  /** A switch of language in the settings, while logged in, is the account's from now on. */
  private saveLanguage(): void {
    if (this.identity.kind !== 'user') return;
    const user = this.identity.user;
    const lang = currentLang();
    if (user.language === lang) return;
    api.setLanguage(lang).then(
      () => (user.language = lang),
      () => {}, // kept in this browser all the same; said nowhere, it is no failure of the player's
    );
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
          h('p', { class: 'card', role: 'alert', text: `${t('app.loadFailed')} ` }),
        );
        this.main.firstElementChild!.append(h('a', { href: '', text: t('app.reload') }));
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

async function meIdentity(): Promise<Identity> {
  const { user } = await api.me();
  return { kind: 'user', user };
}

/** Words for any error a screen may meet, in the player's language (logic/errors.ts). */
export function errorText(e: unknown): string {
  if (e instanceof ApiError || e instanceof ProtocolError) return errorWords(e);
  return t('error.unknown');
}
