// Plays an animation plan (logic/plan.ts) over the board as it is drawn: the dice tumble and
// settle, a copy of the moving piece slides through the centres of the squares it passes (the
// real piece is hidden at its start meanwhile), a captured piece slides back to its Home pile.
// Afterwards the caller draws the snapshot, which is the truth; the animation only decorates.
// The animation-speed setting scales every duration (the page skips animating when it is off).

import type { Step, Tone } from '../logic/plan.ts';
import type { SeatNo, SeatPieces } from '../logic/types.ts';
import { pieceElement, type BoardView } from './board.ts';
import type { DiceView } from './dice.ts';
import { motionScale } from './settings.ts';

export const STEP_MS = 150;
export const DICE_MS = 520;

export interface AnimationHooks {
  onThrow(value: number, move: number, seat: SeatNo): void;
  onNote(text: string, tone: Tone): void;
}

export class Animator {
  private cancelled = false;

  constructor(
    private readonly board: BoardView,
    private readonly dice: DiceView,
    private readonly fx: HTMLElement,
  ) {}

  cancel(): void {
    this.cancelled = true;
  }

  /** Plays `steps` starting from `pieces` (the pieces as drawn before the change). */
  async play(steps: Step[], pieces: SeatPieces[], hooks: AnimationHooks): Promise<void> {
    const ghosts: HTMLElement[] = [];
    let moving: { key: string; seat: SeatNo } | null = null;
    try {
      for (const step of steps) {
        if (this.cancelled) break;
        if (step.kind === 'dice') {
          hooks.onThrow(step.value, step.move, step.seat);
          await this.dice.roll(step.value, step.move, step.seat, DICE_MS * motionScale());
        } else if (step.kind === 'move') {
          moving = { key: step.path[0], seat: step.seat };
          this.board.render(pieces, { legal: [], actingSeat: null, hide: moving });
          ghosts.push(await this.fly(step.seat, step.path, STEP_MS * motionScale()));
        } else if (step.kind === 'capture') {
          this.board.render(pieces, { legal: [], actingSeat: null, hide: moving });
          this.hideOne(step.from, step.seat);
          ghosts.push(await this.fly(step.seat, [step.from, step.to], STEP_MS * 2 * motionScale()));
        } else {
          hooks.onNote(step.text, step.tone);
        }
      }
    } finally {
      for (const g of ghosts) g.remove();
    }
  }

  private hideOne(key: string, seat: SeatNo): void {
    const el = this.board.locElement(key)?.querySelector(`.piece.s${seat}`);
    if (el instanceof HTMLElement) el.style.visibility = 'hidden';
  }

  /** A copy of a piece sliding through the centres of `keys`; resolves when it arrives. */
  private async fly(seat: SeatNo, keys: string[], msPerStep: number): Promise<HTMLElement> {
    const base = this.fx.getBoundingClientRect();
    const pts = keys
      .map((k) => this.board.locElement(k))
      .filter((el): el is HTMLElement => el !== null)
      .map((el) => {
        const r = (el.querySelector('.slot') ?? el).getBoundingClientRect();
        return { x: r.left + r.width / 2 - base.left, y: r.top + r.height / 2 - base.top };
      });
    const ghost = pieceElement(seat);
    ghost.classList.add('ghost');
    if (pts.length < 2) return ghost;
    ghost.style.left = `${pts[0].x}px`;
    ghost.style.top = `${pts[0].y}px`;
    this.fx.append(ghost);
    const frames = pts.map((p) => ({
      transform: `translate(-50%, -50%) translate(${p.x - pts[0].x}px, ${p.y - pts[0].y}px)`,
    }));
    const duration = msPerStep * (pts.length - 1);
    const anim = ghost.animate(frames, { duration, easing: 'ease-in-out', fill: 'forwards' });
    try {
      await anim.finished;
    } catch {
      /* cancelled: the snapshot is drawn next anyway */
    }
    return ghost;
  }
}
