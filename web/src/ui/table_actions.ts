// The table screen's actions: every action carries the drawn version and a fresh action id; a
// stale_version answer redraws from the snapshot it carries. Also the table bar's buttons
// (throw, undo, resign and leave with a confirming second tap, visibility).

import { t as tr } from '../logic/i18n.ts';
import type { LegalMove } from '../logic/types.ts';
import type { ActionFields, ActionType } from '../net/protocol.ts';
import { ProtocolError } from '../net/socket.ts';
import { ConfirmButton } from './confirm.ts';
import { onClick } from './dom.ts';
import { display, updateControls } from './table_draw.ts';
import { seated, showError, type TableState } from './table_state.ts';

// Action ids are unique per player per table (docs/protocol.md): a reused id is taken for a
// retry and not applied. One prefix and one counter for the tab's life, not per screen: the
// table page is built afresh each time it is opened, and a counter restarting at 1 would give
// a resign the id of an earlier throw.
const ACTION_PREFIX = Math.random().toString(36).slice(2, 10);
let actionsSent = 0;

/** Sends an action based on the drawn version; true when the server accepted it. */
export async function act<T extends ActionType>(
  t: TableState,
  type: T,
  fields: ActionFields<T>,
): Promise<boolean> {
  if (!t.snap || t.pending) return false;
  t.pending = true;
  updateControls(t);
  t.view.setError('');
  try {
    const action = {
      table: t.id,
      version: t.snap.version,
      action_id: `${ACTION_PREFIX}-${++actionsSent}`,
    };
    await t.app.socket.act(type, action, fields);
    return true;
  } catch (e) {
    if (e instanceof ProtocolError && e.code === 'stale_version' && e.reply?.snapshot) {
      // Another tab or a lost message: draw the table as it is now and let the player decide.
      t.queue = [];
      display(t, e.reply.snapshot, [], e.reply.clock ?? null, null, true);
      const text = tr('table.changed');
      t.view.news(text, 'info');
      t.view.logLine(text, 'info');
    } else {
      showError(t, e);
    }
    return false;
  } finally {
    t.pending = false;
    updateControls(t);
  }
}

/** A move (or award choice) of the player, unless an animation or an answer is awaited. */
export function playMove(t: TableState, m: LegalMove): void {
  if (t.animating || t.pending) return;
  void act(t, 'move', { from: m.from, to: m.to, kind: m.kind });
}

export function wireControls(t: TableState): void {
  const v = t.view;
  onClick(v.rollButton, () => void act(t, 'roll', {}));
  onClick(v.undoButton, () => void act(t, 'undo', {}));
  v.toast = (text, tone) => t.app.toast(text, tone);
  v.onVisibility = (pub) =>
    t.app.socket
      .request('set_visibility', { table: t.id, public: pub })
      .catch((e) => showError(t, e));
  const resign = (t.resign = new ConfirmButton(v.resignButton, tr('table.confirmResign'), () =>
    updateControls(t),
  ));
  onClick(v.resignButton, () => resign.click(() => void act(t, 'resign', {})));
  const leave = (t.leave = new ConfirmButton(v.leaveButton, tr('table.confirmLeave'), () =>
    updateControls(t),
  ));
  onClick(v.leaveButton, () => {
    if (!seated(t)) {
      window.location.hash = '#/lobby';
      return;
    }
    if (t.snap?.status === 'finished') {
      // Leaving a finished table frees it (it closes when both players have left).
      void act(t, 'leave', {}).finally(() => (window.location.hash = '#/lobby'));
      return;
    }
    const go = async () => {
      if (await act(t, 'leave', {})) window.location.hash = '#/lobby';
    };
    if (t.snap?.status === 'playing') leave.click(() => void go());
    else void go();
  });
}
