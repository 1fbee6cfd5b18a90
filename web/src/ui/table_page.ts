// The table screen's controller. It joins or opens the table, then draws every `table` message in
// order: the events animate first (dice, the piece sliding along its path, a capture going home),
// then the snapshot is drawn as it is, so the snapshot is always the truth. Actions carry the drawn
// version and a fresh action id; a stale_version answer redraws from the snapshot it carries.

import { buildGeometry, type Geometry } from '../logic/geometry.ts';
import { describeEvent, logLine, planEvents } from '../logic/plan.ts';
import { tableHash, type Route } from '../logic/route.ts';
import { isSeated, seatName, shownThrow, statusText, type ShownThrow } from '../logic/status.ts';
import type { Clock, SeatNo, Snapshot, TableEvent } from '../logic/types.ts';
import { rulesFor } from '../net/api.ts';
import { ProtocolError, type ServerMessage } from '../net/socket.ts';
import { Animator } from './animator.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView, type LegalTarget } from './board.ts';
import { ConfirmButton } from './confirm.ts';
import { DiceView } from './dice.ts';
import { prefersReducedMotion, setShown, setText } from './dom.ts';
import { motionScale } from './settings.ts';
import { bannerActions } from './rematch.ts';
import { TableAlerts } from './table_alerts.ts';
import { TableAssist } from './table_assist.ts';
import { TableHint } from './table_hint.ts';
import { bindTableKeys } from './table_keys.ts';
import { joinOrOpen, openErrorText } from './table_join.ts';
import { TableView } from './table_view.ts';

interface Update {
  table: Snapshot;
  events: TableEvent[];
  clock: Clock | null;
  spectators: number | null;
}

const THROW_PHASES = new Set(['awaiting_roll', 'start', 'roll_off']);
const ACTION_PREFIX = Math.random().toString(36).slice(2, 10);

export function mountTable(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'table') throw new Error('mountTable needs a table route');
  return new TablePage(app, root, route.id, route.invite);
}

class TablePage implements View {
  private readonly view: TableView;
  private you: SeatNo | null = null;
  private owner = false;
  private inviteToken: string | null = null;
  private spectators = 0;
  private snap: Snapshot | null = null;
  private geo: Geometry | null = null;
  private board: BoardView | null = null;
  private dice: DiceView | null = null;
  private animator: Animator | null = null;
  private queue: Update[] = [];
  private pumping = false;
  private animating = false;
  private pending = false;
  private actionCount = 0;
  private readonly assist: TableAssist;
  private readonly hint: TableHint;
  private readonly alerts: TableAlerts;
  private lastThrow: ShownThrow | null = null;
  private destroyed = false;
  private opening = false;
  private leave: ConfirmButton | null = null;
  private resign: ConfirmButton | null = null;
  private readonly offs: (() => void)[] = [];
  private readonly timer: number;

  constructor(
    private readonly app: App,
    root: HTMLElement,
    private readonly id: string,
    private invite: string | null,
  ) {
    this.view = new TableView(id);
    this.alerts = new TableAlerts(this.view);
    this.assist = new TableAssist(this.view.pathButton, (on) =>
      this.board?.showPath(on ? (this.actor() ?? this.you ?? 1) : null),
    );
    this.hint = new TableHint(
      app.socket,
      id,
      () => ({ board: this.board, geo: this.geo }),
      (e) => this.showError(e),
    );
    this.view.pathButton.after(this.hint.el);
    this.view.afterGame = (snap) =>
      bannerActions(app, snap, this.actor(), (e) => this.showError(e));
    root.append(this.view.page);
    this.wireControls();
    this.offs.push(app.socket.onMessage((m) => this.onMessage(m)));
    this.offs.push(
      app.socket.onState((s) => {
        if (s === 'open') void this.open();
        if (s === 'reconnecting') this.view.page.dataset.connection = 'lost';
      }),
    );
    this.offs.push(
      bindTableKeys({
        targets: () =>
          this.board && !this.animating && !this.pending && this.myDecision()
            ? this.board.legalTargets()
            : [],
        pick: (t) => this.pick(t),
        canThrow: () => !this.view.rollButton.disabled,
        throwDice: () => void this.act('roll', {}),
      }),
    );
    this.timer = window.setInterval(() => this.tick(), 250);
    if (app.socket.isOpen) void this.open();
  }

