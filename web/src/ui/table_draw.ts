// Drawing the table: the queue of `table` messages drawn in order (the events of the next version
// animated first when motion is welcome, then the snapshot as it is: the snapshot is the truth),
// and the controls that follow from the snapshot drawn and from whether the page is busy.

import { t as tr } from '../logic/i18n.ts';
import { describeEvent, logLine, planEvents } from '../logic/plan.ts';
import { tableHash } from '../logic/route.ts';
import { seatName, shownThrow, statusText } from '../logic/status.ts';
import type { Clock, SeatNo, Snapshot, TableEvent } from '../logic/types.ts';
import { prefersReducedMotion, setShown, setText } from './dom.ts';
import { motionScale } from './settings.ts';
import { fillLog } from './table_log.ts';
import { actor, myDecision, nameOf, seated, type TableState } from './table_state.ts';

const THROW_PHASES = new Set(['awaiting_roll', 'start', 'roll_off']);

/** Draws what is queued, in order; one pump at a time. */
export async function pump(t: TableState): Promise<void> {
  if (t.pumping || !t.geo) return;
  t.pumping = true;
  try {
    while (t.queue.length > 0 && !t.destroyed) {
      const u = t.queue.shift()!;
      if (t.snap && u.table.version <= t.snap.version) continue;
      const inOrder = t.snap !== null && u.table.version === t.snap.version + 1;
      if (u.events.some((e) => e.kind === 'roll' || e.kind === 'move')) t.view.news('', 'info');
      // Animate only what follows the drawn board, when motion is welcome and we keep up.
      const motion =
        !prefersReducedMotion() && motionScale() > 0 && !document.hidden && t.queue.length < 3;
      if (inOrder && motion) await animate(t, u.events);
      display(t, u.table, u.events, u.clock, u.spectators, !inOrder || !motion);
    }
  } finally {
    t.pumping = false;
    t.animating = false;
    updateControls(t);
  }
}

async function animate(t: TableState, events: TableEvent[]): Promise<void> {
  if (!t.geo || !t.animator || !t.snap) return;
  const steps = planEvents(t.geo, t.snap.game.pieces, events, (s) => nameOf(t, s));
  if (steps.length === 0) return;
  t.animating = true;
  updateControls(t);
  await t.animator.play(steps, t.snap.game.pieces, {
    onThrow: (value, move, seat) => (t.lastThrow = { value, move, seat }),
    onNote: (text, tone) => t.view.news(text, tone),
  });
}

/** Draws `snap`; `fresh`: not animated, so the news line says what the events were. */
export function display(
  t: TableState,
  snap: Snapshot,
  events: TableEvent[],
  clock: Clock | null,
  spectators: number | null,
  fresh: boolean,
): void {
  const prev = t.snap;
  t.snap = snap;
  if (spectators !== null) t.spectators = spectators;
  if (snap.status !== 'waiting') t.inviteToken = null;
  // An undo is not animated: it is drawn as it is, dice and words included.
  if (events.some((e) => e.kind === 'undo')) fresh = true;
  t.alerts.setClock(clock);
  drawDiceAndWords(t, events, fresh, fresh || !prev);
  drawBoard(t);
  const a = actor(t);
  t.hint.update(snap, t.you, myDecision(t));
  t.view.drawBar(snap, t.spectators, t.owner, t.inviteToken);
  t.view.drawSeats(snap, snap.local ? null : t.you);
  t.view.drawBanner(snap, a);
  const g = snap.game;
  const squares = g.roll !== null ? (t.geo?.throws[g.roll] ?? null) : null;
  const st = statusText(snap, a, squares);
  // Both sides are "you" at a pass-and-play table: the prompt names the side to act.
  const who = snap.local && a ? `${seatName(snap.seats, a)} — ` : '';
  t.view.setStatus(who + st.main, st.yourMove, snap.local ? a : null);
  t.view.setData(snap, a);
  if (t.you !== null) t.view.page.dataset.role = 'player';
  t.alerts.onUpdate(events, snap, a, myDecision(t));
  updateControls(t);
  tick(t);
  fillLog(t, t.logFill);
  maybeAutoMove(t);
  if (prev && prev.status !== 'finished' && snap.status === 'finished') void t.app.refreshMe();
  // Both players agreed to a rematch: follow it to its table (colours swapped).
  const next = events.find((e) => e.kind === 'rematch')?.table;
  if (next && t.you !== null && !snap.local) {
    t.app.toast(tr('log.rematch'), 'good');
    window.location.hash = tableHash(next);
  }
}

