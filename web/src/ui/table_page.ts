// The table screen. It joins or opens the table, then draws every `table` message in order: the
// events animate first (dice, the piece sliding along its path, a capture going home), then the
// snapshot is drawn as it is, so the snapshot is always the truth. Its parts share one state
// object (table_state.ts): drawing (table_draw.ts), actions (table_actions.ts), the elements
// (table_view.ts), alerts, assists, hints and keys; this file joins, listens and composes.

import { t as tr } from '../logic/i18n.ts';
import { buildGeometry } from '../logic/geometry.ts';
import { replayHash, tableHash, type Route } from '../logic/route.ts';
import { rulesFor } from '../net/api.ts';
import type { MessageOf } from '../net/protocol.ts';
import { ProtocolError, type ServerMessage } from '../net/socket.ts';
import { Animator } from './animator.ts';
import { errorText, type App, type View } from './app.ts';
import { BoardView } from './board.ts';
import { DiceView } from './dice.ts';
import { bannerActions } from './rematch.ts';
import { act, playMove, wireControls } from './table_actions.ts';
import { TableAlerts } from './table_alerts.ts';
import { TableAssist } from './table_assist.ts';
import { quickChat } from './table_chat.ts';
import { display, pump, tick } from './table_draw.ts';
import { TableHint } from './table_hint.ts';
import { bindTableKeys } from './table_keys.ts';
import { joinOrOpen, openErrorText } from './table_join.ts';
import { newLogFill } from './table_log.ts';
import { actor, myDecision, showError, type TableState } from './table_state.ts';
import { openHowto } from './howto_overlay.ts';
import { TableView } from './table_view.ts';

export function mountTable(app: App, root: HTMLElement, route: Route): View {
  if (route.name !== 'table') throw new Error('mountTable needs a table route');
  const t = tableState(app, route.id, route.invite);
  root.append(t.view.page);
  wireControls(t);
  const chat = quickChat(t);
  t.view.page.append(chat.el);
  const offs = [
    app.socket.onMessage((m) => onMessage(t, m)),
    app.socket.onMessage((m) => {
      chat.onMessage(m);
      chat.refresh();
    }),
    app.socket.onState((s) => {
      if (s === 'open') void open(t);
      if (s === 'reconnecting') t.view.page.dataset.connection = 'lost';
    }),
    bindTableKeys({
      targets: () =>
        t.board && !t.animating && !t.pending && myDecision(t) ? t.board.legalTargets() : [],
      pick: (target) => t.move(target.move),
      canThrow: () => !t.view.rollButton.disabled,
      throwDice: () => void act(t, 'roll', {}),
    }),
  ];
  const timer = window.setInterval(() => tick(t), 250);
  if (app.socket.isOpen) void open(t);
  return {
    destroy() {
      t.destroyed = true;
      chat.destroy();
      t.animator?.cancel();
      window.clearInterval(timer);
      t.assist.destroy();
      t.alerts.destroy();
      t.leave?.cancel();
      t.resign?.cancel();
      for (const off of offs) off();
      if (app.socket.isOpen) app.socket.request('unwatch', { table: t.id }).catch(() => {});
    },
  };
}

/** The screen's state with its elements and helpers, before the table is known. */
function tableState(app: App, id: string, invite: string | null): TableState {
  const view = new TableView(id);
  const t: TableState = {
    app,
    id,
    invite,
    view,
    alerts: new TableAlerts(view),
    assist: new TableAssist(view.pathButton, (on) =>
      t.board?.showPath(on ? (actor(t) ?? t.you ?? 1) : null),
    ),
    hint: new TableHint(
      app.socket,
      id,
      () => ({ board: t.board, geo: t.geo }),
      (e) => showError(t, e),
    ),
    you: null,
    owner: false,
    inviteToken: null,
    spectators: 0,
    snap: null,
    geo: null,
    board: null,
    dice: null,
    animator: null,
    queue: [],
    pumping: false,
    animating: false,
    pending: false,
    lastThrow: null,
    logFill: newLogFill(),
    destroyed: false,
    opening: false,
    leave: null,
    resign: null,
    move: (m) => playMove(t, m),
  };
  view.pathButton.after(t.hint.el);
  view.onHowto = (preset) => openHowto(app, preset, view.howtoLink);
  view.afterGame = (snap) => bannerActions(app, snap, actor(t), (e) => showError(t, e));
  return t;
}