  destroy(): void {
    this.destroyed = true;
    this.animator?.cancel();
    window.clearInterval(this.timer);
    this.assist.destroy();
    this.alerts.destroy();
    this.leave?.cancel();
    this.resign?.cancel();
    for (const off of this.offs) off();
    if (this.app.socket.isOpen)
      this.app.socket.request('unwatch', { table: this.id }).catch(() => {});
  }

  // ---- joining ---------------------------------------------------------------------------------

  private async open(): Promise<void> {
    if (this.opening || this.destroyed) return;
    this.opening = true;
    this.view.page.dataset.connection = 'open';
    try {
      const { answer, joinError } = await joinOrOpen(this.app.socket, this.id, this.invite, () => {
        // The invite is single-use: drop it from the address so a reload opens the table.
        this.invite = null;
        history.replaceState(null, '', tableHash(this.id));
      });
      if (joinError)
        this.app.toast(`Could not take the seat: ${errorText(joinError)}`, 'warn', 8000);
      await this.onJoined(answer);
    } catch (e) {
      if (e instanceof ProtocolError && e.code === 'disconnected') return; // reopened on reconnect
      this.view.failed(openErrorText(e));
    } finally {
      this.opening = false;
    }
  }

  private async onJoined(m: ServerMessage): Promise<void> {
    const snap = m.table as Snapshot;
    this.you = (m.you as SeatNo | null) ?? null;
    this.owner = !!m.owner;
    this.inviteToken = typeof m.invite === 'string' ? m.invite : null;
    if (typeof m.spectators === 'number') this.spectators = m.spectators;
    if (!this.geo) {
      const rules = await rulesFor(snap.rules);
      if (this.destroyed) return;
      const geo = (this.geo = buildGeometry(rules));
      this.board = new BoardView(geo);
      this.board.onPick = (t) => this.pick(t);
      this.dice = new DiceView(geo.dice);
      this.animator = new Animator(this.board, this.dice, this.view.fx);
      this.view.attach(this.board, this.dice, geo.cols, geo.staging);
    }
    // A (re)join shows the table as it is now: drop what is queued and older.
    this.queue = this.queue.filter((u) => u.table.version > snap.version);
    this.display(snap, [], (m.clock as Clock | null) ?? null, this.spectators, true);
    this.view.loaded();
    if (this.you !== null && snap.status !== 'finished') this.assist.seated();
    void this.pump();
  }

  // ---- messages and the draw queue -------------------------------------------------------------

  private onMessage(m: ServerMessage): void {
    if (m.type === 'table_private' && m.table === this.id && this.you === null) {
      // A spectator of a table its owner made private: the server says so once, then nothing.
      this.view.failed('This table became private: only its players can follow it now.');
      return;
    }
    // Someone started or stopped watching: the count changes without a new snapshot.
    if (m.type === 'spectators' && m.table === this.id && typeof m.count === 'number')
      this.view.setWatchers((this.spectators = m.count));
    if (m.type !== 'table') return;
    const t = m.table as Snapshot | undefined;
    if (!t || t.id !== this.id) return;
    this.queue.push({
      table: t,
      events: (m.events as TableEvent[]) ?? [],
      clock: (m.clock as Clock | null) ?? null,
      spectators: typeof m.spectators === 'number' ? m.spectators : null,
    });
    void this.pump();
  }

  private async pump(): Promise<void> {
    if (this.pumping || !this.geo) return;
    this.pumping = true;
    try {
      while (this.queue.length > 0 && !this.destroyed) {
        const u = this.queue.shift()!;
        if (this.snap && u.table.version <= this.snap.version) continue;
        const inOrder = this.snap !== null && u.table.version === this.snap.version + 1;
        if (u.events.some((e) => e.kind === 'roll' || e.kind === 'move'))
          this.view.news('', 'info');
        // Animate only what follows the drawn board, when motion is welcome and we keep up.
        const motion =
          !prefersReducedMotion() && motionScale() > 0 && !document.hidden && this.queue.length < 3;
        if (inOrder && motion) await this.animate(u.events);
        this.display(u.table, u.events, u.clock, u.spectators, !inOrder || !motion);
      }
    } finally {
      this.pumping = false;
      this.animating = false;
      this.updateControls();
    }
  }

  private async animate(events: TableEvent[]): Promise<void> {
    if (!this.geo || !this.animator || !this.snap) return;
    const steps = planEvents(this.geo, this.snap.game.pieces, events, (s) => this.nameOf(s));
    if (steps.length === 0) return;
    this.animating = true;
    this.updateControls();
    await this.animator.play(steps, this.snap.game.pieces, {
      onThrow: (value, move, seat) => (this.lastThrow = { value, move, seat }),
      onNote: (text, tone) => this.view.news(text, tone),
    });
  }

