// The dice: the rule set's binary tetrahedra seen from above (three faces meeting at the top tip;
// a marked tip is white), the squares the throw moves shown as a big number, and a short tumble
// before they settle on the server's throw.

import { h, svg } from './dom.ts';

function tetrahedron(): SVGSVGElement {
  const s = svg('svg', { viewBox: '0 0 100 92', class: 'die', 'aria-hidden': 'true' });
  // Corners of the base triangle and the tip (the centroid, seen from above).
  const a = '50,4',
    b = '96,86',
    c = '4,86',
    t = '50,58';
  s.append(
    svg('polygon', { points: `${a} ${b} ${t}`, class: 'face f1' }),
    svg('polygon', { points: `${b} ${c} ${t}`, class: 'face f2' }),
    svg('polygon', { points: `${c} ${a} ${t}`, class: 'face f3' }),
    svg('circle', { cx: '50', cy: '58', r: '11', class: 'tip' }),
  );
  return s;
}

export class DiceView {
  readonly el: HTMLElement;
  private readonly row: HTMLElement;
  private readonly sum: HTMLElement;
  private dice: SVGSVGElement[] = [];
  private token = 0;

  constructor(count: number) {
    this.row = h('div', { class: 'dice-row' });
    this.sum = h('div', { class: 'dice-sum', 'aria-live': 'polite', text: '–' });
    this.el = h('div', { class: 'dice' }, this.row, this.sum);
    this.setCount(count);
  }

  setCount(count: number): void {
    if (this.dice.length === count) return;
    this.dice = Array.from({ length: count }, () => tetrahedron());
    this.row.replaceChildren(...this.dice);
  }

  /** Shows a settled throw: `value` marked tips, `move` squares (null: no throw to show). */
  show(value: number | null, move: number | null, seat: number | null = null): void {
    this.token++;
    this.mark(value === null ? [] : this.spread(value));
    this.sum.textContent = move === null ? '–' : String(move);
    this.el.dataset.value = value === null ? '' : String(value);
    this.el.dataset.move = move === null ? '' : String(move);
    this.el.classList.remove('tumbling');
    this.el.classList.toggle('s1', seat === 1);
    this.el.classList.toggle('s2', seat === 2);
  }

  clear(): void {
    this.show(null, null);
  }

  /** Tumbles for about `ms`, then settles on the throw. */
  async roll(value: number, move: number, seat: number, ms: number): Promise<void> {
    const my = ++this.token;
    if (ms > 0) {
      this.el.classList.add('tumbling');
      this.sum.textContent = '…';
      const frames = Math.max(3, Math.round(ms / 90));
      for (let i = 0; i < frames; i++) {
        if (my !== this.token) return;
        this.mark(this.spread(Math.floor(Math.random() * (this.dice.length + 1))));
        this.dice.forEach(
          (d) => (d.style.transform = `rotate(${Math.round(Math.random() * 40 - 20)}deg)`),
        );
        await new Promise((r) => window.setTimeout(r, ms / frames));
      }
      this.dice.forEach((d) => (d.style.transform = ''));
    }
    if (my === this.token) this.show(value, move, seat);
  }

  /** Which dice show a marked tip: `k` of them, scattered so the row does not always fill left first. */
  private spread(k: number): boolean[] {
    const n = this.dice.length;
    const marks = new Array<boolean>(n).fill(false);
    const order = [...Array(n).keys()].sort(() => Math.random() - 0.5);
    for (let i = 0; i < Math.min(k, n); i++) marks[order[i]] = true;
    return marks;
  }

  private mark(marks: boolean[]): void {
    this.dice.forEach((d, i) => d.classList.toggle('marked', !!marks[i]));
  }
}