/**
 * The dice as last thrown (`fresh`: drawn without animation), and a log line per event, with news
 * when nothing said it (`unsaid`: not animated, or the first snapshot drawn).
 */
function drawDiceAndWords(t: TableState, events: TableEvent[], fresh: boolean, unsaid: boolean) {
  const g = t.snap!.game;
  t.lastThrow = shownThrow(t.lastThrow, events, g, t.geo?.throws ?? null, fresh);
  if (t.lastThrow) t.dice?.show(t.lastThrow.value, t.lastThrow.move, t.lastThrow.seat);
  else t.dice?.clear();
  const name = (s: SeatNo) => nameOf(t, s);
  for (const ev of events) {
    const line = t.geo ? logLine(t.geo, ev, name) : null;
    const d = describeEvent(ev, name);
    if (line) t.view.logLine(line, d?.tone ?? 'info');
    if (unsaid && d) t.view.news(d.text, d.tone); // no animation said it
  }
}

function drawBoard(t: TableState): void {
  const snap = t.snap!;
  const g = snap.game;
  if (!t.board) return;
  const a = actor(t);
  const mine = myDecision(t) && (g.phase === 'awaiting_move' || g.phase === 'awaiting_forfeit');
  t.board.render(g.pieces, { legal: mine ? g.legal_moves : [], actingSeat: mine ? a : null });
  // Pass and play: the path shown is that of the side to act.
  if (snap.local && t.view.pathButton.getAttribute('aria-pressed') === 'true')
    t.board.showPath(a ?? 1);
}

export function updateControls(t: TableState): void {
  const v = t.view;
  const s = t.snap;
  const busy = t.animating || t.pending;
  v.page.dataset.busy = busy ? '1' : '';
  const mine = myDecision(t);
  const phase = s?.game.phase ?? '';
  v.rollButton.disabled = !(mine && THROW_PHASES.has(phase) && !busy);
  v.rollButton.classList.toggle('ready', !v.rollButton.disabled);
  // The button shows only while a throw is what comes next: not while a piece must be moved (the
  // prompt says which; a disabled "Throw the dice" there would only mislead) and not once the
  // game is over (the banner offers what comes next). It keeps its space, so nothing moves.
  const over = s?.status === 'finished' || s?.status === 'closed';
  setShown(v.rollButton, !over && THROW_PHASES.has(phase));
  setText(v.rollButton, tr('table.prompt.throw'));
  t.board?.el.classList.toggle('busy', busy);
  // The boxed game's award choice: two buttons.
  const award =
    mine && phase === 'awaiting_award' && !busy
      ? s!.game.legal_moves.filter((m) => m.kind !== 'move')
      : [];
  v.drawAwards(award, (m) => t.move(m));
  const isSeated = seated(t);
  v.undoButton.hidden = !(s?.local && s.status === 'playing');
  v.undoButton.disabled = busy || !s?.game.can_undo;
  v.resignButton.hidden = !(isSeated && s?.status === 'playing');
  v.resignButton.disabled = t.pending;
  if (!t.leave?.asking)
    setText(
      v.leaveButton,
      tr(isSeated && s?.status !== 'finished' ? 'board.leaveTable' : 'banner.lobby'),
    );
}

export function tick(t: TableState): void {
  t.alerts.tick(t.snap, actor(t), myDecision(t));
}

/** With the setting on, a forced move plays itself (if nothing changed meanwhile). */
function maybeAutoMove(t: TableState): void {
  const mine = myDecision(t) && t.snap?.game.phase === 'awaiting_move';
  const version = t.snap?.version;
  t.assist.maybeAutoMove(
    mine ? (t.board?.legalTargets() ?? []) : [],
    () => t.snap?.version === version && !t.animating && !t.pending,
    (target) => t.move(target.move),
  );
}