  private nameOf(seat: SeatNo): string {
    if (seat === this.you && !this.snap?.local) return 'You';
    return this.snap ? seatName(this.snap.seats, seat) : `Seat ${seat}`;
  }

  // ---- drawing a snapshot ----------------------------------------------------------------------

  private display(
    snap: Snapshot,
    events: TableEvent[],
    clock: Clock | null,
    spectators: number | null,
    fresh: boolean,
  ): void {
    const prev = this.snap;
    this.snap = snap;
    if (spectators !== null) this.spectators = spectators;
    if (snap.status !== 'waiting') this.inviteToken = null;
    const g = snap.game;
    // An undo is not animated: it is drawn as it is, dice and words included.
    if (events.some((e) => e.kind === 'undo')) fresh = true;
    this.alerts.setClock(clock);
    this.lastThrow = shownThrow(this.lastThrow, events, g, this.geo?.throws ?? null, fresh);
    if (this.lastThrow)
      this.dice?.show(this.lastThrow.value, this.lastThrow.move, this.lastThrow.seat);
    else this.dice?.clear();
    const nameOf = (s: SeatNo) => this.nameOf(s);
    for (const ev of events) {
      const line = this.geo ? logLine(this.geo, ev, nameOf) : null;
      const d = describeEvent(ev, nameOf);
      if (line) this.view.logLine(line, d?.tone ?? 'info');
      if ((fresh || !prev) && d) this.view.news(d.text, d.tone); // no animation said it
    }
    const actor = this.actor();
    if (this.board) {
      const mine =
        this.myDecision() && (g.phase === 'awaiting_move' || g.phase === 'awaiting_forfeit');
      this.board.render(g.pieces, {
        legal: mine ? g.legal_moves : [],
        actingSeat: mine ? actor : null,
      });
      // Pass and play: the path shown is that of the side to act.
      if (snap.local && this.view.pathButton.getAttribute('aria-pressed') === 'true')
        this.board.showPath(actor ?? 1);
    }
    this.hint.update(snap, this.you, this.myDecision());
    this.view.drawBar(snap, this.spectators, this.owner, this.inviteToken);
    this.view.drawSeats(snap, snap.local ? null : this.you);
    this.view.drawBanner(snap, actor);
    const squares = g.roll !== null ? (this.geo?.throws[g.roll] ?? null) : null;
    const st = statusText(snap, actor, squares);
    // Both sides are "you" at a pass-and-play table: the prompt names the side to act.
    const who = snap.local && actor ? `${seatName(snap.seats, actor)} — ` : '';
    this.view.setStatus(who + st.main, st.yourMove, snap.local ? actor : null);
    this.view.setData(snap, actor);
    if (this.you !== null) this.view.page.dataset.role = 'player';
    this.alerts.onUpdate(events, snap, actor, this.myDecision());
    this.updateControls();
    this.tick();
    this.maybeAutoMove();
    if (prev && prev.status !== 'finished' && snap.status === 'finished') void this.app.refreshMe();
    // Both players agreed to a rematch: follow it to its table (colours swapped).
    const next = events.find((e) => e.kind === 'rematch')?.table;
    if (next && this.you !== null && !snap.local) {
      this.app.toast('The rematch starts: colours swapped.', 'good');
      window.location.hash = tableHash(next);
    }
  }

  /** Whose decisions this page makes: its seat, or at a pass-and-play table the side to act. */
  private actor(): SeatNo | null {
    const s = this.snap;
    if (!s?.local || this.you === null) return this.you;
    return s.status === 'playing' ? s.game.to_act : null;
  }

  private myDecision(): boolean {
    const s = this.snap;
    const actor = this.actor();
    return !!s && s.status === 'playing' && actor !== null && s.game.to_act === actor;
  }

  private seated(): boolean {
    return isSeated(this.snap, this.you);
  }

