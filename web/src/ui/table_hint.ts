// The hint button: in a game against the computer that is not rated, on the player's
// own move, "Hint" asks the server for the best move (`hint`, docs/protocol.md: exact from its
// solved table, else estimated by search) and outlines it on the board with its winning chance.
// The server counts every hint, and the game's review says how many each player took. The button
// is not shown in rated games or games between people (the server would refuse them anyway).

import { pct, t as tr } from '../logic/i18n.ts';
import { locationOf, type Geometry } from '../logic/geometry.ts';
import type { SeatNo, Snapshot } from '../logic/types.ts';
import type { UrSocket } from '../net/socket.ts';
import type { BoardView } from './board.ts';
import { h, onClick, setText } from './dom.ts';

const MOVE_PHASES = new Set(['awaiting_move', 'awaiting_award', 'awaiting_forfeit']);

/** Whether this seat may take hints at this table: unrated, against the computer. */
export function hintsAllowed(snap: Snapshot, you: SeatNo | null): boolean {
  return you !== null && !snap.rated && snap.seats.some((s) => s.kind === 'bot');
}

export class TableHint {
  readonly button = h('button', {
    type: 'button',
    class: 'hint-button',
    'data-action': 'hint',
    text: tr('hint.button'),
    hidden: true,
  });
  private readonly note = h('span', { class: 'hint-note', 'aria-live': 'polite' });
  readonly el = h('span', { class: 'hint-box' }, this.button, this.note);
  private shownAt = -1;
  private asking = false;

  constructor(
    private readonly socket: UrSocket,
    private readonly tableId: string,
    private readonly scene: () => { board: BoardView | null; geo: Geometry | null },
    private readonly onError: (e: unknown) => void,
  ) {
    onClick(this.button, () => void this.ask());
  }

  private you: SeatNo | null = null;
  private ready = false;

  /**
   * After every drawn snapshot: the button on the player's move. A hint shown is wiped once the
   * table moves past the version its answer carried (the hint's own broadcast may come first).
   */
  update(snap: Snapshot, you: SeatNo | null, myMove: boolean): void {
    this.you = you;
    this.button.hidden = !(hintsAllowed(snap, you) && snap.status === 'playing');
    this.ready = myMove && MOVE_PHASES.has(snap.game.phase);
    this.button.disabled = this.asking || !this.ready;
    if (this.shownAt >= 0 && snap.version > this.shownAt) this.clear();
  }

  private clear(): void {
    const board = this.scene().board;
    const scope = board?.el.closest('.table-page') ?? document;
    for (const t of scope.querySelectorAll('.hint-tag')) t.remove();
    for (const el of scope.querySelectorAll('.hint-mark'))
      el.classList.remove('hint-mark', 'mv', 'mv-best', 'mv-best-from', 'mv-best-to');
    setText(this.note, '');
    this.shownAt = -1;
  }

  /** Outlines one square of the hinted move, tagged in words (colour is not the only mark). */
  private mark(el: HTMLElement | null, end: 'from' | 'to'): void {
    if (!el) return;
    el.classList.add('hint-mark', 'mv', 'mv-best', `mv-best-${end}`);
    const text = end === 'to' ? '★ hint' : 'hint from';
    el.append(h('span', { class: 'mv-tag mv-tag-best hint-tag', 'aria-hidden': 'true', text }));
  }

  private async ask(): Promise<void> {
    if (!this.ready || this.asking || this.you === null) return;
    this.asking = true;
    this.button.disabled = true;
    try {
      const a = await this.socket.request('hint', { table: this.tableId });
      const { board, geo } = this.scene();
      this.clear();
      if (
        board &&
        geo &&
        typeof a.from === 'number' &&
        typeof a.to === 'number' &&
        a.kind === 'move'
      )
        for (const [end, index] of [
          ['from', a.from],
          ['to', a.to],
        ] as const)
          this.mark(board.locElement(locationOf(geo, this.you, index)), end);
      const what = tr(
        a.kind === 'award_yes'
          ? 'hint.take'
          : a.kind === 'award_no'
            ? 'hint.decline'
            : 'hint.outlined',
      );
      const chance = typeof a.value === 'number' ? pct(a.value) : '?';
      const words = { what, pct: `${a.estimate ? '~' : ''}${chance}`, n: String(a.hints) };
      setText(this.note, tr('hint.note', words));
      this.shownAt = typeof a.version === 'number' ? a.version : -1;
    } catch (e) {
      this.onError(e);
    } finally {
      this.asking = false;
      this.button.disabled = !this.ready;
    }
  }
}