/** Joins (with the invite) or opens the table; again after every reconnect. */
async function open(t: TableState): Promise<void> {
  if (t.opening || t.destroyed) return;
  t.opening = true;
  t.view.page.dataset.connection = 'open';
  try {
    const { answer, joinError } = await joinOrOpen(t.app.socket, t.id, t.invite, () => {
      // The invite is single-use: drop it from the address so a reload opens the table.
      t.invite = null;
      history.replaceState(null, '', tableHash(t.id));
    });
    // A player of the game who opens its invite again is at the table: nothing to say.
    if (joinError && answer.you == null)
      t.app.toast(tr('board.seatFailed', { why: errorText(joinError) }), 'warn', 8000);
    await onJoined(t, answer);
  } catch (e) {
    if (e instanceof ProtocolError && e.code === 'disconnected') return; // reopened on reconnect
    if (e instanceof ProtocolError && e.code === 'game_over') return showReplay(t);
    const closed = e instanceof ProtocolError && e.code === 'table_closed';
    t.view.failed(openErrorText(e), closed ? tr('table.closedHelp') : undefined);
  } finally {
    t.opening = false;
  }
}

/**
 * A finished game whose table this visitor may not open (a private one, to anyone but its
 * players): its replay instead, which anyone may see by the game's id (docs/protocol.md).
 */
function showReplay(t: TableState): void {
  if (t.destroyed) return;
  history.replaceState(null, '', replayHash(t.id));
  t.app.route();
}

async function onJoined(t: TableState, m: MessageOf<'joined'>): Promise<void> {
  const snap = m.table;
  t.you = m.you ?? null;
  t.owner = !!m.owner;
  t.inviteToken = m.invite ?? null;
  if (typeof m.spectators === 'number') t.spectators = m.spectators;
  if (!t.geo) {
    const rules = await rulesFor(snap.rules);
    if (t.destroyed) return;
    const geo = (t.geo = buildGeometry(rules));
    t.board = new BoardView(geo);
    t.board.onPick = (target) => t.move(target.move);
    t.dice = new DiceView(geo.dice);
    t.animator = new Animator(t.board, t.dice, t.view.fx);
    t.view.attach(t.board, t.dice, geo.cols, geo.staging);
  }
  // A (re)join shows the table as it is now: drop what is queued and older; the log is written
  // again from the record (what happened while away included).
  t.logFill = newLogFill();
  t.queue = t.queue.filter((u) => u.table.version > snap.version);
  display(t, snap, [], m.clock ?? null, t.spectators, true);
  t.view.loaded();
  if (t.you !== null && snap.status !== 'finished') t.assist.seated();
  void pump(t);
}

function onMessage(t: TableState, m: ServerMessage): void {
  if (m.type === 'table_private' && m.table === t.id && t.you === null) {
    // A spectator of a table its owner made private: the server says so once, then nothing.
    t.view.failed(tr('table.error.becamePrivate'));
    return;
  }
  // Someone started or stopped watching: the count changes without a new snapshot.
  if (m.type === 'spectators' && m.table === t.id) t.view.setWatchers((t.spectators = m.count));
  if (m.type !== 'table') return;
  const snap = m.table;
  if (!snap || snap.id !== t.id) return;
  t.queue.push({
    table: snap,
    events: m.events ?? [],
    clock: m.clock ?? null,
    spectators: typeof m.spectators === 'number' ? m.spectators : null,
  });
  void pump(t);
}