  private updateControls(): void {
    const v = this.view;
    const s = this.snap;
    const busy = this.animating || this.pending;
    v.page.dataset.busy = busy ? '1' : '';
    const mine = this.myDecision();
    const phase = s?.game.phase ?? '';
    v.rollButton.disabled = !(mine && THROW_PHASES.has(phase) && !busy);
    v.rollButton.classList.toggle('ready', !v.rollButton.disabled);
    // Nothing to throw once the game is over (the banner offers what comes next); the button
    // keeps its space, so the board does not move.
    setShown(v.rollButton, s?.status !== 'finished' && s?.status !== 'closed');
    setText(v.rollButton, 'Throw the dice');
    this.board?.el.classList.toggle('busy', busy);
    // The boxed game's award choice: two buttons.
    const award =
      mine && phase === 'awaiting_award' && !busy
        ? s!.game.legal_moves.filter((m) => m.kind !== 'move')
        : [];
    v.drawAwards(award, (m) => void this.act('move', { from: m.from, to: m.to, kind: m.kind }));
    const seated = this.seated();
    v.undoButton.hidden = !(s?.local && s.status === 'playing');
    v.undoButton.disabled = busy || !s?.game.can_undo;
    v.resignButton.hidden = !(seated && s?.status === 'playing');
    v.resignButton.disabled = this.pending;
    if (!this.leave?.asking)
      setText(v.leaveButton, seated && s?.status !== 'finished' ? 'Leave table' : 'Back to lobby');
  }

  private tick(): void {
    this.alerts.tick(this.snap, this.actor(), this.myDecision());
  }

  /** With the setting on, a forced move plays itself (if nothing changed meanwhile). */
  private maybeAutoMove(): void {
    const mine = this.myDecision() && this.snap?.game.phase === 'awaiting_move';
    const version = this.snap?.version;
    this.assist.maybeAutoMove(
      mine ? (this.board?.legalTargets() ?? []) : [],
      () => this.snap?.version === version && !this.animating && !this.pending,
      (t) => this.pick(t),
    );
  }

  // ---- actions ---------------------------------------------------------------------------------

  private wireControls(): void {
    const v = this.view;
    v.rollButton.addEventListener('click', () => void this.act('roll', {}));
    v.undoButton.addEventListener('click', () => void this.act('undo', {}));
    v.toast = (text, tone) => this.app.toast(text, tone);
    v.onVisibility = (pub) =>
      this.app.socket
        .request('set_visibility', { table: this.id, public: pub })
        .catch((e) => this.showError(e));
    const resign = (this.resign = new ConfirmButton(v.resignButton, 'Confirm resign?', () =>
      this.updateControls(),
    ));
    v.resignButton.addEventListener('click', () => resign.click(() => void this.act('resign', {})));
    const leave = (this.leave = new ConfirmButton(v.leaveButton, 'Leave and lose?', () =>
      this.updateControls(),
    ));
    v.leaveButton.addEventListener('click', () => {
      if (!this.seated()) {
        window.location.hash = '#/lobby';
        return;
      }
      if (this.snap?.status === 'finished') {
        // Leaving a finished table frees it (it closes when both players have left).
        void this.act('leave', {}).finally(() => (window.location.hash = '#/lobby'));
        return;
      }
      const go = async () => {
        if (await this.act('leave', {})) window.location.hash = '#/lobby';
      };
      if (this.snap?.status === 'playing') leave.click(() => void go());
      else void go();
    });
  }

  private pick(t: LegalTarget): void {
    if (this.animating || this.pending) return;
    void this.act('move', { from: t.move.from, to: t.move.to, kind: t.move.kind });
  }

  /** Sends an action based on the drawn version; true when the server accepted it. */
  private async act(type: string, fields: Record<string, unknown>): Promise<boolean> {
    if (!this.snap || this.pending) return false;
    this.pending = true;
    this.updateControls();
    this.view.setError('');
    try {
      await this.app.socket.request(type, {
        table: this.id,
        version: this.snap.version,
        action_id: `${ACTION_PREFIX}-${++this.actionCount}`,
        ...fields,
      });
      return true;
    } catch (e) {
      if (e instanceof ProtocolError && e.code === 'stale_version' && e.reply?.snapshot) {
        // Another tab or a lost message: draw the table as it is now and let the player decide.
        this.queue = [];
        const clock = (e.reply.clock as Clock | null) ?? null;
        this.display(e.reply.snapshot as Snapshot, [], clock, null, true);
        const text = 'The table had changed: this is its current state.';
        this.view.news(text, 'info');
        this.view.logLine(text, 'info');
      } else {
        this.showError(e);
      }
      return false;
    } finally {
      this.pending = false;
      this.updateControls();
    }
  }

  private showError(e: unknown): void {
    const text = errorText(e);
    this.view.setError(text);
    this.app.toast(text, 'warn');
  }
}
