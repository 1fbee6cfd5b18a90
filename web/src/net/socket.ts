// One WebSocket to /ws (docs/protocol.md) that reconnects by itself: after a drop it retries with
// a growing delay (0.5 s up to 5 s) and tells its listeners, so that the table screen sends
// `open_table` again and resumes. request() matches an answer to its message by `re`.

import type {
  Action,
  ActionFields,
  ActionType,
  ClientMessages,
  ClientType,
  MessageOf,
  Replies,
  ServerMessage,
} from './protocol.ts';

export type { ServerMessage } from './protocol.ts';
export type Welcome = MessageOf<'welcome'>;

export type SocketState = 'connecting' | 'open' | 'reconnecting';

export class ProtocolError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly reply: MessageOf<'error'> | null,
  ) {
    super(message);
  }
}

interface Pending {
  resolve: (m: ServerMessage) => void;
  reject: (e: ProtocolError) => void;
  timer: number;
}

export class UrSocket {
  state: SocketState = 'connecting';
  welcome: Welcome | null = null;
  private ws: WebSocket | null = null;
  private nextId = 1;
  private attempt = 0;
  private retryTimer = 0;
  private pending = new Map<number, Pending>();
  private messageListeners = new Set<(m: ServerMessage) => void>();
  private stateListeners = new Set<(s: SocketState) => void>();

  constructor(private readonly url: string) {}

  connect(): void {
    window.clearTimeout(this.retryTimer);
    const ws = new WebSocket(this.url);
    this.ws = ws;
    this.setState(this.attempt === 0 ? 'connecting' : 'reconnecting');
    ws.onopen = () => {
      if (this.ws !== ws) return;
      this.request('hello', {})
        .then((w) => {
          if (this.ws !== ws) return;
          this.welcome = w;
          this.attempt = 0;
          this.setState('open');
        })
        .catch(() => ws.close());
    };
    ws.onmessage = (e) => {
      if (this.ws !== ws || typeof e.data !== 'string') return;
      let m: ServerMessage;
      try {
        // The one place a message's shape is taken on trust: the server speaks docs/protocol.md.
        m = JSON.parse(e.data) as ServerMessage;
      } catch {
        return;
      }
      this.dispatch(m);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.failPending('The connection dropped before the server answered.');
      this.scheduleRetry();
    };
  }

  /** Drops the socket and opens a new one: the identity (cookie) may have changed. */
  reconnect(): void {
    const old = this.ws;
    this.ws = null;
    this.welcome = null;
    this.failPending('Reconnecting.');
    if (old) old.close(1000, 'reconnect');
    this.attempt = 0;
    this.connect();
  }

  /** For the page to report when the browser knows it is back online. */
  kick(): void {
    if (this.state === 'reconnecting' && !this.ws) this.connect();
  }

  get isOpen(): boolean {
    return this.state === 'open';
  }

  onMessage(fn: (m: ServerMessage) => void): () => void {
    this.messageListeners.add(fn);
    return () => this.messageListeners.delete(fn);
  }

  onState(fn: (s: SocketState) => void): () => void {
    this.stateListeners.add(fn);
    return () => this.stateListeners.delete(fn);
  }

  /**
   * Sends a message and resolves with the answer, or rejects with the server's error. While the
   * socket is (re)connecting the message waits for it (up to 10 s) instead of failing at once: a
   * click right after logging in, or during a reconnect, still goes through.
   */
  request<T extends ClientType>(
    type: T,
    fields: ClientMessages[T],
    timeoutMs = 15000,
  ): Promise<MessageOf<Replies[T]>> {
    if (type !== 'hello' && this.state !== 'open')
      return this.whenOpen(Math.min(timeoutMs, 10000)).then(() =>
        this.request(type, fields, timeoutMs),
      );
    return new Promise<ServerMessage>((resolve, reject) => {
      const ws = this.ws;
      if (!ws || ws.readyState !== WebSocket.OPEN) {
        reject(
          new ProtocolError('disconnected', 'Not connected to the server; reconnecting…', null),
        );
        return;
      }
      const id = this.nextId++;
      const timer = window.setTimeout(() => {
        this.pending.delete(id);
        reject(new ProtocolError('timeout', 'The server did not answer in time.', null));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      ws.send(JSON.stringify({ v: 1, type, id, ...fields }));
      // The answer to a T is a Replies[T] (or an error, which rejects): docs/protocol.md.
    }) as Promise<MessageOf<Replies[T]>>;
  }

  /** A table action: the fields every action carries joined to the action's own. */
  act<T extends ActionType>(
    type: T,
    action: Action,
    fields: ActionFields<T>,
  ): Promise<MessageOf<Replies[T]>> {
    // Action & Omit<ClientMessages[T], keyof Action> is ClientMessages[T] for every action; the
    // compiler cannot see it through the generic T.
    return this.request(type, { ...action, ...fields } as ClientMessages[T]);
  }

  private whenOpen(ms: number): Promise<void> {
    if (this.state === 'open') return Promise.resolve();
    return new Promise((resolve, reject) => {
      const off = this.onState((s) => {
        if (s !== 'open') return;
        window.clearTimeout(timer);
        off();
        resolve();
      });
      const timer = window.setTimeout(() => {
        off();
        reject(
          new ProtocolError('disconnected', 'Not connected to the server; reconnecting…', null),
        );
      }, ms);
    });
  }

  private dispatch(m: ServerMessage): void {
    if (typeof m.re === 'number' && this.pending.has(m.re)) {
      const p = this.pending.get(m.re)!;
      this.pending.delete(m.re);
      window.clearTimeout(p.timer);
      if (m.type === 'error') p.reject(new ProtocolError(m.code, m.message, m));
      else p.resolve(m);
    }
    for (const fn of [...this.messageListeners]) fn(m);
  }

  private failPending(why: string): void {
    for (const [, p] of this.pending) {
      window.clearTimeout(p.timer);
      p.reject(new ProtocolError('disconnected', why, null));
    }
    this.pending.clear();
  }

  private scheduleRetry(): void {
    this.attempt++;
    this.setState('reconnecting');
    const delay = Math.min(5000, 500 * 2 ** Math.min(this.attempt - 1, 4));
    this.retryTimer = window.setTimeout(() => this.connect(), delay);
  }

  private setState(s: SocketState): void {
    if (this.state === s && s !== 'open') return;
    this.state = s;
    for (const fn of [...this.stateListeners]) fn(s);
  }
}

export function socketUrl(loc: Location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/ws`;
}
