// Keyboard play at the table: a number key moves the legal piece with that number, R throws the
// dice. Keys typed into a form field are left alone.

import type { LegalTarget } from './board.ts';

export interface KeyActions {
  /** The legal targets when the viewer may pick one now, else an empty list. */
  targets(): LegalTarget[];
  pick(t: LegalTarget): void;
  canThrow(): boolean;
  throwDice(): void;
}

export function bindTableKeys(a: KeyActions): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target as HTMLElement | null;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) return;
    if (/^[1-9]$/.test(e.key)) {
      const target = a.targets().find((x) => x.number === Number(e.key));
      if (target) {
        e.preventDefault();
        a.pick(target);
      }
    } else if ((e.key === 'r' || e.key === 'R') && a.canThrow()) {
      e.preventDefault();
      a.throwDice();
    }
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
